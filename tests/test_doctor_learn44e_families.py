"""What the scored batch fresh-360 (things that happen to a running vLLM 0.26 server on an H100) taught after scoring.

- cudagraph-capture-oom: an OOM is the capture's only while a capture is under way where it was raised (a capture
  line or frame above it, no 'Graph capturing finished in %.0f secs, took %.2f GiB' between); fresh-360's co-tenant
  OOM came 60 lines after a finished capture.
- co_tenant.py: an OOM printed untagged below a tagged server that came up, answered 2xx, refused none and did not die,
  raised outside the engine's frames, is another process's: a note, the server's answer none.
Lines are rendered from vLLM 0.26 / 0.32's format strings (v1/worker/gpu_model_runner.py, gpu/model_runner.py,
gpu/cudagraph_utils.py's progress_bar_desc, v1/engine/core.py) and torch's OOM message, not copied from the corpus log.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

API, CORE = "(APIServer pid=2210)", "(EngineCore pid=2377)"
OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}. GPU 0 has a total capacity of 23.53 GiB "
    "of which {free} is free. Including non-PyTorch memory, this process has 22.95 GiB memory in use."
)
CAPTURED = (
    f"{CORE} INFO 03-02 09:14:07 [gpu_model_runner.py:4480] Graph capturing finished in 4 secs, took 0.61 GiB\n"
    f"{CORE} INFO 03-02 09:14:07 [core.py:259] init engine (profile, create kv cache, warmup model) took 31.20 s\n"
)
UP = (
    f"{API} INFO 03-02 09:14:08 [api_server.py:1971] Starting vLLM server on http://0.0.0.0:8000\n"
    f"{API} INFO:     Started server process [2210]\n"
    f"{API} INFO:     Application startup complete.\n"
    f'{API} INFO:     10.0.0.7:40312 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
)


def core_traceback(*frames: str, error: str) -> str:
    """An exception the engine core process raised, every line tagged with it (vLLM's decorate_logs)."""
    lines = [
        f"{CORE} ERROR 03-02 09:13:58 [core.py:708] EngineCore failed to start.",
        f"{CORE} Traceback (most recent call last):",
    ]
    lines += [f'{CORE}   File "/usr/local/lib/python3.12/site-packages/vllm/{f}' for f in frames]
    return "\n".join([*lines, f"{CORE} {error}"]) + "\n"


def co_tenant(script: str, error: str) -> str:
    """Another program's output on the same GPU, pasted below the server's log: no process tag."""
    return f'Traceback (most recent call last):\n  File "{script}", line 12, in <module>\n    x = torch.empty(n, device="cuda")\n{error}\n'


CASES = [
    # V2 model runner's speculator capture (gpu/cudagraph_utils.py progress_bar_desc), no end logged (rendered)
    (
        "cudagraph-capture-oom",
        f"{CORE} INFO 03-02 09:13:55 [speculator.py:110] Capturing model for speculator...\n"
        f"{CORE} Capturing prefill CUDA graphs:  40%|####      | 8/20 [00:01<00:02, 5.1it/s]\n"
        + core_traceback(
            'v1/worker/gpu/cudagraph_utils.py", line 470, in capture',
            error=OOM.format(size="64.00 MiB", free="21.50 MiB"),
        ),
    ),
    # a capture frame of the OOM's own traceback, no progress bar pasted (V1's capture_model -> _capture_cudagraphs)
    (
        "cudagraph-capture-oom",
        core_traceback(
            'v1/worker/gpu_worker.py", line 455, in compile_or_warm_up_model',
            'v1/worker/gpu_model_runner.py", line 4471, in capture_model',
            'v1/worker/gpu_model_runner.py", line 4560, in _capture_cudagraphs',
            error=OOM.format(size="20.00 MiB", free="6.00 MiB"),
        ),
    ),
    # an encoder's capture ended, then the decoder's capture opened and ran out of memory (the end closes only the
    # step it ends: a later capture line opens another)
    (
        "cudagraph-capture-oom",
        f"{CORE} INFO 03-02 09:13:50 [mm_encoder_model_runner.py:95] Encoder graph capturing finished in 1 secs, "
        "took 0.05 GiB (4 graphs)\n"
        f"{CORE} Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  67%|######6   | 34/51 [00:03<00:01]\n"
        + core_traceback(
            'v1/worker/gpu_model_runner.py", line 4560, in _capture_cudagraphs',
            error=OOM.format(size="2.00 MiB", free="1.12 MiB"),
        ),
    ),
    # the engine's own OOM at run time, tagged, after its capture ended and the server came up, the request refused:
    # the co-tenant reading does not take it (its lines carry the engine's tag, a 500 followed), and it is no capture's
    (
        "cuda-oom-generic",
        CAPTURED + UP + f"{CORE} ERROR 03-02 09:20:31 [core.py:925] EngineCore encountered a fatal error.\n"
        f"{CORE} Traceback (most recent call last):\n"
        f'{CORE}   File "/usr/local/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", line 2210, in execute_model\n'
        f"{CORE} {OOM.format(size='3.20 GiB', free='1.02 GiB')}\n"
        f'{API} INFO:     10.0.0.7:40318 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n',
    ),
    # an untagged OOM below the server, but the server then refused a request: not set aside as another process's
    (
        "cuda-oom-generic",
        CAPTURED
        + UP
        + co_tenant("/home/ana/finetune.py", OOM.format(size="30.00 GiB", free="9.40 GiB"))
        + f'{API} INFO:     10.0.0.7:40320 - "POST /v1/chat/completions HTTP/1.1" 503 Service Unavailable\n',
    ),
]

NEAR_MISSES = [
    # the capture finished and the server came up long before another program's OOM (torch 2.0's older wording)
    (
        "cudagraph-capture-oom",
        f"{CORE} Capturing CUDA graphs (decode, FULL): 100%|##########| 35/35 [00:02<00:00, 15.2it/s]\n"
        + CAPTURED
        + UP
        + co_tenant(
            "/home/ana/train.py",
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 100.00 GiB (GPU 0; 79.18 GiB total "
            "capacity; 0 bytes already allocated; 60.10 GiB free; 0 bytes reserved in total by PyTorch)",
        ),
    ),
    # V0's capture (model_runner.py 'Capturing cudagraphs for decoding. ...', ended by 'Graph capturing finished in
    # %.0f secs.'), then an OOM while serving in the same untagged process: no capture was under way (rendered)
    (
        "cudagraph-capture-oom",
        "INFO 03-02 09:13:40 model_runner.py:1072] Capturing cudagraphs for decoding. This may lead to unexpected "
        "consequences if the model is not static.\n"
        "INFO 03-02 09:13:47 model_runner.py:1200] Graph capturing finished in 7 secs.\n"
        "INFO:     Application startup complete.\n"
        "ERROR 03-02 09:20:31 async_llm_engine.py:61] Engine background task failed\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.10/site-packages/vllm/worker/model_runner.py", line 1450, in execute_model\n'
        + OOM.format(size="3.20 GiB", free="1.02 GiB")
        + "\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_co_tenant_oom_below_a_serving_server_is_no_failure_of_it():
    """Another program's OOM pasted below a tagged server that came up and answered: no cause, a note naming it."""
    log = (
        f"{CORE} Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|##########| 51/51 [00:04<00:00]\n"
        + CAPTURED
        + UP
        + co_tenant("/srv/jobs/embed.py", OOM.format(size="48.00 GiB", free="31.07 GiB"))
    )
    result = run(log)
    assert top_cause(result) is None, result.diagnoses
    note = next(d for d in result.diagnoses if d.id == "cuda-oom-generic")
    assert note.role == "note" and "another process" in note.cause, note
    assert result.exception is None or result.exception.component, result.exception


def test_untagged_server_log_keeps_the_oom():
    """A server whose own lines carry no process tag (vLLM before 0.6, or a paste that stripped it): an untagged OOM
    may be its own, so it stays a cause."""
    log = (
        "INFO 03-02 09:14:08 api_server.py:212] Started server process [2210]\n"
        "INFO:     Application startup complete.\n"
        'INFO:     10.0.0.7:40312 - "POST /v1/completions HTTP/1.1" 200 OK\n'
        + co_tenant("/srv/jobs/embed.py", OOM.format(size="48.00 GiB", free="31.07 GiB"))
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "cuda-oom-generic", top
