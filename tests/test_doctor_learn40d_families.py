"""What the scored batch fresh-289 (`servebox up` with a real engine going wrong, round 2) taught after scoring, with
every line servebox's own serving code prints when it refuses (servebox/cli/serve.py up / down / watch,
servebox/serve/supervisor.py, servebox/serve/router/ app.py, auth.py, body.py), and up's relayed diagnosis read at
no more than the earlier answer's own figure (servebox/doctor/incidents.py).

- api-key-missing: the router's 401 'missing or wrong API key (send Authorization: Bearer KEY)' (auth.py).
- servebox-up-already-running (new): cli/serve.py up's 'servebox up already runs with DIR (pid N)'.
- servebox-down-nothing-running, servebox-engine-stopped-by-operator, servebox-request-body-too-large,
  servebox-unit-not-answering (new): down's 'nothing recorded', the router's 503 engine_stopped and 413, the incident
  of a model systemd runs.
- request-model-name-missing, server-still-loading-model, request-body-invalid-json, servebox-engine-hung,
  engine-killed-from-outside, servebox-spec-invalid: the router's / watch's / up's own wordings of those causes.
- Relayed diagnoses: an entry's cause text counts without its `requires` context (the engine log's, checked then),
  its hint text at the hint's figure, an id named in other words only as a lead.
Messages are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from servebox.doctor.signatures import load_signatures
from tests.doctor_text import family_tests, run, top_cause

T = "2026-12-06T09:14:02Z"
UP = (
    "$ servebox up /etc/servebox/spec.toml --state-dir /var/lib/servebox\n"
    f"{T} qwen: started pid 7301 (start), log /var/lib/servebox/logs/qwen.log\n"
    f"{T} router on http://0.0.0.0:8000/v1 (models: qwen)\n"
)


def body(message: str, code: str, status: str = "server_error") -> str:
    """The router's error body (errors.py error_body), as curl prints it."""
    return f'{{"error":{{"message":"{message}","type":"{status}","param":null,"code":"{code}"}}}}\n'


def sdk(kind: str, status: int, message: str, code: str, status_type: str = "invalid_request_error") -> str:
    """The same body as the openai SDK raises it (a Python dict's repr)."""
    return (
        f"openai.{kind}: Error code: {status} - {{'error': {{'message': {message!r}, 'type': '{status_type}', "
        f"'param': None, 'code': '{code}'}}}}\n"
    )


CASES = [
    # auth.py's 401 for a wrong key sent as x-api-key, curl -s (no status line) (rendered)
    (
        "api-key-missing",
        UP
        + "$ curl -s http://127.0.0.1:8000/v1/models -H 'x-api-key: sk-old'\n"
        + body(
            "missing or wrong API key (send Authorization: Bearer KEY)",
            "invalid_api_key",
            "authentication_error",
        ),
    ),
    # cli/serve.py up's refusal under systemd's journal, another state dir and pid (rendered)
    (
        "servebox-up-already-running",
        "Dec 06 09:14:02 gpu1 servebox[9120]: servebox: servebox up already runs with /var/lib/servebox (pid 4411)\n"
        "Dec 06 09:14:02 gpu1 servebox[9120]: servebox: stop it first: servebox down\n"
        "Dec 06 09:14:02 gpu1 systemd[1]: servebox.service: Main process exited, code=exited, status=1/FAILURE\n",
    ),
    # cli/serve.py down with no up.json (InputError, rendered)
    (
        "servebox-down-nothing-running",
        "$ servebox down --state-dir /srv/llm/state\n"
        "servebox: error: /srv/llm/state/up.json: nothing recorded: is servebox up running with this --state-dir?\n",
    ),
    # router/app.py admit, after the status page's stop button, as the SDK raises it (rendered)
    (
        "servebox-engine-stopped-by-operator",
        sdk(
            "InternalServerError",
            503,
            "engine qwen was stopped by the operator (POST /servebox/engines/qwen/start)",
            "engine_stopped",
            "server_error",
        ),
    ),
    # router/body.py too_large, as the SDK raises it (rendered)
    (
        "servebox-request-body-too-large",
        sdk(
            "APIStatusError",
            413,
            "request body larger than the router's limit of 33554432 bytes",
            "request_too_large",
        ),
    ),
    # supervisor.py _check for a run_as_unit model never healthy (rendered)
    (
        "servebox-unit-not-answering",
        f"{T} qwen: run by systemd (run_as_unit = true): proxied to port 18211\n"
        f"{T} router on http://0.0.0.0:8000/v1 (models: qwen)\n"
        f"{T} qwen: INCIDENT dead: no answer on port 18211 31 s after servebox started; it is run by systemd: see "
        "`systemctl status servebox-qwen`; diagnosis: not diagnosed (no log here); run by systemd: not restarted by "
        "servebox\n",
    ),
    # router/app.py pick, a body whose model is a number (rendered)
    (
        "request-model-name-missing",
        sdk("BadRequestError", 400, "the request names no model (field `model`, a string)", "model_missing"),
    ),
    # router/app.py admit while an on-demand engine compiles (rendered)
    (
        "server-still-loading-model",
        "HTTP/1.1 503 Service Unavailable\nretry-after: 5\n"
        + body("model qwen is loading (compiling)", "model_loading")[:-2]
        + ',"state":"starting","phase":"compiling"}\n',
    ),
    # router/body.py's json.loads refusal (rendered)
    (
        "request-body-invalid-json",
        "HTTP/1.1 400 Bad Request\n"
        + body(
            "the request body is not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2"
            " (char 1)",
            "invalid_json",
            "invalid_request_error",
        ),
    ),
    # the router's 503 engine_down of a hung engine, and watch's line (rendered)
    (
        "servebox-engine-hung",
        "HTTP/1.1 503 Service Unavailable\n"
        + body(
            "engine qwen is hung: 3 request(s) in flight and no token or request finished for 62 s (window 60 s)",
            "engine_down",
        ),
    ),
    (
        "servebox-engine-hung",
        "$ servebox watch spec.toml\nservebox up (pid 4411), state of 2026-12-06T09:14:02Z\n"
        "qwen: hung (the one-token probe timed out while /health answered); 0 restart(s)\n",
    ),
    # supervisor.py _check: a multi-node model's node killed (nodes.py ended()) (rendered)
    (
        "engine-killed-from-outside",
        f"{T} big: INCIDENT dead: node gpu2 (rank 1, pid 5512) killed by SIGKILL: the engine cannot run without it; "
        "diagnosis: no known cause in the log; restart after 2 s\n",
    ),
    # cli/serve.py refuse() of plan_nodes' ValueError (rendered)
    (
        "servebox-spec-invalid",
        "servebox: models.big.nodes: the head gpu1 (10.0.0.5) is not this machine: run servebox up there, or pass "
        "--all-nodes-here to run every node here\n"
        "servebox: nothing was started: use multi_node_backend = 'mp' to run it with servebox up\n",
    ),
    # a relayed cause whose entry `requires` a line only the engine log had (failed to read magic): the console alone,
    # the give-up line first (a pasted tail) (rendered: another path)
    (
        "llamacpp-model-path-is-a-directory",
        f"{T} qwen: FAILED, not restarting: gave up (same cause twice in a row: llamacpp-model-path-is-a-directory): "
        "llama.cpp was given /srv/models/Qwen2.5-0.5B as the model (llama-server's -m, llama-quantize's input), which "
        "is not a .gguf file: most often the model's directory (a Hugging Face folder not yet converted, or a "
        "checkpoint in another format), so its header cannot be read. (fix: Pass the .gguf file itself); fix it, then "
        "start servebox up again\n",
    ),
]

NEAR_MISSES = [
    # a stale up.json is cleaned and up serves: no second up is running
    (
        "servebox-up-already-running",
        f"{T} removed a stale /var/lib/servebox/up.json (pid 4411 is not that servebox up anymore)\n"
        + UP[UP.index("\n") + 1 :]
        + f"{T} qwen: ready (41 s after start, measured)\n",
    ),
    # down after a crash: a stale record, cleaned; nothing refused
    (
        "servebox-down-nothing-running",
        "$ servebox down\nservebox up (pid 4411) was not running: stale record cleaned\n"
        "qwen: ended the engine a previous run left (pid 7301, port 18211)\n",
    ),
    # api_keys set and the request sent with its key: 200
    (
        "api-key-missing",
        UP + f"{T} qwen: ready (41 s after start, measured)\n"
        '$ curl -s http://127.0.0.1:8000/v1/models -H "Authorization: Bearer sk-local-1"\n'
        '{"object":"list","data":[{"id":"qwen","object":"model","owned_by":"servebox"}]}\n',
    ),
    # a node that crashed on its own (SIGSEGV) is not killed from outside
    (
        "engine-killed-from-outside",
        f"{T} big: INCIDENT dead: node gpu2 (rank 1, pid 5512) killed by SIGSEGV: the engine cannot run without it; "
        "diagnosis: no known cause in the log; restart after 2 s\n",
    ),
    # nginx's own 413 page in front of the router is not the router's limit
    (
        "servebox-request-body-too-large",
        "HTTP/1.1 413 Request Entity Too Large\nServer: nginx/1.24.0\n\n<html><head><title>413 Request Entity Too "
        "Large</title></head></html>\n",
    ),
    # a model loading (not stopped by anyone) is not the operator's stop
    (
        "servebox-engine-stopped-by-operator",
        sdk(
            "InternalServerError",
            503,
            "model qwen is loading (loading weights)",
            "model_loading",
            "server_error",
        ),
    ),
    # an id up named in words this doctor does not write for it (another version's): a lead, never confident
    (
        "vllm-env-value-not-integer",
        f"{T} qwen: INCIDENT dead: the engine process is gone; diagnosis: VLLM_CPU_KVCACHE_SPACE must be a number "
        "(fix: set it to 4); gave up (same cause twice in a row: vllm-env-value-not-integer)\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def _incident(cause: str, fix: str, family: str) -> str:
    return (
        f"{T} qwen: INCIDENT dead: the engine process is gone; diagnosis: {cause} (fix: {fix}); restart after 2 s\n"
        f"{T} qwen: INCIDENT dead: the engine process is gone; diagnosis: {cause} (fix: {fix}); gave up (same cause "
        f"twice in a row: {family})\n"
    )


def test_a_relayed_cause_keeps_its_fields_and_figure_without_the_engine_logs_context():
    """vllm-env-value-not-integer requires an envs.py line the console never shows; its relayed cause names the
    variable and the value, which the answer keeps (the router's 503 body alone, as a client sees it)."""
    sig = next(s for s in load_signatures() if s.id == "vllm-env-value-not-integer")
    cause = sig.cause.format(var="VLLM_ENGINE_ITERATION_TIMEOUT_S", value="60s")
    fix = sig.fix.format(var="VLLM_ENGINE_ITERATION_TIMEOUT_S")
    log = (
        "HTTP/1.1 503 Service Unavailable\n"
        + body(
            f"engine qwen failed: gave up (same cause twice in a row: {sig.id}): {cause} (fix: {fix}); fix it, then "
            "start servebox up again",
            "engine_failed",
        )[:-3]
        + ',"state":"failed"}}\n'
    )
    top = top_cause(run(log))
    assert top is not None and top.id == sig.id and top.confidence == sig.confidence, (top, log)
    assert "VLLM_ENGINE_ITERATION_TIMEOUT_S" in top.cause and "'60s'" in top.cause


def test_a_relayed_hint_is_repeated_at_the_hints_figure_not_the_entrys():
    """host-oom-kill's hint (a bare SIGKILL, 0.60) relayed by id: the earlier answer was a lead, and stays one."""
    sig = next(s for s in load_signatures() if s.id == "host-oom-kill")
    top = top_cause(run(_incident(sig.hint_cause, sig.fix, sig.id)))
    assert top is not None and top.id == sig.id, top
    assert top.confidence == sig.hint_confidence < 0.7


def test_an_id_named_in_other_words_is_a_lead_that_quotes_them():
    top = top_cause(
        run(
            _incident(
                "the KV cache space must be a whole number of GiB", "set it to 4", "kv-cache-space-too-large"
            )
        )
    )
    assert top is not None and top.id == "kv-cache-space-too-large" and top.confidence < 0.7, top
    assert "servebox up's diagnosis named this cause" in top.cause and "whole number of GiB" in top.cause


def test_an_unknown_id_up_named_gives_no_confident_answer():
    top = top_cause(run(_incident("something no doctor wrote", "n/a", "a-family-since-removed")))
    assert top is None or top.confidence < 0.7, top


def test_an_earlier_generic_answer_gives_way_to_the_engine_words_it_quoted():
    """An older doctor's llamacpp-load-failed relayed with llama.cpp's own refusal in its {why}: the engine's words
    (a GGUF key missing) name the specific cause, which outranks the repeated generic one (rendered: another key)."""
    cause = "llama.cpp could not load the GGUF: error loading model: key not found in model: qwen2.context_length."
    fix = "Check that the file is complete (size, `servebox inspect FILE.gguf`)"
    top = top_cause(run(_incident(cause, fix, "llamacpp-load-failed")))
    assert top is not None and top.id == "llamacpp-gguf-metadata-missing", top
