"""What fresh-409's last two misses taught (learn47e), with their neighbourhood.

- model-file-changed-while-mapped (widened): a llama.cpp SIGBUS, then a restart's refusal of the same GGUF as cut short
  (llamacpp-bad-gguf's 'tensor '%s' data is not within the file bounds, model is corrupted or incomplete', src/
  llama-model-loader.cpp; gguf.cpp's own checks), is one in-place truncation seen twice: the mapped family names the
  first event and now supersedes llamacpp-bad-gguf; its fix says to put a complete copy back.
- shm-broadcast-stall: vLLM's 'No available shared memory broadcast block found in %d seconds' (shm_broadcast.py
  LONG_WAIT_TIME_LOG_MSG) followed by a metrics line that reports generated tokens ('Avg generation throughput: %.1f
  tokens/s', v1/metrics/loggers.py; v0's metrics.py) is a serving engine working through a burst: a note (marker
  engine-generated-tokens). Near misses: the wait repeating with 0.0 tokens/s after it, streamed '200 OK's (logged
  when the headers go out) without tokens, and tokens only before the wait stay the stall.
Lines are the sources' format strings rendered with values (marked), not the corpus logs' own.
"""

from __future__ import annotations

from tests.doctor_text import run, top_cause

# ---- llama.cpp: the mapped GGUF cut short in place, then the restart refuses it

LLAMA_START = (
    "$ llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --port 8080\n"
    "main: loading model\n"
    "srv    load_model: loading model '/srv/models/qwen2.5-0.5b-q8_0.gguf'\n"
    "main: server is listening on http://127.0.0.1:8080 - starting the main loop\n"
    "srv  update_slots: all slots are idle\n"
)
# llama-model-loader.cpp's load_all_data / check bound: "tensor '%s' data is not within the file bounds, model is
# corrupted or incomplete" (rendered, another tensor)
REFUSED_AT_RESTART = (
    "$ llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --port 8080\n"
    "srv    load_model: loading model '/srv/models/qwen2.5-0.5b-q8_0.gguf'\n"
    "llama_model_load: error loading model: tensor 'token_embd.weight' data is not within the file bounds, model is "
    "corrupted or incomplete\n"
    "llama_model_load_from_file_impl: failed to load model\n"
    "srv    load_model: failed to load model, '/srv/models/qwen2.5-0.5b-q8_0.gguf'\n"
    "srv    operator(): operator(): cleaning up before exit...\n"
    "main: exiting due to model loading error\n"
)
# gguf.cpp's gguf_init_from_file_impl when the file ends before the tensor data (rendered)
GGUF_REFUSED_AT_RESTART = (
    "$ llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --port 8080\n"
    "gguf_init_from_file_impl: tensor 'blk.3.ffn_up.weight' data is not within the file bounds, model is corrupted "
    "or incomplete\n"
    "llama_model_load: error loading model: llama_model_loader: failed to load model from "
    "/srv/models/qwen2.5-0.5b-q8_0.gguf\n"
    "main: exiting due to model loading error\n"
)


def test_bash_bus_error_then_a_refused_restart_names_the_in_place_change():
    """bash's 'Bus error (core dumped)' (rendered) for the served process, then the restart's bound check."""
    log = (
        LLAMA_START + "bash: line 1:  4411 Bus error               (core dumped) llama-server -m "
        "/srv/models/qwen2.5-0.5b-q8_0.gguf --port 8080\n" + REFUSED_AT_RESTART
    )
    result = run(log)
    top = top_cause(result)
    assert top is not None and top.id == "model-file-changed-while-mapped"
    assert "complete copy back" in top.fix
    assert "llamacpp-bad-gguf" not in {d.id for d in result.diagnoses}


def test_systemd_status_7_bus_then_gguf_refusal_names_the_in_place_change():
    """systemd's 'code=dumped, status=7/BUS' (rendered) for the unit's llama-server, then gguf.cpp's refusal."""
    log = (
        LLAMA_START
        + "llama.service: Main process exited, code=dumped, status=7/BUS\n"
        + "llama.service: Failed with result 'core-dump'.\n"
        + GGUF_REFUSED_AT_RESTART
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "model-file-changed-while-mapped"


def test_a_truncated_gguf_with_no_bus_error_stays_bad_gguf():
    """Near miss: a file refused at its first load, nothing served or killed: the file's own family, confident."""
    top = top_cause(run(REFUSED_AT_RESTART))
    assert top is not None and top.id == "llamacpp-bad-gguf" and top.confidence >= 0.7


# ---- vLLM: the engine core's 60 s waits under a burst it then worked through

START = (
    "(APIServer pid=100) INFO 03-02 10:00:10 [api_server.py:1400] Starting vLLM API server 0 on http://0.0.0.0:8000\n"
    "(APIServer pid=100) INFO:     Application startup complete.\n"
)
# shm_broadcast.py LONG_WAIT_TIME_LOG_MSG (rendered: acquire_read's INFO at :871; older acquire_write's WARNING)
WAIT = (
    "(EngineCore_DP0 pid=30) INFO 03-02 10:0{m}:06 [shm_broadcast.py:871] No available shared memory broadcast block "
    "found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work "
    "(e.g. compilation, weight/kv cache quantization).\n"
)
OLD_WAIT = (
    "WARNING 08-14 12:0{m}:00 [shm_broadcast.py:466] No available shared memory broadcast block found in 60 seconds. "
    "This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation)\n"
)
# v1/metrics/loggers.py LoggingStatLogger.log (rendered)
STATS = (
    "(APIServer pid=100) INFO 03-02 10:0{m}:40 [loggers.py:257] Engine 000: Avg prompt throughput: {p} tokens/s, "
    "Avg generation throughput: {g} tokens/s, Running: {r} reqs, Waiting: {w} reqs, GPU KV cache usage: 3.1%, "
    "Prefix cache hit rate: 0.0%\n"
)
# v0's engine/metrics.py LoggingStatLogger (rendered)
OLD_STATS = (
    "INFO 08-14 12:0{m}:30 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: {g} "
    "tokens/s, Running: 2 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 1.2%, CPU KV cache usage: 0.0%.\n"
)
STREAMED = 'INFO:     127.0.0.1:5{i:04d} - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'


def _stall(result):
    return next(d for d in result.diagnoses if d.id == "shm-broadcast-stall")


def test_waits_then_tokens_generated_are_no_failure():
    log = (
        START
        + "".join(STREAMED.format(i=i) for i in range(20))
        + WAIT.format(m=2)
        + WAIT.format(m=3)
        + STATS.format(m=3, p="88.4", g="312.5", r=12, w=0)
        + STATS.format(m=4, p="0.0", g="0.1", r=0, w=0)
    )
    result = run(log)
    assert top_cause(result) is None and not result.fatal
    stall = _stall(result)
    assert stall.role == "note" and "generated tokens after its last such wait" in stall.cause


def test_v0_wait_then_v0_metrics_with_tokens_is_a_note():
    result = run(OLD_WAIT.format(m=1) + OLD_STATS.format(m=1, g="12.3"))
    assert top_cause(result) is None and _stall(result).role == "note"


def test_near_miss_waits_with_nothing_generated_stay_the_stall():
    """The wait repeats and the metrics say 0.0 tokens/s with requests running: a real stall."""
    log = (
        START
        + STATS.format(m=1, p="50.0", g="140.2", r=4, w=0)
        + WAIT.format(m=2)
        + STATS.format(m=2, p="0.0", g="0.0", r=4, w=9)
        + WAIT.format(m=3)
        + STATS.format(m=3, p="0.0", g="0.0", r=4, w=9)
    )
    result = run(log)
    top = top_cause(result)
    # engine-core-suspended (running requests, 0.0 tokens/s) may name it first: a stall either way, never a note
    assert top is not None and top.id in ("shm-broadcast-stall", "engine-core-suspended") and result.fatal
    assert _stall(result).role != "note"


def test_near_miss_streamed_200s_without_tokens_stay_the_stall():
    """A streamed request's '200 OK' is logged when its headers go out: after the waits, with no token, not progress."""
    log = (
        START
        + WAIT.format(m=2)
        + "".join(STREAMED.format(i=i) for i in range(5))
        + WAIT.format(m=3)
        + "".join(STREAMED.format(i=i) for i in range(5, 9))
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "shm-broadcast-stall"


def test_near_miss_tokens_only_between_waits_stay_the_stall():
    """Tokens after the first wait but none after the last: the engine stopped again."""
    log = START + WAIT.format(m=2) + STATS.format(m=2, p="1.0", g="30.0", r=2, w=0) + WAIT.format(m=3)
    top = top_cause(run(log))
    assert top is not None and top.id == "shm-broadcast-stall"
