"""What the scored batches fresh-68 (llama.cpp's converter, llama-quantize and llama-gguf-split, made here) and fresh-76
(public: LLM servers run as services) taught after they were scored: each miss's family added or widened by the class
of its wording.

Each log is written in ANOTHER wording than its corpus log (another version, tool or program, from the sources of
llama.cpp 11434.0.0 and older trees, CUDA's and the OS's own texts), so the test checks the class of wording, not the
one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # cuda-init-failed (fresh-76's llama-server user unit started at boot before nvidia-uvm, llama.cpp#27923): CUDA's
    # error 100 on a host, as the driver API words it (TensorFlow's cuInit) and as torch raises it
    (
        "cuda-init-failed",
        "I0000 00:00:1714 cuda_executor.cc:1015] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device "
        "is detected\n",
    ),
    ("cuda-init-failed", "RuntimeError: CUDA error: no CUDA-capable device is detected\n"),
    # ... Ollama's own cuInit failure (discover/gpu_info_nvcuda.c), 999 after a suspend or at boot before nvidia_uvm
    (
        "cuda-init-failed",
        'time=2025-08-30T09:03:23.843-05:00 level=WARN source=gpu.go:605 msg="unknown error initializing cuda driver '
        "library /usr/lib/x86_64-linux-gnu/libcuda.so.575.64.03: cuda driver library init failure: 999. see "
        'https://github.com/ollama/ollama/blob/main/docs/troubleshooting.md for more information"\n'
        'time=2025-08-30T09:03:23.849-05:00 level=INFO source=gpu.go:377 msg="no compatible GPUs were discovered"\n',
    ),
    # ... and in a container the same error stays the missing runtime's (docker run without --gpus)
    (
        "no-gpu-driver-in-container",
        "$ docker run --rm -p 8000:8000 vllm/vllm-openai:latest --model Qwen/Qwen3-8B\n"
        "RuntimeError: CUDA error: no CUDA-capable device is detected\n",
    ),
    # llamacpp-quantize-needs-imatrix (fresh-68's IQ1_S without --imatrix): older tools/quantize/quantize.cpp's refusal,
    # and src/llama-quant.cpp's for a tensor the imatrix given does not cover
    (
        "llamacpp-quantize-needs-imatrix",
        "Please do not use IQ1_S, IQ1_M, IQ2_S, IQ2_XXS, IQ2_XS or Q2_K_S quantization without an importance matrix\n",
    ),
    (
        "llamacpp-quantize-needs-imatrix",
        "Missing importance matrix for tensor blk.0.ffn_down.weight in a very low-bit quantization\n"
        "The result will be garbage, so bailing out\n",
    ),
    # llama-quantize's and llama-gguf-split's other refusals (src/llama-quant.cpp, tools/quantize/quantize.cpp,
    # tools/gguf-split/gguf-split.cpp)
    (
        "llamacpp-requantize-disabled",
        "llama_model_quantize: failed to quantize: requantizing from type q8_0 is disabled\n"
        "llama_quantize: failed to quantize model from '/tmp/model.gguf'\n",
    ),
    (
        "llamacpp-requantize-disabled",
        "llama_model_quantize: failed to quantize: type q4_0_4x4 unsupported for integer quantization: no "
        "dequantization available\n",
    ),
    ("llamacpp-imatrix-unusable", "main: build = 3000\nload_imatrix: failed to open imatrix.dat\n"),
    (
        "llamacpp-imatrix-unusable",
        "llama_model_quantize: failed to quantize: imatrix size 4096 is different from tensor size 5120 for "
        "blk.0.attn_q.weight\n",
    ),
    (
        "gguf-split-merge-input-not-first-part",
        "gguf_merge: reading metadata merged.gguf ...\ngguf_merge: input file does not contain split.count metadata\n",
    ),
    (
        "gguf-split-merge-input-not-first-part",
        "gguf_merge: unexpected input file name: model-00002-of-00003.gguf i_split=0 n_split=3\n",
    ),
    ("gguf-split-output-exists", "gguf_merge: output file model.gguf already exists\n"),
    (
        "gguf-split-size-too-small",
        "error: one of splits have 0 tensors. Maybe size or tensors limit is too small\n",
    ),
    # weights-corrupt (fresh-68's safetensors cut in half, numpy memmap): torch.load of a cut .bin, and Python's own
    # mmap of a cut GGUF read by gguf-py
    (
        "weights-corrupt",
        "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory\n",
    ),
    (
        "weights-corrupt",
        '  File "/usr/lib/python3/site-packages/gguf/gguf_reader.py", line 130, in __init__\n'
        "    self.data = np.memmap(path, mode = mode)\n"
        "ValueError: mmap length is greater than file size\n",
    ),
    # disk-full (fresh-68's converter on a full tmpfs, numpy's short write): another size, and Windows' disk-full text
    # as llama.cpp's llama_file::write_raw prints it
    ("disk-full", "OSError: 1048576 requested and 4096 written\n"),
    (
        "disk-full",
        "llama_model_save_to_file: error: write error: There is not enough space on the disk.\n",
    ),
    # weights-missing: llama.cpp's converter (conversion/base.py) on a checkpoint whose index names an absent shard
    (
        "weights-missing",
        "ValueError: Missing or incomplete model files: ['model-00002-of-00002.safetensors']\n"
        "Missing tensors: ['model.layers.1.mlp.up_proj.weight']\n",
    ),
    # systemd-unit-not-found (fresh-76's `systemctl enable --now --user`): older systemd's and is-enabled's wordings
    ("systemd-unit-not-found", "Failed to enable unit: Unit file llama-server.service does not exist.\n"),
    (
        "systemd-unit-not-found",
        "$ systemctl is-enabled vllm.service\nFailed to get unit file state for vllm.service: No such file or "
        "directory\n",
    ),
    # free-memory-below-utilization (fresh-76's message wrapped after 'is less than'): older vLLM's text (no device
    # name), wrapped at another word
    (
        "free-memory-below-utilization",
        "ValueError: Free memory on device (10.2/23.6 GiB) on startup is less than desired GPU\n"
        "memory utilization (0.9, 21.24 GiB). Decrease GPU memory utilization or reduce GPU memory used by other "
        "processes.\n",
    ),
    # macos-gatekeeper-blocked-unsigned-binary (fresh-76's llamafile): the quarantined-binary and Sequoia dialogs
    (
        "macos-gatekeeper-blocked-unsigned-binary",
        "$ ./llama-server -m model.gguf\n“llama-server” is damaged and can’t be opened. You should move it to the "
        "Trash.\n",
    ),
    (
        "macos-gatekeeper-blocked-unsigned-binary",
        "Apple could not verify “ollama” is free of malware that may harm your Mac or compromise your privacy.\n",
    ),
    # cache-permission-denied (fresh-76's uv under a service user with HOME=/): uv's own two-line form, another home
    (
        "cache-permission-denied",
        "error: Failed to initialize cache at `/nonexistent/.cache/uv`\n"
        "  Caused by: failed to create directory `/nonexistent/.cache/uv`: Permission denied (os error 13)\n",
    ),
    # ... and a Rust tool refused a path that is no cache: the path's, not a state directory's
    (
        "path-permission-denied",
        "error: failed to create directory `/srv/models/qwen`: Permission denied (os error 13)\n",
    ),
]

NEAR_MISSES = [
    # llama-quantize's own report of the imatrix it loaded is no refusal
    (
        "llamacpp-quantize-needs-imatrix",
        "load_imatrix: loaded 416 importance matrix entries from imatrix.dat computed on 125 chunks\n"
        "prepare_imatrix: have 416 importance matrix entries\n",
    ),
    # vLLM's CPU KV-cache check, wrapped the same way, is not the startup check
    (
        "free-memory-below-utilization",
        "ValueError: Available memory on node 0 (12.3/15.5 GiB) on kv cache allocation is less than\n"
        "requested memory for kv (-0.50/1.00 GiB).\n",
    ),
    # a file that cannot be opened for another reason is no Gatekeeper refusal
    (
        "macos-gatekeeper-blocked-unsigned-binary",
        "WARNING: config.json cannot be opened because it is locked by another process\n",
    ),
    # a file that does not exist is no systemd unit
    ("systemd-unit-not-found", "ERROR: model file /srv/models/model.gguf does not exist\n"),
    # Ollama's cuInit 35 is a driver older than the runtime, not one not yet loaded
    (
        "cuda-init-failed",
        'level=WARN source=gpu.go:612 msg="Unable to load cudart library /usr/lib/libcuda.so.575: cuda driver '
        'library init failure: 35"\n',
    ),
    # a short read is no full disk
    ("disk-full", "OSError: 4096 requested and 0 read\n"),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_no_device_on_a_host_is_not_a_container_without_the_runtime():
    """fresh-76's confident wrong: CUDA's error 100 from a user unit at boot, no container anywhere in the log."""
    result = run(
        "ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\n"
        "warning: no usable GPU found, --gpu-layers option will be ignored\n"
    )
    ids = [d.id for d in result.diagnoses]
    assert top_cause(result).id == "cuda-init-failed"
    assert "no-gpu-driver-in-container" not in ids
