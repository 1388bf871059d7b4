"""`servebox plan --calibrate LOG --save` keeps what a real start-up measured, and later plans of the same
model, GPU and profile use it, scaled to their flags, and say so. Real H200 logs (tests/fixtures/gpu-logs/)
and the deployment's own figures (its log lines are constructed from the digest's reported numbers:
shared/calibration/vllm_startup_cases.json, 'fp8_e5m2 KV, util 0.94, max_num_seqs 32, max_num_batched_tokens
4096, no MTP': loading 9.52 GiB, available 3.56 GiB, 205,494 tokens)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "fixtures" / "gpu-logs"
MOE = str(LOGS / "models" / "qwen3-30b-a3b")
H200 = ["--gpu-memory-gib", "139.8", "--vllm-version", "0.26.0", "--gpu-memory-utilization", "0.9"]
C04 = [MOE, *H200, "--max-model-len", "16384", "--max-num-batched-tokens", "16384", "--max-num-seqs", "1024"]


def run(*argv: str):
    """The real command line (its error handling included), in a fresh process."""
    cmd = [sys.executable, "-c", "from servebox.cli import main; main()", "plan", *argv]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def test_save_then_plan_other_flags_uses_the_calibration(tmp_path):
    """c04 (compiled, 16384 batched tokens) calibrates the plan of c05 (eager, 4096): its real log says 66.31 GiB."""
    log = str(LOGS / "c04-qwen3moe-base.log")
    code, out = run(*C04, "--calibrate", log, "--save", "--calibration-dir", str(tmp_path), "--json")
    assert code == 0, out
    saved = json.loads(Path(json.loads(out)["calibration_saved"]).read_text())
    assert (saved["activation_gib"], saved["non_torch_gib"], saved["graph_gib"]) == (3.21, 0.24, 0.64)
    assert [p.suffix for p in tmp_path.iterdir()] == [".json"]  # nothing half-written left beside it

    eager = [MOE, *H200, "--max-model-len", "16384", "--max-num-batched-tokens", "4096", "--enforce-eager"]
    code, out = run(*eager, "--calibration-dir", str(tmp_path), "--json")
    plan = json.loads(out)
    assert code == 0 and plan["calibrated_from"] == log
    assert plan["assumptions"][0].startswith("calibrated from")
    assert plan["cudagraph_estimate_gib"] == 0 and abs(plan["non_torch_gib"] - 0.24) < 1e-6
    assert abs(plan["available_kv_gib"] - 66.31) / 66.31 < 0.005
    # the same plan with no calibration estimates instead (and names no log)
    code, out = run(*eager, "--calibration-dir", str(tmp_path / "none"), "--json")
    assert "calibrated_from" not in json.loads(out)


def test_a_calibration_is_per_gpu(tmp_path):
    run(
        *C04, "--calibrate", str(LOGS / "c04-qwen3moe-base.log"), "--save", "--calibration-dir", str(tmp_path)
    )
    other = [MOE, "--gpu-memory-gib", "79.19", "--vllm-version", "0.26.0", "--max-model-len", "16384"]
    code, out = run(*other, "--calibration-dir", str(tmp_path), "--json")
    assert "calibrated_from" not in json.loads(out)


def test_save_without_calibrate_and_mismatched_flags_are_bad_input(tmp_path):
    code, out = run(*C04, "--save", "--calibration-dir", str(tmp_path))
    assert code == 2 and "--calibrate" in out and len(out.strip().splitlines()) == 1
    wrong = [a if a != "16384" else "8192" for a in C04]
    code, out = run(
        *wrong,
        "--calibrate",
        str(LOGS / "c04-qwen3moe-base.log"),
        "--save",
        "--calibration-dir",
        str(tmp_path),
    )
    assert code == 2 and "max_num_batched_tokens" in out and "Traceback" not in out
    assert not any(tmp_path.iterdir())


def test_the_deployment_log_predicts_its_mtp_configuration(tmp_path):
    """The digest's no-MTP start-up (available 3.56 GiB) calibrates its MTP-4 configuration: the digest
    reports 2.39 GiB there; uncalibrated, servebox says ~18 GiB. The log is the Volta fork's, so the plan names
    that build (its MTP drafter loads 0.77 GiB per card more than upstream's: vllm.toml [mtp_load])."""
    base = [str(ROOT / "tests/fixtures/checkpoints/qwen3.5-27b-digest-w4a4"), "--gpu", "v100-32gb"]
    base += ["--engine-profile", "1cat-vllm-1.5-volta"]
    base += [
        "--tensor-parallel-size",
        "2",
        "--gpu-memory-utilization",
        "0.94",
        "--kv-cache-dtype",
        "fp8_e5m2",
    ]
    base += ["--max-num-seqs", "32", "--max-num-batched-tokens", "4096", "--max-model-len", "65536"]
    mtp = ["--speculative-config", '{"method": "mtp", "num_speculative_tokens": 4}']
    log = str(LOGS / "digest-v100-tp2-nomtp.log")
    code, out = run(*base, "--calibrate", log, "--save", "--calibration-dir", str(tmp_path), "--json")
    assert json.loads(out)["calibration_saved"]
    code, out = run(*base, *mtp, "--calibration-dir", str(tmp_path), "--json")
    plan = json.loads(out)
    assert plan["calibrated_from"] == log
    assert abs(plan["available_kv_gib"] - 2.39) / 2.39 < 0.01
    code, out = run(*base, *mtp, "--calibration-dir", str(tmp_path / "none"), "--json")
    assert json.loads(out)["available_kv_gib"] > 10


def test_a_pre_026_log_calibrates_by_difference(tmp_path):
    """Logs without 0.26's summary give the non-KV memory as requested - loading - available. The llm-d sweep
    (shared/calibration) saw the same 58.11 GiB and 476,016 tokens at every max_model_len from 2048 to 32768."""
    base = [str(ROOT / "tests/fixtures/checkpoints/llama-3.1-8b-instruct"), "--gpu", "h100-80gb"]
    base += ["--vllm-version", "0.19.0", "--gpu-memory-utilization", "0.95"]
    log = str(ROOT / "tests/fixtures/logs/llama31-8b-h100-startup.log")
    code, out = run(
        *base, "--max-model-len", "8192", "--calibrate", log, "--save", "--calibration-dir", str(tmp_path)
    )
    assert code == 0, out
    code, out = run(*base, "--max-model-len", "32768", "--calibration-dir", str(tmp_path), "--json")
    plan = json.loads(out)
    assert plan["calibrated_from"] == log
    assert abs(plan["available_kv_gib"] - 58.11) < 0.01 and abs(plan["kv_cache_tokens"] - 476_016) <= 16
