"""What doctor answers: the diagnoses, the exceptions the log raised, and the result `doctor --json` prints.

Kept apart from triage.py (which reads the log) so that the ranking, the CLI and `up`'s incidents can share the
shapes without the reader; triage.py re-exports them for the modules that import them from there.
"""

from __future__ import annotations

from pydantic import BaseModel

CONFIDENT = 0.7  # a cause at or above this is given as the answer; below it, as a lead to check


class Evidence(BaseModel):
    line: int
    text: str


class Diagnosis(BaseModel):
    id: str
    category: str
    role: str  # "cause", "symptom" or "note"
    cause: str
    fix: str
    confidence: float
    # the knowledge base's figure for its entry, written with it: an assumption, not a measurement
    confidence_kind: str = "assumed"
    occurrences: int
    first_line: int
    evidence: list[Evidence]
    fatal: bool = True
    versions: str = ""
    # with confidence_kind "calibrated" (shared_wording.py): the other causes the corpus saw this family's words
    # under, most often seen first, and how many logs that count rests on
    shared_with: list[str] = []
    shared_basis: str = ""


class RaisedException(BaseModel):
    """An exception the log shows, attributed to the process that printed it."""

    line: int
    component: str  # e.g. "EngineCore_DP0", "APIServer", "" when the line has no process prefix
    type: str
    message: str
    classification: str  # configuration, resource, environment, data, engine bug, symptom, warning
    raised_in: str = ""  # the innermost frame's file, when the traceback shows it
    engine_frames: list[str] = []  # the innermost frames in vLLM's tree (the engine code that called)
    # called straight from the run's own script (caller.py), not a plugin or framework
    script_called: bool = False
    # the innermost frame outside Python's import machinery (frozen importlib, importlib/__init__.py): who imported
    importer: str = ""
    # code loaded into the engine (a plugin's file) that called the stack library that raised (caller.loaded_caller)
    loaded_by: str = ""
    # the traceback starts in the engine's web server (uvicorn) running a request: a route or middleware (caller.served)
    served: bool = False
    occurrences: int = 1
    handled: bool = False  # printed by the engine's logger below ERROR: caught and logged, not raised

    def span(self, ends: dict[int, int]) -> range:
        """The log lines this exception spans: its own line to the last it reads on (a triage's exception_ends, e.g.
        pydantic's reasons below its header)."""
        return range(self.line, ends.get(self.line, self.line) + 1)


class TriageResult(BaseModel):
    source: str
    lines: int
    bytes: int
    diagnoses: list[Diagnosis]
    verdict: str  # "cause found", "resembles a known cause", "competing causes", "exception only", "symptoms only", "no known signature", "no failure"
    fatal: bool = False
    exception: RaisedException | None = None  # the root exception, always shown when there is one
    exceptions: list[RaisedException] = []
    last_error_lines: list[Evidence] = []
    cut_lines: int = 0  # lines longer than the cap: their head was kept, the rest skipped

    def headline(self) -> str:
        """One line for a console (`up`'s incidents): the top diagnosis, its evidence line, its fix."""
        if not self.diagnoses:
            return f"{self.verdict}" + (
                f"; last error line {self.last_error_lines[-1].line}" if self.last_error_lines else ""
            )
        d = self.diagnoses[0]
        more = " (another cause competes: see doctor)" if self.verdict == "competing causes" else ""
        return f"{d.id} at line {d.first_line}: {d.cause} Fix: {d.fix}{more}"
