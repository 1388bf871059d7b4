"""What after30b learnt in stop 30 from the misses of batches fresh-96, fresh-104, fresh-99, fresh-100 and fresh-105,
after they were scored: two READING mechanisms (an exception line behind a decoration, '**ERROR**: AssertionError: ...'
as a thread posts it; IPython's notebook frames, 'File /path/pkg/mod.py:1051, in func(args)') and wordings of existing
families (argparse's refusal quoted without its 'error:' head, a key=value list given to a JSON flag, an executor name
split as a module path, a start-time pooling task the --convert'ed model lacks, pydantic's integer-enum refusal of a
string, a VLLM_* lambda spread over lines and the compile-factor hashing warning) and one new family
(distributed-timeout-negative, Gloo's refusal of a negative timeout). Each is tested on a wording other than the batch's
and on a near miss that must not be read the same way.
"""

from __future__ import annotations

from servebox.doctor.structure import ExceptionLine, match_frame
from tests.doctor_text import family_tests

POOLING_FRAME = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/pooling/factories.py", line 231, in '
    "get_pooling_invocation_types\n"
    "    pooling_task = model_config.get_pooling_task(supported_tasks)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/config/model.py", line 1916, in get_pooling_task\n'
    "    raise RuntimeError(\n"
)
REQUEST_FRAME = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 412, in add_request\n'
    "    raise ValueError(\n"
)

CASES = [
    # a decorated exception line (markdown bold, as a thread's text quotes it) is the exception raised
    (
        "uncaught-exception",
        "**ERROR**: AssertionError: model.layers.0.self_attn.qkv_proj.weight shape mismatch between model and "
        "checkpoint: torch.Size([4096, 4096]) != torch.Size([6144, 4096])\n",
    ),
    # a notebook's (Colab: dist-packages) IPython traceback: the innermost frame is the wrapper package's raise
    (
        "third-party-package-raised",
        "File /usr/local/lib/python3.11/dist-packages/unsloth/models/llama.py:1905, in "
        "FastLlamaModel.from_pretrained(model_name, max_seq_length, dtype)\n"
        "-> 1905 llm = load_vllm(**load_vllm_kwargs)\n\n"
        "File /usr/local/lib/python3.11/dist-packages/unsloth_zoo/vllm_utils.py:1150, in load_vllm(model_name, config)\n"
        "-> 1150         raise RuntimeError(error)\n\n"
        "RuntimeError: 'LlamaForCausalLM' object has no attribute 'model_config'\n",
    ),
    # argparse's refusal as a thread title quotes it, without 'prog: error: ' (vLLM 0.8's removed --enable-reasoning)
    (
        "cli-unrecognized-argument",
        "vllm serve unrecognized arguments: --enable-reasoning --reasoning-parser deepseek_r1\n",
    ),
    # the older key=value syntax of a flag that now takes JSON, the line cut after '<function' as a title cuts it
    (
        "cli-invalid-json",
        "vllm serve: error: argument --limit-mm-per-prompt: Value image=2 cannot be converted to <function\n",
    ),
    # an executor name without a dot, taken as a module.Class path; the option named on the command line
    (
        "executor-backend-unknown",
        "$ vllm serve Qwen/Qwen3-8B --distributed-executor-backend multiproc\n"
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, not enough values to unpack (expected 2, got 1) [type=value_error, input_value=ArgsKwargs((), "
        "{'model_config': ...}), input_type=ArgsKwargs]\n",
    ),
    # --pooler-config's task that --convert classify does not offer, refused at start (config/model.py)
    (
        "options-incompatible",
        POOLING_FRAME + "RuntimeError: Unsupported task: 'embed' Supported tasks: ['classify', 'score']\n",
    ),
    # the level's name given where --optimization-level takes its number (another name than the batch's)
    (
        "cli-invalid-choice",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "optimization_level\n"
        "  Input should be 0, 1, 2 or 3 [type=enum, input_value='O2', input_type=str]\n"
        "    For further information visit https://errors.pydantic.dev/2.11/v/enum\n",
    ),
    # vLLM's compile-factor hashing warning names the variable and its value on one line (a unit suffix)
    (
        "vllm-env-value-not-integer",
        "(EngineCore pid=12) WARNING 12-04 19:38:34 [envs.py:2188] Skipping environment variable VLLM_RPC_TIMEOUT "
        "while hashing compile factors: invalid literal for int() with base 10: '10s'\n"
        "(EngineCore pid=12) ValueError: invalid literal for int() with base 10: '10s'\n",
    ),
    # an envs.py lambda spread over lines: only '"VLLM_X": lambda: int(' is printed above the ValueError
    (
        "vllm-env-value-not-integer",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/envs.py", line 1201, in <lambda>\n'
        '    "VLLM_MOE_DP_CHUNK_SIZE": lambda: int(\n'
        "ValueError: invalid literal for int() with base 10: '256k'\n",
    ),
    # Gloo's enforce on a negative timeout from a plain torch.distributed start (its count appended)
    (
        "distributed-timeout-negative",
        "RuntimeError: [enforce fail at ../third_party/gloo/gloo/context.cc:27] timeout.count() >= 0. "
        "Invalid timeout-1000\n",
    ),
]

NEAR_MISSES = [
    # a count-like value that is not key=value stays an invalid value, not JSON
    (
        "cli-invalid-json",
        "vllm serve: error: argument --max-model-len: Value 4kk cannot be converted to <function\n",
    ),
    # the same unpack error without the executor option named anywhere is not the executor's
    (
        "executor-backend-unknown",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, not enough values to unpack (expected 2, got 1) [type=value_error]\n",
    ),
    # the request-time refusal of a pooling task (v1/engine/core.py) is a request's, not two start options'
    (
        "options-incompatible",
        REQUEST_FRAME
        + "ValueError: Unsupported task: 'classify' Supported tasks: ['embed', 'token_embed']\n",
    ),
    # an enum refusal in a request body, no VllmConfig, is no flag's
    (
        "cli-invalid-choice",
        '{"error": {"message": "1 validation error: reasoning_effort Input should be 0, 1 or 2 [type=enum, '
        "input_value='high', input_type=str]\"}}\n",
    ),
    # an on/off word in the hashing warning is int()'s refusal: not vllm-env-invalid-choice's (after37e, s37: the lead
    # gave every int() parse of a variable to vllm-env-value-not-integer)
    (
        "vllm-env-invalid-choice",
        "WARNING 12-04 19:38:34 [envs.py:2188] Skipping environment variable VLLM_USE_V1 while hashing compile "
        "factors: invalid literal for int() with base 10: 'true'\n",
    ),
    # a prose 'invalid timeout' is not Gloo's enforce
    (
        "distributed-timeout-negative",
        "ValueError: Invalid timeout value: -1 (request_timeout must be positive)\n",
    ),
    # prose after the words, no dash-led argument
    ("cli-unrecognized-argument", "Note: unrecognized arguments are ignored by this launcher\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_decorated_exception_line_is_read():
    exc = ExceptionLine.parse(
        "**ERROR**: AssertionError: c_attn.weight shape mismatch between model and checkpoint"
    )
    assert exc is not None and exc.type == "AssertionError"
    bare = ExceptionLine.parse("ERROR: ValueError: Unrecognized distributed executor backend rays.")
    assert bare is not None and bare.type == "ValueError"


def test_a_decoration_before_prose_is_no_exception():
    assert ExceptionLine.parse("**ERROR**: the server could not start") is None
    assert ExceptionLine.parse("ERROR: Exception in ASGI application") is None


def test_an_ipython_frame_is_a_frame():
    m = match_frame(
        "File /opt/conda/lib/python3.10/site-packages/unsloth_zoo/vllm_utils.py:1051, in load_vllm(a, b)"
    )
    assert m is not None and m["file"].endswith("unsloth_zoo/vllm_utils.py") and m["line"] == "1051"
    assert match_frame("File not found: /models/qwen/config.json") is None
