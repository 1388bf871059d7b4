"""A bench run in the JSON shape `vllm bench serve --save-result` writes, so its users' scripts read it.

Keys and units follow vllm/benchmarks/serve.py (0.32): the run's setup (date, backend, label, model_id,
num_prompts, request_rate "inf" for a closed loop, burstiness, max_concurrency), the counts (completed,
failed, total_input_tokens and total_output_tokens as the server's usage reported them), throughputs
per second, and mean/median/std/p99 of ttft, tpot, itl and e2el in milliseconds. servebox's own extras
(p50/p90, answer-TTFT, the engine's /metrics) sit under one `servebox` key that vLLM's readers ignore.
One file per load level, named as vLLM names it unless --result-filename is given.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from servebox.measure.bench import BenchReport, LevelResult

BACKEND = "openai-chat"  # servebox drives /v1/chat/completions, vLLM's backend of that name
METRICS = {"ttft": "ttft_s", "tpot": "tpot_s", "itl": "itl_s", "e2el": "e2e_s"}


def _ms(value: float | None) -> float | None:
    return None if value is None else value * 1000


def level_json(report: BenchReport, level: LevelResult, date: str, label: str) -> dict[str, Any]:
    result: dict[str, Any] = {
        "date": date,
        "endpoint_type": BACKEND,
        "backend": BACKEND,
        "label": None,  # vLLM writes its --label, None unless given
        "model_id": report.model,
        "tokenizer_id": report.model,
        "num_prompts": level.requests,
        "request_rate": level.request_rate if level.request_rate else "inf",
        "burstiness": 1.0,
        "max_concurrency": level.concurrency,
        "duration": level.duration_s,
        "completed": level.requests - level.errors,
        "failed": level.errors,
        "total_input_tokens": level.prompt_tokens,
        "total_output_tokens": level.completion_tokens,
        "request_throughput": level.requests_per_s,
        "request_goodput": level.goodput_per_s,
        "output_throughput": level.output_tokens_per_s,
        "total_token_throughput": level.total_tokens_per_s,
        "latencies": level.latencies_s,
        "queue_times": level.queue_times_s,
        "max_output_tokens_per_s": level.max_output_tokens_per_s,
        "max_concurrent_requests": level.max_concurrent_requests,
        "rtfx": 0.0,  # vLLM's audio real-time factor: no audio here
    }
    for name, attr in METRICS.items():
        stats = getattr(level, attr)
        result[f"mean_{name}_ms"] = _ms(stats["mean"])
        result[f"median_{name}_ms"] = _ms(stats["p50"])
        result[f"std_{name}_ms"] = _ms(stats.get("std"))
        result[f"p99_{name}_ms"] = _ms(stats["p99"])
    result["servebox"] = {
        "url": report.url,
        "prompt_source": report.prompt_source,
        "requested_input_tokens": report.input_tokens,
        "requested_output_tokens": report.output_tokens,
        "prompt_tokens_mean": level.prompt_tokens_mean,
        "percentiles_ms": {
            name: {k: _ms(v) for k, v in getattr(level, attr).items()}
            for name, attr in {**METRICS, "ttfat": "ttfat_s"}.items()
        },
        "engine": level.engine,
        "errors": level.error_samples,
    }
    return result


def default_filename(report: BenchReport, level: LevelResult, date: str, label: str) -> str:
    """vLLM's name: {label}-{request_rate}qps[-concurrency{N}]-{model basename}-{date}.json."""
    rate = f"{level.request_rate}" if level.request_rate else "inf"
    conc = f"-concurrency{level.concurrency}" if level.concurrency is not None else ""
    return f"{label}-{rate}qps{conc}-{report.model.split('/')[-1]}-{date}.json"


def save_results(
    report: BenchReport, result_dir: Path | None, result_filename: str | None, label: str = BACKEND
) -> list[Path]:
    """Write one vLLM-shaped JSON per level; with several levels and a given name, `-cN`/`-rR` is added."""
    date = datetime.now().strftime("%Y%m%d-%H%M%S")  # vLLM's own format for `date` and file names
    directory = result_dir or Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for level in report.levels:
        name = result_filename or default_filename(report, level, date, label)
        if result_filename and len(report.levels) > 1:
            tag = f"c{level.concurrency}" if level.concurrency else f"r{level.request_rate}"
            name = f"{Path(name).stem}-{tag}{Path(name).suffix or '.json'}"
        path = directory / name
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(json.dumps(level_json(report, level, date, label)))
        tmp.replace(path)
        written.append(path)
    return written
