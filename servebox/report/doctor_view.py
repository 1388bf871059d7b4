"""`servebox doctor` as a ranked list of diagnoses and a table of probes."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from servebox.doctor.probes import Probe
from servebox.doctor.triage import TriageResult
from servebox.report import print_whole

STYLE = {"pass": "green", "fail": "red", "n/a": "dim"}


ROLE_TAG = {"cause": "[red]cause[/red]", "symptom": "[yellow]symptom[/yellow]", "note": "[dim]note[/dim]"}

# A diagnosis's confidence is the figure its knowledge-base entry assigns (or the first pass's fixed
# figure for a bare exception): an assumption written with the entry, not a measured probability; lowered
# ("calibrated") where the corpus saw the entry's words under other causes too (shared_wording.py), and a
# fixed 0.50 where only the exception's resemblance to an entry's words names it.
# What is measured is doctor's accuracy over the corpus (benchmarks/doctor_accuracy.py).
CONFIDENCE_NOTE = (
    "confidence: the figure the knowledge base assigns to each entry (assumed), capped where the corpus saw "
    "its words under other causes (calibrated); doctor's measured accuracy: benchmarks/doctor_accuracy.py"
)
KIND = {
    "assumed": "assumed",
    "calibrated": "calibrated from the corpus",
    "resemblance": "assumed, by resemblance",
}


def confidence_label(value: float, kind: str = "assumed") -> str:
    """The confidence as printed: its kind said next to the figure (every printed number says it)."""
    return f"confidence {value:.2f} {KIND.get(kind, kind)}"


def show_triage(result: TriageResult, console: Console) -> None:
    """The ranked causes, each line whole (soft wrap: a terminal folds it, a pipe or a ticket keeps the log's quoted
    line and the cause searchable as one line)."""
    console.print(f"[bold]{result.source}[/bold]: {result.lines:,} lines, {result.verdict}")
    if result.verdict == "competing causes":
        console.print("[yellow]more than one cause fits this log: each is shown with its evidence[/yellow]")
    for rank, d in enumerate(result.diagnoses, 1):
        tag = ROLE_TAG.get(d.role, d.role)
        console.print(
            f"{rank}. {tag} [bold]{d.id}[/bold] ({d.category}, {confidence_label(d.confidence, d.confidence_kind)}, {d.occurrences}x)",
            soft_wrap=True,
        )
        print_whole(console, f"   cause: {d.cause}")
        print_whole(console, f"   fix:   {d.fix}")
        if d.versions:
            print_whole(console, f"   versions: {d.versions}")
        if d.shared_with:
            print_whole(
                console, f"   same words, other causes ({d.shared_basis}): {', '.join(d.shared_with)}"
            )
        _lines(d.evidence, console)
    if result.diagnoses:
        print_whole(console, CONFIDENCE_NOTE, style="dim")
    exc = result.exception
    if exc is not None:
        who = f"{exc.component} " if exc.component else ""
        where = f" ({exc.raised_in})" if exc.raised_in else ""
        print_whole(
            console,
            f"raised: {who}{exc.type}: {exc.message[:300]} at line {exc.line}{where} [{exc.classification}]",
        )
    if result.cut_lines:
        console.print(f"{result.cut_lines} over-long line(s) were cut to their first 64 KiB", style="dim")
    if result.verdict not in ("cause found", "no failure") and result.last_error_lines:
        console.print("last error-looking lines:")
        _lines(result.last_error_lines, console)


def _lines(evidence: list, console: Console) -> None:
    """Quoted log lines, each whole, with its number in the file."""
    for e in evidence:
        print_whole(console, f"   line {e.line}: {e.text}")


def show_probes(probes: list[Probe], console: Console) -> None:
    table = Table("probe", "status", "evidence", "fix", title="Environment")
    for p in probes:
        table.add_row(p.name, f"[{STYLE[p.status]}]{p.status}[/{STYLE[p.status]}]", p.evidence, p.fix or "")
    console.print(table)
