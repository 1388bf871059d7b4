"""What the batches fresh-300 (llama-server, old ground re-drawn) and fresh-301 (two things wrong at once) taught after
measuring, with the neighbourhood of each miss in llama.cpp b11434's source.

- llamacpp-device-index-invalid: common/arg.cpp parse_device_list's 'invalid device: %s' (a device name no backend of
  the process registers, or the CPU) through -dev / -devd / -mmdev and LLAMA_ARG_DEVICE / MTMD_BACKEND_DEVICE, wrapped
  as 'error while handling argument|environment variable "X": ...'; llama-bench's parse_devices_arg ('error: invalid
  device: %s'); rpc-server's get_devices ('error: unknown device: %s'). Over llamacpp-invalid-argument.
- spec-decode-token-budget: server-context.cpp handle_last_sampled_token's 'batch must be large enough to hold the
  sampled and draft tokens' assert (--spec-draft-n-max over -b), over llamacpp-assert.
- llamacpp-mmproj-fit-probe-failed (new, a note): mtmd_get_memory_usage's 'error: %s' and the server's '[mtmd] failed
  to get memory usage of mmproj' come BEFORE the model load and do not stop it: a later fatal cause outranks them.
- llamacpp-lora-load-failed is a consequence where llama-adapter.cpp's open failed with ENOENT: the missing --lora
  file is llamacpp-model-file-missing's (as the corpus's three earlier lora-missing cases expect).
- llamacpp-relative-model-path leaves a './x.gguf' path to llamacpp-model-file-missing from a shell; under a router,
  a unit or a container it keeps it.
Lines are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from tests.doctor_text import family_tests

LLAMA = "$ llama-server -m /srv/models/qwen2.5-7b-q4_k_m.gguf --host 0.0.0.0 --port 8080\n"

# the model-missing tail of a b11434 start (gguf.cpp, llama-model-loader, the fit step, common_init_, load_model)
MISSING_TAIL = (
    "E gguf_init_from_file: failed to open GGUF file '{p}' (No such file or directory)\n"
    "E llama_model_load: error loading model: llama_model_loader: failed to load model from {p}\n"
    "E llama_model_load_from_file_impl: failed to load model\n"
    "E common_fit_params: encountered an error while trying to fit params to free device memory: failed to load model\n"
    "E cmn  common_init_: failed to load model '{p}'\n"
    "E srv    load_model: failed to load model, '{p}'\n"
    "E srv  llama_server: exiting due to model loading error\n"
)

CASES = [
    # parse_device_list on the command line, a Vulkan name on a CUDA build (rendered)
    (
        "llamacpp-device-index-invalid",
        "$ llama-server -m /srv/models/q.gguf -dev Vulkan0\n"
        'error while handling argument "-dev": invalid device: Vulkan0\n\nusage:\n-dev,  --device <dev1,dev2,..>\n',
    ),
    # ... the second name of a list, through the draft model's device flag (rendered)
    (
        "llamacpp-device-index-invalid",
        "$ llama-server -m /srv/models/q.gguf -md /srv/models/d.gguf -devd CUDA0,CUDA1\n"
        'error while handling argument "-devd": invalid device: CUDA1\n',
    ),
    # ... the projector's device variable, read before the command line (rendered)
    (
        "llamacpp-device-index-invalid",
        LLAMA + 'error while handling environment variable "MTMD_BACKEND_DEVICE": invalid device: ROCm0\n',
    ),
    # ... the CPU named as a device: parse_device_list refuses it too (rendered)
    (
        "llamacpp-device-index-invalid",
        LLAMA + 'error while handling environment variable "LLAMA_ARG_DEVICE": invalid device: CPU\n',
    ),
    # llama-bench's parse_devices_arg, then its generic refusal of the flag (rendered)
    (
        "llamacpp-device-index-invalid",
        "$ llama-bench -m /srv/models/q.gguf -dev CUDA2\nerror: invalid device: CUDA2\n"
        "error: invalid parameter for argument: -dev\n",
    ),
    # rpc-server's get_devices (rendered)
    (
        "llamacpp-device-index-invalid",
        "$ rpc-server -d SYCL0 -p 50052\nerror: unknown device: SYCL0\navailable devices:\n  CPU: AMD EPYC (64000 MiB)\n",
    ),
    # the draft/batch assert under another build's path, without the gdb backtrace (rendered)
    (
        "spec-decode-token-budget",
        "$ llama-server -m /srv/models/q.gguf -md /srv/models/d.gguf --spec-draft-n-max 24 -b 16 -np 1\n"
        "I srv  llama_server: listening on http://127.0.0.1:8080\n"
        '/home/ci/llama.cpp/tools/server/server-context.cpp:581: GGML_ASSERT(add_ok && "batch must be large enough '
        'to hold the sampled and draft tokens") failed\nAborted (core dumped)\n',
    ),
    # the fit probe fails on --mmproj, then the -m file (absolute) is missing: the missing file is the cause
    (
        "llamacpp-model-file-missing",
        "$ llama-server -m /srv/models/gone.gguf --mmproj /srv/models/qwen2.5-7b-q4_k_m.gguf\n"
        "I srv    load_model: loading model '/srv/models/gone.gguf'\n"
        "E mtmd_get_memory_usage: error: Failed to load CLIP model from /srv/models/qwen2.5-7b-q4_k_m.gguf\n\n"
        "E srv    load_model: [mtmd] failed to get memory usage of mmproj\n"
        + MISSING_TAIL.format(p="/srv/models/gone.gguf"),
    ),
    # a './' path from a shell, missing: the file is not there (rendered)
    ("llamacpp-model-file-missing", "$ llama-server -m ./qwen.gguf\n" + MISSING_TAIL.format(p="./qwen.gguf")),
    # ... the same './' path under a router preset: the working directory may not be the one meant
    (
        "llamacpp-relative-model-path",
        "$ llama-server --models-preset /etc/llama/presets.ini\n"
        "I srv  llama_server: starting server in router mode. models will be automatically loaded on-demand\n"
        + MISSING_TAIL.format(p="./models/qwen.gguf"),
    ),
    # ... a bare name stays the relative path's (rendered)
    ("llamacpp-relative-model-path", "$ llama-server -m qwen.gguf\n" + MISSING_TAIL.format(p="qwen.gguf")),
    # a --lora file that is not there (llama-adapter.cpp's strerror, rendered): the missing file, not the load failure
    (
        "llamacpp-model-file-missing",
        LLAMA.replace("\n", " --lora /srv/lora/support-v2.gguf\n")
        + "E llama_adapter_lora_init: failed to open '/srv/lora/support-v2.gguf': No such file or directory\n"
        "E cmn  common_init_: failed to load lora adapter '/srv/lora/support-v2.gguf'\n"
        "E srv    load_model: failed to create_context with model '/srv/models/qwen2.5-7b-q4_k_m.gguf'\n",
    ),
    # ... one that is there but made for another base model stays the adapter's own failure (rendered)
    (
        "llamacpp-lora-load-failed",
        LLAMA
        + "E llama_adapter_lora_init: failed to apply lora adapter: tensor 'blk.0.attn_q.weight' has incorrect shape "
        "(hint: maybe wrong base model?)\nE cmn  common_init_: failed to load lora adapter '/srv/lora/other.gguf'\n",
    ),
    # the projector really broken, with the model loaded: the probe's note does not hide the init failure (rendered)
    (
        "llamacpp-mmproj-load-failed",
        LLAMA.replace("\n", " --mmproj /srv/models/qwen2.5-7b-q4_k_m.gguf\n")
        + "E mtmd_get_memory_usage: error: Failed to load CLIP model from /srv/models/qwen2.5-7b-q4_k_m.gguf\n"
        "E srv    load_model: [mtmd] failed to get memory usage of mmproj\n"
        "I srv    load_model: loaded model\n"
        "E mtmd_init_from_file: error: Failed to load CLIP model from /srv/models/qwen2.5-7b-q4_k_m.gguf\n"
        "E srv    load_model: failed to load multimodal model, '/srv/models/qwen2.5-7b-q4_k_m.gguf'\n",
    ),
]

NEAR_MISSES = [
    # a device list's empty value is the argument's form, not a missing device
    (
        "llamacpp-device-index-invalid",
        LLAMA + 'error while handling argument "-dev": no devices specified\n',
    ),
    # torch's device string refusal (another message, another engine)
    (
        "llamacpp-device-index-invalid",
        "RuntimeError: Invalid device string: 'cuda:x'\n",
    ),
    # another assert of the same file is not the draft budget
    (
        "spec-decode-token-budget",
        "/src/llama.cpp/tools/server/server-context.cpp:4250: GGML_ASSERT(slot.spec_i_batch.size() == n_draft + 1) failed\n",
    ),
    # the fit probe alone (the start went on and came up): no confident projector failure
    (
        "llamacpp-mmproj-load-failed",
        LLAMA + "E mtmd_get_memory_usage: error: Failed to load CLIP model from /srv/models/mmproj-f16.gguf\n"
        "E srv    load_model: [mtmd] failed to get memory usage of mmproj\n"
        "I srv  llama_server: listening on http://0.0.0.0:8080\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
