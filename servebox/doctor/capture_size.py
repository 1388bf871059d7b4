"""A -cc CUDA-graph capture size below 1, taken silently and failing when vLLM captures it: the -cc value's.

learn55h (fresh-493's fresh493-vllm-qwen25-cut-cc-capture-sizes-minus-4, real vLLM 0.26.0 on an H100, read as
uncaught-exception 0.45). vLLM 0.26's and 0.32's CompilationConfig checks cudagraph_capture_sizes for nothing but
being a list, and config/vllm.py _set_cudagraph_sizes only drops the sizes above --max-num-batched-tokens (with a
WARNING '... is overridden by config [...]'; cudagraph-config-invalid's where none is left), so 0 and negative sizes
stay in the config and the start fails only when the runner reaches them: the gpu/ runner's InputBatch.make_dummy
asserts `assert 0 < num_reqs <= num_tokens` (a bare AssertionError, under capture_model), the classic runner's
_dummy_run splits the tokens over min(size, max_num_seqs) requests (ZeroDivisionError for 0, IndexError on an empty
list for a negative size) and its padded-size table (cudagraph_dispatcher.py _compute_bs_to_padded_graph_size)
writes at the size as an index (IndexError). Nothing of the message names the size, so the reading needs both: the marker
cc-capture-size-not-positive (the size as the run was given it: command, dotted flag, or vLLM's print of the
config) and graph-capture-frame (a traceback frame or source line of that capture path) just above the first
exception that ended the run. A capture failure with vLLM's own sizes stays what its wording says
(cuda-graph-capture-failed for an op capture cannot record, else uncaught-exception).
"""

from __future__ import annotations

import re

from servebox.doctor.root_exception import first_root
from servebox.doctor.triage import Hits

SIZES = "cc-capture-size-not-positive"
FRAME = "graph-capture-frame"
ANSWER = "compilation-config-invalid"
# what a size below 1 raises on the capture path (source above)
RAISED = ("AssertionError", "IndexError", "ZeroDivisionError")
# a traceback's frames above its exception line: the capture frame must be among them
FRAMES_ABOVE = 150
INTEGER = re.compile(r"-?\s*\d+")


def _not_positive(sizes: str) -> str:
    """The first size below 1 in a list as written ('[-4, 1, 2]', '1,2,0', '-4 1 2'), "" when none."""
    return next((n for n in (m.replace(" ", "") for m in INTEGER.findall(sizes)) if int(n) < 1), "")


def _frame_above(frame: Hits, line: int) -> list[tuple[int, str]]:
    """The marker's lines in the traceback that ends at `line` (its first lines kept, and its last)."""
    seen = [*frame.evidence, (frame.last_line, "")]
    return [(n, s) for n, s in seen if line - FRAMES_ABOVE <= n < line]


def capture_size_hits(t, raised: list) -> set[str]:
    """Count the first exception that ended the run as compilation-config-invalid's where the run was given a
    CUDA-graph capture size below 1 and the exception came out of the capture path; returns the id so its
    exception_cause (naming the size) answers."""
    sizes, frame = t.hits.get(SIZES), t.hits.get(FRAME)
    if sizes is None or frame is None or ANSWER in t.hits or not any(s.id == ANSWER for s in t.signatures):
        return set()
    size = _not_positive(sizes.groups.get("sizes", ""))
    first = first_root(raised)
    if not size or first is None or first.line < sizes.first_line:
        return set()
    if first.type.rsplit(".", 1)[-1] not in RAISED or not (above := _frame_above(frame, first.line)):
        return set()
    said = f"{first.type}: {first.message}".rstrip(": ")
    groups = {
        "via": "capture-size",
        "size": size,
        "sizes": f"[{sizes.groups['sizes'].strip()}]",
        "raised": f"{said} in {first.raised_in}",
    }
    checks = [(n, s) for n, s in above if s and 'File "' not in s]  # the failing source line, where shown
    evidence = [(first.line, said[:400]), *checks[:1], sizes.evidence[0]]
    t.hits[ANSWER] = Hits(first.occurrences, first.line, first.line, groups, evidence)
    return {ANSWER}
