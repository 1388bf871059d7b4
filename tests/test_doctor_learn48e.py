"""What fresh-431's three misses taught (learn48e): llama-server b11434's own router mode.

- llamacpp-model-url-alone-starts-router (widened): a --models-preset section with model-url and no model makes the
  router spawn its child with --model-url and no --model (server-models.cpp update_args, preset.cpp to_args); the
  child decides single-model vs router from -m / -hf / -dr alone, so it starts as a router itself ('[PORT] ...
  starting server in router mode') and never loads. The router's own 'failed to open GGUF file' of the URL's cache
  path is its offline capability probe (update_caps), a consequence, not the cause.
- llamacpp-preset-value-quoted (new): the preset INI reader (common/preset.cpp parse_ini_from_file) keeps a value's
  quotes, so the child gets '"/path"' (or '"4096"') and fails.
- model-name-not-served (widened): the router's /models/load and /models/unload answer a name it does not list with a
  bare 'model is not found'; a listed model in the wrong state stays llamacpp-router-model-state-refused's.
Lines are the sources' format strings rendered with other values (models, paths, ports), not the corpus logs' own.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause


def router_start(command: str, listed: str, probe: str = "") -> str:
    """The router's start as b11434 prints it (server.cpp, server-models.cpp log_available_models), `probe` its
    update_caps line, if any."""
    return (
        f"$ {command}\n"
        "0.00.001.020 I srv  llama_server: initializing ...\n"
        + probe
        + "0.00.031.400 I srv    operator(): Available models (1):\n"
        + f"0.00.031.410 I srv    operator():   [    preset] {listed}\n"
        "0.00.031.500 W srv  llama_server: security: router mode enabled - do not expose to untrusted environments\n"
        "0.00.031.510 I srv  llama_server: starting server in router mode. models will be automatically loaded "
        "on-demand\n"
        "0.00.031.900 I srv  llama_server: listening on http://0.0.0.0:8080\n"
    )


def spawn(name: str, port: int, *args: str) -> str:
    """The router's spawn lines (server-models.cpp load: 'spawning server instance with args:' then '  %s' each)."""
    lines = [
        f"0.01.200.000 I srv          load: spawning server instance with name={name} on port {port}\n",
        "0.01.200.010 I srv          load: spawning server instance with args:\n",
    ]
    for arg in (
        "/usr/local/bin/llama-server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--alias",
        name,
        *args,
    ):
        lines.append(f"0.01.200.020 I srv          load:   {arg}\n")
    return "".join(lines)


# ---- a preset's model-url without model: the child starts as a router

URL = "https://huggingface.co/acme/Mistral-7B-GGUF/resolve/main/mistral-7b-q4_k_m.gguf"
URL_PRESET = f"$ cat models.ini\n[mistral]\nmodel-url = {URL}\nn-gpu-layers = 99\n"
URL_PROBE = (
    "0.00.030.100 E gguf_init_from_file: failed to open GGUF file "
    "'/home/ana/.cache/llama.cpp/acme_Mistral-7B-GGUF_mistral-7b-q4_k_m.gguf' (No such file or directory)\n"
)
CHILD_AS_ROUTER = (
    "[51234] 0.00.021.000 I srv  llama_server: initializing ...\n"
    "[51234] 0.00.028.900 I srv    operator(): Available models (0):\n"
    "[51234] 0.00.028.910 I srv    operator():   no models found on the system (visit https://llama.app/models for "
    "suggestions)\n"
    "[51234] 0.00.029.000 I srv  llama_server: starting server in router mode. models will be automatically loaded "
    "on-demand\n"
    "[51234] 0.00.029.300 I srv  llama_server: listening on http://127.0.0.1:51234\n"
)
URL_ALONE = (
    URL_PRESET
    + router_start("llama-server --models-preset models.ini --host 0.0.0.0 --port 8080", "mistral", URL_PROBE)
    + '$ curl -s http://127.0.0.1:8080/v1/chat/completions -d \'{"model": "mistral", "messages": []}\'\n'
    + spawn("mistral", 51234, "--n-gpu-layers", "99", "--model-url", URL)
    + CHILD_AS_ROUTER
    + "curl: (28) Operation timed out after 300001 milliseconds with 0 bytes received\n"
    + '5.00.100.000 W srv    operator(): got exception: {"error":{"code":500,"message":"request cancelled while '
    'waiting for model name=mistral","type":"server_error"}}\n'
)


def test_preset_model_url_alone_names_the_url_not_the_probe_line():
    top = top_cause(run(URL_ALONE))
    assert top is not None and top.id == "llamacpp-model-url-alone-starts-router"
    assert URL in top.cause and top.confidence >= 0.7
    assert "model = PATH next to model-url" in top.fix


def test_preset_model_url_alone_without_the_preset_shown_still_names_it():
    """Only the spawn args show model-url (no `cat`): the cause stands, the URL left to the default text."""
    log = URL_ALONE.replace(URL_PRESET, "")
    top = top_cause(run(log))
    assert top is not None and top.id == "llamacpp-model-url-alone-starts-router"


# near misses: the same router with a model path next to the URL loads; a child started as a router for another
# reason (a section with no model at all, no model-url anywhere) is not a model-url cause
LOADED_CHILD = (
    "[51234] 0.00.021.000 I srv  llama_server: initializing ...\n"
    "[51234] 0.00.024.000 I srv    load_model: loading model '/srv/models/mistral-7b-q4_k_m.gguf'\n"
    "[51234] 0.00.090.000 I srv  llama_server: model loaded\n"
    "[51234] 0.00.091.000 I srv  llama_server: listening on http://127.0.0.1:51234\n"
    "0.01.300.000 I srv  proxy_reques: proxying request to model mistral on port 51234\n"
)
URL_WITH_PATH = (
    URL_PRESET.replace("n-gpu-layers", "model = /srv/models/mistral-7b-q4_k_m.gguf\nn-gpu-layers")
    + router_start("llama-server --models-preset models.ini --host 0.0.0.0 --port 8080", "mistral")
    + spawn(
        "mistral",
        51234,
        "--n-gpu-layers",
        "99",
        "--model",
        "/srv/models/mistral-7b-q4_k_m.gguf",
        "--model-url",
        URL,
    )
    + LOADED_CHILD
)
NO_MODEL_KEY = (
    "$ cat models.ini\n[mistral]\nctx-size = 4096\n"
    + router_start("llama-server --models-preset models.ini --host 0.0.0.0 --port 8080", "mistral")
    + spawn("mistral", 51234, "--ctx-size", "4096")
    + CHILD_AS_ROUTER
)


# ---- a preset value in quotes

QUOTED_MMPROJ = (
    '$ cat presets.ini\n[llava]\nmodel = /data/llava/llava-v1.6-q4.gguf\nmmproj = "/data/llava/mmproj-f16.gguf"\n'
    + router_start("llama-server --models-preset presets.ini --port 9000", "llava")
    + spawn(
        "llava",
        40411,
        "--model",
        "/data/llava/llava-v1.6-q4.gguf",
        "--mmproj",
        '"/data/llava/mmproj-f16.gguf"',
    )
    + "[40411] 0.00.020.000 I srv    load_model: loading model '/data/llava/llava-v1.6-q4.gguf'\n"
    + "[40411] 0.00.300.000 E gguf_init_from_file: failed to open GGUF file '\"/data/llava/mmproj-f16.gguf\"' (No such "
    "file or directory)\n"
    + "[40411] 0.00.300.100 E srv    load_model: failed to load multimodal model, '\"/data/llava/mmproj-f16.gguf\"'\n"
    + "[40411] 0.00.301.000 E srv  llama_server: exiting due to model loading error\n"
    + "0.01.500.000 I srv           run: instance name=llava exited with status 1\n"
    + '{"error":{"code":500,"message":"model name=llava failed to load","type":"server_error"}}\n'
)
QUOTED_NUMBER = (
    '$ cat presets.ini\n[qwen]\nmodel = /data/qwen3-4b-q8_0.gguf\nctx-size = "8192"\n'
    + router_start("llama-server --models-preset presets.ini --port 9000", "qwen")
    + spawn("qwen", 40999, "--ctx-size", '"8192"', "--model", "/data/qwen3-4b-q8_0.gguf")
    + '[40999] error while handling argument "--ctx-size": stoi\n'
    + "0.01.500.000 I srv           run: instance name=qwen exited with status 1\n"
    + '{"error":{"code":500,"message":"model name=qwen failed to load","type":"server_error"}}\n'
)
SINGLE_QUOTED_MODEL = (
    "$ cat presets.ini\n[qwen]\nmodel = '/data/qwen3-4b-q8_0.gguf'\n"
    + router_start("llama-server --models-preset presets.ini --port 9000", "qwen")
    + "[40999] 0.00.020.000 E gguf_init_from_file: failed to open GGUF file ''/data/qwen3-4b-q8_0.gguf'' (No such file "
    "or directory)\n"
    + "[40999] 0.00.020.100 E cmn  common_init_: failed to load model ''/data/qwen3-4b-q8_0.gguf''\n"
    + '{"error":{"code":500,"message":"model name=qwen failed to load","type":"server_error"}}\n'
)


def test_quoted_mmproj_names_the_quotes_and_the_value():
    top = top_cause(run(QUOTED_MMPROJ))
    assert top is not None and top.id == "llamacpp-preset-value-quoted"
    assert '"/data/llava/mmproj-f16.gguf"' in top.cause and "without quotes" in top.fix


# near misses: a quoted stop string the child took (nothing failed); an unquoted preset path that is not there; the same
# quoted path from a docker --env-file with no preset (another reader keeps the quotes: not a preset's value)
QUOTED_BUT_HEALTHY = (
    '$ cat presets.ini\n[qwen]\nmodel = /data/qwen3-4b-q8_0.gguf\nreverse-prompt = "User:"\n'
    + router_start("llama-server --models-preset presets.ini --port 9000", "qwen")
    + spawn("qwen", 40999, "--model", "/data/qwen3-4b-q8_0.gguf", "--reverse-prompt", '"User:"')
    + "[40999] 0.00.020.000 I srv    load_model: loading model '/data/qwen3-4b-q8_0.gguf'\n"
    + "[40999] 0.00.090.000 I srv  llama_server: model loaded\n"
    + "[40999] 0.00.091.000 I srv  llama_server: listening on http://127.0.0.1:40999\n"
    + "HTTP/1.1 200 OK\n"
)
UNQUOTED_MISSING = (
    "$ cat presets.ini\n[qwen]\nmodel = /data/qwen3-4b-q8_0.gguf\n"
    + router_start("llama-server --models-preset presets.ini --port 9000", "qwen")
    + spawn("qwen", 40999, "--model", "/data/qwen3-4b-q8_0.gguf")
    + "[40999] 0.00.020.000 E gguf_init_from_file: failed to open GGUF file '/data/qwen3-4b-q8_0.gguf' (No such file "
    "or directory)\n"
    + "[40999] 0.00.020.100 E srv    load_model: failed to load model, '/data/qwen3-4b-q8_0.gguf'\n"
    + '{"error":{"code":500,"message":"model name=qwen failed to load","type":"server_error"}}\n'
)
ENV_FILE_NO_PRESET = (
    "$ docker run --env-file llama.env -p 8080:8080 ghcr.io/ggml-org/llama.cpp:server\n"
    "0.00.020.000 E gguf_init_from_file: failed to open GGUF file '\"/models/qwen3-4b-q8_0.gguf\"' (No such file or "
    "directory)\n"
    "0.00.020.100 E srv    load_model: failed to load model, '\"/models/qwen3-4b-q8_0.gguf\"'\n"
    "0.00.020.200 E srv  llama_server: exiting due to model loading error\n"
)


def test_unquoted_missing_preset_path_stays_a_missing_file():
    top = top_cause(run(UNQUOTED_MISSING))
    assert top is not None and top.id == "llamacpp-model-file-missing"


# ---- the router's refusals of an unknown model, and of a listed model in the wrong state

DIR_ROUTER = (
    "$ llama-server --models-dir /srv/gguf --port 8080\n"
    "0.00.064.328 I srv    operator(): Available models (2):\n"
    "0.00.064.336 I srv    operator():   [models_dir] qwen3-4b\n"
    "0.00.064.337 I srv    operator():   [models_dir] gemma-3-1b\n"
    "0.00.064.399 I srv  llama_server: starting server in router mode. models will be automatically loaded on-demand\n"
)
LOAD_UNKNOWN = (
    DIR_ROUTER
    + '$ curl -s -X POST http://localhost:8080/models/load -d \'{"model":"qwen3-4b-q8_0.gguf"}\'\n'
    + '{"error":{"code":404,"message":"model is not found","type":"not_found_error"}}\n'
)
LOAD_RUNNING = (
    DIR_ROUTER
    + '$ curl -s -X POST http://localhost:8080/models/load -d \'{"model":"qwen3-4b"}\'\n'
    + '{"error":{"code":400,"message":"model is already running","type":"invalid_request_error"}}\n'
)
UNLOAD_IDLE = (
    DIR_ROUTER
    + '$ curl -s -X POST http://localhost:8080/models/unload -d \'{"model":"gemma-3-1b"}\'\n'
    + '{"error":{"code":400,"message":"model is not running","type":"invalid_request_error"}}\n'
)


def test_load_of_an_unlisted_name_reads_the_name_from_the_request():
    top = top_cause(run(LOAD_UNKNOWN))
    assert top is not None and top.id == "model-name-not-served"
    assert "'qwen3-4b-q8_0.gguf'" in top.cause and "GET /models lists" in top.fix


# near miss: the same bare words from a server that is no llama-server router (no router literal in the log)
NOT_FOUND_ELSEWHERE = (
    "$ python serve.py --port 8000\n"
    "INFO:     Uvicorn running on http://0.0.0.0:8000\n"
    '{"error":{"code":404,"message":"model is not found","type":"not_found_error"}}\n'
)

test_names_the_cause, test_near_miss_not_confident = family_tests(
    [
        ("llamacpp-model-url-alone-starts-router", URL_ALONE),
        ("llamacpp-preset-value-quoted", QUOTED_MMPROJ),
        ("llamacpp-preset-value-quoted", QUOTED_NUMBER),
        ("llamacpp-preset-value-quoted", SINGLE_QUOTED_MODEL),
        ("model-name-not-served", LOAD_UNKNOWN),
        ("llamacpp-router-model-state-refused", LOAD_RUNNING),
        ("llamacpp-router-model-state-refused", UNLOAD_IDLE),
    ],
    [
        ("llamacpp-model-url-alone-starts-router", URL_WITH_PATH),
        ("llamacpp-model-url-alone-starts-router", NO_MODEL_KEY),
        ("llamacpp-preset-value-quoted", QUOTED_BUT_HEALTHY),
        ("llamacpp-preset-value-quoted", UNQUOTED_MISSING),
        ("llamacpp-preset-value-quoted", ENV_FILE_NO_PRESET),
        ("model-name-not-served", NOT_FOUND_ELSEWHERE),
        ("model-name-not-served", LOAD_RUNNING),
    ],
)
