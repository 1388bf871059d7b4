"""`servebox bench` and `servebox eval`: throughput, latency and answer quality of a live server."""

from __future__ import annotations

from pathlib import Path

import typer

from servebox.cli.app import JSON_OPTION, api_base, app, emit_json, err, out
from servebox.cli.dirs import usable_directory
from servebox.errors import InputError
from servebox.measure import bench_defaults as default


def _bench_compare(files: list[str], html_path: Path | None, as_json: bool) -> None:
    from servebox.report.bench_compare import compare_runs, load_run, show_comparison, write_compare_html

    if len(files) != 2:
        raise InputError("--compare", None, "give exactly two result files: bench --compare A.json B.json")
    runs = [load_run(Path(f)) for f in files]
    if html_path:
        write_compare_html(runs, html_path)
    table = compare_runs(runs)
    emit_json(table) if as_json else show_comparison(table, out)


@app.command(context_settings={"allow_extra_args": True})
def bench(
    ctx: typer.Context,
    url: str = typer.Argument(None, help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1."),
    base_url: str = typer.Option(None, "--base-url", help="The server, as vllm bench serve names it."),
    model: str = typer.Option(None, "--model", help="The model name to request."),
    concurrency: int = typer.Option(
        None, "--max-concurrency", "--concurrency", help="Requests in flight (with --request-rate: a cap)."
    ),
    sweep: int = typer.Option(
        None,
        "--sweep",
        help="Concurrency sweep 1, 2, 4, ... up to this, stopping when throughput stops growing.",
    ),
    rate: float = typer.Option(
        None,
        "--request-rate",
        "--rate",
        help="Poisson arrivals at this many requests per second (inf: none).",
    ),
    requests: int = typer.Option(
        default.REQUESTS, "--num-prompts", "--requests", help="Requests per load level."
    ),
    input_tokens: int = typer.Option(default.INPUT_TOKENS, "--random-input-len", "--input-tokens"),
    output_tokens: int = typer.Option(default.OUTPUT_TOKENS, "--random-output-len", "--output-tokens"),
    prompts: Path = typer.Option(
        None, "--prompts", help="JSONL file of {'prompt': ...} instead of synthetic prompts."
    ),
    slo_ttft_ms: float = typer.Option(None, "--slo-ttft-ms"),
    slo_tpot_ms: float = typer.Option(None, "--slo-tpot-ms"),
    api_key: str = typer.Option(None, "--api-key", envvar="OPENAI_API_KEY"),
    save_result: bool = typer.Option(
        False, "--save-result", help="Write the results as vllm bench serve --save-result does."
    ),
    result_dir: Path = typer.Option(None, "--result-dir", help="Directory for --save-result files."),
    result_filename: str = typer.Option(None, "--result-filename", help="File name for --save-result."),
    html_path: Path = typer.Option(
        None, "--html", help="Write an HTML report with latency and throughput charts."
    ),
    compare: bool = typer.Option(
        False, "--compare", help="bench --compare A.json B.json [--html F]: two saved runs side by side."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Throughput and latency through the client path (TTFT, TPOT, ITL, e2e, goodput), with the engine's /metrics.

    Takes vllm bench serve's flag names (--base-url, --max-concurrency, --request-rate, --num-prompts,
    --random-input-len, --random-output-len, --save-result, --result-dir, --result-filename); exit 1
    when any request failed."""
    import asyncio

    from servebox.measure.bench import run_bench

    if compare:
        return _bench_compare([f for f in [url, *ctx.args] if f], html_path, as_json)
    if ctx.args:
        raise InputError("bench", ctx.args[0], "unexpected argument")
    if not (url or base_url) or not model:
        raise InputError("bench", "URL/--model", "give the server (URL or --base-url) and --model")
    for flag, value in (
        ("--num-prompts", requests),
        ("--max-concurrency", concurrency),
        ("--sweep", sweep),
        ("--random-input-len", input_tokens),
        ("--random-output-len", output_tokens),
    ):
        if value is not None and value < 1:
            raise InputError("bench", flag, f"must be at least 1 (got {value})")
    if rate is not None and (rate != rate or rate <= 0):
        raise InputError(
            "bench", "--request-rate", "must be a positive number of requests per second, or inf"
        )
    rate = None if rate == float("inf") else rate
    if sweep is not None and (concurrency is not None or rate is not None):
        raise InputError(
            "bench", "--sweep", "a sweep chooses its own concurrency; drop --max-concurrency/--request-rate"
        )
    if result_dir is not None:  # before the benchmark runs, not after its minutes are spent
        usable_directory(result_dir, "--result-dir")
    slo = {k: v / 1000 for k, v in (("ttft_s", slo_ttft_ms), ("tpot_s", slo_tpot_ms)) if v}
    with err.status("benchmarking ..."):
        report = asyncio.run(
            run_bench(
                api_base(url or base_url),
                model,
                concurrency=concurrency,
                sweep_max=sweep,
                rate=rate,
                requests=requests,
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                prompts_file=prompts,
                slo=slo,
                api_key=api_key,
            )
        )
    if html_path:
        from servebox.report.bench_view import write_bench_html

        write_bench_html(report, html_path, slo)
    if save_result:
        from servebox.measure.vllm_result import save_results

        for path in save_results(report, result_dir, result_filename):
            err.print(f"servebox: saved {path}", markup=False, highlight=False, soft_wrap=True)
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        from servebox.report.bench_view import show_bench

        show_bench(report, out)
    if any(level.errors for level in report.levels):
        failed = sum(level.errors for level in report.levels)
        total = sum(level.requests for level in report.levels)
        err.print(f"servebox: {failed} of {total} requests failed", markup=False, highlight=False)
        raise typer.Exit(1)


@app.command("eval", context_settings={"allow_extra_args": True})
def eval_cmd(
    ctx: typer.Context,
    url: str = typer.Argument(None, help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1."),
    model: str = typer.Option(None, "--model", help="The model name to request."),
    repeats: int = typer.Option(3, "--repeats", help="Times each question is asked."),
    temperature: float = typer.Option(None, "--temperature"),
    top_p: float = typer.Option(None, "--top-p"),
    top_k: int = typer.Option(None, "--top-k"),
    max_tokens: int = typer.Option(2048, "--max-tokens"),
    chat_template_kwargs: str = typer.Option(
        None, "--chat-template-kwargs", help='JSON, e.g. {"enable_thinking": true}.'
    ),
    questions_path: Path = typer.Option(
        None, "--questions", help="A JSONL question set instead of the bundled one."
    ),
    kinds: str = typer.Option(
        None, "--kinds", help="Comma-separated kinds to ask (arithmetic, units, logic, dates, code)."
    ),
    limit: int = typer.Option(None, "--limit", help="Ask only the first N questions."),
    concurrency: int = typer.Option(4, "--concurrency"),
    transcripts: Path = typer.Option(
        None, "--transcripts", help="JSONL file for every request and response."
    ),
    compare: bool = typer.Option(
        False, "--compare", help="eval --compare A.jsonl B.jsonl: do two runs differ beyond noise?"
    ),
    api_key: str = typer.Option(None, "--api-key", envvar="OPENAI_API_KEY"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Verifiable questions asked N times; correct / wrong / degenerate (repetition, rambling, never closed, empty, length)."""
    import asyncio
    import json as _json

    from servebox.measure import evaluate as ev

    if compare:
        files = [f for f in [url, *ctx.args] if f]
        if len(files) != 2:
            raise InputError(
                "--compare", None, "give exactly two transcript files: eval --compare A.jsonl B.jsonl"
            )
        result = ev.compare(ev.read_transcripts(Path(files[0])), ev.read_transcripts(Path(files[1])))
        emit_json(result) if as_json else out.print(result["summary"])
        return
    if not url or not model:
        raise InputError("eval", "URL/--model", "give the server URL and --model (or --compare A B)")
    questions = ev.load_questions(questions_path)
    if kinds:
        wanted = {k.strip() for k in kinds.split(",")}
        questions = [q for q in questions if q["kind"] in wanted]
    questions = questions[:limit] if limit else questions
    sampling: dict = {"max_tokens": max_tokens}
    for key, value in (("temperature", temperature), ("top_p", top_p), ("top_k", top_k)):
        if value is not None:
            sampling[key] = value
    if chat_template_kwargs:
        try:
            sampling["chat_template_kwargs"] = _json.loads(chat_template_kwargs)
        except _json.JSONDecodeError as exc:
            raise InputError("--chat-template-kwargs", None, f"not valid JSON ({exc.msg})") from None
    from rich.progress import Progress

    with Progress(console=err, transient=True) as bar:
        task = bar.add_task("asking", total=len(questions) * repeats)
        records = asyncio.run(
            ev.run_eval(
                api_base(url),
                model,
                questions,
                repeats,
                sampling,
                concurrency,
                api_key=api_key,
                progress=lambda: bar.advance(task),
            )
        )
    if transcripts:
        ev.write_transcripts(records, transcripts)
    report = ev.summarise(model, records, str(transcripts) if transcripts else None)
    if as_json:
        emit_json(report.model_dump())
    else:
        from servebox.report.bench_view import show_eval

        show_eval(report, out)
