"""servebox eval and bench against a replaying OpenAI-compatible server: scoring, the degeneration
classes on real-looking transcripts, the digest-style report, the noise test, and bench mechanics."""

from __future__ import annotations

import asyncio
import json
import random

from servebox.measure import evaluate as ev
from servebox.measure.bench import run_bench
from servebox.measure.scoring import degeneration, degeneration_class, extract, score, two_proportion_test
from tests.replay_server import ReplayServer

LOOP = "Let me compute 17 x 23.\n" + "17 x 23 = 391\n" * 300
RAMBLE_WORDS = (
    "perhaps maybe consider again the value seems check whether another approach could wait actually hmm so then if we "
    "think about it differently though not sure which path leads where question asks about number again compute"
).split()


def rambling_text(words: int = 1400) -> str:
    rng = random.Random(7)
    return " ".join(rng.choice(RAMBLE_WORDS) for _ in range(words))


def q(kind="number", answer=391):
    return {"id": "x", "kind": "arithmetic", "question": "What is 17 * 23?", "answer": answer, "type": kind}


def test_extractor_is_tolerant():
    assert extract("so the result is \\boxed{391}.", "number") == "391"
    assert extract("We get 17*23.\nAnswer: 1,234", "number") == "1234"
    assert extract("It is 42, not 41", "number") == "41"  # the last number
    assert extract("Answer: Saturday.", "text") == "saturday"
    assert score(q("text", "saturday"), "The day was a Saturday", None, "stop")["verdict"] == "correct"


def test_degeneration_classes_on_real_looking_transcripts():
    rep = score(q(), "", LOOP, "length")
    assert rep["verdict"] == "degenerate" and rep["class"] == "repetition"
    assert any("repeated" in r for r in rep["reasons"]) and "finish_reason=length" in rep["reasons"]
    never = score(q(), "<think>\nFirst, 17 times 20 is 340, and 17 times 3 is 51, so", None, "length")
    assert never["class"] == "never closed" and "reasoning never closed" in never["reasons"]
    ramble = score(q(), "", rambling_text(), "length")
    assert ramble["class"] == "rambling", ramble["reasons"]
    empty = score(q(), "   ", "17 x 23 is 391, done.", "stop")
    assert empty["class"] == "empty"
    fine = score(q(), "Answer: 391", "17*23 = 391", "stop")
    assert fine == {"verdict": "correct", "class": None, "reasons": [], "extracted": "391"}
    # a long but healthy reasoning is not flagged
    prose = " ".join(f"Step {i}: multiply digit {i % 10} by {i % 7} and carry {i % 3}." for i in range(300))
    assert not degeneration("Answer: 391", prose, "stop")
    assert degeneration_class(["empty content", "finish_reason=length"]) == "length"


def test_two_proportion_test():
    z, p = two_proportion_test(18, 30, 30, 30)  # the digest: 18/30 vs 30/30
    assert p < 0.001
    assert two_proportion_test(18, 30, 15, 30)[1] > 0.05  # 18/30 vs 15/30 (temperature 0.6) is within noise


def test_eval_end_to_end_against_a_replay_server(run_cli, tmp_path):
    questions = ev.load_questions()
    assert len(questions) >= 40 and {q["kind"] for q in questions} == {
        "arithmetic",
        "units",
        "logic",
        "dates",
        "code",
    }
    responses = {
        "17 * 23": ("", "17 * 23 = 391\nAnswer: 391", "stop"),
        "1234 + 5678": ("", "", "length"),  # reasoning burnt the budget: empty answer
        "1000 - 387": (LOOP, "", "length"),
        "144 divided by 12": ("144/12", "Answer: 11", "stop"),
    }
    with ReplayServer(responses, old_field=True) as server:
        out = tmp_path / "run.jsonl"
        r = run_cli(
            "eval",
            server.url,
            "--model",
            "m",
            "--limit",
            "4",
            "--repeats",
            "3",
            "--transcripts",
            out,
            "--temperature",
            "0.6",
            "--chat-template-kwargs",
            '{"enable_thinking": true}',
            "--json",
        )
        sent = server.requests[0]
    assert r.code == 0, r.err
    report = r.json()
    assert report["summary"] == "3/12 correct (25%), 6 degenerate: 3 length, 3 repetition"
    assert report["wrong"] == 3 and report["by_kind"]["arithmetic"]["total"] == 12
    assert sent["temperature"] == 0.6 and sent["chat_template_kwargs"] == {"enable_thinking": True}
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 12 and rows[0]["reasoning"] == "" and any(row["reasoning"] == LOOP for row in rows)
    same_run = run_cli("eval", "--compare", out, out, "--json")
    assert same_run.code == 0, same_run.err
    same = same_run.json()
    assert same["verdict"] == "within noise"


def test_bench_mechanics_against_a_replay_server(tmp_path):
    with ReplayServer(token_delay_s=0.01) as server:
        report = asyncio.run(
            run_bench(server.url, "m", concurrency=4, requests=12, input_tokens=50, output_tokens=20)
        )
        sweep = asyncio.run(
            run_bench(server.url, "m", sweep_max=4, requests=8, input_tokens=20, output_tokens=10)
        )
        rated = asyncio.run(
            run_bench(server.url, "m", rate=50.0, requests=10, input_tokens=20, output_tokens=10)
        )
        sent = server.requests[-1]
    level = report.levels[0]
    assert report.prompt_source == "server tokenizer (/tokenize)"
    assert level.requests == 12 and level.errors == 0
    assert (
        level.output_tokens_per_s > 0 and level.ttft_s["p50"] is not None and level.tpot_s["p50"] is not None
    )
    assert level.ttft_s["p50"] <= level.e2e_s["p50"]
    assert level.engine["running_max"] is not None and level.engine["running_max"] >= 1
    assert [lv.concurrency for lv in sweep.levels][:2] == [1, 2]
    assert rated.levels[0].request_rate == 50.0
    assert sent["stream_options"] == {"include_usage": True} and sent["max_tokens"] == 10


def test_bench_cli_html_and_errors(run_cli, tmp_path):
    with ReplayServer() as server:
        html = tmp_path / "b.html"
        r = run_cli(
            "bench",
            server.url.removesuffix("/v1"),
            "--model",
            "m",
            "--sweep",
            "2",
            "--requests",
            "4",
            "--output-tokens",
            "5",
            "--html",
            html,
            "--json",
        )
    assert r.code == 0 and "polyline" in html.read_text()
    dead = run_cli("bench", "http://127.0.0.1:9", "--model", "m", "--requests", "2", "--json")
    assert dead.code == 1 and dead.json()["levels"][0]["errors"] == 2
    assert run_cli("bench", "not-a-url", "--model", "m").code == 2
