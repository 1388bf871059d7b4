"""What the measured batches fresh-311 and fresh-312 taught (learn42b), on wordings other than the corpus logs'.

- client-stream-usage-chunk-has-no-choices (new): a stream loop that indexes choices[0] dies on the last chunk that
  stream_options include_usage adds (usage only, choices empty): Python's IndexError below the source line naming
  choices[0] (the openai SDK's chunk.choices[0], a plain-JSON client's ["choices"][0]); Node's TypeError (run here,
  node 20, against a generator yielding such a chunk); JavaScriptCore's message naming the expression (rendered).
- scheduler-max-num-seqs-below-one (new): vLLM 0.32 config/scheduler.py's max_num_seqs Field(ge=1), pydantic's
  refusal under '1 validation error for SchedulerConfig' (rendered: the field alone, and a negative), and pydantic's
  errors() list form; only where max_num_seqs was set (its mirror, a token budget of 0 that makes it 0, is not).
- kv-cache-dtype-unknown (widened): argparse's 'argument --kv-cache-dtype: invalid choice' (rendered with another
  value and Python 3.12.8+'s unquoted choices, and 3.14's 'maybe you meant'), outranking cli-invalid-choice.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

PY_PLAIN_JSON = (
    "$ python stream.py\n"
    "Hello! I am a small model.Traceback (most recent call last):\n"
    '  File "/home/me/stream.py", line 21, in <module>\n'
    '    delta = json.loads(line[len("data: "):])["choices"][0]["delta"]\n'
    "            ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~^^^\n"
    "IndexError: list index out of range\n"
)

PY_SDK_ASYNC = (
    '  File "/srv/app/chat_async.py", line 30, in main\n'
    "    text += part.choices[0].delta.content or ''\n"
    "            ~~~~~~~~~~~~^^^\n"
    "IndexError: list index out of range\n"
)

NODE_UNCAUGHT = (
    "$ node chat.mjs\n"
    "Hello there!file:///home/me/chat.mjs:14\n"
    '  process.stdout.write(chunk.choices[0].delta.content || "");\n'
    "                                        ^\n"
    "\n"
    "TypeError: Cannot read properties of undefined (reading 'delta')\n"
    "    at file:///home/me/chat.mjs:14:41\n"
    "\n"
    "Node.js v20.20.2\n"
)

BUN = "$ bun run chat.ts\nHello!\nTypeError: undefined is not an object (evaluating 'chunk.choices[0].delta')\n      at /app/chat.ts:12:30\n"

SCHEDULER_TRACE = (
    "(APIServer pid=7) INFO 05-01 10:00:00 [api_utils.py:286] non-default args: {'model': 'Qwen/Qwen3-0.6B', 'max_num_seqs': %s, 'max_num_batched_tokens': 8192}\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 2617, in create_engine_config\n'
    "    scheduler_config = SchedulerConfig(\n"
    '  File "/venv/lib/python3.12/site-packages/pydantic/_internal/_dataclasses.py", line 121, in __init__\n'
    "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)\n"
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig\n"
    "max_num_seqs\n"
    "  Input should be greater than or equal to 1 [type=greater_than_equal, input_value=%s, input_type=int]\n"
    "    For further information visit https://errors.pydantic.dev/2.12/v/greater_than_equal\n"
)

ARGPARSE = (
    "usage: vllm serve [model_tag] [options]\n"
    "vllm serve: error: argument --kv-cache-dtype: invalid choice: '%s' (choose from %s)\n"
)

CASES = [
    # a plain-JSON client (requests + SSE lines) on the usage chunk, Python 3.11+'s carets (rendered)
    ("client-stream-usage-chunk-has-no-choices", PY_PLAIN_JSON),
    # the openai SDK's async stream, the traceback's innermost frame only (rendered)
    ("client-stream-usage-chunk-has-no-choices", PY_SDK_ASYNC),
    # Node 20's uncaught error with its source line (run here)
    ("client-stream-usage-chunk-has-no-choices", NODE_UNCAUGHT),
    # JavaScriptCore names the expression (rendered)
    ("client-stream-usage-chunk-has-no-choices", BUN),
    # the field alone (--max-num-batched-tokens given), a negative (rendered from pydantic's ge error)
    ("scheduler-max-num-seqs-below-one", SCHEDULER_TRACE % ("-1", "-1")),
    # pydantic's errors() list, as a wrapper prints it (rendered)
    (
        "scheduler-max-num-seqs-below-one",
        "llm = LLM(model='Qwen/Qwen3-0.6B', max_num_seqs=0)\n"
        "ValueError: invalid engine args: [{'type': 'greater_than_equal', 'loc': ('max_num_seqs',), 'msg': 'Input "
        "should be greater than or equal to 1', 'input': 0, 'ctx': {'ge': 1}, 'url': "
        "'https://errors.pydantic.dev/2.12/v/greater_than_equal'}]\n",
    ),
    # argparse with another value, the choices unquoted (Python 3.12.8+), and 3.14's suggestion (rendered)
    (
        "kv-cache-dtype-unknown",
        ARGPARSE % ("fp8_e4m3fn", "auto, bfloat16, float16, fp8, fp8_e4m3, fp8_e5m2, fp8_inc"),
    ),
    (
        "kv-cache-dtype-unknown",
        "vllm serve: error: argument --kv-cache-dtype: invalid choice: 'fp8e5m2', maybe you meant 'fp8_e5m2'? "
        "(choose from auto, fp8, fp8_e4m3, fp8_e5m2)\n",
    ),
]

NEAR_MISSES = [
    # an IndexError in other code of a streaming script: no source line names choices[0]
    (
        "client-stream-usage-chunk-has-no-choices",
        "$ python stream.py\nTraceback (most recent call last):\n"
        '  File "/home/me/stream.py", line 9, in <module>\n'
        '    last = history[-1]["content"]\n'
        "           ~~~~~~~^^^^\n"
        "IndexError: list index out of range\n",
    ),
    # choices[0] read on an error body: a KeyError 'choices', not the usage chunk
    (
        "client-stream-usage-chunk-has-no-choices",
        '  File "/home/me/stream.py", line 21, in <module>\n'
        '    delta = json.loads(line[6:])["choices"][0]["delta"]\n'
        "            ~~~~~~~~~~~~~~~~~~~~^^^^^^^^^^^\n"
        "KeyError: 'choices'\n",
    ),
    # another SchedulerConfig field below 1 (max_num_batched_tokens alone): not max_num_seqs
    (
        "scheduler-max-num-seqs-below-one",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig\n"
        "max_num_batched_tokens\n"
        "  Input should be greater than or equal to 1 [type=greater_than_equal, input_value=0, input_type=int]\n",
    ),
    # the mirror: --max-num-batched-tokens 0 with --max-num-seqs unset makes max_num_seqs 0 too, and pydantic prints
    # the same two refusals; the token budget was the setting given (arg_utils' derived default, rendered)
    (
        "scheduler-max-num-seqs-below-one",
        "$ vllm serve Qwen/Qwen3-0.6B --max-num-batched-tokens 0\n"
        "(APIServer pid=7) INFO 05-01 10:00:00 [api_utils.py:286] non-default args: {'model': 'Qwen/Qwen3-0.6B', "
        "'max_num_batched_tokens': 0}\n"
        "pydantic_core._pydantic_core.ValidationError: 2 validation errors for SchedulerConfig\n"
        "max_num_batched_tokens\n"
        "  Input should be greater than or equal to 1 [type=greater_than_equal, input_value=0, input_type=int]\n"
        "max_num_seqs\n"
        "  Input should be greater than or equal to 1 [type=greater_than_equal, input_value=0, input_type=int]\n",
    ),
    # another flag's invalid choice stays the generic family's
    (
        "kv-cache-dtype-unknown",
        "vllm serve: error: argument --dtype: invalid choice: 'fp9' (choose from auto, bfloat16, float, float16)\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
