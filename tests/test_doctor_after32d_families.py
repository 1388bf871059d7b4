"""What after32d learnt in stop 32 after scoring fresh-129 (another process on the same machine in the engine's way)
and fresh-137 (llama.cpp's refusals at the edges): each class tested on another wording than the batch log's, and on a
near miss that must not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

TRUNCATED_GGUF = (
    "llama_model_load: error loading model: tensor 'blk.40.ffn_down.weight' data is not within the file bounds, "
    "model is corrupted or incomplete\n"
    "llama_model_load_from_file_impl: failed to load model\n"
)
VLLM_STOP = "(EngineCore_DP0 pid=812) INFO 12-05 10:00:05 [core.py:1454] [shutdown] EngineCore: trigger received signal=SIGTERM\n"
VLLM_DEATH = "(APIServer pid=700) ERROR 12-05 10:00:09 [multiproc_executor.py:150] Worker proc VllmWorker-0 died unexpectedly (exit code: -15)\n"

CASES = [
    # a write that failed for space earlier in the log explains the truncated file read later (fresh-129's cp onto a
    # full tmpfs); here wget's wording (src/retr.c 'Cannot write to %s (%s).' with strerror) before llama.cpp's loader
    (
        "disk-full",
        "2026-12-05 10:00:00 (48.2 MB/s) - Cannot write to 'qwen3-8b-q4_k_m.gguf' (No space left on device).\n"
        + TRUNCATED_GGUF,
    ),
    # the user's quota spent (EDQUOT, Python's OSError) before safetensors reads the half-written shard
    (
        "disk-quota-exceeded",
        "OSError: [Errno 122] Disk quota exceeded: '/home/llm/models/Qwen3-8B/model-00002-of-00004.safetensors'\n"
        "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer\n",
    ),
    # a FAT32 disk's 4 GiB file limit (EFBIG, coreutils' cp) cut the copy short
    (
        "file-too-large",
        "cp: error writing '/media/usb/qwen3-32b-q4_k_m.gguf': File too large\n" + TRUNCATED_GGUF,
    ),
    # vLLM's engine core stopped by a signal before the server came up, then the API server sees its worker die
    # (vllm/v1/engine/core.py's signal handler; multiproc_executor's monitor): the stop ended the start
    ("shutdown-requested", VLLM_STOP + VLLM_DEATH),
    # llama.cpp's speculative 'X requires Y' refusals (llama-server b11434's strings): after32d read them as
    # cli-missing-argument; learn38a (s38) gave them to the families whose cause they are
    (
        "llamacpp-spec-synthetic-acceptance-invalid",
        "E srv    load_model: synthetic acceptance requires at least one speculative token\n"
        "E srv  llama_server: exiting due to model loading error\n",
    ),
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        "E srv    load_model: draft-simple requires a draft context\n",
    ),
    # a shell's own report that its job was killed by SIGKILL, with no OOM line: interactive bash's job control, zsh
    (
        "engine-killed-from-outside",
        "[1]+  Killed                  llama-server -m /models/q.gguf --port 8080\n",
    ),
    ("engine-killed-from-outside", "zsh: killed     vllm serve Qwen/Qwen3-8B --port 8000\n"),
]

NEAR_MISSES = [
    # a warning: llama-server disables the option and serves on
    ("cli-missing-argument", "W srv    load_model: --cache-idle-slots requires --cache-ram, disabling\n"),
    # a line that only says something was killed is not a shell's job report
    ("engine-killed-from-outside", "INFO: Killed 3 stale requests after 30 s\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_truncated_gguf_with_no_space_failure_stays_a_bad_gguf():
    top = top_cause(run(TRUNCATED_GGUF))
    assert top is not None and top.id == "llamacpp-bad-gguf" and top.confidence >= 0.7


def test_the_truncated_file_is_kept_as_the_symptom_of_the_space_failure():
    r = run("cp: error writing '/mnt/m.gguf': No space left on device\n" + TRUNCATED_GGUF)
    ids = [(d.id, d.role) for d in r.diagnoses]
    assert ids[0] == ("disk-full", "cause") and ("llamacpp-bad-gguf", "symptom") in ids


def test_a_stop_after_the_server_came_up_is_an_ordinary_shutdown():
    up = "(APIServer pid=700) INFO:     Application startup complete.\n"
    top = top_cause(run(up + VLLM_STOP + VLLM_DEATH))
    assert top is None


def test_a_stop_with_no_death_after_it_changes_nothing():
    top = top_cause(run(VLLM_STOP))
    assert top is None


def test_a_killed_job_with_the_kernels_oom_line_is_the_oom_killer():
    log = (
        "kernel: Out of memory: Killed process 2102 (llama-server) total-vm:81234567kB\n"
        "bash: line 1:  2102 Killed                  llama-server -m /models/q.gguf\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "host-oom-kill" and top.confidence >= 0.7


def test_harvest_counts_a_family_by_its_own_wordings_not_its_hint(tmp_path):
    """A hint's hit (host-oom-kill's bare 'exit status 137') is not the family's words: it says its own hedged cause
    below the confident line, so the corpus logs it matched must not cap the kernel's own OOM line (after32d: fresh-129's
    `kill -9` would have capped 'Out of memory: Killed process' to 0.67)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tools.harvest_shared_wordings import raw_causes

    hint = tmp_path / "hint.log"
    hint.write_text("llama-server -m /models/q.gguf --port 8080\nexit status 137\n")
    kernel = tmp_path / "kernel.log"
    kernel.write_text(
        "kernel: Out of memory: Killed process 2102 (llama-server) total-vm:81234567kB\nexit status 137\n"
    )
    assert "host-oom-kill" not in raw_causes(hint)
    assert "host-oom-kill" in raw_causes(kernel)
