"""The `servebox` command: parse, call one function, print a table (rich) or --json.

Exit codes: 0 success, 1 a firm "does not fit / will not work" answer, 2 bad input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from servebox.errors import InputError

app = typer.Typer(
    add_completion=False, no_args_is_help=True, rich_markup_mode=None, help=__doc__.splitlines()[0]
)
out = Console()
err = Console(stderr=True)

JSON_OPTION = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


@app.callback()
def _group() -> None:
    """servebox: plan, check, deploy, watch and diagnose self-hosted LLM engines."""


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=1, default=str) + "\n")


@app.command()
def inspect(
    source: str = typer.Argument(
        ..., help="A checkpoint directory, a .gguf file, or a hub repo id org/name[@revision]."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """What a checkpoint is, from metadata only: layers, tensors, quantization, chat template."""
    from servebox.checkpoint.facts import inspect_checkpoint

    facts = inspect_checkpoint(source)
    if as_json:
        emit_json(facts.model_dump(mode="json"))
    else:
        from servebox.report.inspect_view import show_inspect

        show_inspect(facts, out)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def plan(
    ctx: typer.Context,
    source: str = typer.Argument(
        None, help="Checkpoint directory or hub repo id; may come from --from-command instead."
    ),
    gpu: str = typer.Option(None, "--gpu", help="GPU name from the catalog, e.g. h100-80gb, v100-32gb."),
    gpu_memory_gib: float = typer.Option(
        None, "--gpu-memory-gib", help="Total GPU memory as torch reports it, instead of --gpu."
    ),
    vllm_version: str = typer.Option(
        "0.32.0", "--vllm-version", help="vLLM release whose behaviour to model."
    ),
    from_command: str = typer.Option(
        None, "--from-command", help='A whole "vllm serve MODEL ..." command line.'
    ),
    activation_gib: float = typer.Option(
        None, "--activation-gib", help="Measured activation peak, instead of the estimate."
    ),
    non_torch_gib: float = typer.Option(
        None, "--non-torch-gib", help="Measured non-torch memory, instead of the assumption."
    ),
    cudagraph_gib: float = typer.Option(
        None, "--cudagraph-gib", help="Measured CUDA-graph pool, instead of the estimate."
    ),
    explain: bool = typer.Option(False, "--explain", help="Show the arithmetic."),
    calibrate: str = typer.Option(
        None, "--calibrate", help="A real vLLM startup log: print predicted vs reported figures."
    ),
    html_path: str = typer.Option(
        None, "--html", help="Write an HTML report (memory bar, concurrency curve) to this file."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """What vLLM will log at startup: weights, KV memory, KV tokens, concurrency, the largest context that fits.

    Any vLLM serve flag may follow SOURCE (--tensor-parallel-size, --gpu-memory-utilization,
    --max-model-len N|auto, --kv-cache-dtype, --speculative-config JSON, ...).
    """
    from servebox.checkpoint.facts import load_checkpoint
    from servebox.engines.vllm.flags import parse_command, parse_flags
    from servebox.engines.vllm.profile import load_profile
    from servebox.hardware import custom_gpu, get_gpu
    from servebox.plan import make_plan

    if from_command:
        flags, _ = parse_command(from_command)
    else:
        flags, _ = parse_flags(list(ctx.args))
    source = source or flags.model
    if not source:
        raise InputError("plan", "SOURCE", "name a checkpoint (or give --from-command with a model)")
    if gpu_memory_gib:
        device = custom_gpu(gpu_memory_gib)
    elif gpu:
        device = get_gpu(gpu)
    else:
        raise InputError("plan", "--gpu", "name a GPU (e.g. --gpu h100-80gb) or pass --gpu-memory-gib")
    ckpt = load_checkpoint(source, with_template=False)
    if ckpt.facts.kind != "safetensors":
        raise InputError(
            source, None, "plan models vLLM on safetensors checkpoints; GGUF planning is not implemented"
        )
    result = make_plan(
        ckpt, flags, device, load_profile(vllm_version), activation_gib, non_torch_gib, cudagraph_gib
    )
    comparison = None
    if calibrate:
        from servebox.engines.vllm.logs import read_startup_figures
        from servebox.plan import compare_with_log

        comparison = compare_with_log(result, read_startup_figures(Path(calibrate)))
    if html_path:
        from servebox.report.html import write_plan_html

        write_plan_html(result, Path(html_path))
    if as_json:
        data = result.model_dump(mode="json")
        if comparison is not None:
            data["calibration"] = comparison
        emit_json(data)
    else:
        from servebox.report.plan_view import show_calibration, show_plan

        show_plan(result, out, explain)
        if comparison is not None:
            show_calibration(comparison, out)
    if not result.fits:
        raise typer.Exit(1)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def check(
    ctx: typer.Context,
    source: str = typer.Argument(
        None, help="Checkpoint directory or hub repo id; may come from --from-command instead."
    ),
    gpu: str = typer.Option(None, "--gpu", help="GPU name from the catalog, e.g. v100-32gb."),
    engine_profile: str = typer.Option(
        "vllm-0.32", "--engine-profile", help="Engine build: vllm-0.32, 1cat-vllm-1.5-volta."
    ),
    from_command: str = typer.Option(
        None, "--from-command", help='A whole "vllm serve MODEL ..." command line.'
    ),
    metadata_only: bool = typer.Option(
        False,
        "--metadata-only",
        help="The directory is a metadata copy: skip shard sizes and tokenizer files.",
    ),
    env_forces_marlin: bool = typer.Option(
        False, "--env-forces-marlin", help="The engine's environment forces the marlin kernel."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Will this checkpoint load and behave on this engine build and GPU? Findings with evidence; exit 1 on any error.

    Any vLLM serve flag may follow SOURCE, as for `servebox plan`.
    """
    from servebox.check import load_engine_rules, run_check
    from servebox.checkpoint.facts import load_checkpoint
    from servebox.engines.vllm.flags import parse_command, parse_flags
    from servebox.hardware import get_gpu

    flags, rest = parse_command(from_command) if from_command else parse_flags(list(ctx.args))
    source = source or flags.model
    if not source:
        raise InputError("check", "SOURCE", "name a checkpoint (or give --from-command with a model)")
    if not gpu:
        raise InputError("check", "--gpu", "name a GPU (e.g. --gpu v100-32gb)")
    device, rules = get_gpu(gpu), load_engine_rules(engine_profile)
    ckpt = load_checkpoint(source)
    if ckpt.facts.kind != "safetensors":
        raise InputError(
            source, None, "check models vLLM on safetensors checkpoints; GGUF checks are not implemented"
        )
    report = run_check(ckpt, flags, device, rules, rest, metadata_only, env_forces_marlin)
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        from servebox.report.check_view import show_check

        show_check(report, out)
    if report.errors:
        raise typer.Exit(1)


@app.command()
def render(
    spec_path: Path = typer.Argument(..., metavar="SPEC", help="The deployment spec (TOML)."),
    out_dir: Path = typer.Option(
        ..., "--out", help="Directory to write the units, environment files and router config into."
    ),
    check_units: bool = typer.Option(
        False, "--check", help="Run systemd-analyze verify and security on the rendered units."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Hardened systemd units per engine, environment files, the llama-swap config and the router's unit."""
    from servebox.deploy.render import render_files, write_atomically
    from servebox.deploy.spec import load_spec

    spec = load_spec(spec_path)
    files = render_files(spec)
    write_atomically(files, out_dir)
    report: dict = {"out": str(out_dir), "files": sorted(files)}
    failed = False
    if check_units:
        from servebox.deploy.verify import check_units as run_checks
        from servebox.deploy.verify import have_systemd_tools

        if not have_systemd_tools():
            raise InputError("--check", None, "systemd-analyze is not installed here")
        verdicts = run_checks(out_dir / "systemd")
        report["units"] = [v.__dict__ for v in verdicts]
        failed = any(v.verify_rc != 0 for v in verdicts)
    if as_json:
        emit_json(report)
    else:
        out.print(f"rendered {len(files)} files into {out_dir}")
        for name in sorted(files):
            out.print(f"  {name}")
        for v in report.get("units", []):
            style = "green" if v["verify_rc"] == 0 else "red"
            out.print(
                f"[{style}]{v['unit']}[/{style}]: verify rc {v['verify_rc']}, exposure {v['exposure']} {v['exposure_label']}"
            )
    if failed:
        raise typer.Exit(1)


@app.command()
def provision(
    spec_path: Path = typer.Argument(..., metavar="SPEC", help="The deployment spec (TOML)."),
    model: str = typer.Option(None, "--model", help="Only this model."),
    do_rollback: bool = typer.Option(
        False, "--rollback", help="Switch each venv back to its previous build."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Build each engine's pinned venv (verified wheel, hashed lock, stamp); switch atomically; keep the old one."""
    from servebox.deploy import provision as prov
    from servebox.deploy.spec import load_spec

    spec = load_spec(spec_path)
    chosen = [m for m in spec.models if m.provision and m.venv and (model is None or m.name == model)]
    if not chosen:
        raise InputError(
            str(spec_path),
            "models",
            "no model with a [provision] section and a venv" + (f" named {model!r}" if model else ""),
        )
    results = []
    for m in chosen:
        if do_rollback:
            results.append(
                {"model": m.name, "venv": m.venv, "target": prov.rollback(Path(m.venv)), "rolled_back": True}
            )
        else:
            with out.status(f"provisioning {m.name} into {m.venv} ..."):
                r = prov.provision(m.provision, Path(m.venv))
            results.append({"model": m.name, **r.model_dump()})
    if as_json:
        emit_json(results)
    else:
        for r in results:
            state = (
                "rolled back to" if r.get("rolled_back") else ("built" if r.get("changed") else "unchanged:")
            )
            out.print(f"{r['model']}: {state} {r['target']}")


@app.command()
def lock(
    venv: Path = typer.Argument(..., help="A venv that works."),
    out_path: Path = typer.Option(
        ..., "--out", help="Where to write the requirements lock (with sha256 hashes)."
    ),
    find_links: str = typer.Option(
        None, "--find-links", help="Take distributions (for their hashes) only from this directory."
    ),
) -> None:
    """Freeze a working venv into a requirements lock with hashes, for `provision`."""
    from servebox.deploy.provision import lock as do_lock

    count = do_lock(venv, out_path, find_links)
    out.print(f"locked {count} packages into {out_path}")


@app.command("fetch-model")
def fetch_model_cmd(
    repo: str = typer.Argument(..., help="Hub repo id org/name[@revision]."),
    directory: Path = typer.Option(..., "--dir", help="Local directory for the checkpoint."),
    include: list[str] = typer.Option(
        None, "--include", help="Only files matching these patterns (repeatable)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Download a checkpoint (resumable) and verify it: file count, sizes, shard headers."""
    from servebox.checkpoint.source import HUB_REPO_RE
    from servebox.deploy.fetch import fetch_model

    match = HUB_REPO_RE.match(repo)
    if not match:
        raise InputError(repo, None, "not a hub repo id 'org/name[@revision]'")
    with out.status(f"downloading {repo} ..."):
        result = fetch_model(match["repo"], match["revision"], directory, include)
    if as_json:
        emit_json(result.model_dump())
    else:
        state = "[green]complete[/green]" if result.complete else "[red]incomplete[/red]"
        out.print(
            f"{result.repo}: {result.files} files, {result.bytes:,} bytes in {result.directory}: {state}"
        )
        for p in result.problems:
            out.print(f"  {p}", markup=False)
    if not result.complete:
        raise typer.Exit(1)


def _api_base(url: str) -> str:
    url = url.rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise InputError(url, None, "not an http(s) URL")
    return url if url.endswith("/v1") else url + "/v1"


@app.command()
def bench(
    url: str = typer.Argument(..., help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1."),
    model: str = typer.Option(..., "--model", help="The model name to request."),
    concurrency: int = typer.Option(None, "--concurrency", help="Fixed number of requests in flight."),
    sweep: int = typer.Option(
        None,
        "--sweep",
        help="Concurrency sweep 1, 2, 4, ... up to this, stopping when throughput stops growing.",
    ),
    rate: float = typer.Option(None, "--rate", help="Poisson arrivals at this many requests per second."),
    requests: int = typer.Option(32, "--requests", help="Requests per load level."),
    input_tokens: int = typer.Option(128, "--input-tokens"),
    output_tokens: int = typer.Option(64, "--output-tokens"),
    prompts: Path = typer.Option(
        None, "--prompts", help="JSONL file of {'prompt': ...} instead of synthetic prompts."
    ),
    slo_ttft_ms: float = typer.Option(None, "--slo-ttft-ms"),
    slo_tpot_ms: float = typer.Option(None, "--slo-tpot-ms"),
    api_key: str = typer.Option(None, "--api-key", envvar="OPENAI_API_KEY"),
    html_path: Path = typer.Option(
        None, "--html", help="Write an HTML report with latency and throughput plots."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Throughput and latency through the client path (TTFT, TPOT, ITL, e2e, goodput), with the engine's /metrics."""
    import asyncio

    from servebox.measure.bench import run_bench

    if sum(x is not None for x in (concurrency, sweep, rate)) > 1:
        raise InputError("bench", "--concurrency/--sweep/--rate", "choose one load shape")
    slo = {k: v / 1000 for k, v in (("ttft_s", slo_ttft_ms), ("tpot_s", slo_tpot_ms)) if v}
    with out.status("benchmarking ..."):
        report = asyncio.run(
            run_bench(
                _api_base(url),
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

        write_bench_html(report, html_path)
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        from servebox.report.bench_view import show_bench

        show_bench(report, out)
    if all(level.errors == level.requests for level in report.levels):
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
                _api_base(url),
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


@app.command()
def up(
    spec_path: Path = typer.Argument(..., metavar="SPEC", help="The deployment spec (TOML)."),
    state_dir: Path = typer.Option(Path(".servebox"), "--state-dir", help="Logs, pid file and incidents."),
    poll_s: float = typer.Option(2.0, "--poll-s", help="Seconds between watch polls."),
    window_s: float = typer.Option(
        30.0, "--window-s", help="No progress for this long with requests in flight is a hang."
    ),
    probe: bool = typer.Option(False, "--probe", help="Also send a one-token request each poll."),
) -> None:
    """Run the spec's engines behind one OpenAI-compatible router, watch them, restart the sick ones."""
    import json as _json
    import os
    import signal

    import uvicorn

    from servebox.deploy.spec import load_spec
    from servebox.serve.router import build_app
    from servebox.serve.supervisor import Supervisor

    spec = load_spec(spec_path)
    host, _, port = spec.router.listen.rpartition(":")
    state_dir.mkdir(parents=True, exist_ok=True)
    sup = Supervisor(
        spec,
        state_dir,
        poll_s=poll_s,
        window_s=window_s,
        probe=probe,
        on_event=lambda t: (
            live["status"].update(f"[bold]{t}[/bold]") if live else err.print(f"[dim]watch[/dim] {t}")
        ),
    )
    live: dict = {}
    (state_dir / "up.json").write_text(_json.dumps({"pid": os.getpid(), "listen": spec.router.listen}))
    try:
        # a live line with each engine's start-up phase (importing, loading weights, profiling, compiling, kv cache, ready)
        with err.status("starting engines ...") as status:
            live["status"] = status
            sup.start_eager(wait=True)
        live.clear()
        for name, state in sup.status().items():
            err.print(f"{name}: {state['state']} ({state['reason']})")
        sup.run_watch()
        err.print(f"router on http://{spec.router.listen}/v1 (models: {', '.join(sup.engines)})")
        # uvicorn shuts down gracefully on SIGTERM and then re-raises it: exit through `finally` so the
        # engines are stopped and the pid record removed, instead of dying by the default handler.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        uvicorn.run(
            build_app(sup, spec.router.api_keys),
            host=host or "127.0.0.1",
            port=int(port),
            log_level="warning",
        )
    finally:
        sup.stop_all()
        (state_dir / "up.json").unlink(missing_ok=True)


@app.command()
def down(
    state_dir: Path = typer.Option(Path(".servebox"), "--state-dir", help="The state directory `up` used."),
) -> None:
    """Stop what `servebox up` started: the router (which stops its engines), by the pid it recorded."""
    import json as _json
    import os
    import signal
    import time as _time

    record = state_dir / "up.json"
    if not record.exists():
        raise InputError(str(record), None, "nothing recorded: is servebox up running with this --state-dir?")
    pid = _json.loads(record.read_text())["pid"]
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        record.unlink(missing_ok=True)
        out.print(f"pid {pid} was not running")
        return
    for _ in range(120):
        if not record.exists():
            break
        _time.sleep(0.5)
    out.print(f"stopped servebox up (pid {pid})")


@app.command()
def watch(
    spec_path: Path = typer.Argument(
        ..., metavar="SPEC", help="The deployment spec (TOML): the engines to watch, by port."
    ),
    interval_s: float = typer.Option(2.0, "--interval-s"),
    window_s: float = typer.Option(30.0, "--window-s"),
    count: int = typer.Option(1, "--count", help="Polls before exiting (0: forever)."),
    probe: bool = typer.Option(False, "--probe"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Poll each engine's /health and /metrics and print its state (idle, busy, hung, dead, degraded, starting)."""
    import time as _time

    from servebox.deploy.spec import load_spec
    from servebox.serve.watch import Watcher, poll

    spec = load_spec(spec_path)
    watchers = {m.name: Watcher(window_s=window_s, cold_start_s=m.cold_start_s * 3) for m in spec.models}
    n = 0
    while True:
        n += 1
        states = {}
        for m in spec.models:
            v = watchers[m.name].decide(
                poll(f"http://127.0.0.1:{m.port}", True, probe_model=m.name if probe else None)
            )
            states[m.name] = {
                "state": v.state,
                "reason": v.reason,
                "running": v.snapshot.get("running"),
                "generation_tokens": v.snapshot.get("generation_tokens"),
            }
        if as_json:
            emit_json(states)
        else:
            for name, s in states.items():
                out.print(f"{name}: {s['state']} ({s['reason']})")
        if count and n >= count:
            break
        _time.sleep(interval_s)


@app.command()
def doctor(
    log: str = typer.Option(None, "--log", help="A log file to triage ('-' for stdin)."),
    journal: str = typer.Option(
        None, "--journal", help="A systemd unit whose journal to triage (journalctl -u UNIT)."
    ),
    env: bool = typer.Option(False, "--env", help="Probe this machine/unit for what a JIT engine needs."),
    cache_dir: list[str] = typer.Option(None, "--cache-dir", help="A cache directory to probe (repeatable)."),
    port: int = typer.Option(None, "--port", help="A port the engine will bind."),
    memlock_gib: float = typer.Option(
        1.0, "--memlock-need-gib", help="Pinned memory the engine needs (KV spill, UVA)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Name the root cause of a failure from a log or journal, and probe the environment."""
    from servebox.doctor import probes as probe_mod
    from servebox.doctor.triage import triage_stream
    from servebox.report.doctor_view import show_probes, show_triage

    if not (log or journal or env):
        raise InputError("doctor", None, "give --log FILE, --journal UNIT or --env")
    report: dict = {}
    failed = False
    if log or journal:
        if journal:
            import subprocess

            try:
                proc = subprocess.Popen(
                    ["journalctl", "-u", journal, "-o", "short-iso", "--no-pager"],
                    stdout=subprocess.PIPE,
                    text=True,
                    errors="replace",
                )
            except OSError as exc:
                raise InputError("--journal", None, f"cannot run journalctl: {exc}") from None
            result = triage_stream(proc.stdout, f"journal of {journal}")
            proc.wait()
        elif log == "-":
            result = triage_stream(sys.stdin, "stdin")
        else:
            try:
                handle = open(log, encoding="utf-8", errors="replace")  # noqa: SIM115
            except OSError as exc:
                raise InputError(log, None, f"cannot read: {exc.strerror or exc}") from None
            with handle:
                result = triage_stream(handle, log)
        report["triage"] = result.model_dump(mode="json")
        failed |= result.verdict == "cause found"
        if not as_json:
            show_triage(result, out)
    if env:
        dirs = [Path(d) for d in cache_dir] if cache_dir else probe_mod.default_cache_dirs()
        results = probe_mod.run_probes(dirs, port, memlock_need=int(memlock_gib * 2**30))
        report["probes"] = [p.model_dump(mode="json") for p in results]
        failed |= any(p.status == "fail" for p in results)
        if not as_json:
            show_probes(results, out)
    if as_json:
        emit_json(report)
    if failed:
        raise typer.Exit(1)


def main() -> None:
    try:
        rc = app(standalone_mode=False)  # click returns the code of typer.Exit here instead of raising
        if isinstance(rc, int) and rc:
            sys.exit(rc)
    except InputError as exc:
        err.print(f"servebox: error: {exc.one_line()}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # usage errors from click (typer vendors its own copy of click)
        if hasattr(exc, "show") and hasattr(exc, "exit_code"):
            exc.show()
            sys.exit(2)
        if type(exc).__name__ == "Abort":
            sys.exit(130)
        raise


if __name__ == "__main__":
    main()
