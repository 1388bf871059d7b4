"""A -cc torch.compile backend vLLM hands to torch unchecked, failing inside torch's own machinery: the -cc value's.

learn48g (fresh-427's fresh427-vllm-llama-cut-cc-mode-1-backend-cudagraphs, real vLLM 0.26.0 on an H100, read as
uncaught-exception 0.45). vLLM 0.26's CompilationConfig refuses a backend other than "", "eager" or "inductor" only at
mode 3 (VLLM_COMPILE: 'Invalid backend for piecewise compilation'); at mode 1 (STOCK_TORCH_COMPILE) and 2
(DYNAMO_TRACE_ONCE) init_backend returns the name as it is (any backend torch registered: cudagraphs, aot_eager,
tensorrt, openxla, ...; else a qualname it imports) and the model runner calls `model.compile(fullgraph=True,
backend=...)`, while vLLM's own CUDA graphs are turned off ('Cudagraph mode ... is not compatible with compilation mode
1'). Nothing runs the backend before a forward does, so the start can pass and the first forward (a warm-up, or the
first request) fails inside torch: there torch 2.11's cudagraph trees (torch/_inductor/cudagraph_trees.py
_allocate_and_copy_recording_inputs) met an input of vLLM's forward that is neither a tensor, an int nor a
torch.Generator and stopped on a bare `assert` (torch 2.13 also takes opaque objects there). Any exception the backend
raises that way ends in torch's compile stack (dynamo, inductor, functorch, fx) or the backend's own package; with the
log's config showing mode 1-2 and a backend other than the default inductor, that exception is the -cc value's
(compilation-config-invalid), not an engine bug. The config is read by the marker entry compile-backend-to-torch
(engine-config.toml): for mode 1 vLLM's non-default args or engine config line, for either mode the -cc JSON / dotted
flags of the command (vLLM-CPU prints mode 2 with inductor on every start: no keyword may wake on that).
With the default -cc (mode 3, inductor) a compile failure stays torch-compile-failed's, and a failure of vLLM's own
graph capture cuda-graph-capture-failed's.
learn55h (fresh-493's fresh493-vllm-llama-cut-cc-mode-1-backend-mypkg-qualname, read as python-module-missing 0.69):
a backend torch did not register is imported as a dotted path (utils/import_utils.py resolve_obj_by_qualname: rsplit
on the last dot, importlib.import_module, getattr) when the model runner builds it, after the weights loaded. Where
that fails on the backend's OWN path ('No module named X' for a prefix of it, 'module M has no attribute F' for it,
or a name without a dot that cannot be split), the -cc value is at fault (a typo, or its package missing from the
engine's venv): compilation-config-invalid, its text naming both fixes. A module the backend's package itself
imports ('No module named tensorrt' from inside mypkg) stays python-module-missing's: that dependency is what is
missing.
"""

from __future__ import annotations

import re

from servebox.doctor.root_exception import first_root
from servebox.doctor.triage import Hits

MARKER = "compile-backend-to-torch"
ANSWER = "compilation-config-invalid"
# what the exception's own wording may have named instead: the -cc value explains it
EXPLAINED = ("torch-compile-failed",)
DEFAULT_BACKENDS = {"", "inductor"}
# the mode as the user gave it (a number, or the enum's name vLLM prints) -> both, for the answer
MODES = {
    "1": "1 (STOCK_TORCH_COMPILE)",
    "STOCK_TORCH_COMPILE": "1 (STOCK_TORCH_COMPILE)",
    "2": "2 (DYNAMO_TRACE_ONCE)",
    "DYNAMO_TRACE_ONCE": "2 (DYNAMO_TRACE_ONCE)",
}
# torch's compile stack (dynamo, AOT autograd, inductor and its cudagraph trees, fx, export, decompositions) and the
# packages behind torch's optional registered backends
TORCH_COMPILE_FILES = re.compile(
    r"(?:^|[/\\])torch[/\\](?:_dynamo|_inductor|_functorch|_higher_order_ops|_subclasses|fx|_prims|_refs|_decomp"
    r"|_export|export|_library)[/\\]|(?:^|[/\\])torch[/\\](?:_guards|cuda[/\\]graphs)\.py"
    r"|(?:^|[/\\])(?:torch_tensorrt|torch_xla|onnxruntime|tvm)[/\\]"
)


def _in_backend(raised_in: str, backend: str) -> bool:
    """Raised in torch's compile stack, or in the package a qualname backend names (its first part)."""
    if TORCH_COMPILE_FILES.search(raised_in):
        return True
    top = backend.split(".", 1)[0] if "." in backend else ""
    return bool(top) and re.search(rf"(?:^|[/\\]){re.escape(top)}[/\\]", raised_in) is not None


MISSING = re.compile(r"No module named '(?P<module>[\w.]+)'")
NO_ATTRIBUTE = re.compile(r"module '(?P<module>[\w.]+)' has no attribute '(?P<attribute>\w+)'")
UNSPLIT = "not enough values to unpack"
# where vLLM resolves a qualname (0.26 and 0.32: utils/import_utils.py; older releases: utils.py, utils/__init__.py)
RESOLVER = re.compile(r"vllm[/\\]utils(?:[/\\]import_utils|[/\\]__init__)?\.py")


def _unresolved(first, backend: str) -> tuple[str, str]:
    """(reading, the part of the -cc backend's own path that did not resolve) where importing the backend by its
    dotted path failed on that path; ("dependency", module) for a module the backend's package imports (that module
    is what is missing); ("", "") for anything else."""
    short = first.type.rsplit(".", 1)[-1]
    if short in ("ModuleNotFoundError", "ImportError") and (m := MISSING.search(first.message)):
        name = m["module"]
        return ("qualname" if backend == name or backend.startswith(name + ".") else "dependency"), name
    if short == "AttributeError" and (m := NO_ATTRIBUTE.search(first.message)):
        name = f"{m['module']}.{m['attribute']}"
        return ("qualname", name) if backend == name else ("", "")
    resolving = RESOLVER.search(first.raised_in) or any(RESOLVER.search(f) for f in first.engine_frames[:1])
    if short == "ValueError" and "." not in backend and UNSPLIT in first.message and resolving:
        return "name", backend
    return "", ""


def torch_backend_hits(t, raised: list) -> set[str]:
    """Count the first exception that ended the run as compilation-config-invalid's where it was raised in torch's
    compile machinery after the log showed -cc mode 1-2 with a non-default backend; returns the id so its
    exception_cause (naming mode and backend) answers."""
    marker = t.hits.get(MARKER)
    if marker is None or ANSWER in t.hits or not any(s.id == ANSWER for s in t.signatures):
        return set()
    backend = marker.groups.get("backend", "").strip("'\"")
    if backend.lower() in DEFAULT_BACKENDS:
        return set()
    first = first_root(raised)
    if first is None or first.line < marker.first_line:
        return set()
    via, unresolved = _unresolved(first, backend)
    if via == "dependency" or (not via and not _in_backend(first.raised_in, backend)):
        return set()
    for other in EXPLAINED:
        hit = t.hits.get(other)
        if hit is not None and any(n == first.line for n, _ in hit.evidence):
            del t.hits[other]
    said = f"{first.type}: {first.message}".rstrip(": ")
    groups = {
        "mode": MODES.get(marker.groups.get("mode", "").upper(), marker.groups.get("mode", "")),
        "backend": backend,
        "raised": f"{said} in {first.raised_in}",
        "via": via or "torch",
        "unresolved": unresolved,
        "module": backend.rsplit(".", 1)[0],
    }
    text = f"{first.type}: {first.message}"[:400]
    evidence = [(first.line, text), marker.evidence[0]]
    t.hits[ANSWER] = Hits(first.occurrences, first.line, first.line, groups, evidence)
    return {ANSWER}
