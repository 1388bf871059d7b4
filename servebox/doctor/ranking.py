"""From hits to a ranked answer, with calibrated confidence.

Why one module: every rule that moves a cause up, down or aside reads the same hits and the same log facts
(afterwards.py), and their order matters; the rules, in the order they apply, are in docs/doctor-ranking.md (keep it
in step with this code).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from servebox.doctor.abort_cause import abort_explained
from servebox.doctor.afterwards import (
    SERVING,
    cut_at_context,
    stopped_mid_request,
    stopped_mid_start,
    stopped_then_refused,
)
from servebox.doctor.attribution import STRUCTURAL, below_families
from servebox.doctor.background_refusals import set_aside
from servebox.doctor.bench_context import bench_over_context, probe_aside
from servebox.doctor.bench_served_name import bench_name_not_served
from servebox.doctor.bench_too_early import bench_before_server_up
from servebox.doctor.blocking_unit_line import blocking_unit_lines
from servebox.doctor.caller import loaded_aside, scripted
from servebox.doctor.capture_size import capture_size_hits
from servebox.doctor.client_succeeded import refusals_outlived
from servebox.doctor.close_causes import (
    close_causes,
    ignored_unit_line,
    independent_warnings,
    warnings_beside_a_death,
)
from servebox.doctor.co_tenant import elsewhere_lines
from servebox.doctor.copy_side import read_sides
from servebox.doctor.demotions import what_followed
from servebox.doctor.engine_gone import killed_alone
from servebox.doctor.entry_point_module import entry_point_aside, entry_point_named
from servebox.doctor.flashinfer_device import flashinfer_device
from servebox.doctor.hub_ref_listing import ref_names_no_listed_snapshot
from servebox.doctor.idle_at_death import idle_at_death
from servebox.doctor.incidents import RELAYED_AS_READ, as_relayed, stopped_each_start
from servebox.doctor.interrupt_last import interrupt_ended_start
from servebox.doctor.listed import served_before
from servebox.doctor.llamacpp_attribution import LLAMA_FEATURE, in_a_feature, refine
from servebox.doctor.meant_member import meant_member
from servebox.doctor.method_retried import retried_aside
from servebox.doctor.older_copy import read_older_copies
from servebox.doctor.option_package import name_option
from servebox.doctor.package_copy import read_copies
from servebox.doctor.plugin_load import lines_of, marker_aside
from servebox.doctor.ready_then_gone import ready_then_gone
from servebox.doctor.registered_model import registered_module_aside
from servebox.doctor.remote_import import read_remote_imports
from servebox.doctor.resemblance import answer as resemblance_answer
from servebox.doctor.responses_tools import tools_not_served
from servebox.doctor.results import CONFIDENT
from servebox.doctor.root_exception import (
    first_root,
    root_of,
    weigh_root,
    went_on_past,
    wrappers_aside,
)
from servebox.doctor.sent_shape import shape_refused
from servebox.doctor.sent_type import asked_type_sent
from servebox.doctor.server_went_silent import went_silent
from servebox.doctor.shared_wording import calibrate
from servebox.doctor.signatures import context_met, demoting, named_lines, value_fills
from servebox.doctor.start_defaults import against_default, set_at_start
from servebox.doctor.statement import stated_answer
from servebox.doctor.stop_in_flight import cut_above_stop, stopped_in_flight
from servebox.doctor.stop_shown import stop_alone
from servebox.doctor.system_exit import exit_message
from servebox.doctor.temp_fallback import temp_fell_back
from servebox.doctor.torch_backend import torch_backend_hits
from servebox.doctor.triage import Diagnosis, Evidence, Hits, RaisedException, TriageResult
from servebox.doctor.typing_backport import stale_typing_hits
from servebox.doctor.unit_refused import behind_refused_unit

if TYPE_CHECKING:
    from servebox.doctor.signatures import Signature
    from servebox.doctor.triage import Triage


class _Format(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def _matched(t: Triage) -> tuple[list[tuple[Signature, Hits]], list[Hits]]:
    """The entries that count, and the hits of those hidden by an entry that supersedes them."""
    found = [
        (sig, hit)
        for sig in t.signatures
        if (hit := _as_hint(t, sig, t.hits.get(sig.id))) is not None
        and sig.role in ("cause", "symptom", "note")
        # a relayed answer's context was the engine log's, checked by the doctor that wrote it (incidents.py)
        and (bool(hit.relayed) or context_met(sig, t.seen_requirements, hit.contextual))
        and not (
            hit.weak
            and not hit.relayed
            and sig.hint_requires
            and not t.seen_requirements.intersection(sig.hint_requires)
        )
        and (sig.same_as is None or bool(hit.relayed) or _same_value(t, hit, *sig.same_as))
        and not (sig.unless_served_before and served_before(t.hits, hit, *sig.unless_served_before, SERVING))
        and (sig.id != LLAMA_FEATURE or in_a_feature(hit))
    ]
    specific = {p.pattern for sig, _ in found if sig.requires for p in sig.patterns}
    found = [(s, h) for s, h in found if s.requires or not {p.pattern for p in s.patterns} & specific]
    categories = {s.category for s, _ in found if s.role == "cause" and not s.generic}
    found = [(s, h) for s, h in found if not (s.generic and s.category in categories)]
    # a catch-all or symptom on only the lines a specific cause explains says nothing more (ENOENT on systemd's
    # namespace line, EAGAIN on llama.cpp's mlock warning)
    # (a cause that another found entry supersedes explains nothing: vk::DeviceLostError's abort line is the symptom's)
    outranked = {x for s, h in found if not h.weak or s.hint_requires for x in s.supersedes}
    explained = {
        n
        for s, h in found
        if s.role == "cause"
        and not s.generic
        and not h.weak
        and s.id != LLAMA_FEATURE  # it only refines
        and s.id not in outranked
        for n, _ in h.evidence
    }
    found = [(s, h) for s, h in found if not _only_on(s, h, explained)]
    # a hint hides nothing, unless the context it requires was seen (the flag that makes it this entry's); nor does a
    # cause its `unless_seen` makes only a consequence (after34b: an adapter's hint beside a whole model's kv dump)
    hidden = {
        x
        for s, h in found
        if (not h.weak or s.hint_requires) and not demoting(s, t.seen_requirements, h)
        for x in s.supersedes
    }
    return [(s, h) for s, h in found if s.id not in hidden], [h for s, h in found if s.id in hidden]


def _as_hint(t: Triage, sig: Signature, hit: Hits | None) -> Hits | None:
    """A `context_pattern` hit where the log lacks the context still counts as a hint where the entry's hint wording
    holds the same line (llama.cpp's 'available devices: 0': no backends loaded in a GGML_BACKEND_DL build, only a
    hint of it elsewhere)."""
    if hit is None or not hit.contextual or context_met(sig, t.seen_requirements, True):
        return hit
    if any(sig.hint(text) for _, text in hit.evidence):
        return replace(hit, weak=True, contextual=False)
    return hit


def _only_on(sig: Signature, hit: Hits, lines: set[int]) -> bool:
    """A catch-all or symptom all of whose lines are among `lines`."""
    return (
        (sig.generic or sig.role == "symptom")
        and bool(hit.evidence)
        and {n for n, _ in hit.evidence} <= lines
    )


def _same_value(t: Triage, hit: Hits, other: str, group: str) -> bool:
    """Entry `other` matched too, and its first match captured the same `group` as this hit's."""
    seen = t.hits.get(other)
    return (
        seen is not None and hit.groups.get(group) is not None and seen.groups.get(group) == hit.groups[group]
    )


def _orderly_stop(t: Triage, diagnoses: list[Diagnosis]) -> list[Diagnosis]:
    """A log with no failure but an asked-for stop (SIGTERM, ctrl-C, systemctl stop) says so as a note, rather
    than 'no known signature' over the warnings of a healthy run; a stop that cut a request in flight is the cause."""
    stops = [(sig, hit) for sig in t.signatures if sig.role == "shutdown" and (hit := t.hits.get(sig.id))]
    if not stops:
        return []
    d = _diagnosis(*min(stops, key=lambda s: s[1].first_line), t, False)
    if any(f(t, d, diagnoses) for f in (stopped_mid_request, cut_above_stop, stopped_each_start)):
        return [d]
    if any(x.role in ("cause", "symptom") for x in diagnoses):
        return []
    ended = stopped_mid_start(t, d) or interrupt_ended_start(t, d)
    if not (ended or stopped_then_refused(t, d) or stopped_in_flight(t, d) or stop_alone(t, d)):
        d.role, d.fatal = "note", False
    return [d]


def _exception_hits(t: Triage, raised: list[RaisedException]) -> set[str]:
    """Hits for entries known by where their exception was raised: the first exception that is not
    a wrapper, when it was raised in a matching file and no entry names its line already."""
    first = first_root(raised)
    if first is None or not first.raised_in:
        return set()
    if first.line in named_lines(t.signatures, t.hits, t.seen_requirements):
        return set()  # known by its wording, not by its place
    via: set[str] = set()
    short = first.type.rsplit(".", 1)[-1]
    for sig in t.signatures:
        if sig.raised_in is None or sig.id in t.hits:
            continue
        if sig.exception_types and short not in sig.exception_types:
            continue
        if sig.exception_unless is not None and sig.exception_unless.search(first.message):
            continue  # a message that names whose code raised there (a supplied class's signature; learn55a)
        if sig.raised_in.search(first.raised_in):
            text = f"{first.type}: {first.message}"[:400]
            t.hits[sig.id] = Hits(first.occurrences, first.line, first.line, {}, [(first.line, text)])
            via.add(sig.id)
    return via


def _diagnosis(sig: Signature, hit: Hits, t: Triage, via_exception: bool = False) -> Diagnosis:
    groups = _Format({**dict(sig.defaults), **value_fills(sig, hit.groups), **hit.groups})
    raised_here = [  # raised on this line, or spanning it (pydantic's reason below its header)
        e for e in t.raised.values() if hit.first_line in e.span(t.exception_ends)
    ]
    # the exception's own text over an entry's stand-in default (learn46c), not over a wording's group
    if raised_here:
        for key, value in (("exception", raised_here[0].message), ("exception_type", raised_here[0].type)):
            if key not in hit.groups:
                groups[key] = value.rsplit(".", 1)[-1] if key == "exception_type" else value
    d = Diagnosis(
        id=sig.id,
        category=sig.category,
        role=sig.role,
        cause=(sig.exception_cause if via_exception else sig.cause).format_map(groups),
        fix=sig.fix.format_map(groups),
        confidence=sig.exception_confidence if via_exception else sig.confidence,
        occurrences=hit.count,
        first_line=hit.first_line,
        evidence=[Evidence(line=n, text=s) for n, s in hit.evidence],
        fatal=sig.fatal
        and (not sig.fatal_when_seen or bool(t.seen_requirements.intersection(sig.fatal_when_seen))),
        versions=sig.versions,
    )
    if hit.weak:
        d.cause, d.confidence = sig.hint_cause.format_map(groups), min(sig.hint_confidence, d.confidence)
        d.fix = sig.hint_fix.format_map(groups) if sig.hint_fix else d.fix
    elif hit.relayed in RELAYED_AS_READ:
        as_relayed(d, sig, groups, hit.relayed)
    elif sig.rival_requires and t.seen_requirements.intersection(sig.rival_requires):
        d.cause, d.confidence = sig.rival_cause.format_map(groups), min(sig.rival_confidence, d.confidence)
    what_followed(d, sig, t, hit, groups)  # what the log shows after the hit (demotions.py)
    return d


def _verdict(top: Diagnosis | None, competing: bool) -> str:
    if top is None:
        return "no known signature"
    if top.role == "cause":
        if top.confidence_kind == "resemblance":
            return "resembles a known cause"
        if competing:
            return "competing causes"
        # a reading of where the exception was raised is an inference about it, not a known cause
        if top.id == "stated-cause":
            return "stated by the log"
        return "exception only" if top.id in ("uncaught-exception", *STRUCTURAL) else "cause found"
    return "symptoms only" if top.role == "symptom" else "no failure"


def placed(t: Triage, raised: list[RaisedException]) -> None:
    """An entry with `raised_where` counts only where the exception raised on its wording's line was raised in a
    file it names (the innermost frame's); that file's groups fill its placeholders."""
    for sig in t.signatures:
        hit = t.hits.get(sig.id)
        if sig.raised_where is None or hit is None or hit.relayed or sig.logged(hit.evidence):
            continue  # (a `logged_pattern` line raised nothing: no frame to read)
        lines = [n for n, _ in hit.evidence]  # a source line quoting the message is not where it was raised
        files = [e.raised_in for e in raised for n in lines if n in e.span(t.exception_ends)]
        m = next((m for f in files if f and (m := sig.raised_where.search(f))), None)
        if m is None:
            del t.hits[sig.id]
        else:
            hit.groups.update({k: v for k, v in m.groupdict().items() if v})


def rank(t: Triage) -> TriageResult:
    raised = sorted(t.raised.values(), key=lambda e: e.line)
    placed(t, raised)
    unregistered = registered_module_aside(t, raised)  # a registered model's module path not there (learn47b)
    entry_point_aside(t, raised)  # a plugin entry point's module not there (learn53c)
    read_copies(t, raised)  # which copy of a package an import error came from (learn48a)
    read_remote_imports(t, raised)  # a checkpoint's own file importing a missing package (learn50e)
    read_sides(t, raised)  # which side of a version skew is the copy out of place (learn50d)
    read_older_copies(t, raised)  # an older copy failing against its newer neighbour (learn51b)
    name_option(t)  # the option that asked for a missing optional package (learn51b)
    against_default(t)  # a refusal of two fields, one of them a file's default
    asked_type_sent(t)  # 'must be a non-empty string' where the body sent a string (learn49d)
    retried_aside(t)  # a 405 whose route then answered the right method (learn55b)
    meant_member(t)  # a union's error list: the member the client meant names the fault (learn54f)
    shape_refused(t, raised)  # a bare 400 beside a shown body whose field the API never takes (learn50b)
    scripted(t, raised)
    loaded_aside(t, raised)  # a library's refusal that code loaded into the engine asked for (learn47g)
    via = torch_backend_hits(t, raised)  # a -cc mode 1-2 backend failing inside torch (learn48g)
    via |= capture_size_hits(t, raised)  # a -cc capture size below 1, failing at capture (learn55h)
    via |= stale_typing_hits(t, raised)  # an older typing_extensions, failing in typing's frames (learn54e)
    via |= _exception_hits(t, raised)
    found, superseded = _matched(t)
    found, aside = wrappers_aside(found, raised, t.exception_ends)
    superseded += aside
    # an exception on a symptom's line (or an unless_seen consequence's) only points back; one on a superseded entry's line is
    # explained by the entry that superseded it
    pointing = [(sig, hit) for sig, hit in found if sig.points_back(t.seen_requirements, hit)]
    pointers = tuple(sig for sig, _ in pointing)
    consumed = {n for _, hit in pointing for n, _ in hit.evidence}
    consumed |= {n for hit in superseded for n, _ in hit.evidence}
    consumed |= elsewhere_lines(t, found)  # a co-tenant's exception is not the server's (learn44e)
    consumed |= lines_of(t, raised)  # a plugin's exception vLLM caught loading it (learn46e)
    consumed |= unregistered  # the inspection symptom answers for it
    root = root_of(raised, consumed, t.exception_ends, pointers)
    found = [set_at_start(t, sig, hit) or (sig, hit) for sig, hit in found]  # a file's default, refused
    diagnoses = [_diagnosis(sig, hit, t, sig.id in via) for sig, hit in found]
    # a hint its context made specific (hint_requires seen) outranks a bare one on its line (learn55g)
    specific = {id(d) for (s, h), d in zip(found, diagnoses, strict=True) if h.weak and s.hint_requires}
    abort_explained(diagnoses)  # an error line just above an abort names why it aborted
    temp_fell_back(t, diagnoses)  # a socket path long because /tmp was unusable (learn49a)
    marker_aside(diagnoses)  # 'Failed to load plugin' where a family names why (learn46e)
    entry_point_named(t, diagnoses)  # ... or where its entry point names a module not shipped (learn53c)
    flashinfer_device(
        t, diagnoses
    )  # a FlashInfer kernel refused 'current device': the log's GPU decides (learn48b)
    causes = [(d, sig, hit) for d, (sig, hit) in zip(diagnoses, found, strict=True) if d.role == "cause"]
    end = t.exception_ends.get(root.line, 0) if root else 0
    causes = went_on_past(causes, root, t.hits, end)  # an error the engine went past another way (learn44h)
    competing = weigh_root(diagnoses, causes, root, end)
    behind = behind_refused_unit(t, diagnoses)  # a unit systemd refused never starts: its cause is met first
    quiet = frozenset(sig.id for sig in t.signatures if sig.beside_a_death)
    aside = warnings_beside_a_death(diagnoses, quiet)  # after: the cause that refused the unit is fatal
    confident = {
        d.category
        for d in diagnoses
        if d.role == "cause" and d.confidence >= CONFIDENT and id(d) not in aside | behind
    }
    competing |= len(confident) > 1
    killed_alone(t, diagnoses)  # vLLM reports its engine dead, nothing else failed (engine_gone.py)
    if (
        unserved_tool := tools_not_served(t, diagnoses)
    ) is not None:  # a Responses tool never served (learn50c)
        diagnoses.append(unserved_tool)
    if (gone := ready_then_gone(t, diagnoses)) is not None:  # served every start, then vanished (learn50c)
        diagnoses.append(gone)
    # a server's output stopping dead at a streamed 200 while its client's stream is cut (learn52b)
    if (silent := went_silent(t, diagnoses)) is not None:
        diagnoses.append(silent)
    if (like := resemblance_answer(t, root, diagnoses)) is not None:
        diagnoses.append(like)
    set_aside(t, diagnoses)  # a long journal's minority of refusals: notes (background_refusals.py)
    if (idle := idle_at_death(t, diagnoses)) is not None:  # a fault signal with no task in flight (learn53f)
        diagnoses.append(idle)
    diagnoses += _orderly_stop(t, diagnoses)
    if (cut := cut_at_context(t, diagnoses)) is not None:  # an answer cut at its slot's end
        diagnoses.append(cut)
    if (over := bench_over_context(t)) is not None:  # a benchmark's lengths above the server's context
        diagnoses.append(over)
    if (
        unserved := bench_name_not_served(t)
    ) is not None:  # a benchmark's model name the server does not serve
        diagnoses.append(unserved)
    if (early := bench_before_server_up(t, diagnoses)) is not None:  # a benchmark before its server listened
        diagnoses.append(early)
    if (
        ref := ref_names_no_listed_snapshot(t, diagnoses)
    ) is not None:  # a cached repo's ref naming no snapshot
        diagnoses.append(ref)
    probe_aside(t, diagnoses)  # vllm bench's own /tokenize probe, refused: not the run's refusal
    refusals_outlived(t, diagnoses)  # a client's tally of every request succeeded: refusals were not its own
    if (
        said := exit_message(t, diagnoses)
    ) is not None:  # a bare message, then exit 1: a SystemExit (learn54c)
        diagnoses.append(said)
    if (stated := stated_answer(t.statements, diagnoses, t.lines)) is not None:
        diagnoses.append(stated)
    # capped first, so the order is the figures shown (after32f: a capped 0.78 had ranked above a 0.80)
    calibrate(diagnoses)
    order = {"cause": 0, "symptom": 1, "note": 2}
    blocking = blocking_unit_lines(
        t, diagnoses
    )  # an ignored unit line that stops the whole service (learn55f)
    diagnoses.sort(
        key=lambda d: (
            order.get(d.role, 3),
            id(d) in aside,
            id(d) in behind,
            ignored_unit_line(d, blocking),  # after any other cause, whatever its figure (stop 47)
            -d.confidence,
            d.first_line,
            id(d) not in specific,
        )
    )
    diagnoses = refine(below_families(diagnoses))
    competing |= independent_warnings(diagnoses, aside | behind, blocking) or close_causes(
        diagnoses, aside | behind
    )
    verdict = _verdict(diagnoses[0] if diagnoses else None, competing)
    return TriageResult(
        source=t.source,
        lines=t.lines,
        bytes=t.bytes,
        diagnoses=diagnoses,
        verdict=verdict,
        fatal=any(d.fatal and d.role in ("cause", "symptom") for d in diagnoses),
        exception=root,
        exceptions=raised[:16],
        last_error_lines=[Evidence(line=n, text=s) for n, s in t.error_tail()]
        if verdict != "cause found"
        else [],
        cut_lines=t.framer.cut_lines,
    )
