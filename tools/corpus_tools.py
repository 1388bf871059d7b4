"""Shared by the doctor-corpus makers (tools/doctor_corpus_fresh*.py): load a tool of this folder by path (tools/
doctor-corpus.py's name is not importable), and one vLLM serving a batch's request cases. The makers run as
scripts, so tools/ is on sys.path."""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# every made-here case's engine: a 1 GiB KV cache on the CPU, no usage stats, unbuffered lines (tools/doctor-corpus.py's)
ENGINE_ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", "PYTHONUNBUFFERED": "1"}


def use_ports(base: int, gguf: str | None = None) -> None:
    """A maker's own ports unless the environment names others: the engine at BASE, llama-server at BASE+1,
    servebox's own serve at BASE+2 (tools/doctor-corpus.py reads them); and its tiny GGUF's path."""
    for offset, var in enumerate(
        ("DOCTOR_CORPUS_PORT", "DOCTOR_CORPUS_LLAMA_PORT", "DOCTOR_CORPUS_SERVE_PORT")
    ):
        os.environ.setdefault(var, str(base + offset))
    if gguf:
        os.environ.setdefault("DOCTOR_CORPUS_GGUF", gguf)


_LOADED: dict[Path, object] = {}


def load(name: str, file: str):
    """A tool of this folder as a module (their names need not be importable), run once per process: each maker
    loads its predecessors, which load theirs, so running every file anew doubled the work with each round
    (fresh-435's maker counted 16,904 runs for one --draws of fresh-420; once each, 67, the same draw)."""
    path = (HERE / file).resolve()
    if path in _LOADED:
        sys.modules.setdefault(name, _LOADED[path])
        return _LOADED[path]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    _LOADED[path] = mod
    return mod


def tiny_model(work: str | Path) -> Path:
    """WORK/tiny: tests/engine/make_tiny_model.py's checkpoint, made once (under vLLM's interpreter, which has torch
    and transformers) and kept; a maker copies it per case when a case changes its files. The makers of fresh-142..195
    each carried this setup."""
    tiny = Path(work) / "tiny"
    if not (tiny / "config.json").exists():
        repo = HERE.parent
        maker = repo / "tests" / "engine" / "make_tiny_model.py"
        subprocess.run([str(repo / ".venv-vllm" / "bin" / "python"), str(maker), str(tiny)], check=True)
    return tiny


def tiny_gguf(work: str | Path) -> Path:
    """WORK/tiny-f32.gguf: tests/engine/make_tiny_gguf.py's GGUF of the tiny model's shape and tokenizer, made once."""
    out = Path(work) / "tiny-f32.gguf"
    if not out.exists():
        maker = HERE.parent / "tests" / "engine" / "make_tiny_gguf.py"
        tokenizer = tiny_model(work) / "tokenizer.json"
        subprocess.run([sys.executable, str(maker), str(tokenizer), str(out)], check=True)
    return out


def gguf_edited(
    src: str | Path, dst: str | Path, values: dict | None = None, remove: tuple[str, ...] = ()
) -> Path:
    """A copy of the GGUF SRC at DST with metadata keys set (key -> (gguf.GGUFValueType, value)) or removed, through
    gguf-py's own gguf_new_metadata copy: tensors and every other key as they were. The makers of fresh-213 and
    fresh-215 each copied make_tiny_gguf.py's writer to get a GGUF whose metadata disagrees with its tensors."""
    import gguf
    from gguf.scripts.gguf_new_metadata import MetadataDetails, copy_with_new_metadata

    reader = gguf.GGUFReader(str(src), "r")
    arch = reader.fields[gguf.Keys.General.ARCHITECTURE].contents()
    writer = gguf.GGUFWriter(str(dst), arch=arch, endianess=reader.endianess)
    new = {key: MetadataDetails(kind, value) for key, (kind, value) in (values or {}).items()}
    copy_with_new_metadata(reader, writer, new, list(remove))
    return Path(dst)


def engine_env(work: str | Path, **extra: str) -> dict[str, str]:
    """The environment a made-here case runs in: the maker's, ENGINE_ENV (a small KV cache, no usage stats), and
    vLLM's and torch's caches under WORK (one maker wrote into /root/.cache/vllm), then EXTRA."""
    caches = {"VLLM_CACHE_ROOT": str(Path(work) / "vllm-cache"), "XDG_CACHE_HOME": str(Path(work) / "cache")}
    return {**os.environ, **ENGINE_ENV, **caches, **extra}


def vllm_session(
    h, tiny: Path, flags: list[str], requests: dict, wanted: set[str], port: int, timeout: float
) -> dict:
    """Start one vLLM with FLAGS and send each request (case id -> (path, body, headers)); each case's text
    is the start-up lines, then the lines written while answering that request, then the client's answer."""
    import httpx

    todo = {k: v for k, v in requests.items() if not wanted or k in wanted}
    if not todo:
        return {}
    argv = [*h.VLLM, str(tiny), "--port", str(port), "--max-model-len", "512", *flags]
    texts: dict[str, str] = {}
    with tempfile.NamedTemporaryFile() as log:
        env = {**os.environ, **h.ENV}
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            if not h.wait_healthy(port, time.monotonic() + timeout):
                text = Path(log.name).read_text(errors="replace")
                return {case_id: text for case_id in todo}
            time.sleep(2)
            startup = Path(log.name).read_text(errors="replace")
            for case_id, (path, body, headers) in todo.items():
                before = len(Path(log.name).read_bytes())
                try:
                    r = httpx.post(f"http://127.0.0.1:{port}{path}", json=body, headers=headers, timeout=120)
                    answer = f"client: HTTP {r.status_code} {r.text[:600]}"
                except httpx.HTTPError as exc:
                    answer = f"client: {type(exc).__name__}: {exc}"
                time.sleep(3)
                during = Path(log.name).read_bytes()[before:].decode("utf-8", "replace")
                texts[case_id] = startup + during + answer + "\n"
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    return texts


def until_failed_or_served(h, argv: list[str], port: str, timeout: float, env: dict | None = None) -> str:
    """Run an engine until it exits or answers /health (then stop it): a healthy start costs no idle minutes."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **h.ENV, **(env or {})},
            start_new_session=True,
        )
        if _healthy_before_exit(proc, int(port), time.monotonic() + timeout):
            time.sleep(1)  # two seconds after /health first answers, as before
        stop_group(proc, grace=20)
        log.seek(0)
        return log.read().decode("utf-8", "replace")


def serve_and_ask(
    argv: list[str],
    port: int,
    calls: list[tuple],
    *,
    env: dict | None = None,
    cwd: str | Path | None = None,
    bound: float = 240,
    after: float = 2,
) -> str:
    """Start ARGV (its own process group); once http://127.0.0.1:PORT/health answers 200, send each call (path, JSON
    body: POST; None: GET; or (method, path, body, headers) for another method or request headers) and write
    `# request: ...` (each header as -H) and the reply's status line and first 1000 bytes after the engine's own
    lines, as a user pastes them; then SIGTERM the group. An engine that exits or is not healthy within BOUND seconds
    gets no request: its log alone. The makers of fresh-142..176 each carried a copy of this, fresh-235 one with
    headers."""

    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, port, time.monotonic() + bound):
                answer = "".join(
                    _ask(port, *call, after) if len(call) == 2 else _ask_with(port, *call, after)
                    for call in calls
                )
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if answer and text and not text.endswith("\n"):
        text += "\n"
    return text + answer


def _healthy_before_exit(proc: subprocess.Popen, port: int, deadline: float) -> bool:
    import httpx

    while proc.poll() is None and time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).raise_for_status()
        except httpx.HTTPError:
            time.sleep(1)
            continue
        time.sleep(1)
        return True
    return False


def _ask(port: int, path: str, body: dict | None, after: float) -> str:
    """One (path, body) call: a POST with a body, else a GET (makers that replace it keep this signature)."""
    return _ask_with(port, "GET" if body is None else "POST", path, body, {}, after)


def _ask_with(port: int, method: str, path: str, body: dict | None, headers: dict, after: float) -> str:
    """One request as a user pastes it: the request line (each header as -H), then the reply (or the client's
    exception)."""
    import json
    import shlex

    import httpx

    shown = "" if body is None else " " + json.dumps(body)[:400]
    shown += "".join(f" -H {shlex.quote(f'{k}: {v}')}" for k, v in headers.items())
    text = f"# request: {method} http://127.0.0.1:{port}{path}{shown}\n"
    try:
        r = httpx.request(method, f"http://127.0.0.1:{port}{path}", json=body, headers=headers, timeout=120)
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    time.sleep(after)
    return text


def stop_group(proc: subprocess.Popen, grace: float) -> None:
    """SIGTERM the engine's whole process group (its workers too), SIGKILL what is left after `grace` seconds."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _joined(draw) -> str:
    return " | ".join(draw)


def maker_main(draws, makers, tiny: str, vllm_timeout: str = "420", show=_joined) -> None:
    """A batch maker's command line: `--draws` prints its draw (the cases kept, then those drawn anew); otherwise each
    case named on the command line (all of them by default) is made and its whole log written to doctor-corpus.py's
    OUT. DOCTOR_CORPUS_TINY and DOCTOR_CORPUS_VLLM_TIMEOUT override the tiny model's directory and vLLM's start bound."""
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {show(d)}")
        for d in redrawn:
            print(f"drawn anew: {_joined(d)}")
        return
    h = load("doctor_corpus", "doctor-corpus.py")
    tiny_dir = Path(os.environ.get("DOCTOR_CORPUS_TINY", tiny))
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", vllm_timeout))
    wanted = set(sys.argv[1:])
    for case_id, make in makers(h, tiny_dir, timeout).items():
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = make()  # the whole log, untrimmed
        (h.OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


def draw_per_engine(
    seed: int, conditions: dict, n: int = 14, reason: str | None = "(engine, condition) drawn before"
):
    """A made-here batch's draw, random.Random(seed): n times engine = choice(vllm, llama), condition = choice of that
    engine's conditions, value = choice of its values; a repeated (engine, condition) is drawn anew and listed with
    `reason` (no reason: listed as the draw alone). Refuses at once a draw that could never finish (fewer distinct pairs
    than n: fresh-60's first procedure looped until it was stopped)."""
    pairs = sum(len(by_condition) for by_condition in conditions.values())
    if pairs < n:
        raise ValueError(
            f"{n} draws need {n} distinct (engine, condition) pairs; the conditions give {pairs}"
        )
    r = random.Random(seed)
    kept: list[tuple[str, str, str]] = []
    redrawn: list[tuple] = []
    while len(kept) < n:
        engine = r.choice(("vllm", "llama"))
        condition = r.choice(list(conditions[engine]))
        value = r.choice(conditions[engine][condition])
        if any((engine, condition) == (e, c) for e, c, _ in kept):
            redrawn.append(
                (engine, condition, value) if reason is None else (engine, condition, value, reason)
            )
        else:
            kept.append((engine, condition, value))
    return kept, redrawn


def draw_distinct_conditions(seed: int, conditions: dict, n: int = 14):
    """A one-engine made-here batch's draw, random.Random(seed): n times condition = choice(conditions), value = choice
    of its values; a condition drawn before is drawn anew and listed with its reason. Returns (kept (condition, value)
    pairs, redrawn (condition, value, reason) triples). Refuses at once a draw that could never finish (fewer
    conditions than n)."""
    if len(conditions) < n:
        raise ValueError(f"{n} draws of distinct conditions need {n} conditions; there are {len(conditions)}")
    r = random.Random(seed)
    kept: list[tuple[str, str]] = []
    redrawn: list[tuple[str, str, str]] = []
    while len(kept) < n:
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        if any(condition == c for c, _ in kept):
            redrawn.append((condition, value, "condition drawn before"))
        else:
            kept.append((condition, value))
    return kept, redrawn


def pool_after(conditions: dict, already: set, new: dict | None = None) -> tuple[dict, dict]:
    """A next round's pool: `conditions` (condition -> value classes) plus `new` classes, less every (condition, class)
    pair in `already`. A new class must extend a used-up condition (every one of its classes drawn), be no class of
    it already and no drawn pair: the rule fresh-473/485/499 each wrote out. Returns (conditions with the new classes,
    the pool: conditions with their undrawn classes, empty ones left out), so a round needs no loop of its own."""
    new = new or {}
    for condition, values in new.items():
        if condition not in conditions:
            raise ValueError(f"new classes for {condition!r}, which is not a condition")
        if not all((condition, v) in already for v in conditions[condition]):
            raise ValueError(f"{condition!r} is not used up: draw its own classes first")
        for v in values:
            if v in conditions[condition] or (condition, v) in already:
                raise ValueError(f"{condition!r}: {v!r} is not new")
    merged = {c: [*vs, *new.get(c, [])] for c, vs in conditions.items()}
    pool = {c: [v for v in vs if (c, v) not in already] for c, vs in merged.items()}
    return merged, {c: vs for c, vs in pool.items() if vs}
