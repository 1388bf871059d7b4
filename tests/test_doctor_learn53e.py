"""What fresh-495 and fresh-499 (vLLM 0.32, first contact) taught, each cause on wordings other than the batches' own,
rendered from vLLM's source (0.32 logger.py and entrypoints/launchers/run_batch.py; the older releases' words where
they differ) and from Python's json / logging.config run here on the same inputs.

- vllm-logging-config-invalid (0.90) owns what vLLM's logging set-up raises reading VLLM_LOGGING_CONFIG_PATH's file
  (logger.py _configure_vllm_root_logger: `custom_config = json.loads(file.read())`, then dictConfig): json's bare
  JSONDecodeError for a YAML / INI / commented / empty file, the UTF-8 read of a UTF-16 file, dictConfig's own
  refusals (not of vLLM's own default config's handler 'vllm': VLLM_LOGGING_LEVEL's). An open() of a folder stays
  path-is-directory's, as the corpus labels it. Counted under that function's frame (0.90), ahead of json-input-empty
  (a symptom family); with only VLLM_LOGGING_CONFIG_PATH in view and no frame, json.decoder.JSONDecodeError is a hint (0.60).
  The pre-0.32 wording of the disabled case ('VLLM_CONFIGURE_LOGGING evaluated to false ...') is read too.
- batch-line-url-unsupported (new): a run-batch line whose "url" is not one run-batch serves exactly gets an error row
  (status 400, 'URL X was used. Supported endpoints: ...'; before 0.6 'Only ... supported in the batch endpoint') and
  the run exits 0: a failure doctor names, from the output file's rows.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, family_tests, run, top_cause

LOGCFG = "vllm-logging-config-invalid"
BATCHURL = "batch-line-url-unsupported"
SITE = "/opt/venv/lib/python3.12/site-packages"


def _served(tail: str, env: str = "VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.yaml") -> str:
    """vLLM 0.32's `vllm serve` failing in its logging set-up (configure_logging_from_args), with `tail` raised."""
    return (
        f"$ {env} vllm serve Qwen/Qwen3-0.6B --port 8000\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/bin/vllm", line 10, in <module>\n'
        "    sys.exit(main())\n"
        f'  File "{SITE}/vllm/entrypoints/cli/main.py", line 71, in main\n'
        "    configure_logging_from_args(args)\n"
        f'  File "{SITE}/vllm/logger.py", line 322, in configure_logging_from_args\n'
        "    configure_logging_if_needed(config)\n"
        f'  File "{SITE}/vllm/logger.py", line 289, in configure_logging\n'
        "    _configure_vllm_root_logger(config)\n"
        f'  File "{SITE}/vllm/logger.py", line 262, in _configure_vllm_root_logger\n'
        f"{tail}"
    )


def _json(message: str) -> str:
    return _served(
        "    custom_config = json.loads(file.read())\n"
        '  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads\n'
        "    return _default_decoder.decode(s)\n"
        '  File "/usr/lib/python3.12/json/decoder.py", line 355, in raw_decode\n'
        '    raise JSONDecodeError("Expecting value", s, err.value) from None\n'
        f"json.decoder.JSONDecodeError: {message}\n"
    )


# vLLM 0.4-0.26: the same function run at `import vllm` (module level), VLLM_LOGGING_CONFIG_PATH read from envs
OLD_IMPORT = (
    "$ export VLLM_LOGGING_CONFIG_PATH=/srv/vllm/log_config.json\n"
    "$ python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m\n"
    "Traceback (most recent call last):\n"
    '  File "<frozen runpy>", line 189, in _run_module_as_main\n'
    '  File "/usr/local/lib/python3.10/dist-packages/vllm/__init__.py", line 3, in <module>\n'
    "    from vllm.engine.arg_utils import AsyncEngineArgs, EngineArgs\n"
    '  File "/usr/local/lib/python3.10/dist-packages/vllm/logger.py", line 143, in <module>\n'
    "    _configure_vllm_root_logger()\n"
    '  File "/usr/local/lib/python3.10/dist-packages/vllm/logger.py", line 79, in _configure_vllm_root_logger\n'
    "    custom_config = json.loads(file.read())\n"
    "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 3 column 3 (char 20)\n"
)

DICTCONFIG_HANDLER = _served(
    "    dictConfig(logging_config)\n"
    '  File "/usr/lib/python3.12/logging/config.py", line 942, in dictConfig\n'
    "    dictConfigClass(config).configure()\n"
    '  File "/usr/lib/python3.12/logging/config.py", line 615, in configure\n'
    "    raise ValueError('Unable to configure handler '\n"
    "ValueError: Unable to configure handler 'file'\n"
)

DICTCONFIG_VERSION = _served(
    "    dictConfig(logging_config)\n"
    '  File "/usr/lib/python3.12/logging/config.py", line 520, in configure\n'
    '    raise ValueError("dictionary doesn\'t specify a version")\n'
    "ValueError: dictionary doesn't specify a version\n",
    env="VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.json",
)

UTF16 = _served(
    "    custom_config = json.loads(file.read())\n"
    '  File "<frozen codecs>", line 322, in decode\n'
    "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte\n",
    env="VLLM_LOGGING_CONFIG_PATH=C:/vllm/logging.json",
)

# a folder opened as the file: path-is-directory's, as the corpus labels it (fresh-116, fresh-234)
A_FOLDER = _served(
    '    with open(log_config_file, encoding="utf-8") as file:\n'
    "IsADirectoryError: [Errno 21] Is a directory: '/etc/vllm'\n",
    env="VLLM_LOGGING_CONFIG_PATH=/etc/vllm",
)

# vLLM's own default config refused by dictConfig: VLLM_LOGGING_LEVEL's value, no file read
BAD_LEVEL = _served(
    "    dictConfig(logging_config)\n"
    '  File "/usr/lib/python3.12/logging/config.py", line 580, in configure\n'
    "    raise ValueError('Unable to configure handler '\n"
    "ValueError: Unable to configure handler 'vllm'\n",
    env="VLLM_LOGGING_LEVEL=VERBOSE",
)

# the frame cut off (a journal's last lines): the variable in view, json's own exception type
NO_FRAME = (
    "Dec 07 10:02:11 gpu1 systemd[1]: Started vllm.service.\n"
    "Dec 07 10:02:12 gpu1 env[4410]: VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.conf\n"
    "Dec 07 10:02:19 gpu1 vllm[4410]: json.decoder.JSONDecodeError: Expecting value: line 1 column 2 (char 1)\n"
    "Dec 07 10:02:19 gpu1 systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE\n"
)

OLD_DISABLED = (
    "$ VLLM_CONFIGURE_LOGGING=0 VLLM_LOGGING_CONFIG_PATH=/etc/vllm/log.json vllm serve facebook/opt-125m\n"
    "RuntimeError: VLLM_CONFIGURE_LOGGING evaluated to false, but VLLM_LOGGING_CONFIG_PATH was given. "
    "VLLM_LOGGING_CONFIG_PATH implies VLLM_CONFIGURE_LOGGING. Please enable VLLM_CONFIGURE_LOGGING or unset "
    "VLLM_LOGGING_CONFIG_PATH.\n"
)


@pytest.mark.parametrize(
    "message",
    [
        "Expecting value: line 1 column 2 (char 1)",  # an INI fileConfig: '[loggers]'
        "Expecting property name enclosed in double quotes: line 1 column 31 (char 30)",  # a trailing comma
        "Expecting value: line 1 column 1 (char 0)",  # empty, or YAML
    ],
)
def test_json_refused_under_the_logging_frame_is_the_logging_config(message):
    log = _json(message)
    top = top_cause(run(log))
    assert top is not None and top.id == LOGCFG, answer_ids(log)
    assert top.confidence >= 0.8 and "json.loads" in top.cause and "JSON" in top.fix
    assert "json-input-empty" not in answer_ids(log)


@pytest.mark.parametrize("log", [OLD_IMPORT, DICTCONFIG_HANDLER, DICTCONFIG_VERSION, UTF16, OLD_DISABLED])
def test_the_logging_set_up_s_other_refusals(log):
    top = top_cause(run(log))
    assert top is not None and top.id == LOGCFG, answer_ids(log)
    assert top.confidence >= 0.8 and "VLLM_LOGGING_CONFIG_PATH" in top.fix


def test_the_variable_alone_only_suggests_it():
    top = top_cause(run(NO_FRAME))
    assert top is not None and top.id == LOGCFG, answer_ids(NO_FRAME)
    assert 0.5 <= top.confidence < 0.7 and "without the traceback" in top.cause


def _rows(
    *errors: str, cmd: str = "vllm run-batch -i batch.jsonl -o out.jsonl --model Qwen/Qwen3-0.6B"
) -> str:
    rows = "".join(
        f'{{"id":"vllm-{i:016x}","custom_id":"q-{i}","response":{{"status_code":400,"request_id":"vllm-batch-{i:016x}",'
        f'"body":null}},"error":"{e}"}}\n'
        for i, e in enumerate(errors)
    )
    return (
        f"$ {cmd}\n"
        "INFO 12-07 10:11:12 [run_batch.py:828] Reading batch from batch.jsonl...\n"
        "Running batch: 100% Completed | 2/2 [00:00<00:00, 91.3req/s]\n"
        "INFO 12-07 10:11:12 [run_batch.py:457] Writing outputs to local file out.jsonl\n"
        "# exit: 0\n"
        "$ cat out.jsonl\n"
        f"{rows}"
    )


SUPPORTED = (
    "Supported endpoints: /v1/chat/completions, /v1/embeddings, /v1/audio/transcriptions, /v1/audio/translations, "
    "/score,  /rerank."
)

# "method" is not checked by 0.32: a GET line with a good url is answered; the url alone is refused here
NO_SLASH = _rows(
    f"URL v1/chat/completions was used. {SUPPORTED}", f"URL v1/chat/completions was used. {SUPPORTED}"
)
WHOLE_ADDRESS = _rows(f"URL http://localhost:8000/v1/embeddings was used. {SUPPORTED}")
# vLLM 0.6-0.8's words
OLD_SCORE = _rows(
    "URL /v1/completions was used. Supported endpoints: /v1/chat/completions, /v1/embeddings, /score, /rerank ."
    "See vllm/entrypoints/openai/api_server.py for supported score/rerank versions.",
    cmd="python -m vllm.entrypoints.openai.run_batch -i batch.jsonl -o out.jsonl --model BAAI/bge-reranker-base",
)
# vLLM 0.5's
OLD_ONLY = _rows(
    "Only /v1/chat/completions, /v1/embeddings, and /v1/score are supported in the batch endpoint.",
    cmd="python -m vllm.entrypoints.openai.run_batch -i batch.jsonl -o out.jsonl --model facebook/opt-125m",
)


@pytest.mark.parametrize("log", [NO_SLASH, WHOLE_ADDRESS, OLD_SCORE, OLD_ONLY])
def test_a_batch_line_url_run_batch_does_not_serve(log):
    top = top_cause(run(log))
    assert top is not None and top.id == BATCHURL, answer_ids(log)
    assert top.confidence >= 0.8 and "exactly" in top.cause and "/v1/chat/completions" in top.fix


def test_the_url_is_named():
    top = top_cause(run(WHOLE_ADDRESS))
    assert "http://localhost:8000/v1/embeddings" in top.cause


HEALTHY_BATCH = (
    "$ vllm run-batch -i batch.jsonl -o out.jsonl --model Qwen/Qwen3-0.6B\n"
    "INFO 12-07 10:11:12 [run_batch.py:828] Reading batch from batch.jsonl...\n"
    "INFO 12-07 10:11:13 [run_batch.py:457] Writing outputs to local file out.jsonl\n"
    "$ cat out.jsonl\n"
    '{"id":"vllm-1","custom_id":"q-0","response":{"status_code":200,"request_id":"vllm-batch-1","body":{"id":"chatcmpl-1",'
    '"object":"chat.completion","model":"Qwen/Qwen3-0.6B","choices":[{"index":0,"message":{"role":"assistant",'
    '"content":"Paris."},"finish_reason":"stop"}]}},"error":null}\n'
)

# a JSON failure elsewhere: a client's empty answer piped to json.tool, the logging frame nowhere
CURL_EMPTY = (
    "$ curl -s http://localhost:8001/v1/models | python -m json.tool\n"
    "Expecting value: line 1 column 1 (char 0)\n"
)

# a healthy start with a JSON logging config
HEALTHY_LOGCFG = (
    "$ VLLM_LOGGING_CONFIG_PATH=/etc/vllm/logging.json vllm serve Qwen/Qwen3-0.6B --port 8000\n"
    "2026-12-07 10:00:01 INFO vllm.entrypoints.openai.api_server: vLLM API server version 0.32.0\n"
    "2026-12-07 10:00:40 INFO vllm.entrypoints.launchers.launcher: Starting vLLM server on http://0.0.0.0:8000\n"
    "INFO:     Application startup complete.\n"
)

# the same JSONDecodeError under another of vLLM's readers (a model's config): not the logging config's
OTHER_READER = (
    "$ vllm serve /models/m --port 8000\n"
    "Traceback (most recent call last):\n"
    f'  File "{SITE}/vllm/transformers_utils/config.py", line 623, in load_params_config\n'
    "    config_dict = json.load(f)\n"
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
)

test_named, test_near_miss = family_tests(
    cases=[(BATCHURL, NO_SLASH), (LOGCFG, _json("Extra data: line 2 column 1 (char 17)"))],
    near_misses=[
        (BATCHURL, HEALTHY_BATCH),
        (BATCHURL, _rows("Model does not support endpoint: /v1/embeddings")),
        (BATCHURL, _rows("Request must not be sent in stream mode")),
        (LOGCFG, CURL_EMPTY),
        (LOGCFG, HEALTHY_LOGCFG),
        (LOGCFG, OTHER_READER),
        (LOGCFG, A_FOLDER),
        (LOGCFG, BAD_LEVEL),
    ],
)


def test_neighbours_keep_their_own():
    assert answer_ids(_rows("Request must not be sent in stream mode"))[:1] == [
        "batch-line-stream-not-supported"
    ]
    assert BATCHURL not in answer_ids(_rows("Model does not support endpoint: /v1/embeddings"))
    assert answer_ids(HEALTHY_BATCH) == []
    assert LOGCFG not in answer_ids(CURL_EMPTY) and LOGCFG not in answer_ids(OTHER_READER)
    assert answer_ids(HEALTHY_LOGCFG) == []
    assert answer_ids(A_FOLDER)[:1] == ["path-is-directory"]
    assert LOGCFG not in answer_ids(BAD_LEVEL)
