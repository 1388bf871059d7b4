"""A wording is skipped only where it could not have matched (required_literal.py), and unwrap's one-pass marker
search finds what a byte search per marker found, again after a step that made a marker (stop 44's speed work)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import servebox.doctor.unwrap as unwrap_module
from servebox.doctor.required_literal import first_match, guard, lowered, required_literal
from servebox.doctor.triage import Triage

LOGS = Path(__file__).parent / "fixtures" / "logs"


@pytest.mark.parametrize(
    ("pattern", "literal"),
    [
        (r"(?<!`)OSError: \[Errno 24\] Too many open files", "oserror: [errno 24] too many open files"),
        (r"(?:accept4?|socket|open [^\s:]+): too many open files", ": too many open files"),
        (r"a(?:bc)?def", "def"),  # the optional group is not required
        (r"(?:xyz)+q", "xyz"),  # a repeat of at least one is
        (r"(?:abcd)*x", ""),  # one of at least none is not
        (r"alpha|betagamma", ""),  # an alternative: neither side is required
        (r"(?=lookahead)x", ""),
        (r"foo\bbarbaz", "barbaz"),  # an anchor ends a run
        (r"Ünïcode only", ""),  # a run holding a non-ASCII letter is not used
        (r"ab", ""),  # shorter than MIN_ATOM: in most lines, not worth a test
    ],
)
def test_required_literal(pattern, literal):
    assert required_literal(pattern, re.IGNORECASE) == literal


@pytest.mark.parametrize("line", ["\u212aelvin", "\u212aELVIN \u2713", "k\u0130ss", "s\u0131nk", "\u017fink"])
def test_non_ascii_line_that_re_matches_keeps_its_literal(line):
    # re takes the Kelvin sign for k, dotted and dotless I for i, the long s for s under IGNORECASE: lowered() writes
    # them as those letters, so the guard still lets the wording search the line
    wording = {"\u212a": "kelvin", "\u0130": "kiss", "\u0131": "sink", "\u017f": "sink"}
    pattern = re.compile(next(w for c, w in wording.items() if c in line), re.IGNORECASE)
    assert pattern.search(line) is not None
    assert first_match(guard((pattern,)), line) is not None


def test_non_ascii_line_without_the_literal_skips_the_wording():
    # a security table's row: its ✗ no longer turns the guard off, so a wording whose literal it lacks is not searched
    slow = re.compile(r"(?P<what>[\w ]+?) (?:is )?out of range, ignoring", re.IGNORECASE)
    row = "\u2717 CapabilityBoundingSet=~CAP_SYS_TIME    Service processes may change the system clock    0.2"
    assert first_match(guard((slow,)), row) is None
    assert "out of range, ignoring" not in lowered(row)


def test_every_character_re_takes_for_an_ascii_letter_is_folded():
    """Each code point that a case-insensitive [a-z] matches, outside ASCII, lowers (via lowered) to that letter,
    and no other non-ASCII character lowers to text holding an ASCII letter: the guard is exact on any line."""
    letter = re.compile("[a-z]", re.IGNORECASE)
    for c in range(0x80, sys.maxunicode + 1):
        ch = chr(c)
        low = lowered(ch)
        if letter.fullmatch(ch):
            assert low == ch.lower()[:1] or low.isascii(), hex(c)
            assert re.fullmatch(low, ch, re.IGNORECASE), hex(c)
        else:
            assert not any(x.isascii() and x.isalpha() for x in low), hex(c)


def _real_lines() -> list[str]:
    """The bundled logs' lines and every 20th corpus log's (real engines' own words, a few MB)."""
    corpus = sorted((LOGS.parent / "doctor-corpus").glob("*.log"))[::20]
    paths = [*sorted(LOGS.glob("*.log")), *corpus]
    return [line for p in paths for line in p.read_text(errors="replace").splitlines()]


def test_guarded_search_finds_what_every_wording_finds_on_real_lines():
    """Every knowledge-base entry offered every real line that holds one of its keywords (as triage offers them):
    the guarded search returns the same wording's same match as trying each wording in turn."""
    triage = Triage("x")
    compared = 0
    for line in _real_lines():
        words = {w for _, w in triage.finder.iter(line.encode())}
        for sig in {s.id: s for w in words for s in triage.by_keyword.get(w, ())}.values():
            for patterns, guarded in ((sig.patterns, sig.search), (sig.hints, sig.hint)):
                plain = next((m for p in patterns if (m := p.search(line))), None)
                fast = guarded(line)
                assert (plain and (plain.re.pattern, plain.span())) == (
                    fast and (fast.re.pattern, fast.span())
                )
                compared += 1
    assert compared > 5_000  # the comparison ran on many real lines (8,858 at stop 44), not on a few


@pytest.mark.parametrize(
    "chunk",
    [
        b"plain INFO line\nanother\n",
        b"svc-1  | panic: x\nsvc-1  | y\n",
        b"\xe2\x94\x82 boxed \xe2\x94\x82\n",
        b"SOURCE on GPU with PROFILE: 1 error(s), 0 warning(s)\n",
        b"host=\\'huggingface.co\\'\n\xe2\x95\xb0\xe2\x94\x80\xe2\x95\xaf\n",
    ],
)
def test_marker_set_finds_what_byte_searches_find(chunk, monkeypatch):
    with_set = unwrap_module._marks_in(chunk)
    monkeypatch.setattr(unwrap_module, "_MARKER_SET", None)
    assert unwrap_module._marks_in(chunk) == with_set


def test_a_marker_a_step_made_is_looked_for_again():
    # docker's json-file record escapes the box bar: it exists only once the record is read, and is then unboxed
    record = (
        json.dumps({"log": "\u2502 ValueError: bad value \u2502\n", "stream": "stderr", "time": "t"}) + "\n"
    )
    assert "\u2502".encode() not in record.encode()
    out = unwrap_module.unwrap(record.encode()).decode()
    assert out.strip() == "ValueError: bad value"
