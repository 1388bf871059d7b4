"""What fresh-464 and fresh-466 taught (first contact), each cause on wordings other than the batches' own.

- servebox-state-dir-not-a-directory (new): `servebox up` (down, watch) given a --state-dir that cannot be a folder;
  today's one line from cli/dirs.py, and older servebox's mkdir traceback (FileExistsError / NotADirectoryError),
  which counts only beside servebox's own frame or flag, or where it names the default .servebox.
- dist-peers-missing widened to vLLM's data-parallel launch with ranks that were never started: the local engines'
  'Waiting for READY message from DP Coordinator...' (v1/engine/core.py) where the launch has fewer local ranks than
  --data-parallel-size, and the API server's DEBUG 'Waiting for 0 local, K remote core engine proc(s) to connect.'
  (v1/engine/utils.py); a ^C after a wait that never ended is the user giving up, not the cause.
"""

from __future__ import annotations

from tests.doctor_text import run, top_cause

STATE = "servebox-state-dir-not-a-directory"
PEERS = "dist-peers-missing"


def _top(log: str):
    top = top_cause(run(log))
    assert top is not None, log
    return top


# ---- servebox-state-dir-not-a-directory


def test_todays_one_line_refusal_names_the_state_dir():
    top = _top(
        "$ servebox watch deploy/spec.toml --state-dir /srv/llm/run\n"
        "servebox: error: /srv/llm/run: --state-dir: exists and is a regular file, not a directory: point "
        "--state-dir at a folder (or at a path that does not exist yet), or move that file away\n"
    )
    assert top.id == STATE and top.confidence >= 0.8
    assert "/srv/llm/run" in top.cause and "/srv/llm/run" in top.fix


def test_a_file_above_the_state_dir_in_todays_words():
    top = _top(
        "servebox: error: /var/lib/servebox/state: --state-dir: a part of the path above it is a file, not a "
        "directory: point --state-dir at a folder (or at a path that does not exist yet), or move that file away\n"
    )
    assert top.id == STATE and "above it is a file" in top.cause


def test_older_servebox_plain_traceback_not_a_directory():
    top = _top(
        "$ servebox up --state-dir /srv/run/servebox spec.toml\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/servebox/bin/servebox", line 8, in <module>\n'
        "    sys.exit(main())\n"
        '  File "/opt/servebox/lib/python3.12/site-packages/servebox/cli/serve.py", line 76, in up\n'
        "    state_dir.mkdir(parents=True, exist_ok=True)\n"
        '  File "/usr/lib/python3.12/pathlib.py", line 1311, in mkdir\n'
        "    os.mkdir(self, mode)\n"
        "NotADirectoryError: [Errno 20] Not a directory: '/srv/run/servebox'\n"
    )
    assert top.id == STATE and "/srv/run/servebox" in top.cause
    assert "folders above it" in top.cause


def test_older_servebox_default_state_dir_only_the_last_line():
    top = _top("$ servebox up spec.toml\nFileExistsError: [Errno 17] File exists: '.servebox'\n")
    assert top.id == STATE and ".servebox" in top.fix


def test_near_miss_an_engines_own_file_exists_is_not_servebox_state():
    log = (
        "(EngineCore pid=77) ERROR 12-07 10:00:01 [core.py:1100] EngineCore failed to start.\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/vllm/lib/python3.11/site-packages/vllm/compilation/backends.py", line 512, in __call__\n'
        "    os.makedirs(cache_dir)\n"
        "FileExistsError: [Errno 17] File exists: '/root/.cache/vllm/torch_compile_cache'\n"
    )
    assert STATE not in [d.id for d in run(log).diagnoses]


def test_near_miss_another_directory_option_is_not_the_state_dir():
    log = (
        "servebox: error: results: --result-dir: exists and is a regular file, not a directory: point "
        "--result-dir at a folder (or at a path that does not exist yet), or move that file away\n"
    )
    assert _top(log).id != STATE


# ---- dist-peers-missing: vLLM's data-parallel ranks that never came


def _dp_log(args: str, *, dp_line: str, waits: int, after: str) -> str:
    head = (
        f"$ vllm serve /srv/models/qwen3-8b {args}\n"
        "(APIServer pid=301) INFO 03-02 09:00:01 [api_utils.py:286] non-default args: {'model': "
        "'/srv/models/qwen3-8b', " + dp_line + "}\n"
        "(APIServer pid=301) INFO 03-02 09:00:20 [utils.py:1245] Started DP Coordinator process (PID: 340)\n"
        "(EngineCore_DP0 pid=350) INFO 03-02 09:00:40 [core.py:402] init engine (profile, create kv cache, "
        "warmup model) took 12.10 s\n"
    )
    wait = "(EngineCore_DP{r} pid=35{r}) INFO 03-02 09:01:{s:02d} [core.py:1247] Waiting for READY message from DP Coordinator...\n"
    body = "".join(wait.format(r=i % 2, s=i % 60) for i in range(waits))
    return head + body + after


def test_dp_ranks_on_another_node_never_started_then_sigterm():
    log = _dp_log(
        "-dp 4 --data-parallel-size-local 2 --data-parallel-address 10.0.0.5 --data-parallel-rpc-port 13345",
        dp_line="'data_parallel_size': 4, 'data_parallel_size_local': 2, 'data_parallel_address': '10.0.0.5'",
        waits=12,
        after="(EngineCore_DP0 pid=350) INFO 03-02 09:03:00 [core.py:1454] [shutdown] EngineCore: trigger "
        "received signal=SIGTERM\n",
    )
    top = _top(log)
    assert top.id == PEERS and top.confidence >= 0.7
    assert "--data-parallel-start-rank" in top.fix and "--headless" in top.fix


def test_the_api_servers_debug_wait_for_remote_engines():
    line = "(APIServer pid=9) DEBUG 03-02 09:02:{s:02d} [utils.py:1401] Waiting for 0 local, 1 remote core engine proc(s) to connect.\n"
    log = "".join(line.format(s=s) for s in range(0, 50, 5)) + "^C\n"
    assert _top(log).id == PEERS


def test_torchs_own_wording_keeps_torchs_flags():
    top = _top("RuntimeError: Timed out after 601 seconds waiting for clients. 1/2 clients joined.\n")
    assert top.id == PEERS and "--master-addr" in top.fix and "601 seconds" in top.cause
    assert "--data-parallel" not in top.fix


def test_near_miss_all_ranks_local_that_came_up():
    # one host, every rank local: engines log the READY wait while the other loads, then the server comes up
    log = _dp_log(
        "--data-parallel-size 2",
        dp_line="'data_parallel_size': 2",
        waits=3,
        after="(APIServer pid=301) INFO 03-02 09:01:40 [launcher.py:47] Starting vLLM server on http://0.0.0.0:8000\n"
        "(APIServer pid=301) INFO:     Application startup complete.\n",
    )
    ids = [d.id for d in run(log).diagnoses if d.role in ("cause", "symptom")]
    assert PEERS not in ids


def test_near_miss_local_count_equal_to_size_stopped_while_waiting():
    # --data-parallel-size-local equal to the size: no remote rank is awaited, so the wait is not a missing peer
    log = _dp_log(
        "--data-parallel-size 2 --data-parallel-size-local 2",
        dp_line="'data_parallel_size': 2, 'data_parallel_size_local': 2",
        waits=2,
        after="^C\n(EngineCore_DP0 pid=350) INFO 03-02 09:01:30 [core.py:1454] [shutdown] EngineCore: trigger "
        "received signal=SIGINT\n",
    )
    top = top_cause(run(log))
    assert top is None or top.id != PEERS
