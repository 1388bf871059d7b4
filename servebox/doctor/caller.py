"""Who called: whether an exception's call came straight from the user's own script (after31b).

A keyword the callee does not take means two different things by where the call came from. Called by a plugin or a
framework (an installed package, a framework's own modules), it was written for another release of the engine: version
skew. Called by the script the user ran (the traceback's outermost file, not an installed package) with nothing but the
engine's own stack in between, it is the user's typo or an argument this release does not have. The caller is the
innermost frame that is neither the engine's stack (vLLM, what it declares, the stdlib: engine_stack.json) nor Python's
own machinery."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from servebox.doctor.structure import match_frame, split_prefix

if TYPE_CHECKING:
    from collections.abc import Callable

    from servebox.doctor.results import RaisedException
    from servebox.doctor.signatures import Signature
    from servebox.doctor.triage import Triage

HEAD = b"Traceback (most recent call last)"
LOOK_BACK = 16384
INSTALLED = re.compile(r"(?:^|/)(?:site|dist)-packages/(?P<top>[\w.-]+)")
STDLIB = re.compile(r"/lib/python3\.\d+/(?P<top>[\w.-]+)")
CONSOLE_SCRIPT = re.compile(r"/bin/[\w.-]+$")  # pip's generated entry point of an installed package
# a compiled module's frame, named by its source's path inside its package (uvloop's "uvloop/loop.pyx"): that package's
COMPILED = re.compile(r"^(?P<top>[A-Za-z_]\w*)/[\w/.-]+\.(?:pyx|pxd|pxi)$")


@lru_cache(maxsize=1)
def stack_data() -> dict:
    """engine_stack.json, read once for doctor (tools/harvest_engine_stack.py writes it; attribution.py reads it here)."""
    return json.loads(resources.files("servebox.doctor").joinpath("engine_stack.json").read_text())


@lru_cache(maxsize=1)
def engine_stack() -> frozenset[str]:
    """Top-level import names of the engine's own stack: vLLM, what it declares, the stdlib."""
    return frozenset([*stack_data()["imports"], *stack_data()["stdlib"]])


def _engines(file: str) -> bool:
    """A frame of the engine's own stack: an installed package or stdlib module it names, a vLLM checkout, <frozen>."""
    if file.startswith("<frozen ") or "/vllm/" in file or file.startswith("vllm/"):
        return True
    m = INSTALLED.search(file) or STDLIB.search(file) or COMPILED.match(file)
    return m is not None and m["top"].removesuffix(".py").split(".")[0] in engine_stack()


def script_called(files: list[str]) -> bool:
    """Frames' files, outermost first: the caller (the innermost frame not the engine's) is the run's own script (a
    file, or `python -c`'s <string>); an installed package's console script (bin/vllm, bin/llamafactory-cli) is not."""
    caller = next((f for f in reversed(files) if not _engines(f)), None)
    return (
        caller is not None
        and caller == files[0]
        and not INSTALLED.search(caller)
        and not STDLIB.search(caller)
        and not CONSOLE_SCRIPT.search(caller)
    )


def loaded_caller(frames: list[tuple[str, str]]) -> str:
    """Frames' (file, line), outermost first: the innermost frame outside the engine's stack, as "file:line", where
    vLLM's own code called it (a vLLM frame further out, or the engine's web server running a request: learn54c) and a
    library of the stack raised below it: code loaded into the engine (a general plugin's register(), a parser or
    logits processor file, a plugin's route) that asked the library for what it refused (learn47g: fresh-418's plugin
    calling torch.cuda.current_device() on a CPU-only build). "" otherwise."""
    files = [f for f, _ in frames]
    at = next((i for i in range(len(files) - 1, -1, -1) if not _engines(files[i])), None)
    if (
        at is None
        or at == len(files) - 1
        or not (served(files) or any("/vllm/" in f or f.startswith("vllm/") for f in files[:at]))
    ):
        return ""
    return f"{files[at]}:{frames[at][1]}"


# ASGI servers that run a web app's request handlers: a traceback that starts in one is a request's (learn54c)
WEB_SERVERS = frozenset({"uvicorn", "hypercorn", "granian"})


def served(files: list[str]) -> bool:
    """Frames' files, outermost first: the traceback starts in a web server of the stack running a request (uvicorn's
    run_asgi), so whatever file outside the engine's stack it ran was loaded into the engine's server -- a route
    handler or middleware (an endpoint plugin's attach_router route, a --middleware function), called with no vLLM
    frame above it (learn54c: fresh-508's endpoint plugin /usage handler's KeyError holds no vLLM frame at all)."""
    outer = next((f for f in files if not f.startswith("<")), "")
    m = INSTALLED.search(outer)
    return bool(m) and m["top"] in WEB_SERVERS


def traceback_frames(chunk: bytes, start: int, component: str) -> list[tuple[str, str]]:
    """The (file, line) of each frame of the traceback printed above an exception line by the same process, outermost
    first."""
    head = chunk.rfind(HEAD, max(0, start - LOOK_BACK), start)
    if head < 0:
        return []
    frames = []
    for raw in chunk[head:start].decode("utf-8", "replace").split("\n")[1:]:
        prefix = split_prefix(raw)
        m = match_frame(prefix.payload)
        if m and prefix.component == component:
            frames.append((m["file"], m["line"]))
    return frames


def _script_line_counts(sig: Signature, n: int, text: str, t: Triage, raised: list[RaisedException]) -> bool:
    """A line only a `script_pattern` wording holds counts where its exception was called from the run's own script."""
    if not any(p.search(text) for p in sig.script_patterns):
        return True
    if any(p.search(text) for p in sig.patterns if p not in sig.script_patterns):
        return True
    return any(e.script_called for e in raised if n in e.span(t.exception_ends))


def _keep_lines(
    t: Triage, gated: Callable[[Signature], bool], counts: Callable[[Signature, int, str], bool]
) -> None:
    """Each `gated` entry's hit keeps only the lines that `counts`; an entry left with none is no hit."""
    for sig in t.signatures:
        hit = t.hits.get(sig.id)
        if hit is None or not gated(sig):
            continue
        hit.evidence = [(n, s) for n, s in hit.evidence if counts(sig, n, s)]
        if not hit.evidence:
            del t.hits[sig.id]


def scripted(t: Triage, raised: list[RaisedException]) -> None:
    """A `script_pattern` wording counts only where the exception raised on its line was called straight from the
    run's own script (caller.py); a line another wording of the entry holds counts as ever."""
    _keep_lines(
        t, lambda sig: bool(sig.script_patterns), lambda sig, n, s: _script_line_counts(sig, n, s, t, raised)
    )


# a model's own code (trust_remote_code): the checkpoint's, not a plugin (attribution.py reads it too)
REMOTE_CODE = "/transformers_modules/"


def raised_by_loaded(e: RaisedException) -> bool:
    """The exception was raised in code loaded into the engine, or asked for by it: a stack library raised below such
    code (loaded_by), or the innermost frame is itself a file outside the engine's stack that vLLM's own code called (a
    stat logger plugin's log_engine_initialized opening a file in a folder that is not there; learn53c) or that the
    engine's web server ran for a request (an endpoint plugin's route handler; learn54c)."""
    if e.loaded_by:
        return True
    file = e.raised_in.rsplit(":", 1)[0]
    return (
        bool(file)
        and not file.startswith("<")
        and REMOTE_CODE not in file
        and not _engines(file)
        and (e.served or any(f.startswith("vllm/") for f in e.engine_frames))
    )


def loaded_aside(t: Triage, raised: list[RaisedException]) -> None:
    """An `engine_called` entry's line counts only where the exception raised on it was not asked for by code loaded
    into the engine (loaded_caller: a plugin's register() calling torch.cuda on a CPU-only build is the plugin's
    demand, not the install's fault; learn47g), nor raised by that code itself (raised_by_loaded: learn53c). Such an
    exception, unexplained, is then read by who called (attribution.py: third-party-package-raised naming the plugin's
    file)."""
    loaded = [e for e in raised if raised_by_loaded(e)]
    _keep_lines(
        t,
        lambda sig: sig.engine_called,
        lambda sig, n, s: not any(n in e.span(t.exception_ends) for e in loaded),
    )
