"""Does `servebox check --engine-profile vllm-0.26 --gpu h100-80gb` say error exactly where the real vLLM 0.26.0
refused a checkpoint on an H100 for a capability / quantization reason?

Why: the vllm-0.26 profile was read from the wheel's source; the corpus holds what the real engine did with drawn
checkpoint configs on one H100 80GB (SM90), vLLM 0.26.0, torch 2.11+cu130: the "will this checkpoint load on this
GPU" batches fresh-319, fresh-359, fresh-379 and fresh-393 (their manifest headers say so). Each batch's draw tool
writes the cases' model folders (`tools/gpu_freshNNN_draw.py --models DIR`: config.json only, the weights were dummy
on the GPU too) and its cases file holds each server's argument list; the manifest's `expected` says what stopped it.

The real outcome, from the manifest's expected id (the maker's reading of the log):
  quant  : refused for a capability / quantization reason (QUANT_IDS below);
  other  : refused for another reason (flashinfer not installed, a quantization package missing: the environment);
  healthy: served (expected "none").
check's outcome: any finding of severity error (metadata only, as the folders are). Every real run passed
--load-format dummy (no weight file read) and --skip-tokenizer-init: check reads both (no-weights is then an info). A case agrees when check errs
exactly on the quant refusals: an error on a healthy or other-reason case disagrees, as does silence on a quant one.

Usage: PYTHONPATH=$PWD .venv/bin/python benchmarks/check_vs_h100_026.py [--json]

Measured (prof026, stop 48, on this branch's servebox; 48 cases): all 36 of 48 agree. prof032 (after reading ModelOpt overrides per release and --load-format dummy): 37 of 48, healthy 21 of 21 (the
NVFP4 + --quantization fp8 case now agrees), quant 7 of 18 and other 9 of 9 as before. Before, quant refusals 7 of 18: check
errs on the 7 --quantization / config conflicts (quantization-flag) and is silent on 11 refusals no rule models
(a 3-value weight_block_size, widths not a multiple of the fp8 block (2), ModelOpt W4A8_AWQ and bitsandbytes with a
bfloat16 storage dtype (3), GPTQ sym false, float32 with W4A16, fp8_e5m2 KV (2: TRITON_ATTN's forward assert on CUDA,
an fp8 checkpoint's KV), --quantization awq on an unquantized model). Healthy 20 of 21: the one false error is
fresh379-vllm-llama-nvfp4-quantization-fp8 (0.26.0 overrode --quantization fp8 with modelopt_fp4 and served; check's
quantization-flag data, vllm.toml [quantization_flag], says refused). Other refusals 9 of 9 (check silent, rightly).
No case turns on a compute-capability gate: SM90 passes every gate the profile holds (the largest is W4A8's 90).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BATCHES = ("fresh-319", "fresh-359", "fresh-379", "fresh-393")
QUANT_IDS = {
    "checkpoint-quant-scheme-unsupported",
    "checkpoint-quant-config-incomplete",
    "quantization-config-missing",
    "quantization-mismatch",
    "dtype-unsupported-by-quantization",
    "kv-cache-dtype-unsupported-on-gpu",
    "fp8-e5m2-kv-with-fp8-checkpoint",
    "quantized-input-not-aligned",
}
OTHER_IDS = {"flashinfer-missing-or-old", "quant-package-missing"}
IGNORED: set[str] = set()  # was {"no-weights"} until check read --load-format dummy (prof032)


def real_outcome(expected: str) -> str:
    if expected == "none":
        return "healthy"
    if expected in QUANT_IDS:
        return "quant"
    if expected in OTHER_IDS:
        return "other"
    raise ValueError(f"unclassified expected id {expected!r}: add it to QUANT_IDS or OTHER_IDS")


def _check(folder: Path, argv: list[str]):
    from servebox.check import load_engine_rules, run_check
    from servebox.checkpoint.facts import load_checkpoint
    from servebox.engines.vllm.flags import parse_flags
    from servebox.errors import InputError
    from servebox.hardware import get_gpu

    flags, rest = parse_flags(argv)
    try:
        ckpt = load_checkpoint(str(folder))
    except InputError as exc:  # servebox refuses the config itself: that is check's error
        return [f"input: {exc}"]
    report = run_check(ckpt, flags, get_gpu("h100-80gb"), load_engine_rules("vllm-0.26"), rest, True, False)
    return [
        f"{f.rule}: {f.message[:110]}"
        for f in report.findings
        if f.severity == "error" and f.rule not in IGNORED
    ]


def cases(models: Path) -> list[dict]:
    manifest = tomllib.loads((REPO / "tests/fixtures/doctor-corpus/manifest.toml").read_text())
    out = []
    for batch in BATCHES:
        n = batch.split("-")[1]
        subprocess.run(
            [sys.executable, f"tools/gpu_fresh{n}_draw.py", "--models", str(models)],
            cwd=REPO,
            check=True,
            capture_output=True,
        )
        drawn = json.loads((REPO / f"tools/gpu-fresh{n}-cases.json").read_text())["cases"]
        for c in (c for c in manifest["case"] if c.get("batch") == batch):
            draw = int(re.match(rf"{batch} draw (\d+)", c["how"]).group(1))
            args = drawn[f"e{draw:02d}"]["args"]
            folder = models / Path(args[0]).name
            argv = args[1:]
            assert "dummy" in argv, f"{c['file']}: not a --load-format dummy run"
            out.append(
                {"batch": batch, "log": c["file"], "expected": c["expected"], "folder": folder, "argv": argv}
            )
    return out


def main(as_json: bool) -> int:
    rows = []
    with tempfile.TemporaryDirectory(prefix="check026-") as tmp:
        for c in cases(Path(tmp)):
            errs = _check(c["folder"], c["argv"])
            real = real_outcome(c["expected"])
            agree = bool(errs) == (real == "quant")
            rows.append({**c, "folder": c["folder"].name, "real": real, "check_errors": errs, "agree": agree})
    if as_json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            mark = "agree   " if r["agree"] else "DISAGREE"
            said = "; ".join(r["check_errors"]) or "no error"
            print(f"{mark} {r['real']:7} {r['expected']:38} {r['log']}\n         check: {said}")
        for kind in ("quant", "healthy", "other"):
            part = [r for r in rows if r["real"] == kind]
            print(f"{kind:7}: {sum(r['agree'] for r in part)} of {len(part)} agree")
        print(f"all    : {sum(r['agree'] for r in rows)} of {len(rows)} agree")
    return 0


if __name__ == "__main__":
    if importlib.util.find_spec("servebox") is None:
        sys.path.insert(0, str(REPO))
    sys.exit(main("--json" in sys.argv[1:]))
