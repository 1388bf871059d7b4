"""What the scored batches fresh-97 (public llama.cpp, by what the user had just changed) and fresh-103 (public
checkpoint fetch/load failures) taught after they were scored: each miss's family added or widened by the class of
its situation, and one reading gap closed by a general mechanism (unwrap.py: a quote escaped by a repr nested in a
repr, `host=\\'huggingface.co\\'`, is read as the plain quote the wordings are written with).

Each log is written in ANOTHER program's, version's or paste's wording than its corpus log (bash's refusal of an image's
start script where the corpus has dash's; ModelScope's older integrity message; convert.py's safetensors reader; a
later text-generation-webui; transformers' other trust_remote_code refusals and its own wrapper of a cache
PermissionError), so the test checks the class, not the one line it was learnt from; the near misses check what must
not match.
"""

from __future__ import annotations

from servebox.doctor.unwrap import unwrap
from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # hub-offline (fresh-103's public-ckpt-vllm-no-internet-hub-name-resolution, vllm#3574): requests' ConnectionError
    # repr holding MaxRetryError's repr, whose inner quotes come out escaped; a connect timeout this time
    (
        "hub-offline",
        "requests.exceptions.ConnectionError: (MaxRetryError('HTTPSConnectionPool(host=\\'huggingface.co\\', port=443): "
        "Max retries exceeded with url: /Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json (Caused by "
        "ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f3a>, \\'Connection to huggingface.co "
        "timed out. (connect timeout=10)\\'))'), '(Request ID: 0b9c1f6e)')\n",
    ),
    # trust-remote-code (fresh-103's InternVL2 paste and litellm case): transformers 4.2x resolve_trust_remote_code
    # for a model class ('the modeling file'), its option in straight quotes as a forum paste turned it
    (
        "trust-remote-code",
        "ValueError: Loading THUDM/chatglm3-6b requires you to execute the modeling file in that repo on your local "
        "machine. Make sure you have read the code there to avoid malicious use, then set the option "
        "'trust_remote_code=True' to remove this error.\n",
    ),
    # ... dynamic_module_utils._raise_timeout_error (the prompt that timed out in a non-interactive start)
    (
        "trust-remote-code",
        "ValueError: Loading this model requires you to execute custom code contained in the model repository on your "
        "local machine. Please set the option `trust_remote_code=True` to permit loading of this model.\n",
    ),
    # ... the exception cut before its words, raised in dynamic_module_utils.py (a newer transformers' path)
    (
        "trust-remote-code",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.11/site-packages/transformers/models/auto/tokenization_auto.py", line 967, '
        "in from_pretrained\n"
        "    trust_remote_code = resolve_trust_remote_code(\n"
        '  File "/opt/venv/lib/python3.11/site-packages/transformers/dynamic_module_utils.py", line 731, '
        "in resolve_trust_remote_code\n"
        "    raise ValueError(\n"
        "ValueError: The repository for Qwen/Qwen-7B-Chat contains cust\n",
    ),
    # cache-permission-denied (fresh-103's OpenShift case; vocab30d's note L): transformers' utils/hub.py wrapper of
    # the PermissionError of a download, under a user whose HOME is /
    (
        "cache-permission-denied",
        "OSError: PermissionError at /.cache/huggingface/hub/models--Qwen--Qwen2.5-7B when downloading Qwen/Qwen2.5-7B. "
        "Check cache directory permissions. Common causes: 1) another user is downloading the same model (please "
        "wait); 2) a previous download was canceled and the lock file needs manual removal.\n",
    ),
    # ... the errno's tag retyped another way, vLLM's own cache
    ("cache-permission-denied", "PermissionError: [err 13] Permission denied: '/.cache/vllm'\n"),
    # path-not-found (fresh-103's Gaudi case): huggingface_hub's CacheNotFound for another cache root
    (
        "path-not-found",
        "huggingface_hub.errors.CacheNotFound: Cache directory not found: /mnt/hf-cache/hub. Please use `cache_dir` "
        "argument or set `HF_HUB_CACHE` environment variable.\n",
    ),
    # weights-corrupt (fresh-103's ModelScope case): modelscope 1.1x's integrity message, without the signatures
    (
        "weights-corrupt",
        "modelscope.hub.errors.FileIntegrityError: File /root/.cache/modelscope/hub/qwen/Qwen-7B/"
        "model-00001-of-00008.safetensors integrity check failed, the download may be incomplete, please try again.\n",
    ),
    # ... (fresh-97's convert.py case, llama.cpp#3684): convert.py's safetensors reader on an empty .safetensors
    (
        "weights-corrupt",
        "Traceback (most recent call last):\n"
        '  File "/src/llama.cpp/convert.py", line 1021, in lazy_load_file\n'
        "    return lazy_load_safetensors_file(fp, path)\n"
        '  File "/src/llama.cpp/convert.py", line 993, in lazy_load_safetensors_file\n'
        "    header_size, = struct.unpack('<Q', fp.read(8))\n"
        "struct.error: unpack requires a buffer of 8 bytes\n",
    ),
    # container-image-not-found (fresh-97's odysseus case, cut by a search page): another image, cut elsewhere
    (
        "container-image-not-found",
        'Error response from daemon: failed to resolve reference "docker.io/vllm/vllm-openai:v0.99.1": '
        "docker.io/vllm/vllm-openai:v0.99.1: not fo\n",
    ),
    # ggml-model-on-gguf-only-llama-cpp (fresh-97's text-generation-webui case, Atinoda's image #43): a later web UI
    # (sorted(...glob('*.gguf'))[0]) and its older 'INFO:Loading X...' line
    (
        "ggml-model-on-gguf-only-llama-cpp",
        "2023-09-02 10:11:12 INFO:Loading TheBloke_Llama-2-13B-chat-GGML...\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/text-generation-webui/modules/models.py", line 254, in llamacpp_loader\n'
        "    model_file = sorted(Path(f'{shared.args.model_dir}/{model_name}').glob('*.gguf'))[0]\n"
        "IndexError: list index out of range\n",
    ),
    # container-command-not-on-path (fresh-97's llama-cpp-python :latest case, PR 1626: dash's refusal of the image's
    # own start script, new:container-image-entrypoint-script-missing when made): bash as an image's shell CMD, under
    # docker compose
    (
        "container-command-not-on-path",
        "$ docker compose up llama\n"
        "[+] Running 1/0\n"
        "/bin/bash: /app/docker/entrypoint.sh: No such file or directory\n",
    ),
]

NEAR_MISSES = [
    # a host other than the hub's, escaped the same way: the name does not resolve, the hub is not involved
    (
        "hub-offline",
        "requests.exceptions.ConnectionError: (MaxRetryError('HTTPSConnectionPool(host=\\'proxy.corp.internal\\', "
        'port=443): Max retries exceeded with url: /v1/models (Caused by NameResolutionError("<urllib3.connection.'
        "HTTPSConnection object at 0x7f>: Failed to resolve \\'proxy.corp.internal\\' ([Errno -2] Name or service not "
        "known)\"))'))\n",
    ),
    # transformers' other refusal there is an ImportError (packages the remote code imports)
    (
        "trust-remote-code",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.11/site-packages/transformers/dynamic_module_utils.py", line 181, '
        "in check_imports\n"
        "    raise ImportError(\n"
        "ImportError: This modeling file requires the following packages that were not found in your environment: "
        "flash_attn. Run `pip install flash_attn`\n",
    ),
    # a model FILE that cannot be read is not a cache directory
    ("cache-permission-denied", "PermissionError: [error 13] Permission denied: '/models/llama-3-8b.gguf'\n"),
    # struct.error from a program's own binary protocol, no converter in view
    (
        "weights-corrupt",
        "Traceback (most recent call last):\n"
        '  File "/srv/app/client.py", line 40, in read_frame\n'
        "    (n,) = struct.unpack('>I', sock.recv(4))\n"
        "struct.error: unpack requires a buffer of 4 bytes\n",
    ),
    # a registry that refused the credentials is not a missing image
    (
        "container-image-not-found",
        'Error response from daemon: failed to resolve reference "ghcr.io/acme/llm:1": failed to authorize: failed '
        "to fetch anonymous token: unexpected status: 401 Unauthorized\n",
    ),
    # the same empty glob under a Hugging Face (safetensors) folder: a path mistake, not a GGML download
    (
        "ggml-model-on-gguf-only-llama-cpp",
        '10:11:12-000001 INFO     Loading "Qwen_Qwen2.5-7B-Instruct"\n'
        "Traceback (most recent call last):\n"
        '  File "/app/modules/models.py", line 247, in llamacpp_loader\n'
        "    model_file = list(Path(f'{shared.args.model_dir}/{model_name}').glob('*.gguf'))[0]\n"
        "IndexError: list index out of range\n",
    ),
    # dash's refusal from a user's own shell, no container run or pull in view
    ("container-command-not-on-path", "/bin/sh: 0: cannot open /home/u/start.sh: No such file\n"),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_unwrap_unescapes_a_nested_repr_quote():
    line = b"MaxRetryError('HTTPSConnectionPool(host=\\'huggingface.co\\', port=443)')\n"
    assert unwrap(line) == b"MaxRetryError('HTTPSConnectionPool(host='huggingface.co', port=443)')\n"


def test_unwrap_keeps_an_escaped_backslash_before_a_quote():
    line = b"FileNotFoundError: 'C:\\\\models\\\\' (a Windows folder in a repr)\n"
    assert unwrap(line) == line


def test_unwrap_keeps_a_windows_folders_trailing_backslash():
    line = b"LoadWeightsFailedException: Failed to load model 'C:\\models\\Meta-Llama-3-8B-Instruct\\'\n"
    assert unwrap(line) == line


def test_escaped_hub_host_outranks_the_unresolvable_name():
    log = (
        "requests.exceptions.ConnectionError: (MaxRetryError('HTTPSConnectionPool(host=\\'huggingface.co\\', port=443): "
        'Max retries exceeded with url: /api/models/x/y/revision/main (Caused by NameResolutionError("<urllib3.'
        "connection.HTTPSConnection object at 0x7f>: Failed to resolve \\'huggingface.co\\' ([Errno -3] Temporary "
        "failure in name resolution)\"))'))\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "hub-offline"
