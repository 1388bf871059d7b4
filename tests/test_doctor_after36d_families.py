"""What the scored batch fresh-225 (the process environment around a correct command, 3rd round, both engines) taught
after scoring, with the neighbourhood of each miss's check in vLLM 0.32's and llama.cpp b11434's own source.

- vllm-request-limit-env-too-low (new): a VLLM_MAX_* request limit (envs.py) of 0 that no request can meet, whatever
  the request (n, beam_width, a prompt list, stop, bad_words); a higher limit only where the log sets the variable,
  and then below 0.70 (the request may be the one asking too much). The default limit stays the request's fault.
- llamacpp-user-config-ini-invalid-value (new): common/arg.cpp's config.ini, read before the command line; its
  refusals print bare ('stoi', 'stof', a handler's message, the INI parse / open failure) beside 'using config file:'.
- llamacpp-vertex-aip-env-overrides-port and its siblings (new): tools/server/server-http.cpp gcp_params (AIP_MODE,
  AIP_HTTP_PORT, AIP_PREDICT_ROUTE).
- engine-package-shadowed-by-source-tree (widened): a PYTHONPATH file named like a package of vLLM's import chain,
  each package's own refusal as importing vllm.entrypoints.openai.api_server with it showed (stop 36).
Messages marked 'rendered' are the source's format string filled with a value; 'run' ones were printed by the real
engine here (llama-server b11434, vLLM 0.32's import chain).
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/run.py", line 9, in <module>\n'
    "    outs = llm.generate(prompts, params)\n"
)
CFG = "0.00.001.237 I using config file: /etc/llama.cpp/config.ini\n"
VLLM_START = "$ vllm serve /models/m --port 8000\n"
SHADOW = (
    "$ export PYTHONPATH=/srv/app/lib\n$ python -m vllm.entrypoints.openai.api_server --model /models/m\n"
    + ("Traceback (most recent call last):\n")
)

CASES = [
    # sampling_params.py _verify_num_sequences for beam search, the Python API (rendered), the limit 0
    (
        "vllm-request-limit-env-too-low",
        TB
        + "vllm.exceptions.VLLMValidationError: beam_width must be at most 0, got 4. To increase this limit, set the "
        "VLLM_MAX_N_SEQUENCES environment variable.\n",
    ),
    # completion/protocol.py validate_prompt_list_length at 0 (rendered), the reply with parameter= appended
    (
        "vllm-request-limit-env-too-low",
        VLLM_START
        + REPLY.format(
            msg="prompt list length 2 exceeds the maximum allowed count of 0. To increase this limit, set the "
            "VLLM_MAX_COMPLETION_PROMPTS environment variable. (parameter=prompt, value=None)",
            param='"prompt"',
        ),
    ),
    # the stop list's Field(max_length=VLLM_MAX_STOP_STRINGS) at 0: pydantic's too_long as 0.32 flattens it (run with
    # the request model here, VLLM_MAX_STOP_STRINGS=0)
    (
        "vllm-request-limit-env-too-low",
        "{\"error\":{\"message\":\"1 validation error:\\n  {'type': 'too_long', 'loc': 'body.stop', 'msg': 'List "
        "should have at most 0 items after validation, not 1', 'input': ['x']}\",\"type\":\"Bad Request\","
        '"param":"body.stop","code":400}}\n',
    ),
    # a limit above 0 with the variable set in the unit: named, below 0.70 (the client may ask too much)
    (
        "vllm-request-limit-env-too-low",
        'Environment="VLLM_MAX_N_SEQUENCES=2"\n'
        + REPLY.format(
            msg="n must be at most 2, got 4. To increase this limit, set the VLLM_MAX_N_SEQUENCES environment "
            "variable.",
            param="null",
        ),
    ),
    # the media limit of multimodal/media/image.py (rendered) with its variable exported
    (
        "vllm-request-limit-env-too-low",
        "$ export VLLM_MAX_IMAGE_PIXELS=1000\n"
        + REPLY.format(
            msg="Image dimensions 64x64 (4096 pixels) exceed the maximum of 1000 pixels. Set VLLM_MAX_IMAGE_PIXELS "
            "to increase this limit.",
            param="null",
        ),
    ),
    # common/arg.cpp's config.ini: a float option given a word ('stof'), the refusal before the buffered log line (run)
    ("llamacpp-user-config-ini-invalid-value", "stof\n" + CFG),
    # ... a string option's own handler (cache-type-k = q9, run)
    ("llamacpp-user-config-ini-invalid-value", "Unsupported cache type: q9\n" + CFG),
    # ... a file that is not INI (a header without ']', run): not the router's models preset
    (
        "llamacpp-user-config-ini-invalid-value",
        CFG + "failed to parse server config file: /etc/llama.cpp/config.ini\n",
    ),
    # server-http.cpp: the port override with other numbers (rendered)
    (
        "llamacpp-vertex-aip-env-overrides-port",
        "$ export AIP_MODE=PREDICTION\n"
        "0.00.005.805 W srv          init: Google Cloud Platform compat: overriding server port 8080 with AIP_HTTP_PORT "
        "7080\n0.00.463.323 I srv  llama_server: listening on http://0.0.0.0:7080\n",
    ),
    # ... AIP_PREDICT_ROUTE naming a route llama-server serves (run: AIP_PREDICT_ROUTE=/health)
    (
        "llamacpp-vertex-aip-predict-route-conflict",
        "0.00.011.934 W srv          init: Google Cloud Platform compat: overriding server port 21570 with "
        "AIP_HTTP_PORT 21571\n"
        "0.00.012.005 E srv  register_gcp: AIP_PREDICT_ROUTE=/v1/chat/completions conflicts with an existing "
        "llama-server route\n",
    ),
    # ... AIP_HTTP_PORT not a number, read even without AIP_MODE (run)
    (
        "llamacpp-vertex-aip-http-port-invalid",
        "$ export AIP_HTTP_PORT=http\n$ llama-server -m /m.gguf --port 8080\n"
        "terminate called after throwing an instance of 'std::invalid_argument'\n  what():  stoi\nAborted (core dumped)\n",
    ),
    # a PYTHONPATH file named like a package of vLLM's import chain, each as importing the launcher printed it (run)
    (
        "engine-package-shadowed-by-source-tree",
        SHADOW + "AttributeError: module 'torch' has no attribute 'Tensor'\n",
    ),
    (
        "engine-package-shadowed-by-source-tree",
        SHADOW + "AttributeError: module 'msgspec' has no attribute 'Struct'\n",
    ),
    (
        "engine-package-shadowed-by-source-tree",
        SHADOW + "AttributeError: module 'jinja2' has no attribute 'Environment'\n",
    ),
    (
        "engine-package-shadowed-by-source-tree",
        SHADOW
        + "ImportError: cannot import name 'Counter' from 'prometheus_client' (/srv/app/lib/prometheus_client.py)\n",
    ),
    (
        "engine-package-shadowed-by-source-tree",
        SHADOW
        + "ImportError: cannot import name 'PreTrainedConfig' from 'transformers' (/srv/app/lib/transformers.py)\n",
    ),
]

NEAR_MISSES = [
    # the default limit with no variable set: the request asked more than vLLM allows
    (
        "vllm-request-limit-env-too-low",
        VLLM_START
        + REPLY.format(
            msg="n must be at most 16384, got 20000. To increase this limit, set the VLLM_MAX_N_SEQUENCES environment "
            "variable.",
            param="null",
        ),
    ),
    # the GPU runner's per-request table limit is a fixed size, not an environment variable's
    (
        "vllm-request-limit-env-too-low",
        "(EngineCore_DP0 pid=77) ValueError: Too many logit bias tokens: 2000. The max size is 1024.\n",
    ),
    # a flag's own refusal names the flag: llamacpp-invalid-argument's, not the config file's
    ("llamacpp-user-config-ini-invalid-value", CFG + 'error while handling argument "-c": stoi\n'),
    # a bare 'stoi' with no config file read is not the config file's
    ("llamacpp-user-config-ini-invalid-value", "$ llama-server -m /m.gguf -c 512\nstoi\n"),
    # libstdc++'s abort on stoi without AIP_HTTP_PORT in the log is not the Vertex variable's
    (
        "llamacpp-vertex-aip-http-port-invalid",
        "terminate called after throwing an instance of 'std::invalid_argument'\n  what():  stoi\nAborted (core dumped)\n",
    ),
    # an attribute only newer torch has is a version skew, not a shadowing file
    (
        "engine-package-shadowed-by-source-tree",
        TB + "AttributeError: module 'torch' has no attribute 'float8_e4m3fn'\n",
    ),
    # the installed transformers lacking a name is a version mismatch, not a shadowing file
    (
        "engine-package-shadowed-by-source-tree",
        TB + "ImportError: cannot import name 'PreTrainedConfig' from 'transformers' "
        "(/usr/lib/python3/dist-packages/transformers/__init__.py)\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_limit_above_zero_with_the_variable_set_is_not_confident():
    """A limit the variable set above 0 may be meant: the refusal names the variable below 0.70, not at 0.90."""
    from tests.doctor_text import run, top_cause

    log = "$ export VLLM_MAX_N_SEQUENCES=2\n" + REPLY.format(
        msg="n must be at most 2, got 4. To increase this limit, set the VLLM_MAX_N_SEQUENCES environment variable.",
        param="null",
    )
    top = top_cause(run(log))
    assert top.id == "vllm-request-limit-env-too-low" and top.confidence < 0.7, (top.id, top.confidence)


def test_the_default_limit_stays_the_requests_fault():
    """With no VLLM_MAX_N_SEQUENCES set, n above the default limit is the request's (request-sampling-param-...)."""
    assert_named(
        "request-sampling-param-out-of-range",
        REPLY.format(
            msg="n must be at most 16384, got 20000. To increase this limit, set the VLLM_MAX_N_SEQUENCES environment "
            "variable.",
            param="null",
        ),
    )
