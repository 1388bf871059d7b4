"""`servebox eval`: verifiable questions asked N times through the client path, scored and classified.

Reports like the digest ("18/30 correct (60%), 5 degenerate: 4 repetition, 1 never closed"), per
kind, with every transcript in a JSONL file; `compare` tells whether two runs differ beyond noise.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from servebox.errors import InputError
from servebox.measure.client import chat, make_client
from servebox.measure.scoring import score, two_proportion_test

SYSTEM_PROMPT = "Answer the question. End with a line 'Answer: <answer>' holding only the final answer."


def load_questions(path: Path | None = None) -> list[dict[str, Any]]:
    text = (
        path.read_text()
        if path
        else resources.files("servebox.measure").joinpath("questions.jsonl").read_text()
    )
    questions = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                str(path or "questions.jsonl"), f"line {number}", f"malformed JSON: {exc.msg}"
            ) from None
        for key in ("id", "kind", "question", "answer", "type"):
            if key not in q:
                raise InputError(str(path or "questions.jsonl"), f"line {number}.{key}", "missing")
        questions.append(q)
    return questions


class EvalReport(BaseModel):
    model: str
    total: int
    correct: int
    wrong: int
    degenerate: int
    degenerate_by_class: dict[str, int]
    errors: int
    by_kind: dict[str, dict[str, int]]
    summary: str
    transcripts: str | None = None


def summarise(model: str, records: list[dict[str, Any]], transcripts: str | None = None) -> EvalReport:
    verdicts = Counter(r["verdict"] for r in records)
    classes = Counter(r["class"] for r in records if r["verdict"] == "degenerate")
    by_kind: dict[str, Counter] = defaultdict(Counter)
    for r in records:
        by_kind[r["kind"]][r["verdict"]] += 1
        by_kind[r["kind"]]["total"] += 1
    total = len(records)
    correct = verdicts["correct"]
    summary = f"{correct}/{total} correct ({100 * correct / total:.0f}%)" if total else "no responses"
    if verdicts["degenerate"]:
        summary += f", {verdicts['degenerate']} degenerate: " + ", ".join(
            f"{n} {c}" for c, n in classes.most_common()
        )
    if verdicts["error"]:
        summary += f", {verdicts['error']} request errors"
    return EvalReport(
        model=model,
        total=total,
        correct=correct,
        wrong=verdicts["wrong"],
        degenerate=verdicts["degenerate"],
        degenerate_by_class=dict(classes),
        errors=verdicts["error"],
        by_kind={k: dict(v) for k, v in by_kind.items()},
        summary=summary,
        transcripts=transcripts,
    )


async def run_eval(
    base_url: str,
    model: str,
    questions: list[dict[str, Any]],
    repeats: int,
    sampling: dict[str, Any],
    concurrency: int = 4,
    timeout_s: float = 600,
    api_key: str | None = None,
    progress=None,
) -> list[dict[str, Any]]:
    jobs = [(q, i) for q in questions for i in range(repeats)]
    records: list[dict[str, Any]] = []
    semaphore = asyncio.Semaphore(concurrency)
    async with make_client(concurrency, timeout_s, api_key) as client:

        async def one(q: dict[str, Any], attempt: int) -> None:
            async with semaphore:
                body = {
                    "model": model,
                    "messages": [
                        {"role": "system", "content": SYSTEM_PROMPT},
                        {"role": "user", "content": q["question"]},
                    ],
                    **sampling,
                }
                c = await chat(client, base_url, body)
            if not c.ok:
                record = {
                    "verdict": "error",
                    "class": None,
                    "reasons": [c.error or f"HTTP {c.status}"],
                    "extracted": None,
                }
            else:
                record = score(q, c.content, c.reasoning, c.finish_reason)
            records.append(
                {
                    "id": q["id"],
                    "kind": q["kind"],
                    "attempt": attempt,
                    "question": q["question"],
                    "expected": q["answer"],
                    **record,
                    "content": c.content,
                    "reasoning": c.reasoning,
                    "finish_reason": c.finish_reason,
                    "completion_tokens": c.completion_tokens,
                    "seconds": round(c.e2e, 3),
                }
            )
            if progress:
                progress()

        await asyncio.gather(*(one(q, i) for q, i in jobs))
    records.sort(key=lambda r: (r["id"], r["attempt"]))
    return records


def write_transcripts(records: list[dict[str, Any]], path: Path) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def read_transcripts(path: Path) -> list[dict[str, Any]]:
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(str(path), None, f"not a transcript JSONL: {exc}") from None


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]], alpha: float = 0.05) -> dict[str, Any]:
    ka, na = sum(r["verdict"] == "correct" for r in a), len(a)
    kb, nb = sum(r["verdict"] == "correct" for r in b), len(b)
    z, p = two_proportion_test(ka, na, kb, nb)
    da, db = sum(r["verdict"] == "degenerate" for r in a), sum(r["verdict"] == "degenerate" for r in b)
    zd, pd = two_proportion_test(da, na, db, nb)
    verdict = "differ beyond noise" if p < alpha else "within noise"
    return {
        "a": f"{ka}/{na}",
        "b": f"{kb}/{nb}",
        "z": z,
        "p_value": p,
        "verdict": verdict,
        "degenerate_a": f"{da}/{na}",
        "degenerate_b": f"{db}/{nb}",
        "degenerate_p_value": pd,
        "summary": f"correct {ka}/{na} vs {kb}/{nb}: p = {p:.3f} ({verdict} at alpha {alpha})",
    }
