"""What the scored batches fresh-90 (llama.cpp's converter, llama-quantize and llama-gguf-split again, made here) and
fresh-88 (public: what sits in front of the engines again: proxies, clients, desktop apps) taught after they were
scored: each miss's family added or widened by the class of its wording.

Each log is written in ANOTHER wording than its corpus log (another tool, flag, version or runtime, from the sources of
llama.cpp 11434.0.0 (tools/quantize/quantize.cpp, conversion/*.py, gguf-py), LocalAI's core/backend/embeddings.go,
the browsers', curl's, Rust's, .NET's and Java's own texts), so the test checks the class of wording, not the one line
it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # llamacpp-gguf-vocab-only (fresh-90's --vocab-only GGUF quantized and served, read as a tensor mismatch): the
    # loader's '0 tensors' as llama-cli prints it, failing on another tensor
    (
        "llamacpp-gguf-vocab-only",
        "llama_model_loader: loaded meta data with 31 key-value pairs and 0 tensors from /models/qwen-vocab.gguf "
        "(version GGUF V3 (latest))\n"
        "llama_model_load: error loading model: missing tensor 'token_embd.weight'\n"
        "llama_load_model_from_file: failed to load model\n",
    ),
    # ... and the converter's own lines (gguf_writer.py, convert_hf_to_gguf.py) before a failed load
    (
        "llamacpp-gguf-vocab-only",
        "INFO:gguf.gguf_writer:/out/phi3-vocab.gguf: n_tensors = 0, total_size = negligible - metadata only\n"
        "INFO:hf-to-gguf:Model vocab successfully exported to /out/phi3-vocab.gguf\n"
        "E llama_model_load: error loading model: check_tensor_dims: tensor 'output_norm.weight' not found\n",
    ),
    # convert-hf-tensor-not-mapped (fresh-90's renamed tensor): a LoRA tensor left in a checkpoint, and a model class's
    # own 'can not map tensor: NAME' (conversion/youtuvl.py)
    (
        "convert-hf-tensor-not-mapped",
        "ValueError: Can not map tensor 'base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight'\n",
    ),
    ("convert-hf-tensor-not-mapped", "ValueError: can not map tensor: vision_tower.blocks.0.attn.qkv.bias\n"),
    # ... the converter's other refusals by class (conversion/base.py): a tensor kind the architecture's tensor list
    # lacks; config.json missing a hyperparameter (find_hparam); the index naming tensors the shards lack; a file given
    # where the model's folder belongs
    (
        "convert-hf-tensor-not-mapped",
        "ValueError: Missing 'ssm_conv1d' for MODEL_TENSORS of <MODEL_ARCH.LLAMA: 1>\n",
    ),
    (
        "convert-hf-config-hparam-missing",
        "INFO:hf-to-gguf:Loading model: Phi-3-mini\n"
        "KeyError: \"could not find any of: ['n_layers', 'num_hidden_layers', 'n_layer', 'num_layers']\"\n",
    ),
    # after33j: moved to safetensors-tensor-absent (index_tensors raises it only when the parts hold names the index
    # lacks: index and shards disagree, nothing is missing from the download)
    (
        "safetensors-tensor-absent",
        "ValueError: Mismatch between weight map and model parts for tensor names:\n"
        "Missing tensors: ['model.layers.31.mlp.down_proj.weight']\n",
    ),
    (
        "model-dir-invalid",
        "ERROR:hf-to-gguf:Error: /models/Qwen3-8B/model-00001-of-00005.safetensors is not a directory\n",
    ),
    # llamacpp-invalid-argument (fresh-90's --token-embedding-type q4_k_xl read as healthy): llama-quantize's other
    # argument refusals (tools/quantize/quantize.cpp)
    (
        "llamacpp-invalid-argument",
        "\nparse_ggml_type: invalid ggml_type 'q5_k_s'\n\nusage: ./llama-quantize [--help]\n",
    ),
    ("llamacpp-invalid-argument", "\nparse_tensor_type: malformed tensor type 'attn_q'\n\n"),
    ("llamacpp-invalid-argument", "\nparse_tensor_type: invalid quantization type 'q9'\n\n"),
    ("llamacpp-invalid-argument", "\nparse_tensor_type: missing tensor name\n\n"),
    ("llamacpp-invalid-argument", "\nparse_layer_prune: invalid layer id 'x1'\n\n"),
    ("llamacpp-invalid-argument", "llama_quantize: invalid --max-buffer-size 'lots'\n"),
    ("llamacpp-invalid-argument", "main: error: input and output files are the same: 'model.gguf'\n"),
    # llamacpp-model-path-is-a-directory (fresh-90's llama-quantize given the HF folder): an older build's main:
    (
        "llamacpp-model-path-is-a-directory",
        "main: quantizing '/models/Mistral-7B-Instruct-v0.3' to '/models/out.gguf' as Q5_K_M using 8 threads\n"
        "gguf_init_from_file: failed to read magic\n"
        "main: failed to quantize model from '/models/Mistral-7B-Instruct-v0.3'\n",
    ),
    # tokenizer-corrupt (fresh-90's cut tokenizer_config.json in the converter): gguf-py's vocab loader on tokenizer.json
    (
        "tokenizer-corrupt",
        "Traceback (most recent call last):\n"
        '  File "/src/llama.cpp/gguf-py/gguf/vocab.py", line 137, in _try_load_from_tokenizer_json\n'
        "    tokenizer = json.load(f)\n"
        "json.decoder.JSONDecodeError: Expecting ',' delimiter: line 8121 column 5 (char 204800)\n",
    ),
    # peer-connection-refused (fresh-88's node-fetch ECONNREFUSED): Node's net error itself (axios, ollama-js), curl, Rust,
    # .NET on Linux, Java
    (
        "peer-connection-refused",
        "Error: connect ECONNREFUSED ::1:11434\n"
        "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16) {\n"
        "  errno: -111,\n  code: 'ECONNREFUSED',\n",
    ),
    (
        "peer-connection-refused",
        "curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to server\n",
    ),
    (
        "peer-connection-refused",
        'Error: reqwest::Error { kind: Request, url: "http://127.0.0.1:8080/v1/chat/completions", source: '
        'hyper_util::client::legacy::Error(Connect, ConnectError("tcp connect error", Os { code: 111, kind: '
        'ConnectionRefused, message: "Connection refused" })) }: tcp connect error: Connection refused (os error 111)\n',
    ),
    (
        "peer-connection-refused",
        "System.Net.Http.HttpRequestException: Connection refused (localhost:1234)\n",
    ),
    ("peer-connection-refused", "java.net.ConnectException: Connection refused\n"),
    # localai-model-embeddings-not-enabled (fresh-88): the bare JSON body as curl or Flowise shows it
    (
        "localai-model-embeddings-not-enabled",
        '{"error":{"code":500,"message":"endpoint disabled for this model by API configuration","type":""}}\n',
    ),
    # lms-server-start-missing-http-config (fresh-88): on Windows, another path form
    (
        "lms-server-start-missing-http-config",
        "Error: ENOENT: no such file or directory, open 'C:\\Users\\me\\.lmstudio\\.internal\\http-server-config.json'\n",
    ),
    # server-cors-preflight-refused (fresh-88's LM Studio OPTIONS): the browsers' console words for the same refusal
    (
        "server-cors-preflight-refused",
        "Access to fetch at 'http://localhost:1234/v1/chat/completions' from origin 'http://localhost:5173' has been "
        "blocked by CORS policy: Response to preflight request doesn't pass access control check: No "
        "'Access-Control-Allow-Origin' header is present on the requested resource.\n",
    ),
    (
        "server-cors-preflight-refused",
        "Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at "
        "http://127.0.0.1:8000/v1/models. (Reason: CORS header 'Access-Control-Allow-Origin' missing). "
        "Status code: 400.\n",
    ),
    (
        "server-cors-preflight-refused",
        'INFO:     172.17.0.1:50412 - "OPTIONS /v1/models HTTP/1.1" 400 Bad Request\n',
    ),
]

NEAR_MISSES = [
    # a vocab-only export on its own is a deliberate, healthy step
    (
        "llamacpp-gguf-vocab-only",
        "INFO:gguf.gguf_writer:model-vocab.gguf: n_tensors = 0, total_size = negligible - metadata only\n"
        "INFO:hf-to-gguf:Model vocab successfully exported to model-vocab.gguf\n",
    ),
    # the converter warning that it skips a tensor is no refusal
    ("convert-hf-tensor-not-mapped", "WARNING:hf-to-gguf:Skipping tensor 'model.rotary_emb.inv_freq'\n"),
    # a KeyError of another program naming keys is not the converter's hyperparameter search
    ("convert-hf-config-hparam-missing", "KeyError: \"could not find any of: ['host', 'port']\"\n"),
    # llama-quantize's report of its tensor-type overrides is no refusal
    (
        "llamacpp-invalid-argument",
        "llama_tensor_get_type: blk.0.attn_q.weight - applying manual override: q8_0\n",
    ),
    # a .gguf input that cannot be read is not a directory
    (
        "llamacpp-model-path-is-a-directory",
        "llama_quantize: quantizing 'model-f16.gguf' to 'out.gguf' as Q4_K_M\ngguf_init_from_reader: failed to read magic\n",
    ),
    # curl's exit 7 for an unreachable network is no refusal
    (
        "peer-connection-refused",
        "curl: (7) Failed to connect to 10.0.0.5 port 8000 after 3071 ms: No route to host\n",
    ),
    # LM Studio's answer to a route it does not serve (a client pointed at Ollama's API) is no CORS preflight
    (
        "server-cors-preflight-refused",
        "Unexpected endpoint or method. (POST /api/chat). Returning 200 anyway\n",
    ),
    # another file missing outside LM Studio's state is not lms's
    (
        "lms-server-start-missing-http-config",
        "Error: ENOENT: no such file or directory, open '/app/config.json'\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_a_file_with_tensors_of_the_wrong_shape_stays_a_mismatch():
    """The vocab-only family takes only a file of 0 tensors: a GGUF with tensors of another shape stays tensor-mismatch."""
    result = run(
        "llama_model_loader: loaded meta data with 24 key-value pairs and 291 tensors from model.gguf (version GGUF V3)\n"
        "llama_model_load: error loading model: check_tensor_dims: tensor 'token_embd.weight' has wrong shape; "
        "expected  4096, 32000, got  4096, 32064\n"
    )
    assert top_cause(result).id == "llamacpp-tensor-mismatch"


def test_quantize_usage_alone_is_only_a_hint():
    """llama-quantize's usage text with no refusal line above it (an unknown flag, or --help) is named below 0.70."""
    result = run(
        "usage: ./llama-quantize [--help] [--allow-requantize] [--leave-output-tensor] [--pure] [--imatrix]\n"
        "       model-f32.gguf [model-quant.gguf] type [nthreads]\n"
    )
    top = top_cause(result)
    assert top.id == "llamacpp-invalid-argument" and top.confidence < 0.70


def test_node_fetch_failed_is_a_wrapper_of_its_cause():
    """undici's 'TypeError: fetch failed' (servebox/doctor/exceptions.toml: a symptom-class wrapper) gives way to the
    reason printed under it as [cause], instead of reading as an uncaught exception."""
    result = run(
        "TypeError: fetch failed\n"
        "    at node:internal/deps/undici/undici:13510:13\n"
        "    at async OpenAI.makeRequest (file:///app/node_modules/openai/core.mjs:316:9) {\n"
        "  [cause]: Error: connect ECONNREFUSED 127.0.0.1:1234\n"
        "      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16) {\n"
    )
    ids = [d.id for d in result.diagnoses]
    assert top_cause(result).id == "peer-connection-refused"
    assert "uncaught-exception" not in ids
