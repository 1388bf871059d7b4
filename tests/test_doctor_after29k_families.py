"""What the scored batch fresh-84 (the second batch of public Ollama threads) taught after it was scored.

fresh-63's lessons (its 10 lines) did not carry to fresh-84 (1/11), so these families were learnt from Ollama's own
source: every error string its create/import step, API handlers, runner, scheduler and CLI return to users, grouped by
cause. Each family is tested on a wording OTHER than its corpus log's (a sibling message from the same source file,
another version's, another client quoting it; the file is named beside it), and near misses check what must not match.
"""

from __future__ import annotations

import pytest

from servebox.doctor.unwrap import strip_compose_prefix
from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # request-field-missing: server/create.go errNeitherFromOrFiles, as the Python client's ResponseError relays it
    (
        "request-field-missing",
        "ollama._types.ResponseError: neither 'from' or 'files' was specified (status code: 400)\n",
    ),
    # model-path-is-a-file (a hint): server/create.go's answer after its slog line ('supplied file was not in GGUF format')
    ("model-path-is-a-file", "transferring model data 100%\nError: supplied file was not in GGUF format\n"),
    # a PyTorch .bin (a zip) given as FROM: the server's slog ERROR line
    (
        "model-path-is-a-file",
        'time=2025-03-01T10:00:00Z level=ERROR source=create.go:1255 msg="unsupported content type: application/zip"\n',
    ),
    # llamacpp-unknown-arch (a hint, Ollama's fix): server/sched.go's addition to a load failure
    (
        "llamacpp-unknown-arch",
        "Error: 500 Internal Server Error: unable to load model: /root/.ollama/models/blobs/sha256-1a2b: this model "
        "may be incompatible with your version of Ollama. If you previously pulled this model, try updating it by "
        "running `ollama pull qwen3-next`\n",
    ),
    # llamacpp-requantize-disabled: server/create.go, `ollama create -q q4_K_M` FROM a Q8_0 GGUF
    (
        "llamacpp-requantize-disabled",
        "quantizing Q8_0 model to Q4_K_M\nError: quantization is only supported for F16, BF16 and F32 models\n",
    ),
    # ollama-quantize-type-unsupported: fs/ggml/type.go ParseFileType
    (
        "ollama-quantize-type-unsupported",
        "Error: unsupported quantization type Q4_K_L - supported types are F32, F16, Q4_K_S, Q4_K_M, Q8_0\n",
    ),
    # ollama-modelfile-invalid: parser/parser.go (an instruction it has not) and api/types.go FormatParams (a PARAMETER)
    ("ollama-modelfile-invalid", "$ ollama create mymodel -f Modelfile\nError: no FROM line\n"),
    (
        "ollama-modelfile-invalid",
        'Error: command must be one of "from", "license", "template", "system", "adapter", "parameter", or "message"\n',
    ),
    ("ollama-modelfile-invalid", "gathering model components\nError: unknown parameter 'max_tokens'\n"),
    # ollama-client-newer-than-server: cmd/cmd.go
    (
        "ollama-client-newer-than-server",
        "Error: the ollama server must be updated to use `ollama create` with this client\n",
    ),
    # runner-unsupported-by-model: server/routes.go ChatHandler / GenerateHandler (0.3 on), quoted by a client
    (
        "runner-unsupported-by-model",
        'ollama._types.ResponseError: "mxbai-embed-large" does not support generate\n',
    ),
    ("runner-unsupported-by-model", '{"error":"\\"nomic-embed-text:latest\\" does not support chat"}\n'),
    # ollama-model-lacks-capability: server/images.go CheckCapabilities under scheduleRunner
    (
        "ollama-model-lacks-capability",
        '{"error":"registry.ollama.ai/library/gemma2:9b does not support tools"}\n',
    ),
    (
        "ollama-model-lacks-capability",
        "Error: registry.ollama.ai/library/llama3.2:latest does not support insert\n",
    ),
    # ollama-request-option-unknown: api/types.go FromMap, another key, Ollama's JSON slog (OLLAMA_LOG_FORMAT=json)
    (
        "ollama-request-option-unknown",
        '{"time":"2025-05-02T08:00:00Z","level":"WARN","source":"types.go:651","msg":"invalid option provided",'
        '"option":"max_tokens"}\n',
    ),
    # ollama-request-option-wrong-type: api/types.go FromMap
    ("ollama-request-option-wrong-type", '{"error":"option \\"num_ctx\\" must be of type integer"}\n'),
    # ollama-image-not-bare-base64: an http: URL in `images` through /api/generate (Go's CorruptInputError, byte 4)
    (
        "ollama-image-not-bare-base64",
        'time=2025-01-10T09:00:00Z level=INFO msg="[GIN] 400 | POST \\"/api/generate\\""\n'
        'requests.exceptions.HTTPError: 400 Client Error: {"error":"illegal base64 data at input byte 4"}\n',
    ),
    # ollama-queue-full: server/sched.go ErrMaxQueue, as a client shows the 503
    (
        "ollama-queue-full",
        "ollama._types.ResponseError: server busy, please try again.  maximum pending requests exceeded (status code: "
        "503)\n",
    ),
    # request-longer-than-context: llm/llama_server.go with context shift off (HTTP 400), and the runner's warning
    # in Ollama's JSON slog
    (
        "request-longer-than-context",
        "Error: the prompt is longer than the context length currently available to the model; shorten the prompt, "
        "adjust the context length in settings, or use a model with a longer context length\n",
    ),
    (
        "request-longer-than-context",
        '{"time":"2025-06-01T12:00:00Z","level":"WARN","source":"runner.go:172","msg":"truncating input prompt",'
        '"limit":4096,"prompt":9120,"keep":4,"new":4096}\n',
    ),
    # peer-connection-refused: aiohttp's ClientConnectorError (Open WebUI's ollama router) to the bridge address
    (
        "peer-connection-refused",
        "ERROR [open_webui.routers.ollama] Connection error: Cannot connect to host 172.17.0.1:11434 ssl:default "
        "[Connection refused]\n",
    ),
    # ollama-cli-home-unset: Windows' wording of os.UserHomeDir, and the Unix one returned as an error (no panic)
    ("ollama-cli-home-unset", "Error: %userprofile% is not defined\n"),
    (
        "ollama-cli-home-unset",
        "ollama[812]: panic: $HOME is not defined\nollama[812]: goroutine 1 [running]:\n"
        "ollama[812]: github.com/ollama/ollama/envconfig.Models()\n",
    ),
    # binary-needs-newer-macos: dyld 4's wording (macOS 12+) for a build targeting a newer macOS
    (
        "binary-needs-newer-macos",
        "dyld[4242]: Symbol not found: _MTLResidencySetDescriptor\n  Referenced from: <3F1C0A9E-1111-3333-8888-"
        "0123456789AB> /Applications/Ollama.app/Contents/Resources/ollama (built for macOS 15.0 which is newer than "
        "running OS)\n  Expected in: <7A2B3C4D-2222-4444-9999-0123456789AB> /System/Library/Frameworks/"
        "Metal.framework/Versions/A/Metal\n",
    ),
    # a framework the older macOS lacks altogether
    (
        "binary-needs-newer-macos",
        "dyld: Library not loaded: /System/Library/Frameworks/MetalPerformanceShadersGraph.framework/Versions/A/"
        "MetalPerformanceShadersGraph\n  Referenced from: /usr/local/bin/ollama (which was built for Mac OS X 11.3)\n"
        "  Reason: image not found\n",
    ),
    # from the same sweep of Ollama's source, no corpus case: server/images.go errDigestMismatch (a corrupt pull)
    (
        "weights-corrupt",
        "pulling 6a0746a1ec1a... 100%\nverifying sha256 digest\nError: digest mismatch, file must be "
        "downloaded again: want sha256:6a0746a1ec1a, got sha256:e3b0c44298fc\n",
    ),
    # cmd/cmd.go: `ollama push` of a bare model name
    (
        "ollama-push-namespace-unauthorized",
        "Error: you are not authorized to push to this namespace, create the model "
        "under a namespace you own\n",
    ),
    # llm/llama_binary.go: a partial install (the runner binary not beside ollama)
    (
        "engine-binary-missing",
        "Error: error starting llama-server: llama-server binary not found (checked: "
        "/usr/local/lib/ollama/llama-server, /usr/local/bin/llama-server)\n",
    ),
    # a TLS-intercepting proxy in front of the registry: Go's crypto/x509 words
    (
        "tls-verify-failed",
        'Error: pull model manifest: Get "https://registry.ollama.ai/v2/library/llama3/manifests/'
        'latest": tls: failed to verify certificate: x509: certificate signed by unknown authority\n',
    ),
    # llm/llama_server.go (and before 9db4bdbad 'llama runner'): the load stalled past OLLAMA_LOAD_TIMEOUT
    ("engine-start-timeout", "Error: timed out waiting for llama runner to start - progress 0.00 - \n"),
    # cmd/cmd.go errModelfileNotFound
    ("path-not-found", "$ ollama create mine -f ./Modelfle\nError: specified Modelfile wasn't found\n"),
]

NEAR_MISSES = [
    # the app's OWN library, older than the binary: a stale copy, not the macOS version
    (
        "binary-needs-newer-macos",
        "dyld[901]: Symbol not found: _llama_model_load_from_file\n  Referenced from: /opt/llama/bin/llama-server\n"
        "  Expected in: /usr/local/lib/libllama.dylib\n",
    ),
    # Go's base64 error from another Go program (kubectl decoding a Secret): not Ollama's image
    (
        "ollama-image-not-bare-base64",
        "error: error decoding secret data: illegal base64 data at input byte 8\n",
    ),
    # an HTTP framework's content-type refusal, not Ollama's create; a text/plain file is a Git LFS pointer's case
    (
        "model-path-is-a-file",
        "415 Unsupported Media Type: unsupported content type: application/x-www-form-urlencoded\n",
    ),
    (
        "model-path-is-a-file",
        'level=ERROR source=create.go:1255 msg="unsupported content type: text/plain; charset=utf-8"\n',
    ),
    # 'does not support chat completions' is not Ollama's embedding refusal
    ("runner-unsupported-by-model", "Error: This model does not support chat completions API\n"),
    # a shell's own words for an unset variable
    ("ollama-cli-home-unset", "bash: HOME: parameter null or not set\n"),
    # AWS's parameter validation is not a Modelfile
    (
        "ollama-modelfile-invalid",
        'botocore.exceptions.ParamValidationError: Unknown parameter in input: "foo"\n',
    ),
    # aiohttp's 'Connect call failed' is any errno (here: no route to host), not a refusal
    (
        "peer-connection-refused",
        "Cannot connect to host 10.0.0.5:11434 ssl:default [Connect call failed ('10.0.0.5', 11434)]\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_wrong_option_name_is_named_beside_the_truncation_it_causes():
    """The option warning and the runner's cut in one log: both are named, so the fix for the name is shown."""
    log = (
        'level=WARN source=types.go:509 msg="invalid option provided" option=context_length\n'
        'level=WARN source=runner.go:129 msg="truncating input prompt" limit=2048 prompt=3940 keep=5 new=2048\n'
    )
    ids = [d.id for d in run(log).diagnoses]
    assert "ollama-request-option-unknown" in ids and "request-longer-than-context" in ids


@pytest.mark.parametrize(
    ("chunk", "expected"),
    [
        # compose v2 ('svc-1'), v1 ('svc_1'), padded to the longest name; one line out per line in
        (b"pull-model-1  | panic: x\npull-model-1  | \ndatabase-1    | ok\n", b"panic: x\n\nok\n"),
        (
            b'web_1  | Traceback (most recent call last):\nweb_1  |   File "a.py"\n',
            b'Traceback (most recent call last):\n  File "a.py"\n',
        ),
        # a single such line (a table's row) is left alone
        (b"row-1 | value\nother text\n", b"row-1 | value\nother text\n"),
    ],
)
def test_docker_compose_prefixes_are_stripped(chunk, expected):
    assert strip_compose_prefix(chunk) == expected


def test_a_go_panic_behind_compose_prefixes_is_read():
    """Why fresh-84's '$HOME is not defined' got no answer: go-panic's wording is anchored at the line's start, and
    docker compose put 'pull-model-1  | ' before it; with the prefix stripped any Go panic is read."""
    log = "ollama-1  | panic: runtime error: index out of range [3] with length 3\nollama-1  | \nollama-1  | goroutine 7 [running]:\n"
    top = top_cause(run(log))
    assert top is not None and top.id == "go-panic"


def test_vllms_request_time_task_refusal_is_the_endpoint_not_the_runner():
    """Ollama's 'does not support chat' widened runner-unsupported-by-model's words, and vLLM's one-line request-time
    refusal then resembled it; that refusal is endpoint-not-served-by-runner's cause (an endpoint of a task the
    model lacks), now read by its own wording."""
    line = (
        "ERROR 12-03 10:00:00 [serving.py:1] This model does not support the 'generate' task. The chat completion "
        "endpoint is not available for this model.\n"
    )
    top = top_cause(run(line))
    assert top is not None and top.id == "endpoint-not-served-by-runner"


LATER = [
    # server/routes.go: several images to a one-image model (a hint with its own fix)
    (
        "request-over-mm-limit",
        '{"error":"this model only supports one image while more than one image requested"}\n',
    ),
    # llm/llama_server.go: `format` neither "json" nor a schema
    (
        "request-json-schema-invalid",
        '{"error":"invalid format: \\"yaml\\"; expected \\"json\\" or a valid JSON Schema object"}\n',
    ),
    # discover/: Ollama's INFO line (a hint: it serves on, on the CPU)
    (
        "llamacpp-no-gpu",
        'time=2025-01-01T00:00:00Z level=INFO source=gpu.go:386 msg="no compatible GPUs were discovered"\n',
    ),
    # Go's net package under OLLAMA_HOST (the port given twice); IPv6 without brackets in another Go server
    (
        "listen-address-malformed",
        "Error: listen tcp: address 0.0.0.0:11434:11434: too many colons in address\n",
    ),
    ("listen-address-malformed", "listen tcp: address fe80::1:8080:8080: too many colons in address\n"),
]

LATER_NEAR_MISSES = [
    # a client's URL parse error is not the server's listen address
    ("listen-address-malformed", 'parse "http://host:1:2": invalid port ":2" after host\n'),
]

test_later_families_name_the_cause, test_later_near_misses = family_tests(LATER, LATER_NEAR_MISSES)
