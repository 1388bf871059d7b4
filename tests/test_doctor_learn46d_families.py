"""What fresh-387's miss (llama-server b11434 with -m beside --models-preset) taught, with its neighbourhood in
b11434's source.

- llamacpp-models-preset-ignored-with-model (new): tools/server/server.cpp llama_server's `is_router_server` is true
  only without a model source (-m / --model, -hf / -hfr / --hf-repo, -dr / --docker-repo, or their LLAMA_ARG_MODEL /
  LLAMA_ARG_HF_REPO / LLAMA_ARG_DOCKER_REPO variables); with one, the router-only options of common/arg.cpp
  (--models-preset, --models-dir, --models-max, --models-autoload / --no-models-autoload and their LLAMA_ARG_MODELS_*
  variables, read only by server-models.cpp) are ignored without a word, and every request is answered by the one
  model. Confident where a reply shows the -m file answering; the command line alone is a lead below 0.70.
The command lines and replies are written here (rendered from the option table and the reply's shape), not the corpus
log's.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

FAMILY = "llamacpp-models-preset-ignored-with-model"


def single_model(command: str, model: str, reply: str | None = None) -> str:
    """A single-model start as b11434 logs it (its lines rendered), a chat naming another model and its reply."""
    text = (
        f"$ {command}\n"
        "0.00.014.956 I srv  llama_server: initializing ...\n"
        f"0.00.030.490 I srv    load_model: loading model '{model}'\n"
        "0.01.395.922 I srv  llama_server: model loaded\n"
        "0.01.395.926 I srv  llama_server: listening on http://127.0.0.1:8080\n"
    )
    if reply is not None:
        text += (
            '# request: POST http://127.0.0.1:8080/v1/chat/completions {"messages": [{"role": "user", "content": '
            '"Hi"}], "model": "qwen-coder"}\nHTTP/1.1 200 OK\n' + reply + "\n"
        )
    return text


def compact(model: str) -> str:
    """The reply's JSON as llama-server writes it (one line, no spaces)."""
    return (
        '{"choices":[{"finish_reason":"length","index":0,"message":{"role":"assistant","content":"Hello"}}],'
        f'"created":1796580636,"model":"{model}","system_fingerprint":"b11434","object":"chat.completion"}}'
    )


def pretty(model: str) -> str:
    """The same reply as `curl ... | jq` shows it."""
    return f'{{\n  "choices": [],\n  "model": "{model}",\n  "object": "chat.completion"\n}}'


A = "/srv/models/llama-3.2-1b-q4_k_m.gguf"

CASES = [
    # the router option after -m, the reply from the -m file
    (FAMILY, single_model(f"llama-server -m {A} --port 8080 --models-dir /srv/models", A, compact(A))),
    # the router option first, the model given as --model=PATH, and --models-max
    (
        FAMILY,
        single_model(f"llama-server --models-max 2 --host 0.0.0.0 --model={A} --port 8080", A, pretty(A)),
    ),
    # --no-models-autoload beside -hf (a model repo): the command line alone, a lead
    (FAMILY, single_model("llama-server -hf unsloth/Qwen3-0.6B-GGUF:Q4_K_M --no-models-autoload", A)),
    # the preset through its variable, the model through -m
    (
        FAMILY,
        single_model(
            f"LLAMA_ARG_MODELS_PRESET=/etc/llama/models.ini llama-server -m {A} --port 8080", A, compact(A)
        ),
    ),
    # the model through its variable in a container, the directory on the command line
    (
        FAMILY,
        single_model(
            f"docker run -p 8080:8080 -e LLAMA_ARG_MODEL={A} ghcr.io/ggml-org/llama.cpp:server --models-dir /srv/models",
            A,
            pretty(A),
        ),
    ),
]

NEAR_MISSES = [
    # a router (no model source) over its preset: what the flags are for
    (
        FAMILY,
        "$ llama-server --port 8080 --models-preset /etc/llama/models.ini --models-max 2\n"
        "0.00.015.074 I srv  llama_server: starting server in router mode. models will be automatically loaded on-demand\n",
    ),
    # -m alone, the reply from its file
    (FAMILY, single_model(f"llama-server -m {A} --port 8080", A, compact(A))),
]


test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def ids(log: str) -> set[str]:
    return {d.id for d in run(log).diagnoses}


def test_confident_only_where_a_reply_shows_the_model_file():
    strong = top_cause(
        run(single_model(f"llama-server -m {A} --models-preset /etc/llama/models.ini", A, compact(A)))
    )
    lead = top_cause(run(single_model(f"llama-server -m {A} --models-preset /etc/llama/models.ini", A)))
    assert strong.id == lead.id == FAMILY
    assert strong.confidence >= 0.7 > lead.confidence


def test_no_model_source_is_not_this_family():
    # a router without a model, -mu alone (a router too: llamacpp-model-url-alone-starts-router's), -hff without -hf,
    # -m alone, and flags whose names only begin like a source's (-mu, -md, -hff)
    for command in (
        "llama-server --models-dir /srv/models --models-autoload",
        "llama-server -mu https://example.com/m.gguf --models-preset /etc/llama/models.ini",
        "llama-server -hff model-Q4_K_M.gguf --models-dir /srv/models",
        "llama-server -md /srv/draft.gguf --models-max 2",
        f"llama-server -m {A} -c 512",
    ):
        assert FAMILY not in ids(single_model(command, A, compact(A))), command


def test_a_real_failure_outranks_it():
    # the -m file is missing: the load failure is the answer, not the ignored preset
    log = (
        f"$ llama-server -m {A} --models-preset /etc/llama/models.ini\n"
        f"0.00.043.333 I srv    load_model: loading model '{A}'\n"
        f"0.00.043.439 E gguf_init_from_file: failed to open GGUF file '{A}' (No such file or directory)\n"
        f"0.00.043.558 E llama_model_load: error loading model: llama_model_loader: failed to load model from {A}\n"
        f"0.00.043.626 E srv    load_model: failed to load model, '{A}'\n"
        "0.00.044.014 E srv  llama_server: exiting due to model loading error\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id != FAMILY, top


def test_a_crash_after_serving_outranks_it():
    # beside_a_death: served with the preset ignored, then an abort (a lower figure than the ignored preset's 0.75)
    log = single_model(f"llama-server -m {A} --models-preset /etc/llama/models.ini", A, compact(A)) + (
        "/home/ggml/llama.cpp/src/llama-context.cpp:1234: GGML_ASSERT(n_tokens_all <= cparams.n_batch) failed\n"
        "Aborted (core dumped)\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id != FAMILY and top.fatal, top
