"""fresh-488: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 22. fresh-476's procedure
(itself fresh-464's, 451's, 446's and 437's) repeated exactly with seed 2488, N = 10; fresh-476's kept draws join the
already-made set. Ports 26780-26789 (router 26780, engines 26781 / 26782), work dir /tmp/fresh488.

IMPORTED, not copied (batch.md step 2): tools/doctor_corpus_fresh476.py (F476) and through it fresh-304's TOOLS, tool()
and made(), and every earlier kept draw (F304 ... F464, F476 draw(), imported unchanged; functools.cache as fresh-476
already wraps them, speed only). The case makers are F476's (systemd_case, up_case, client_tool/client_case,
provision_case) called with F476's module globals re-pointed at this batch (WORK, ROUTER, PORT_A, PORT_B, VALUES, KEY).
Parametrised here because F476 bakes them into a function (F476's file is NOT edited): F476.draw() holds its seed,
N and the already-made dict as locals / module constants, so draw() here is that same loop with fresh-476's kept
triples added to the already-made dict ('kept by fresh-476'); F476.client_case picks its branch by draw number
(k == 1, 9), so client_case here maps this batch's draw numbers to F476's branches by condition.
No other batch of this theme is on main at 60362538 after fresh-476 (batch header first lines checked for
'AROUND THE ENGINES': fresh-464 and fresh-476 the last ones).
Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh488_draw.txt, before any case
ran): r = random.Random(2488); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew when its
(condition, value class) was made by that tool's own batch, when fresh-304 ... 464 or 476 kept it, or when it repeats
a triple kept here. `--draws` is run twice with PYTHONHASHSEED=0 and the outputs compared (cmp) before it is committed.
Nothing is redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Task rule (as fresh-476): no log pastes `servebox up`'s INCIDENT lines or incidents.jsonl (F476.up_case drops them).
Read: common.md, batch.md, the brief, fresh-476's header (to the lead's measurement lines), its first [[case]]s,
tools/doctor_corpus_fresh476.py (whole) and its _draw.txt, the earlier makers named in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh488.py --draws | --values | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh476 as F476  # noqa: E402

SEED, N = 2488, 10
TOOLS, tool, made = F476.TOOLS, F476.tool, F476.made
EARLIER = [
    "F304", "F311", "F321", "F325", "F335", "F350", "F355", "F363", "F369", "F374",
    "F388", "F404", "F407", "F414", "F422", "F433", "F437", "F446", "F451", "F464",
]  # fmt: skip


def draw():
    """F476.draw()'s loop with SEED, N here and fresh-476's own kept triples in the already-made dict."""
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    before = {f"fresh-{m[1:]}": set(getattr(F476, m).draw()[0]) for m in EARLIER}
    before["fresh-476"] = set(F476.draw()[0])
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    left = {(n, c, v) for n in TOOLS for c, vs in tool(n).CONDITIONS.items() for v in vs}
    left = {t for t in left if (t[1], t[2]) not in earlier[t[0]] and not any(t in s for s in before.values())}
    # the loop below would never end with too few left (fresh-528 met it): add classes first (batch.md, pool_after)
    if len(left) < N:
        raise SystemExit(f"draw: only {len(left)} undrawn (tool, condition, class) triples left for N={N}")
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        triple = (n, condition, value)
        by = [b for b, s in before.items() if triple in s]
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
        elif by:
            skipped.append((n, condition, value, f"kept by {by[0]}"))
        elif triple in kept:
            skipped.append((n, condition, value, "drawn before in this draw"))
        else:
            kept.append(triple)
    return kept, skipped


WORK = Path("/tmp/fresh488")
ROUTER, PORT_A, PORT_B = 26780, 26781, 26782
OUT = F476.OUT
KEY = "sk-fresh488-local"

# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh488-servebox-render-out-the-spec-file-itself",
        "fresh-298's base vLLM spec (spec.toml: [host] gpu1 l4-24gb, [router] listen 127.0.0.1:8080, model qwen = the"
        " bundled qwen2.5-7b-instruct fixture, port 8001, venv .venv-vllm, max-model-len 8192); `servebox render"
        " spec.toml --out spec.toml` (fresh-298's spec_case and runner)",
        "servebox/deploy/render.py's _previous_output: --out exists and is not a directory: an error naming"
        " .../spec.toml (--out) 'exists and is not a directory (a file or a device): servebox writes a directory',"
        " non-zero exit (2 likely), the spec left as it was",
        "servebox-spec-invalid (servebox refused its input; the fix names the field --out)",
    ),
    2: (
        "fresh488-client-vllm-bench-base-url-v1-model-tokenizer",
        "fresh-290's vLLM server (tiny Llama, --served-model-name tiny-llama, --max-model-len 512 --enforce-eager,"
        " port 26781); `vllm bench serve --dataset-name random --num-prompts 10 --backend vllm --base-url"
        " http://127.0.0.1:26781/v1 --model tiny-llama --tokenizer /tmp/fresh488/client/tiny --random-input-len 64"
        " --random-output-len 32` (fresh-290's vllm_cases / run_client; Ctrl-C 30 s after the ready check began,"
        " as fresh-464's bench case)",
        "bench posts to http://127.0.0.1:26781/v1/v1/completions: its ready check gets 404 every 5 s ('Endpoint is"
        " not ready. Error=...Not Found' warnings under 'Waiting for endpoint to become up in 600 seconds'); the"
        " user's Ctrl-C ends it with a KeyboardInterrupt traceback (exit 130 or 1); the server's log shows"
        " 'POST /v1/v1/completions HTTP/1.1\" 404 Not Found' lines",
        "client-base-url-v1-doubled",
    ),
    3: (
        "fresh488-systemd-llama-swap-restrictaddressfamilies-unix-inet",
        "llama-swap.service (base k=3: BASES[2], fresh-228's BASES[(k-1) % 3]) with"
        " RestrictAddressFamilies=AF_UNIX AF_INET (fresh-295's mutate); verify and security --offline",
        "the line parses: verify clean (exit 0), security's table marks RestrictAddressFamilies= rows; nothing fails"
        " offline (llama-swap / an engine on 127.0.0.1 over IPv4 would run)",
        "none (a clean offline verify, fresh-295's rule)",
    ),
    4: (
        "fresh488-systemd-jobrunningtimeoutsec-above-jobtimeoutsec",
        "BASES[0] (vllm.service) with JobTimeoutSec=10min in the unit and override.conf's [Unit]"
        " JobRunningTimeoutSec=1h (fresh-277's mutate, build_root, log_for); systemd-analyze verify",
        "systemd 252's unit.c warns 'JobRunningTimeoutSec= is greater than JobTimeoutSec=, it has no effect.'"
        " (or close words) for vllm.service; verify exit 0 (a warning only)",
        "systemd-setting-has-no-effect (its fix names this pair)",
    ),
    5: (
        "fresh488-up-llama-env-llama-arg-threads-two",
        "fresh-289's `servebox up spec.toml` with llama-server (tiny f32 GGUF, flags ctx-size 2048, env"
        " LLAMA_ARG_THREADS = 'two'; engine 26781, router 26780); one chat (fresh-476's up_case, half clock)",
        "llama-server exits 1 at argument parsing with 'error while handling environment variable"
        " \"LLAMA_ARG_THREADS\": stoi' (in the engine's own log, not on up's console); servebox restarts it and gives"
        " up (FAILED, not restarting); the chat is refused 503 by the router; up's console (INCIDENT lines dropped)"
        " may hold none of llama-server's words",
        "llamacpp-invalid-argument (its fix: a LLAMA_ARG_* number takes only digits)",
    ),
    6: (
        "fresh488-systemd-llama-swap-conditionpathexists-gguf-case",
        "llama-swap.service (base k=6: BASES[2]) with ConditionPathExists=/opt/models/qwen2.5-7b-instruct-q4_k_m.gguf"
        " while the root holds /opt/models/Qwen2.5-7B-Instruct-Q4_K_M.gguf (fresh-228's mutate); verify and"
        " `systemd-analyze condition` (fresh-228's log_for)",
        "verify clean (conditions are not checked by verify), exit 0; `systemd-analyze condition"
        " ConditionPathExists=...` says the condition failed ('Conditions not met.' or like), exit 1",
        "systemd-condition-not-met",
    ),
    7: (
        "fresh488-up-llama-lora-missing-engine-log",
        "fresh-289's `servebox up spec.toml` with llama-server (tiny f32 GGUF, flags ctx-size 2048, lora ="
        " /srv/lora/adapter.gguf, absent); one chat; the value's paste is incidents.jsonl, which the task rule"
        " forbids: the log is instead `$ cat .servebox/logs/tiny.log` (the engine's own log, whole)",
        "llama-server cannot open the adapter: 'failed to open ... /srv/lora/adapter.gguf' / 'failed to apply lora"
        " adapter' (or close words), exits 1; each restart appends the same lines to tiny.log until servebox gives"
        " up",
        "llamacpp-model-file-missing (the --lora file does not exist, as the lead adjudicated fresh-417 draw 1);"
        " llamacpp-lora-load-failed is the close neighbour",
    ),
    8: (
        "fresh488-servebox-render-router-listen-localhost-no-port",
        "fresh-298's base vLLM spec with [router] listen = 'localhost'; `servebox render spec.toml --out out`",
        "spec_values.parse_listen: \"must be HOST:PORT, [IPv6]:PORT or :PORT, got 'localhost'\" under the router's"
        " listen field; non-zero exit; nothing written",
        "servebox-spec-invalid",
    ),
    9: (
        "fresh488-systemd-llama-swap-readwritepaths-relative-cache",
        "llama-swap.service (base k=9: BASES[2]) with ReadWritePaths=./cache (fresh-228's mutate);"
        " systemd-analyze verify",
        "'ReadWritePaths= path is not absolute, ignoring: ./cache' (as fresh-476 draw 6 saw for $HF_HOME), exit 0",
        "systemd-bad-value (its fix: paths absolute)",
    ),
    10: (
        "fresh488-systemd-path-unit-pathchanged-relative",
        "BASES[0] (vllm.service) and its model-watch vllm-models.path with PathChanged=models (fresh-236's mutate);"
        " systemd-analyze verify",
        "systemd refuses the relative path ('Path models is not absolute, ignoring' or like) and the .path unit is"
        " then left with nothing to watch ('Path unit lacks path setting. Refusing.'), verify exit 1",
        "systemd-bad-value (its cause names a .path with no path to watch)",
    ),
}


def point_f476() -> None:
    """F476's case makers read these module globals at call time: point them at this batch."""
    F476.WORK, F476.VALUES, F476.KEY = WORK, VALUES, KEY
    F476.ROUTER, F476.PORT_A, F476.PORT_B = ROUTER, PORT_A, PORT_B


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    """F476's systemd_case for 228 / 287 / 295; fresh-433's (F433, as fresh-422's) for 236 / 277."""
    point_f476()
    if n in (228, 287, 295):
        return F476.systemd_case(k, n, condition, value)
    F476.F433.WORK, F476.F433.VALUES = WORK, VALUES
    return F476.F433.systemd_case(k, n, condition, value)


def render_case(k: int) -> str:
    """fresh-298's base vLLM spec, spec_case and runner in a fresh case folder (as fresh-464's servebox_298_case)."""
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    t.WORK.mkdir(parents=True, exist_ok=True)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    if k == 1:
        return t.spec_case(case, t.vllm_spec(), ["servebox", "render", "spec.toml", "--out", "spec.toml"])
    spec = t.vllm_spec().replace('listen = "127.0.0.1:8080"', 'listen = "localhost"')
    assert 'listen = "localhost"' in spec
    return t.spec_case(case, spec, t.render())


def bench_case(k: int) -> None:
    """fresh-290's vllm_cases (its server argv, runner, shim) with one bench Case; its /health wait bound raised to
    1200 s (common.md: a vLLM start on this loaded machine), Ctrl-C 30 s after the ready check began."""
    point_f476()
    t = F476.client_tool()
    tiny = t.tiny_model(t.WORK)
    t.vllm_shim()
    healthy = t.healthy
    t.healthy = lambda port, proc, bound: healthy(port, proc, max(bound, 1200))
    line = (
        f"{t.BENCH} --backend vllm --base-url http://127.0.0.1:{PORT_A}/v1 --model tiny-llama"
        f" --tokenizer {tiny} --random-input-len 64 --random-output-len 32"
    )
    t.vllm_cases([t.Case(VALUES[k][0], "vllm", [line], ctrl_c=30)])


def up_case(k: int, condition: str, value: str) -> str:
    """F476's up_case (fresh-289's case_maker, half clock, INCIDENT lines dropped). Where the value pastes
    incidents.jsonl (draw 7), the task rule forbids it: the engine's own log is pasted in its place."""
    point_f476()
    text = F476.up_case(k, condition, value)
    if "(incidents.jsonl pasted)" not in value:
        return text
    log = WORK / "up" / "run" / VALUES[k][0] / ".servebox" / "logs" / "tiny.log"
    return "$ cat .servebox/logs/tiny.log\n" + (log.read_text(errors="replace") if log.exists() else "")


DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh488_draw.txt"
ORDER = [10, 8, 1, 6, 9, 4, 7, 5, 2, 3]  # expected failures first (quick ones, then engines), healthy last


def kept_draws() -> list[tuple[int, str, str]]:
    """The committed draw file's kept lines (its `--draws` output, run twice and compared before it was committed)."""
    kept = []
    for line in DRAW_FILE.read_text().splitlines():
        if line.startswith("draw "):
            n, c, v = line.split(": ", 1)[1].split(" | ")
            kept.append((int(n.removeprefix("fresh-")), c, v))
    assert len(kept) == N
    return kept


def make(k: int) -> None:
    import time

    n, condition, value = kept_draws()[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    print(f"draw {k} ({cid}) starts {time.strftime('%H:%M:%S', time.gmtime())} UTC", flush=True)
    if n in (228, 236, 277, 287, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        bench_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    elif n == 298:
        text = render_case(k)
    elif n == 289:
        text = up_case(k, condition, value)
    else:
        raise SystemExit(f"draw {k} ({cid}): no maker")
    (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
    print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t0:.0f} s", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, skipped = draw()
        for k, (n, c, v) in enumerate(kept, 1):
            print(f"draw {k}: fresh-{n} | {c} | {v}")
        for n, c, v, why in skipped:
            print(f"drawn anew: fresh-{n} | {c} | {v} | {why}")
        return
    if sys.argv[1:2] == ["--values"]:
        for k, (cid, value, outcome, expected) in VALUES.items():
            print(f"draw {k}: {cid}\n  value: {value}\n  expect: {outcome}\n  expected: {expected}")
        return
    if not sys.argv[1:]:
        raise SystemExit(__doc__)
    for k in [int(a) for a in sys.argv[1:]]:
        make(k)


if __name__ == "__main__":
    main()
