"""The knowledge base (signatures.toml, then knowledge/*.toml by name) as data (its keyword prefilter is
keyword_finder.py).

A signature is a failure family: several wordings (`pattern` may be a list; all are matched
case-insensitively, so another prefix, case or port still matches), the cause, the fix that works,
version notes. Keywords are literals one of which every wording contains: one RE2 alternation of
all keywords finds candidate lines in a chunk without decoding the rest.
"""

from __future__ import annotations

import re
import string
import tomllib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources

from servebox.doctor.required_literal import first_match, guard
from servebox.doctor.start_defaults import (
    AgainstDefault,
    SetAtStart,
    parse_against_default,
    parse_set_at_start,
)


@dataclass(frozen=True)
class Signature:
    id: str
    category: str
    role: str  # "cause", "symptom", "progress" (a start still moving) or "shutdown" (a stop was asked for)
    keywords: tuple[str, ...]  # lower case
    patterns: tuple[re.Pattern[str], ...]
    requires: tuple[str, ...]
    confidence: float
    cause: str
    fix: str
    excerpt: str
    generic: bool = False
    # a catch-all for one exception's header (pydantic's 'N validation error for X'): it steps aside when
    # another entry explains the same exception (its message, or a line of it such as pydantic's reason)
    wrapper: bool = False
    fatal: bool = True
    # literals one of which, seen in the log, makes this entry fatal; without them it is a warning that stopped nothing
    # (systemd's 'Unknown section ... Ignoring.' where the unit was not refused; learn43b)
    fatal_when_seen: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()  # ids this one outranks and hides when both match
    unless_progress: bool = False  # a stall that does not count when the start kept progressing
    # a failure the server logs below ERROR at start and serves on with, refusing the requests it breaks (vLLM's caught
    # chat-template warmup): a request refused after the server came up keeps it a cause (after33g)
    refused_after: bool = False
    # an error the engine catches and goes on from where it can (llama.cpp's Hub lookup, logged at E, with an -m file to
    # fall back on): with the server up after it, it is only a note, whatever its level (after37c)
    outlived_when_up: bool = False
    # an error the engine logs and goes on from even where the start then fails (vLLM's fa_utils logs 'Cannot use FA
    # version N is not supported due to ...', catches its own assertion and falls back): where a later exception that it
    # does not explain and another cause entry does ended the run, that refusal is the cause and this a note (learn38c)
    outlived_when_refused: bool = False
    # ids of entries (role progress, category not "progress": markers only) whose line, after this entry's first and
    # before the exception that ended the run, says the engine went on past it another way (vLLM's 'Using TURBOQUANT
    # attention backend' after fa_utils' caught FA-version ERROR): then only a note, whatever explains that exception
    went_on_after: tuple[str, ...] = ()
    # a fatal cause an engine version may warn of and go on without, the thing refused undone for the server's life
    # (vLLM-CPU's NUMA memory binding): with the server up after it, a non-fatal cause at this figure, not a note
    kept_when_up: float = 0.0
    # a silent misconfiguration the server ran with (an option ignored without a word): ranks below any fatal cause
    # the log shows, as a request refusal does beside a death (close_causes.warnings_beside_a_death; learn46d)
    beside_a_death: bool = False
    explains: tuple[re.Pattern[str], ...] = ()  # exceptions this cause accounts for (their wrapper text)
    progress_note: str = ""  # what to say instead, then ({progress_line} is where it moved)
    progress_fix: str = ""  # and the fix then (default: nothing to fix, the start went on)
    unless_shutdown: bool = False  # a death that does not count after an orderly stop was asked for
    versions: str = ""
    unless_seen: tuple[str, ...] = ()  # literals that, seen anywhere, make this cause only a consequence
    own_unless_seen: bool = (
        False  # an unless_seen literal on a line its own wordings read does not (learn42g)
    )
    # a family known by where its exception was raised (the innermost frame's file), for checks whose
    # messages are too many to list (vLLM's config validators): matched on the root exception
    raised_in: re.Pattern[str] | None = None
    exception_types: tuple[str, ...] = ()
    # an exception message the place does not explain (a supplied class's own signature; learn55a)
    exception_unless: re.Pattern[str] | None = None
    exception_confidence: float = 0.0
    exception_cause: str = ""
    # wordings that only SUGGEST this cause (a bare ncclSystemError whose usual reason in a container is
    # /dev/shm): matched when no full wording is, at their own confidence (below 0.70) and cause text
    hints: tuple[re.Pattern[str], ...] = ()
    hint_confidence: float = 0.0
    hint_cause: str = ""
    hint_fix: str = ""  # the hint's own fix where it differs from the entry's (another program's remedy)
    # literals one of which the log must show for a hint to count (the flag that makes an ambiguous wording
    # point here); such a hint, its context seen, hides what this entry supersedes
    hint_requires: tuple[str, ...] = ()
    # literals one of which, seen, shows a rival cause the log cannot tell from this one (a second explicit flag that
    # fixes the same failure): the entry then answers at `rival_confidence` (below 0.70) with `rival_cause` (after35i)
    rival_requires: tuple[str, ...] = ()
    rival_confidence: float = 0.0
    rival_cause: str = ""
    # (id, group): this entry counts only when entry `id` matched too and both captured the same `group` (the
    # upstream listening on the router's own port: two lines, one value)
    same_as: tuple[str, str] | None = None
    # (id, group): this entry steps aside where entry `id`'s first line captured the same `group` and the server came
    # up after that line, before this entry's: the same file was opened and served earlier in the log (learn45e)
    unless_served_before: tuple[str, str] | None = None
    # placeholders a wording may not capture (its value is on another line): their stand-in text
    defaults: tuple[tuple[str, str], ...] = ()
    # (group, value, fills): where a wording captured `value` in `group` (case-insensitively), `fills` stand in for
    # placeholders it did not capture, over `defaults`: what a table of values knows of each (the successor of each
    # flag a build removed, which the engine's one refusal line does not name; learn50a)
    by_value: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = ()
    # a line ABOVE a wording's line that fills placeholders the wording cannot (the variable named on the
    # envs.py source line printed above its ValueError); never a hit by itself
    above: re.Pattern[str] | None = None
    # wordings (also in `patterns`) that count only after a line matched `above`: the setting they hit, shown above them
    # (a thread that could not start below the command that set an address-space limit; learn40f)
    above_patterns: tuple[re.Pattern[str], ...] = ()
    # a line (holding one of the entry's keywords) that ends what its `above` line opened: a wording below it counts as
    # if no `above` line had been seen (vLLM's 'Graph capturing finished' ends 'Capturing CUDA graphs'; learn44e)
    above_ends: re.Pattern[str] | None = None
    # a line ABOVE a wording's line that lists values (a unit's AmbientCapabilities=): a wording that captures one of
    # its groups counts only where its value names one of those listed (listed.py; learn40b)
    listed_above: re.Pattern[str] | None = None
    # (figure, bound) groups: a wording that captures `figure` counts only where it is larger than the number the
    # `above` line captured as `bound` (a plan's weights per rank over its card's memory; listed.py, learn43f)
    exceeds_above: tuple[str, str] | None = None
    # the innermost frame's file of the exception raised on a wording's line must match (its groups fill placeholders)
    raised_where: re.Pattern[str] | None = None
    # wordings (also in `patterns`) of a line a library LOGS, no exception raised on it: `raised_where` has no frame to
    # read there and does not gate them (vLLM's 'FA2 is unavailable due to: cannot import name ...'; learn46h)
    logged_patterns: tuple[re.Pattern[str], ...] = ()
    # wordings that count only where the log shows one of `context_requires` (the entry's own `requires` does not
    # apply to them): a line whose meaning depends on what else the log shows (a pin not found while pip installs an
    # sdist's BUILD dependencies; CMake's unset compiler after it fell back to NMake for want of Visual Studio)
    context_patterns: tuple[re.Pattern[str], ...] = ()
    context_requires: tuple[str, ...] = ()
    # a line holding one of `context_requires` counts as that context only where it also matches this (a figure the
    # literal cannot check: the engine's own free-memory figure above a bound)
    context_line: re.Pattern[str] | None = None
    # wordings (also in `patterns`) that count only where the exception raised on their line was called straight from
    # the run's own script (caller.py): a keyword the user's script passed, not a plugin's built for another release
    script_patterns: tuple[re.Pattern[str], ...] = ()
    # counts not where code loaded into the engine called the library that raised (caller.loaded_aside: learn47g)
    engine_called: bool = False
    # (id, group) pairs: where entry `id` matched a line above this entry's last line and captured the same `group`,
    # this refusal follows from that earlier one (a request naming an adapter whose load was refused): a symptom
    follows_from: tuple[tuple[str, str], ...] = ()
    # (line "entry:group", sent "entry", cause id, flag): a refused field that entry `line`'s start-up line set as a
    # default (its `group` lists it) and no line of entry `sent` (a request body the log shows) sent: entry `cause`
    # answers; flag (line "entry:group", cause id, {field: the flag's name for it}): where that entry's line (a start
    # flag's value) lists the field, the flag set it, and the flag's cause answers instead
    set_at_start: SetAtStart | None = None
    # a refusal of two fields together whose OTHER field (the wording's `field` group) a start-up line set as a default
    # (a generation config's max_new_tokens, temperature): the wording counts only where that line lists the field
    # and no request body the log shows sent it (start_defaults.against_default; learn39f)
    against_default: AgainstDefault | None = None

    @cached_property
    def _guarded(self) -> dict[str, tuple]:
        """The wordings with their required literals (required_literal.py), worked out at the first search."""
        return {k: guard(getattr(self, k)) for k in ("patterns", "hints", "context_patterns")}

    def in_context(self, line: str) -> re.Match[str] | None:
        return first_match(self._guarded["context_patterns"], line)

    def hint(self, line: str) -> re.Match[str] | None:
        return first_match(self._guarded["hints"], line)

    def points_back(self, seen: set[str], hit=None) -> bool:
        """A symptom, or a cause that one of its `unless_seen` literals (seen in the log) makes only a consequence
        (as `demoting` reads them: not one on its own wording's line, with `own_unless_seen`): an exception raised on
        its line points back to that reason and is not the root (after33d; learn43a)."""
        return self.role == "symptom" or bool(demoting(self, seen, hit))

    def logged(self, evidence: list[tuple[int, str]]) -> bool:
        """A hit whose evidence holds a `logged_pattern` wording: a logged line, not where an exception was raised."""
        return any(p.search(text) for _, text in evidence for p in self.logged_patterns)

    def search(self, line: str) -> re.Match[str] | None:
        return first_match(self._guarded["patterns"], line)

    def first_wording(self) -> tuple[re.Pattern[str], str]:
        """The wording `search` tries first, with its required literal (counted_lines.py searches many lines with it)."""
        return self._guarded["patterns"][0]


def demoting(sig: Signature, seen: set[str], hit=None) -> set[str]:
    """The `unless_seen` literals seen in the log that make `sig` only a consequence, less where one of its own wordings
    read a line holding one (learn42g, fresh-321: a drop-in's 'Unknown key 'ExecStrat'' is systemd-no-execstart's own
    evidence, the line that emptied ExecStart=, not a rival reason)."""
    found = seen.intersection(sig.unless_seen)
    if found and hit is not None and sig.own_unless_seen:
        own = " ".join(text for _, text in hit.evidence).lower()
        if any(word in own for word in found):
            return set()
    return found


def named_lines(signatures, hits: dict, seen: set[str]) -> set[int]:
    """The lines the wordings of the entries that count name (a wording whose entry `requires` a context the log
    lacks names nothing: an ENOENT of a folder is no missing binary's)."""
    return {
        n
        for sig in signatures
        if (hit := hits.get(sig.id)) is not None and context_met(sig, seen, hit.contextual)
        for n, _ in hit.evidence
    }


def context_met(sig: Signature, seen: set[str], contextual: bool = False) -> bool:
    """An entry counts only where the log showed the context it `requires` (one of its literals), if any; a hit of
    its `context_pattern` wordings only where the log showed one of `context_requires`. Takes anything with
    `requires`: benchmarks replay old knowledge bases as plain namespaces."""
    if contextual:
        if getattr(sig, "context_line", None) is not None:
            return context_line_key(sig.id) in seen
        return bool(seen.intersection(getattr(sig, "context_requires", ())))
    return not sig.requires or bool(seen.intersection(sig.requires))


def context_line_key(sig_id: str) -> str:
    """The token `seen` holds once a line met an entry's `context_line` (no literal has a NUL in it)."""
    return f"\0context-line:{sig_id}"


def _by_value(table: dict | None) -> tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]:
    """`by_value = {{ group = {{ VALUE = {{ placeholder = TEXT }} }} }}` flattened; values kept lower-case (matched so)."""
    return tuple(
        (group, value.lower(), tuple(fills.items()))
        for group, values in (table or {}).items()
        for value, fills in values.items()
    )


class _Kept(dict):
    """A placeholder the hit did not capture stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _named_fill(text: str, known: _Kept) -> str:
    """`text` with the {group} placeholders it names filled; a text whose braces are not all placeholders (a JSON
    body it shows) stays as written."""
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    except ValueError:
        return text
    return text.format_map(known) if names and all(n.isidentifier() for n in names) else text


def value_fills(sig: Signature, groups: dict[str, str]) -> dict[str, str]:
    """The placeholders `by_value` fills for the values this hit captured (the hit's own groups still win); a text
    may name the hit's groups (a reading's mode and backend; learn55h)."""
    fills: dict[str, str] = {}
    known = _Kept({**dict(sig.defaults), **groups})
    for group, value, texts in sig.by_value:
        if (groups.get(group) or "").lower() == value:
            fills.update((key, _named_fill(text, known)) for key, text in texts)
    return fills


def _as_tuple(value) -> tuple:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


def knowledge_entries() -> list[dict]:
    """Every [[signature]] table: signatures.toml (the schema; it may hold entries too), then each knowledge/*.toml
    by file name (one file per domain); ids are unique across files."""
    here = resources.files("servebox.doctor")
    files = [here / "signatures.toml"]
    files += sorted(
        (f for f in (here / "knowledge").iterdir() if f.name.endswith(".toml")), key=lambda f: f.name
    )
    entries = [e for f in files for e in tomllib.loads(f.read_text()).get("signature", [])]
    seen: set[str] = set()
    for e in entries:
        if e["id"] in seen:
            raise ValueError(f"servebox/doctor knowledge base: signature id {e['id']!r} is defined twice")
        seen.add(e["id"])
    return entries


def _inherited_explains(entries: list[dict]) -> dict[str, tuple[str, ...]]:
    """Each entry's `explains` with those of the entries it supersedes (transitively): a cause that outranks a
    consequence also accounts for the exceptions that consequence explains (llama.cpp's unknown GGML format version
    superseding its load failure, which explains the binding's 'Could not load Llama model' re-raise)."""
    by_id = {e["id"]: e for e in entries}
    done: dict[str, tuple[str, ...]] = {}

    def walk(eid: str, path: tuple[str, ...]) -> tuple[str, ...]:
        if eid in done:
            return done[eid]
        e = by_id[eid]
        own = list(_as_tuple(e.get("explains")))
        for other in _as_tuple(e.get("supersedes")):
            if other in by_id and other not in path:
                own += [p for p in walk(other, (*path, eid)) if p not in own]
        done[eid] = tuple(own)
        return done[eid]

    return {eid: walk(eid, ()) for eid in by_id}


# the keys whose wordings are an entry's own `patterns` (script_ and above_ wordings only count where their gate lets them)
OWN_WORDINGS = ("pattern", "script_pattern", "above_pattern", "logged_pattern")


@lru_cache(maxsize=1)
def load_signatures() -> tuple[Signature, ...]:
    entries = knowledge_entries()
    explains = _inherited_explains(entries)
    return tuple(
        Signature(
            id=e["id"],
            category=e["category"],
            role=e["role"],
            keywords=tuple(k.lower() for k in _as_tuple(e["keyword"])),
            patterns=tuple(re.compile(p, re.IGNORECASE) for k in OWN_WORDINGS for p in _as_tuple(e.get(k))),
            requires=tuple(r.lower() for r in _as_tuple(e.get("requires"))),
            confidence=float(e["confidence"]),
            cause=e["cause"],
            fix=e["fix"],
            excerpt=e["excerpt"],
            generic=bool(e.get("generic", False)),
            wrapper=bool(e.get("wrapper", False)),
            fatal=bool(e.get("fatal", e["role"] in ("cause", "symptom"))),
            fatal_when_seen=tuple(w.lower() for w in _as_tuple(e.get("fatal_when_seen"))),
            supersedes=_as_tuple(e.get("supersedes")),
            unless_progress=bool(e.get("unless_progress", False)),
            refused_after=bool(e.get("refused_after", False)),
            outlived_when_up=bool(e.get("outlived_when_up", False)),
            outlived_when_refused=bool(e.get("outlived_when_refused", False)),
            went_on_after=_as_tuple(e.get("went_on_after")),
            kept_when_up=float(e.get("kept_when_up", 0.0)),
            beside_a_death=bool(e.get("beside_a_death", False)),
            progress_note=e.get("progress_note", ""),
            progress_fix=e.get("progress_fix", ""),
            unless_shutdown=bool(e.get("unless_shutdown", False)),
            explains=tuple(re.compile(p, re.IGNORECASE) for p in explains[e["id"]]),
            versions=e.get("versions", ""),
            unless_seen=tuple(w.lower() for w in _as_tuple(e.get("unless_seen"))),
            own_unless_seen=bool(e.get("own_unless_seen", False)),
            raised_in=re.compile(e["raised_in"]) if e.get("raised_in") else None,
            exception_types=_as_tuple(e.get("exception_types")),
            exception_unless=re.compile(e["exception_unless"]) if e.get("exception_unless") else None,
            exception_confidence=float(e.get("exception_confidence", e["confidence"])),
            exception_cause=e.get("exception_cause", e["cause"]),
            hints=tuple(re.compile(p, re.IGNORECASE) for p in _as_tuple(e.get("hint_pattern"))),
            hint_confidence=float(e.get("hint_confidence", 0.0)),
            hint_cause=e.get("hint_cause", ""),
            hint_fix=e.get("hint_fix", ""),
            hint_requires=tuple(r.lower() for r in _as_tuple(e.get("hint_requires"))),
            rival_requires=tuple(r.lower() for r in _as_tuple(e.get("rival_requires"))),
            rival_confidence=float(e.get("rival_confidence", 0.0)),
            rival_cause=e.get("rival_cause", ""),
            same_as=tuple(e["same_as"].split(":", 1)) if e.get("same_as") else None,
            unless_served_before=tuple(e["unless_served_before"].split(":", 1))
            if e.get("unless_served_before")
            else None,
            follows_from=tuple(tuple(f.split(":", 1)) for f in _as_tuple(e.get("follows_from"))),
            defaults=tuple(e.get("defaults", {}).items()),
            by_value=_by_value(e.get("by_value")),
            set_at_start=parse_set_at_start(e.get("set_at_start")),
            against_default=parse_against_default(e.get("against_default")),
            above=re.compile(e["above"], re.IGNORECASE) if e.get("above") else None,
            above_patterns=tuple(re.compile(p, re.IGNORECASE) for p in _as_tuple(e.get("above_pattern"))),
            above_ends=re.compile(e["above_ends"], re.IGNORECASE) if e.get("above_ends") else None,
            listed_above=re.compile(e["listed_above"], re.IGNORECASE) if e.get("listed_above") else None,
            exceeds_above=tuple(e["exceeds_above"]) if e.get("exceeds_above") else None,
            raised_where=re.compile(e["raised_where"], re.IGNORECASE) if e.get("raised_where") else None,
            logged_patterns=tuple(re.compile(p, re.IGNORECASE) for p in _as_tuple(e.get("logged_pattern"))),
            context_patterns=tuple(re.compile(p, re.IGNORECASE) for p in _as_tuple(e.get("context_pattern"))),
            context_requires=tuple(r.lower() for r in _as_tuple(e.get("context_requires"))),
            context_line=re.compile(e["context_line"], re.IGNORECASE) if e.get("context_line") else None,
            script_patterns=tuple(re.compile(p, re.IGNORECASE) for p in _as_tuple(e.get("script_pattern"))),
            engine_called=bool(e.get("engine_called", False)),
        )
        for e in entries
        if e["role"] != "reading"  # attribution.py's answers: listed, never matched by wording
    )
