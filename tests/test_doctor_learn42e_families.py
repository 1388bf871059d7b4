"""What the measured batch fresh-317 (llama-server b11434, old ground re-drawn) taught, with each miss's neighbourhood
in llama.cpp's b11434 source.

- llamacpp-rank-pooling-on-generative-model: now a cause (0.5, non-fatal), not a note: the warning names rank pooling
  ([4]) forced on a model that declares none, so whatever /rerank answers is meaningless; a refused request in the
  same log stays the answer.
- request-field-missing: tools/server/server-stream.cpp's (and the router's) 'Missing conversation id in path' for
  GET / DELETE /v1/stream without conv_id.
- llamacpp-threads-batch-huge-omp-crash: a thread flag of 1024 or more and a segfault; a normal -t 8 is not it.
- llamacpp-model-url-alone-starts-router: -mu / --model-url / LLAMA_ARG_MODEL_URL without -m / -hf, and the router's
  start lines.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

ROUTER = (
    "0.00.014.971 I srv    operator(): Available models (0):\n"
    "0.00.014.997 I srv    operator():   no models found on the system (visit https://llama.app/models for suggestions)\n"
    "0.00.015.074 I srv  llama_server: starting server in router mode. models will be automatically loaded on-demand\n"
    "0.00.015.222 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
LISTENING = "0.00.057.866 I srv  llama_server: listening on http://127.0.0.1:8080\n"


def reply(code: int, msg: str, typ: str = "invalid_request_error") -> str:
    return f'{{"error":{{"code":{code},"message":"{msg}","type":"{typ}"}}}}\n'


def pooling(default: int, given: int) -> str:
    # rendered: src/llama-context.cpp llama_init_from_model's 'model default pooling_type is [%d], but [%d] was specified'
    return (
        f"W llama_init_from_model: model default pooling_type is [{default}], but [{given}] was specified\n"
    )


CASES = [
    # --pooling rank on an embedding model that declares mean pooling (1), then a /v1/rerank answered (rendered)
    (
        "llamacpp-rank-pooling-on-generative-model",
        "$ llama-server -m nomic-embed.gguf --port 8080 --embeddings --pooling rank\n"
        + pooling(1, 4)
        + LISTENING
        + "srv  log_server_r: request: POST /v1/rerank 127.0.0.1 200\n",
    ),
    # --reranking on a chat model through the environment (LLAMA_ARG_RERANKING), no request yet: the warning names rank
    (
        "llamacpp-rank-pooling-on-generative-model",
        "$ LLAMA_ARG_RERANKING=1 llama-server -m qwen2.5-0.5b-instruct-q8_0.gguf --port 8080\n"
        + pooling(-1, 4)
        + LISTENING,
    ),
    # GET /v1/stream without conv_id, through an access log and the router's forward (rendered: server-models.cpp)
    (
        "request-field-missing",
        "srv  log_server_r: request: GET /v1/stream 127.0.0.1 400\n"
        + "srv  log_server_r: response: "
        + reply(400, "Missing conversation id in path"),
    ),
    # DELETE /v1/stream (the explicit Stop) without conv_id, from curl (rendered)
    (
        "request-field-missing",
        "$ curl -s -X DELETE 'http://127.0.0.1:8080/v1/stream'\n"
        + reply(400, "Missing conversation id in path"),
    ),
    # -t 4096 under systemd: the unit's segfault (rendered)
    (
        "llamacpp-threads-batch-huge-omp-crash",
        "llama-server[811]: ExecStart=/usr/local/bin/llama-server -m /models/m.gguf -t 4096 --port 8080\n"
        + "llama-server[811]: 0.00.029.270 I cmn          init: llama threadpool init, n_threads = 4096\n"
        + "systemd[1]: llama.service: Main process exited, code=dumped, status=11/SEGV\n",
    ),
    # --threads-batch=20000 in a shell, bash's own report of the crash
    (
        "llamacpp-threads-batch-huge-omp-crash",
        "$ ./llama-server -m m.gguf --threads-batch=20000 -c 2048\n"
        + "I cmn          init: llama threadpool init, n_threads = 8\n"
        + "Segmentation fault (core dumped)\n",
    ),
    # the draft model's batch threads, a docker run's exit code 139
    (
        "llamacpp-threads-batch-huge-omp-crash",
        "$ docker run ghcr.io/ggml-org/llama.cpp:server -m /m/t.gguf -md /m/d.gguf -tbd 5000\n"
        + "I cmn          init: llama threadpool init, n_threads = 8\n"
        + "container exited with code 139\n",
    ),
    # --model-url alone (the long flag), then "model 'tiny' not found"
    (
        "llamacpp-model-url-alone-starts-router",
        "$ llama-server --port 8080 --model-url https://example.com/models/tiny-Q8_0.gguf\n"
        + ROUTER
        + reply(400, "model 'tiny' not found"),
    ),
    # LLAMA_ARG_MODEL_URL in the environment of the command line, a chat without a model field
    (
        "llamacpp-model-url-alone-starts-router",
        "$ LLAMA_ARG_MODEL_URL=http://10.0.0.5:8000/gemma-3-1b-it-Q4_K_M.gguf llama-server --port 8080 -c 4096\n"
        + ROUTER
        + reply(400, "model name is missing from the request"),
    ),
]

NEAR_MISSES = [
    # a normal -t 8 beside a segfault is only a segfault
    (
        "llamacpp-threads-batch-huge-omp-crash",
        "$ llama-server -m m.gguf -t 8 -tb 16 --threads-http 2048 -c 4096\n"
        + "I cmn          init: llama threadpool init, n_threads = 8\n"
        + "Segmentation fault (core dumped)\n",
    ),
    # a huge thread count that ran (no crash) is nothing here
    (
        "llamacpp-threads-batch-huge-omp-crash",
        "$ llama-server -m m.gguf -t 2000 -c 512\n" + LISTENING,
    ),
    # -mu WITH -m: a single-model start (its download refusal is another family's)
    (
        "llamacpp-model-url-alone-starts-router",
        "$ llama-server -m /models/t.gguf -mu https://example.com/t.gguf --port 8080\n"
        + "E srv  llama_server: failed to download model: HTTPS is not supported. Please rebuild with one of:\n",
    ),
    # a router over --models-dir with a stray -mu: the empty models folder is the cause
    (
        "llamacpp-model-url-alone-starts-router",
        "$ llama-server --models-dir /srv/empty -mu https://example.com/t.gguf --port 8080\n" + ROUTER,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_rank_pooling_other_overrides_are_not_it():
    """Mean / last pooling forced on a chat model is a legitimate embedding: no answer from this family."""
    result = run("$ llama-server -m chat.gguf --embeddings --pooling mean\n" + pooling(-1, 1) + LISTENING)
    assert all(d.id != "llamacpp-rank-pooling-on-generative-model" for d in result.diagnoses)


def test_rank_pooling_yields_to_a_refused_request():
    """A /rerank refused in the same log (a missing field) stays the answer; the pooling cause comes second."""
    result = run(
        "$ llama-server -m tiny.gguf --reranking\n"
        + pooling(-1, 4)
        + LISTENING
        + "srv  log_server_r: response: "
        + reply(400, '\\"query\\" is required')
    )
    ids = [d.id for d in result.diagnoses if d.role == "cause"]
    assert ids[:2] == ["request-field-missing", "llamacpp-rank-pooling-on-generative-model"], ids
    assert top_cause(result).confidence >= 0.8


def test_model_url_ending_in_slash_stays_its_own_family():
    """-mu http://host/ (no file name) is llamacpp-model-url-without-file-name's, not this family's."""
    top = top_cause(run("$ llama-server --port 8080 -mu http://127.0.0.1:8000/\n" + ROUTER))
    assert top is not None and top.id == "llamacpp-model-url-without-file-name"
