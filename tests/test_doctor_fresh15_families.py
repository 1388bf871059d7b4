"""Families learnt from the unseen batch fresh-15: what its confident wrong answer and its misses taught.

Short lines written from the engines' own message texts (vLLM's attention backends and core client, Triton's
fp8 refusal, llama.cpp's downloader and Metal backend, Gloo, llama-swap's process.go, crun/runc/podman/docker),
with other values, prefixes and releases than the corpus logs. The negatives pin what each widened entry must
NOT claim: healthy lines name nothing, and the neighbouring family keeps its own cases.
"""

from __future__ import annotations

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import run

TRITON_NEW = "ValueError: fp8e4nv data type is not supported on CUDA arch < 89\n"
TRITON_OLD = (
    '(VllmWorker rank=1 pid=4242) ValueError("type fp8e4nv not supported in this architecture. '
    "The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")\n"
)


def ids(result) -> list[str]:
    return [d.id for d in result.diagnoses]


# ---- the confident wrong one: an FP8 KV cache on a GPU without fp8e4nv


def test_a_triton_fp8_refusal_under_an_fp8_kv_cache_flag_names_the_kv_cache_not_the_weights():
    args = "INFO 05-01 09:00:00 [utils.py:326] non-default args: {'model': 'Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4', 'kv_cache_dtype': 'fp8'}\n"
    r = run(args + TRITON_NEW)
    top = r.diagnoses[0]
    assert top.id == "kv-cache-dtype-unsupported-on-gpu" and "KV cache" in top.cause
    assert top.confidence < CONFIDENT  # the flags cannot say whether the weights are FP8 too
    assert "fp8-unsupported-gpu" not in ids(r)
    cmd = "vllm serve /models/llama-awq --quantization awq_marlin --kv-cache-dtype=fp8_e4m3 --port 9000\n"
    assert run(cmd + TRITON_OLD).diagnoses[0].id == "kv-cache-dtype-unsupported-on-gpu"


def test_a_triton_fp8_refusal_without_an_fp8_kv_cache_stays_the_checkpoints():
    r = run(TRITON_OLD)
    assert r.diagnoses[0].id == "fp8-unsupported-gpu" and r.diagnoses[0].confidence >= CONFIDENT
    assert "kv-cache-dtype-unsupported-on-gpu" not in ids(r)
    # fp8_e5m2 is not E4M3: the KV cache did not ask for fp8e4nv, the FP8 checkpoint did
    e5m2 = "vllm serve RedHatAI/Llama-3.1-8B-Instruct-FP8 --kv-cache-dtype fp8_e5m2 --max-model-len 8192\n"
    r = run(e5m2 + TRITON_NEW)
    assert r.diagnoses[0].id == "fp8-unsupported-gpu" and "kv-cache-dtype-unsupported-on-gpu" not in ids(r)


def test_vllm_032_kv_cache_refusals_of_the_mla_backend_and_reshape_and_cache():
    mla = (
        "ValueError: FP8 KV cache is not supported by the Triton MLA backend on Tesla T4 (compute capability 7.5); "
        "native FP8 (fp8e4nv) requires SM89+. Re-run with --kv-cache-dtype float16.\n"
    )
    r = run(mla)
    assert r.diagnoses[0].id == "kv-cache-dtype-unsupported-on-gpu" and r.diagnoses[0].confidence >= CONFIDENT
    reshape = (
        "AssertionError: Triton reshape-and-cache cannot store kv_cache_dtype=fp8_e4m3 on this device: an FP8 KV "
        "cache needs native fp8e4nv (SM89+). Use --kv-cache-dtype bfloat16 (or float16 on SM75).\n"
    )
    r = run(reshape)
    assert r.diagnoses[0].id == "kv-cache-dtype-unsupported-on-gpu" and "fp8_e4m3" in r.diagnoses[0].cause


# ---- llama.cpp's downloader in the libcurl releases


def test_a_build_without_libcurl_cannot_download_and_tls_serving_keeps_its_family():
    for line in (
        "llama_load_model_from_hf: llama.cpp built without libcurl, downloading from Hugging Face not supported.\n",
        "common_load_model_from_url: llama.cpp built without libcurl, downloading from an url not supported.\n",
    ):
        r = run("build: 4200 (0b4f9a1c) with cc (GCC) 13.2.1 for aarch64-linux-gnu\n" + line)
        assert r.diagnoses[0].id == "llamacpp-download-no-https" and r.diagnoses[0].confidence >= CONFIDENT
    r = run("0.00.004.120 E srv  init_listene: the server is built without SSL support\n")
    assert r.diagnoses[0].id == "llamacpp-no-ssl-support"


# ---- an image or binary for another CPU architecture


def test_a_foreign_image_that_cannot_exec_is_the_wrong_arch_and_enoexec_alone_is_not_sure():
    warning = (
        "WARNING: The requested image's platform (linux/arm64/v8) does not match the detected host platform "
        "(linux/amd64) and no specific platform was requested\n"
    )
    r = run(warning + "exec /usr/bin/python3: exec format error\n")
    assert r.diagnoses[0].id == "container-image-wrong-arch" and r.diagnoses[0].confidence >= CONFIDENT
    assert "exec-format-error" not in ids(r)
    r = run("standard_init_linux.go:228: exec user process caused: exec format error\n")
    assert r.diagnoses[0].id == "exec-format-error" and r.diagnoses[0].confidence < CONFIDENT
    r = run("bash: ./llama-server: cannot execute binary file: Exec format error\n")
    assert r.diagnoses[0].id == "exec-format-error"


def test_a_platform_warning_under_emulation_is_not_a_failure():
    r = run(
        "WARNING: image platform (linux/amd64) does not match the expected platform (linux/arm64)\n"
        "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n"
    )
    assert not r.diagnoses and not r.fatal


# ---- Gloo under RestrictAddressFamilies without AF_NETLINK


def test_gloos_getifaddrs_enforce_is_a_refused_address_family():
    r = run(
        "Mar 02 08:15:11 node7 vllm[2211]: RuntimeError: [enforce fail at /pytorch/third_party/gloo/gloo/"
        "transport/tcp/device.cc:212] rv != -1. -1 vs -1. Address family not supported by protocol\n"
    )
    assert r.diagnoses[0].id == "address-family-not-supported" and r.diagnoses[0].confidence >= CONFIDENT
    r = run(
        "RuntimeError: [enforce fail at gloo/transport/tcp/device.cc:150] Unable to find address for: node7\n"
    )
    assert "address-family-not-supported" not in ids(r)


# ---- vLLM's engine-ready timeout before PR #35616


def test_the_old_engine_ready_timeout_wording_is_a_start_timeout():
    r = run(
        "(APIServer pid=77) TimeoutError: Timed out waiting for engines to send initial message on input socket.\n"
    )
    assert r.diagnoses[0].id == "engine-start-timeout"


# ---- older vLLM's Mistral tokenizer search


def test_no_mistral_tokenizer_file_is_a_tokenizer_mode_mismatch_and_two_are_not():
    zero = (
        "OSError: Found 0 files matching the pattern: `^tokenizer\\.model\\.v.*$|^tekken\\.json$`. Make sure that "
        "a Mistral tokenizer is present in ['config.json', 'tokenizer.json', 'model.safetensors'].\n"
    )
    r = run(zero)
    assert r.diagnoses[0].id == "tokenizer-mode-mismatch" and r.diagnoses[0].confidence >= CONFIDENT
    two = (
        "OSError: Found 2 files matching the pattern: `^tokenizer\\.model\\.v.*$|^tekken\\.json$`. Make sure only "
        "one Mistral tokenizer is present in ['tekken.json', 'tokenizer.model.v3'].\n"
    )
    assert "tokenizer-mode-mismatch" not in ids(run(two))


# ---- llama-swap's own report of its child's exit


def test_llama_swaps_wait_lines_name_the_upstream_exit_but_not_its_own_stop():
    for line in (
        "[DEBUG] <gemma3-12b> cmd.Wait() returned error: exit status 1\n",
        "[WARN] <qwen-embed> ExitError >> signal: killed, exit code: -1\n",
        "[DEBUG] <mistral-small> cmd.Wait() returned error: signal: aborted (core dumped)\n",
    ):
        r = run(line)
        assert ids(r)[0] == "router-upstream-exited", (line, ids(r))
        assert "native-abort" not in ids(r)
    for healthy in (
        "[DEBUG] <gemma3-12b> cmd.Wait() returned error: <nil>\n",
        "[DEBUG] <gemma3-12b> cmd.Wait() returned error: signal: terminated\n",
        "[DEBUG] <gemma3-12b> cmd.Wait() returned error: signal: interrupt\n",
    ):
        assert not run(healthy).diagnoses, healthy


def test_a_shells_own_abort_is_still_a_native_abort():
    r = run("/opt/llm/start.sh: line 4:   812 Aborted (core dumped) ./llama-server -m /models/q.gguf\n")
    assert ids(r)[0] == "native-abort"


# ---- Metal's command buffer out of memory


def test_a_metal_command_buffer_out_of_memory_is_a_metal_oom_and_a_timeout_is_not():
    oom = (
        "ggml_metal_graph_compute: command buffer 1 failed with status 5\n"
        "error: Insufficient Memory (00000008:kIOAccelCommandBufferCallbackErrorOutOfMemory)\n"
    )
    r = run(oom)
    assert r.diagnoses[0].id == "llamacpp-metal-oom" and r.diagnoses[0].confidence >= CONFIDENT
    assert r.verdict == "cause found"  # the status line is explained, not a competing exception
    timeout = (
        "ggml_metal_synchronize: error: command buffer 0 failed with status 5\n"
        "error: Caused GPU Timeout Error (00000002:kIOAccelCommandBufferCallbackErrorTimeout)\n"
    )
    assert "llamacpp-metal-oom" not in ids(run(timeout))
