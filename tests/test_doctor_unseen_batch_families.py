"""Families learnt from the unseen batches fresh-7, fresh-9 and fresh-10 (issue 12): what their misses and
confident-wrong answers taught, after each batch was scored.

Short synthetic lines written from the tools' own texts (llama.cpp's router start and its sched_reserve
retry, systemd's user/group name check, the dynamic loader, servebox's own refusal, compressed-tensors'
scheme check), with prefixes and values unlike the corpus logs. The negative cases pin what each
widened entry must NOT claim.
"""

from __future__ import annotations

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import run

OOM = "E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9120.00 MiB on device 2: cudaMalloc failed: out of memory\n"


def test_a_llamacpp_allocation_failure_that_the_server_recovered_from_is_not_the_failure():
    recovered = run(
        OOM
        + "W sched_reserve: compute buffer allocation failed, retrying without pipeline parallelism\n"
        + "I main: server is listening on http://0.0.0.0:8080\n"
    )
    assert not recovered.fatal and recovered.diagnoses[0].role == "note"
    assert "Recovered" in recovered.diagnoses[0].cause
    failed = run(OOM + "E llama_init_from_model: failed to initialize the context\n")
    top = failed.diagnoses[0]
    assert failed.fatal and top.id == "llamacpp-cuda-oom" and top.confidence >= CONFIDENT


def test_servebox_refusing_a_length_names_the_length_not_a_spec_error():
    r = run(
        "servebox: error: --max-model-len: 65536 is greater than the model's derived max_model_len 32768"
        " (max_position_embeddings and rope scaling): vLLM refuses it\n"
    )
    assert r.diagnoses[0].id == "max-model-len-above-positions"
    r = run("servebox: error: spec.toml: models.qwen.port: duplicate port 8001\n")
    assert r.diagnoses[0].id == "servebox-spec-invalid"


def test_a_group_list_with_commas_is_named_and_an_odd_name_without_one_is_not():
    r = run(
        "Accepting user/group name 'render,video,kvm', which does not match strict user/group name rules.\n"
    )
    assert r.diagnoses[0].id == "systemd-groups-comma-list" and r.fatal
    r = run("Accepting user/group name 'Video', which does not match strict user/group name rules.\n")
    assert all(d.id != "systemd-groups-comma-list" for d in r.diagnoses)


def test_a_missing_shared_library_names_whose_it_is():
    own = run(
        "./build/bin/llama-server: error while loading shared libraries: libggml-base.so: cannot open shared object file\n"
    )
    assert own.diagnoses[0].id == "engine-image-missing-own-library"
    other = run(
        "/opt/x/bin/tool: error while loading shared libraries: libnuma.so.1: cannot open shared object file\n"
    )
    assert other.diagnoses[0].id == "shared-library-missing" and other.diagnoses[0].confidence < CONFIDENT
    cxx = run(
        "python3: error while loading shared libraries: libstdc++.so.6: cannot open shared object file\n"
    )
    assert cxx.diagnoses[0].id == "libstdcxx-not-found"


def test_the_router_start_names_its_reason():
    r = run(
        "E srv  llama_server: failed to initialize router models: error: '/models' does not exist or is not a directory\n"
    )
    assert r.diagnoses[0].id == "llamacpp-models-dir-missing"
    r = run("failed to initialize router models: option 'ngram-on-disk' not recognized in preset 'q3'\n")
    assert r.diagnoses[0].id == "llamacpp-router-preset-option"
    r = run("failed to initialize router models: subprocess is not enabled on this build\n")
    assert r.diagnoses[0].id == "llamacpp-router-init-failed" and r.diagnoses[0].confidence < CONFIDENT


def test_compressed_tensors_scheme_capability_and_cxxabi():
    r = run(
        "RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 89. ', "
        "'Current capability: 80.')\n"
    )
    assert r.diagnoses[0].id == "quantization-min-capability" and "89" in r.diagnoses[0].cause
    r = run("ImportError: /usr/lib64/libstdc++.so.6: version `CXXABI_1.3.13' not found (required by x.so)\n")
    assert r.diagnoses[0].id == "glibcxx-version-not-found" and "CXXABI_1.3.13" in r.diagnoses[0].cause


def test_an_engine_error_outranks_llama_swaps_exited_but_successfully():
    """llama-swap says 'but successfully' for an engine that failed too (the deployment's log)."""
    alone = run("[WARN] <m> upstream command exited prematurely but successfully\n")
    assert (
        alone.diagnoses[0].id == "router-cmd-not-long-running" and alone.diagnoses[0].confidence < CONFIDENT
    )
    both = run(
        "(APIServer pid=9) ERROR 08-20 10:14:11 [x.py:1] RuntimeError: Ray Version mismatch: The cluster was started with:\n"
        "[WARN] <m> upstream command exited prematurely but successfully\n"
    )
    assert both.diagnoses[0].id == "ray-version-mismatch"


def test_fresh10_wordings_need_their_context():
    assert all(d.id != "deepgemm-arch-unsupported" for d in run("ValueError: Unknown recipe 'x'\n").diagnoses)
    frame = '  File "/v/vllm/v1/structured_output/backend_xgrammar.py", line 82, in compile_grammar\n'
    assert all(d.id != "grammar-compile-error-kills-engine" for d in run(frame).diagnoses)
    r = run(
        "ValueError: The output_size of gate's and up's weight = 192 is not\n"
        "            divisible by weight quantization block_n = 128.\n"
    )
    assert r.diagnoses[0].id == "quantized-input-not-aligned"
    r = run(
        "clip_init: failed to load model 'mm.gguf': load_hparams: unknown projector type: qwen3vl_merger\n"
    )
    assert r.diagnoses[0].id == "llamacpp-unknown-arch" and "qwen3vl_merger" in r.diagnoses[0].cause


def test_fresh9_request_families_need_their_context():
    r = run('INFO:     127.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 401 Unauthorized\n')
    assert r.diagnoses[0].id == "api-key-missing" and not r.fatal
    no_tasks = run('INFO:     127.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 404 Not Found\n')
    assert all(d.id != "endpoint-not-served-by-runner" for d in no_tasks.diagnoses)
    pooling = run(
        "(APIServer pid=1) INFO 12-03 10:18:38 [entry.py:136] Supported tasks: ['embed']\n"
        'INFO:     127.0.0.1:1 - "POST /v1/completions HTTP/1.1" 404 Not Found\n'
    )
    assert pooling.diagnoses[0].id == "endpoint-not-served-by-runner" and not pooling.fatal


def test_no_gpu_is_a_cause_until_the_server_serves_on_the_cpu():
    warn = "warning: no usable GPU found, --gpu-layers option will be ignored\n"
    alone = run(warn + "E llama_init_from_model: failed to initialize the context\n")
    assert alone.diagnoses[0].id == "llamacpp-no-gpu" and alone.diagnoses[0].role == "cause"
    served = run(
        warn + "I srv  llama_server: model loaded\nI main: server is listening on http://127.0.0.1:8080\n"
    )
    assert served.diagnoses[0].role == "note" and not served.fatal


def test_fresh9_gpu_families():
    r = run(
        "ValueError: NvFp4 MoE backend 'FLASHINFER_TRTLLM' does not support the deployment configuration\n"
    )
    assert r.diagnoses[0].id == "moe-backend-excludes-gpu" and "FLASHINFER_TRTLLM" in r.diagnoses[0].cause
    r = run("h:1:1 [0] init.cc:426 NCCL WARN Cuda failure 'operation not supported'\n")
    assert r.diagnoses[0].id == "vgpu-uvm-disabled"
    r = run("RuntimeError: Assertion error (csrc/apis/gemm.hpp:9): Unsupported architecture\n")
    assert all(d.id != "compute-capability-unsupported" for d in r.diagnoses)  # DeepGEMM not named
    r = run("ValueError: The quantization method mxfp4 is not supported for the current GPU SM70\n")
    assert r.diagnoses[0].id == "quantization-min-capability" and "SM70" in r.diagnoses[0].cause


def test_fresh11_request_and_vulkan_families():
    r = run('{"error":{"message":"temperature must be in [0, 2], got 3.5.","code":400}}\n')
    assert (
        r.diagnoses[0].id == "request-sampling-param-out-of-range" and "temperature" in r.diagnoses[0].cause
    )
    assert not r.fatal
    r = run(
        "WARNING [sampling_params.py:1] temperature 1e-06 is less than 0.01, which may cause numerical errors\n"
    )
    assert all(d.id != "request-sampling-param-out-of-range" for d in r.diagnoses)
    vk = "ggml_vulkan: Requested buffer size exceeds device memory allocation limit: ErrorOutOfDeviceMemory\n"
    assert run(vk).diagnoses[0].id == "vulkan-allocation-size-limit"
    oom = "ggml_vulkan: Device memory allocation of size 4294967296 failed.\n"
    assert run(oom).diagnoses[0].id != "vulkan-allocation-size-limit"


def test_fresh12_paths_backends_and_gpus():
    bare = run("llm.service: Command vllm is not executable: No such file or directory\n")
    assert bare.diagnoses[0].id == "systemd-exec-path-invalid"
    absolute = run("llm.service: Command /opt/v/bin/vllm is not executable: No such file or directory\n")
    assert absolute.diagnoses[0].id == "systemd-exec-failed"
    rel = run("E srv    load_model: failed to load draft model, 'draft-q4.gguf'\n")
    assert rel.diagnoses[0].id == "llamacpp-relative-model-path"
    absolute = run("E srv    load_model: failed to load draft model, '/srv/m/draft-q4.gguf'\n")
    assert absolute.diagnoses[0].id != "llamacpp-relative-model-path"
    r = run(":1:hip_fatbin.cpp :687 : 1 us:  No compatible code objects found for: gfx1036, value of X: 0\n")
    assert r.diagnoses[0].id == "rocm-gfx-unsupported"
    r = run("ValueError: Invalid attention backend for cuda, with use_v1: False use_mla: True\n")
    assert r.diagnoses[0].id == "attention-backend-not-valid"
