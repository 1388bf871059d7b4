"""fresh-304: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW. A representative re-draw over the
condition spaces earlier makers defined for what surrounds the engines: hand-written systemd units checked with the
real systemd-analyze 252, servebox's own verbs, the client's side, and the engine confined as a container confines it.

Earlier maker tools of these kinds (tools/doctor_corpus_fresh2*.py whose CONDITIONS dict imports and re-runs here,
checked with `grep -l "systemd-analyze\\|servebox up\\|servebox render\\|unshare -m\\|openai SDK"` and each tool's first
lines), INCLUDED, in this order (TOOLS):
  228 systemd units, one directive wrong (18 conditions, 36 classes)
  236 systemd companion files: .socket/.path/.timer/.mount/tmpfiles.d/sysusers.d (17, 34)
  277 systemd, two settings that meet (13, 26)
  287 hardened systemd units, two hardening/resource directives (12, 24)
  289 `servebox up` with a real engine going wrong (16, 37)
  290 the client's side: openai SDK, vllm bench/chat/complete, curl (16, 33)
  293 the engine confined as a container confines it (14, 46)
  295 hardened systemd units against what an engine needs (16, 32)
  296 servebox provision / lock / fetch-model (16, 36)
  298 servebox render / check / plan (15, 39)
EXCLUDED: fresh-23 ("mistakes AROUND an engine", its files/machine/service) has no CONDITIONS dict (its draw was over
lists of another shape), so it cannot be re-run by this procedure; the process-environment tools (fresh-225, 234, 275,
276), version drift (281/282) and the engines' own option/request tools are not one of the four kinds the theme names
(units, servebox verbs, client, container); fresh-20/25 are engine-flag and model-file batches.

Procedure (fixed here and committed before any case ran): r = random.Random(2304); repeat until 11 kept:
  tool = r.choice(TOOLS); condition = r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]);
  a triple is skipped (and listed, with its reason, by --draws) if that tool's earlier batch already made its exact
  (condition, value class) -- the kept pairs of the tool's own draws() (= its *_draw*.txt "draw N" lines; the manifest
  headers were read for cases made otherwise, none found) -- or if the same triple was kept before in this draw; the
  next triple of the same stream is then taken. Nothing is redrawn afterwards; a case that cannot be made in time is
  said so in the manifest header, not replaced.
Realisation: each kept triple gets a concrete value of the maker's choosing inside its class, written (VALUES below,
with what is expected) BEFORE the case runs, on an otherwise healthy base as the earlier tool built it: systemd cases
reuse that tool's base units/drop-ins and root builder (base unit = the one the value class names, else
BASES[(k-1) % 3] for draw k), run `systemd-analyze verify --man=no --root=ROOT` (and `security --offline=yes` for the
hardening tools) as they did; servebox / client / container cases reuse the earlier tool's base spec, server command and
setup, with this batch's ports 23130-23229 (router 23130, engines 23131/23132). One engine at a time, timeouts, each
engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh304-<kind>-<slug>.log.
Read: common.md, batch.md, the ten tools above (docstrings, CONDITIONS, base builders), their *_draw*.txt and manifest
headers, tools/corpus_tools.py. Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks
internals, earlier logs. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh304.py --draws
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2304, 11
TOOLS = [228, 236, 277, 287, 289, 290, 293, 295, 296, 298]


def tool(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


def made(n: int) -> set[tuple[str, str]]:
    kept, _ = tool(n).draws()
    return set(kept)


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
        elif (n, condition, value) in kept:
            skipped.append((n, condition, value, "drawn before in this draw"))
        else:
            kept.append((n, condition, value))
    return kept, skipped


# ---- VALUES: each draw's concrete value and what is expected, written (and committed) BEFORE any case ran ----
# draw k -> (case id, concrete value, expected outcome as predicted from the sources, expected family)
VALUES = {
    1: (
        "fresh304-servebox-lock-private-wheel-direct-reference",
        "a small working venv (python3.11 -m venv; pip install requests==2.32.3 pyyaml==6.0.2, fresh-296's lock base)"
        " plus a private helper wheel acme_llm_utils-0.2.0-py3-none-any.whl (made here by hand, on no index) installed"
        " by its file path ./wheels/...whl; then `servebox lock VENV --out vllm.lock` and `cat vllm.lock`",
        "freeze.py keeps direct references out of the pins: lock exits 0 ('locked N packages') and writes the helper"
        " only as a '# excluded (direct reference, pinned by provision)' comment; nothing fails in this log (provision"
        " would later build a venv without the helper)",
        "none",
    ),
    2: (
        "fresh304-servebox-render-ttl-s-string",
        'fresh-298\'s base vLLM spec with ttl_s = "300" in the [[models]] table; `servebox render spec.toml --out out`',
        "render refuses the spec (exit 2, one line 'servebox: error: ...ttl_s...' naming the wrong type)",
        "servebox-spec-invalid",
    ),
    3: (
        "fresh304-systemd-llama-swap-cpuquota-800-no-percent-allowedcpus",
        "llama-swap.service (base k=3) with CPUQuota=800 and AllowedCPUs=0-7 after Group=; verify + security",
        "verify warns that CPUQuota=800 cannot be parsed (a percentage is required) and ignores it, exit 0",
        "systemd-bad-value",
    ),
    4: (
        "fresh304-client-openai-stream-options-without-stream-vllm",
        "openai SDK (fresh-290's 3.63.0 in a venv of this maker) chat.completions.create(model='tiny-llama',"
        " messages=..., max_tokens=32, stream_options={'include_usage': True}) with no stream=, against vLLM"
        " (fresh-290's server command, port 23131)",
        "vLLM answers 400 'Stream options can only be defined when `stream=True`.'; the SDK raises BadRequestError,"
        " exit 1; the server stays healthy",
        "request-stream-options-without-stream",
    ),
    5: (
        "fresh304-systemd-llama-server-cpuweight-20000",
        "llama-server.service (base k=5) with CPUWeight=20000 after LimitMEMLOCK= (the range is 1..10000)",
        "verify warns the CPU weight is invalid and ignores the line, exit 0",
        "systemd-bad-value",
    ),
    6: (
        "fresh304-systemd-llama-swap-limitmemlock-64m",
        "llama-swap.service (base k=6) with LimitMEMLOCK=64M in place of infinity; verify + security",
        "verify clean, security's usual exposure table: the limit parses; only a child llama-server --mlock would later"
        " fail to lock a multi-GB model (a warning at run time), which offline tools cannot show",
        "none",
    ),
    7: (
        "fresh304-servebox-up-llama-router-listen-192-0-2-10",
        'fresh-289\'s llama spec with [router] listen = "192.0.2.10:23130" (TEST-NET-1, on no interface here), engine'
        " on 23131; `servebox up spec.toml`, then one chat request to 127.0.0.1:23130",
        "the router cannot bind: [Errno 99] Cannot assign requested address (EADDRNOTAVAIL); up exits non-zero; the"
        " request is refused (nothing listens)",
        "bind-address-not-on-machine",
    ),
    8: (
        "fresh304-systemd-llama-server-cpuschedulingpolicy-round-robin",
        "llama-server.service (base k=8) with CPUSchedulingPolicy=round-robin after LimitMEMLOCK= (systemd's word is rr)",
        "verify warns it failed to parse the CPU scheduling policy and ignores it, exit 0",
        "systemd-bad-value",
    ),
    9: (
        "fresh304-servebox-up-llama-chat-template-unclosed-jinja",
        'fresh-289\'s llama spec with [models.flags] chat-template = "{{ messages[0].content"; `servebox up`, one'
        " chat request",
        "llama-server (jinja on by default in b11434) fails common_chat_verify_template at argument parsing: 'failed to"
        " apply template' and 'error: the supplied chat template is not supported', exits at once; up restarts it and"
        " gives up; the request gets an error status",
        "chat-template-invalid",
    ),
    10: (
        "fresh304-systemd-vllm-sysusers-id-column-user-name",
        "vllm.service (base k=10) with fresh-236's /etc/sysusers.d/vllm.conf line 'u vllm vllm \"vllm engine\" HOME'"
        " (the ID column holds the user name); verify, then systemd-sysusers --dry-run --root",
        "verify clean; systemd-sysusers refuses the line (it cannot parse 'vllm' as a UID) and exits non-zero",
        "sysusers-line-invalid",
    ),
    11: (
        "fresh304-client-openai-base-url-no-scheme-llama",
        "openai SDK OpenAI(base_url='127.0.0.1:23132/v1') chat.completions.create against llama-server (fresh-290's"
        " server command, port 23132)",
        "httpx refuses the URL (UnsupportedProtocol: missing 'http://' or 'https://'); the SDK retries and raises"
        " APIConnectionError: Connection error., exit 1; the server never sees a request",
        "client-base-url-without-scheme",
    ),
}

WORK = Path("/tmp/fresh304")
ROUTER, PORT_A, PORT_B = 23130, 23131, 23132
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


# ---- case makers: each reuses the earlier tool's base and runner (written before any case ran) ----


def systemd_case(k: int, n: int, condition: str, value: str) -> str:
    from doctor_corpus_fresh228 import BASES

    name, base = BASES[(k - 1) % 3]
    root = WORK / "roots" / VALUES[k][0]
    if n == 228:
        t = tool(228)
        unit, dropin, timer, extra, made_files = t.mutate(name, base, t.DROPINS[name], condition, value)
        t.build_root(root, name, unit, dropin, timer, made_files)
        return t.log_for(root, name, unit, dropin, timer, extra)
    if n == 236:
        t = tool(236)
        unit, shown, verify, extra = t.mutate(name, base, condition, value)
        t.build_root(root, name, unit, shown, condition)
        return t.log_for(root, name, unit, shown, verify, extra)
    t = tool(n)  # 287 / 295: fresh-277's root builder, verify + security
    unit, drop, shown = t.mutate(name, base, condition, value)
    t.build_root(root, name, unit, drop, shown)
    if n == 295:
        with open(root / "etc/group", "a") as groups:  # as fresh-295 did: a GPU host's device groups
            groups.write("video:x:44:\nrender:x:105:\n")
    return t.log_for(root, name, unit, drop, shown)


def private_wheel(folder: Path) -> Path:
    """acme_llm_utils-0.2.0-py3-none-any.whl, written by hand: a pure-Python wheel on no index."""
    import base64
    import hashlib
    import zipfile

    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "acme_llm_utils/__init__.py": '"""In-house prompt helpers."""\n__version__ = "0.2.0"\n',
        "acme_llm_utils-0.2.0.dist-info/METADATA": (
            "Metadata-Version: 2.1\nName: acme-llm-utils\nVersion: 0.2.0\nSummary: in-house prompt helpers\n"
        ),
        "acme_llm_utils-0.2.0.dist-info/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = ""
    for path, body in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(body.encode()).digest()).rstrip(b"=").decode()
        record += f"{path},sha256={digest},{len(body.encode())}\n"
    record += "acme_llm_utils-0.2.0.dist-info/RECORD,,\n"
    whl = folder / "acme_llm_utils-0.2.0-py3-none-any.whl"
    with zipfile.ZipFile(whl, "w") as z:
        for path, body in files.items():
            z.writestr(path, body)
        z.writestr("acme_llm_utils-0.2.0.dist-info/RECORD", record)
    return whl


def lock_case(k: int) -> str:
    import shutil
    import subprocess

    t = tool(296)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    venv = case / "vllm-venv"
    subprocess.run([t.PY311, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "requests==2.32.3", "pyyaml==6.0.2"], check=True
    )
    whl = private_wheel(case / "wheels")
    pip = str(venv / "bin" / "pip")
    rel = f"./wheels/{whl.name}"
    text, _ = t.run(f"{venv}/bin/pip install {rel}", ["sh", "-c", f"cd {case} && {pip} install {rel}"])
    out = case / "vllm.lock"
    block, _ = t.run(f"servebox lock {venv} --out {out}", t.sb(f"lock {venv} --out {out}"), timeout=900)
    text += block
    if out.exists():
        text += f"$ cat {out}\n{out.read_text()}"
    return text


def render_case(k: int) -> str:
    import shutil

    t = tool(298)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    return t.spec_case(case, t.vllm_spec(model='ttl_s = "300"\n'), t.render())


def up_case(k: int, condition: str, value: str) -> str:
    t = tool(289)
    t.WORK, t.RUN = WORK / "up", WORK / "up" / "run"
    t.ROUTER, t.PORT_A, t.PORT_B = ROUTER, PORT_A, PORT_B
    t.RUN.mkdir(parents=True, exist_ok=True)
    return t.case_maker(condition, value)()


CHAT_STREAM_OPTIONS_PY = """from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:23131/v1", api_key="sk-no-key-required")
resp = client.chat.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Hello, who are you?"}],
    max_tokens=32,
    stream_options={"include_usage": True},
)
print(resp.choices[0].message.content)
print(resp.usage)
"""

CHAT_NO_SCHEME_PY = """from openai import OpenAI

client = OpenAI(base_url="127.0.0.1:23132/v1", api_key="sk-no-key-required")
resp = client.chat.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Hello, who are you?"}],
    max_tokens=32,
)
print(resp.choices[0].message.content)
"""


def client_tool():
    """fresh-290's runner with this batch's folder, ports and client venv."""
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
    if not (t.CLIENT_VENV / "bin" / "python").exists():
        subprocess.run(["/usr/bin/python3.11", "-m", "venv", str(t.CLIENT_VENV)], check=True)
        subprocess.run([str(t.CLIENT_VENV / "bin" / "pip"), "install", "-q", "openai==3.63.0"], check=True)
    return t


def client_case(k: int) -> None:
    t = client_tool()
    cid = VALUES[k][0]
    if k == 4:
        c = t.Case(cid, "vllm", ["python chat.py"], {"chat.py": CHAT_STREAM_OPTIONS_PY}, bound=120)
        t.vllm_cases([c])
    else:
        c = t.Case(cid, "llama", ["python chat.py"], {"chat.py": CHAT_NO_SCHEME_PY}, bound=120)
        t.llama_case(c)


def make(k: int) -> None:
    import time

    kept, _ = draw()
    n, condition, value = kept[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 287, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 296:
        text = lock_case(k)
    elif n == 298:
        text = render_case(k)
    elif n == 289:
        text = up_case(k, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    else:
        raise ValueError(n)
    (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
    print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t0:.0f} s", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, skipped = draw()
        for k, (n, c, v) in enumerate(kept, 1):
            print(f"draw {k}: fresh-{n} | {c} | {v}")
        for n, c, v, why in skipped:
            print(f"skipped: fresh-{n} | {c} | {v} | {why}")
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
