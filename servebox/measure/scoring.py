"""Score one answer and name how a response degenerated.

The digest's checkpoint failed 1 answer in 6 inside its reasoning: the same line hundreds of
times, or rambling, until the token budget ran out and the content came back empty. Each class
is detected from the response itself: a repeated tail or a high repeated n-gram rate, a low
compression ratio over a long reasoning with no answer, an opened reasoning never closed, empty
content, finish_reason=length. An answer is read tolerantly: a boxed answer, an 'answer:' line,
else the last number (numeric questions) or the normalised text.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from typing import Any

NUMBER_RE = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
BOXED_RE = re.compile(r"\\boxed\{([^{}]*)\}")
ANSWER_LINE_RE = re.compile(r"(?im)^\s*(?:final\s+)?answer\s*[:=]\s*(.+?)\s*$")
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"

REPEAT_MIN_COPIES = 8  # a tail of >= 8 identical copies of a period is a loop, not emphasis
NGRAM = 8
NGRAM_REPEAT_RATE = 0.5
RAMBLE_MIN_CHARS = 4000
RAMBLE_MAX_RATIO = 0.30  # zlib-compressed / raw: natural prose is ~0.4-0.5, loops < 0.1


def repeated_tail(text: str, max_period: int = 400) -> tuple[int, int] | None:
    """(period, copies) when the text ends in >= REPEAT_MIN_COPIES copies of one substring."""
    text = text.rstrip()
    n = len(text)
    for period in range(1, min(max_period, n // REPEAT_MIN_COPIES) + 1):
        unit = text[n - period :]
        copies = 1
        while copies * period + period <= n and text[n - (copies + 1) * period : n - copies * period] == unit:
            copies += 1
        if copies >= REPEAT_MIN_COPIES and unit.strip():
            return period, copies
    return None


def repeated_ngram_rate(text: str, n: int = NGRAM) -> float:
    words = text.split()
    if len(words) < n * 4:
        return 0.0
    grams = Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    repeated = sum(c for c in grams.values() if c > 1)
    return repeated / max(1, sum(grams.values()))


def compression_ratio(text: str) -> float:
    raw = text.encode()
    return len(zlib.compress(raw, 6)) / max(1, len(raw))


def split_reasoning(content: str, reasoning: str | None) -> tuple[str, str, bool]:
    """(answer text, reasoning text, reasoning opened but never closed), whether or not the server parsed it."""
    reasoning = reasoning or ""
    if THINK_OPEN in content or (THINK_CLOSE in content and not reasoning):
        before, closed, after = content.partition(THINK_CLOSE)
        if closed:
            return after, reasoning + before.replace(THINK_OPEN, ""), False
        return "", reasoning + content.replace(THINK_OPEN, ""), True
    return content, reasoning, False


def degeneration(content: str, reasoning: str | None, finish_reason: str | None) -> list[str]:
    answer, thought, never_closed = split_reasoning(content or "", reasoning)
    reasons = []
    for label, text in (("repetition in reasoning", thought), ("repetition in answer", answer)):
        tail = repeated_tail(text)
        if tail:
            reasons.append(f"{label}: a {tail[0]}-character unit repeated {tail[1]} times at the end")
        elif repeated_ngram_rate(text) > NGRAM_REPEAT_RATE:
            reasons.append(f"{label}: {100 * repeated_ngram_rate(text):.0f}% of {NGRAM}-grams repeated")
    if (
        not any(r.startswith("repetition") for r in reasons)
        and len(thought) >= RAMBLE_MIN_CHARS
        and not answer.strip()
    ):
        ratio = compression_ratio(thought)
        if ratio < RAMBLE_MAX_RATIO:
            reasons.append(
                f"rambling: {len(thought):,} characters of reasoning compress to {ratio:.2f} with no answer"
            )
    if never_closed or (thought and not answer.strip() and finish_reason == "length"):
        reasons.append("reasoning never closed")
    if not answer.strip():
        reasons.append("empty content")
    if finish_reason == "length":
        reasons.append("finish_reason=length")
    return reasons


def degeneration_class(reasons: list[str]) -> str:
    """The one class a degenerate response is counted under, most specific first."""
    for key, label in (
        ("repetition", "repetition"),
        ("rambling", "rambling"),
        ("never closed", "never closed"),
        ("finish_reason", "length"),
        ("empty", "empty"),
    ):
        if any(key in r for r in reasons):
            return label
    return "other"


def normalise(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def extract(answer_text: str, kind: str) -> str | None:
    boxed = BOXED_RE.findall(answer_text)
    if boxed:
        candidate = boxed[-1]
    else:
        lines = ANSWER_LINE_RE.findall(answer_text)
        candidate = lines[-1] if lines else answer_text
    if kind == "number":
        numbers = NUMBER_RE.findall(candidate)
        return numbers[-1].replace(",", "") if numbers else None
    return normalise(candidate)


def is_correct(extracted: str | None, expected: Any, kind: str) -> bool:
    if extracted is None:
        return False
    if kind == "number":
        try:
            value = float(extracted)
        except ValueError:
            return False
        return math.isclose(value, float(expected), rel_tol=1e-6, abs_tol=1e-6)
    words = extracted.split()
    target = normalise(str(expected))
    return extracted == target or target in words or (words and words[-1] == target)


def score(
    question: dict[str, Any], content: str, reasoning: str | None, finish_reason: str | None
) -> dict[str, Any]:
    reasons = degeneration(content, reasoning, finish_reason)
    answer, _, _ = split_reasoning(content or "", reasoning)
    extracted = extract(answer, question["type"])
    correct = is_correct(extracted, question["answer"], question["type"])
    if reasons and not correct:
        verdict, cls = "degenerate", degeneration_class(reasons)
    else:
        verdict, cls = ("correct" if correct else "wrong"), None
    return {"verdict": verdict, "class": cls, "reasons": reasons, "extracted": extracted}


def two_proportion_test(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """z and the two-sided p-value that two success rates differ (pooled normal approximation)."""
    if n1 == 0 or n2 == 0:
        return 0.0, 1.0
    p1, p2, pooled = k1 / n1, k2 / n2, (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (p1 - p2) / se
    return z, math.erfc(abs(z) / math.sqrt(2))
