"""The vocabulary of the libraries that fetch and read a checkpoint before any engine runs (vocab30d, stop 30).

Each string was caused for real with /work/main/.venv-vllm (huggingface_hub 2.4.0 offline with an empty cache and
bad repo ids; transformers 5.19.0 AutoConfig/AutoTokenizer/AutoProcessor on broken folders; safetensors 0.8.0 and
torch 2.13 torch.load on edited files; tokenizers 0.23.3 Tokenizer.from_file; sentencepiece 0.2.3; tiktoken 0.14)
or, where only the network or an older release prints it, read from the source (file and function named below;
0.2x/4.x wordings from huggingface_hub's utils/_errors.py and file_download.py, transformers 4.x). Verdicts:
A = already read right at e681317, W = widened here, N = new family here, S = skipped (why), L = needs a family in a
file this engineer does not own (engine-config.toml, gpu-kernels.toml): left, said in the report.

huggingface_hub (errors.py, file_download.py, _snapshot_download.py, utils/_http.py, utils/_validators.py)
  A RepositoryNotFoundError 401/404 (2.4 'Repository Not Found for url', 0.2x the same)       gated-repo
  A GatedRepoError 401/403, DisabledRepoError                                                  gated-repo, hub-repo-disabled
  A RevisionNotFoundError, RemoteEntryNotFoundError/EntryNotFoundError                         hub-revision-not-found, hub-entry-not-found
  A LocalEntryNotFoundError x4 (disk cache + local_files_only; 'An error happened while trying to locate the file';
    snapshot 'Cannot find an appropriate cached snapshot folder' x2; 'Got: X ... locate the files on the Hub') hub-offline
  A OfflineModeIsEnabled 'Cannot reach URL: offline mode is enabled'                           hub-offline
  A 401 'Invalid credentials', 403 'Forbidden: ... fine-grained token', httpx 429, httpx 5xx   hub-token-*, hub-rate-limited, hub-server-error
  A bare 404 without X-Error-Code (symptom)                                                    hub-http-not-found
  W requests-era '403 Client Error: Forbidden for url' + '403 Forbidden: <reason>': was gated-repo at 0.90 over
    hub-token-forbidden; the server's reason now supersedes it                                 hub-token-forbidden
  W requests-era (<= 0.2x) '429 Client Error: Too Many Requests for url'                       hub-rate-limited
  W requests-era '5NN Server Error: REASON for url: https://huggingface.co/...'                hub-server-error
  W IncompleteSnapshotError 'The cached snapshot for ... is incomplete: N file(s) are missing' hub-offline
  A HFValidationError 'Repo id must be in the form', 'Repo id must use alphanumeric chars' (2.4 and 0.2x)  hub-bad-repo-id
  L HFValidationError "Cannot have -- or .. in repo_id" (validate_repo_id)                     hub-bad-repo-id (engine-config.toml)
  N FileMetadataError "Response from URL is missing the 'X-Repo-Commit' header" (2.x), 'Distant resource does not
    seem to be on huggingface.co' (0.1x-1.x), 'Distant resource does not have an ETag / a Content-Length' hub-response-not-from-hub
  N 'Consistency check failed: file should be of size N but has size M' (http_get, 2.4 and 0.2x) hub-download-size-mismatch
  N 'you need to install the hf_xet package', 'The file is too large to be downloaded using the regular download method'
                                                                                               hub-xet-client-missing
  N 'An error occurred while downloading using `hf_transfer`' (0.2x-1.x; below 0.70)           hf-transfer-download-failed
  A hf_transfer enabled but not installed; hf-xet 'CAS service error'; 'Not enough free disk space'
  A SafetensorsParsingError / NotASafetensorsRepoError (vLLM logs them as 'Error retrieving safetensors': a note)
  A StrictDataclassFieldValidationError "Field 'x' expected str, got int"                      config-json-field-wrong-type
  W httpx 'TooManyRedirects: Exceeded N redirects while resolving URL' (utils/_http.py, 2.x)  hub-response-not-from-hub
  W 0.1x 'Connection error, and we cannot find the requested files in the cached path'         hub-offline
  L "Repo_id cannot end by '.git'", 'Repo id must be a string, not X' (_validators.py)          hub-bad-repo-id (engine-config.toml)
  S CachedRepoTreeNotFoundError (get_cached_repo_tree: no engine calls it), 'Invalid range format' / 'Empty new range'
    (resume internals), 'Invalid filename ... ".." path segment' (a repo's own file names), OIDCError (CI logins),
    'Force download failed due to the above error' (read as uv-download-timeout below 0.70: vLLM never forces; the
    chained error above it is the cause)
  N a download that stalls or breaks mid-file: requests "HTTPSConnectionPool(host='cdn-lfs.huggingface.co', ...): Read
    timed out" (confident); httpx 'ReadTimeout: The read operation timed out', h11 'peer closed connection without
    sending complete message body', urllib3 'Connection broken: IncompleteRead' (hints, only beside the hub's download
    code)                                                                                      hub-download-interrupted
  W requests "HTTPSConnectionPool(host='huggingface.co', ...): Max retries exceeded ... (Caused by ConnectTimeoutError /
    NewConnectionError / NameResolutionError" (was nothing, or network-unreachable)          hub-offline
  A SSL 'CERTIFICATE_VERIFY_FAILED' on the hub's hosts                                         tls-verify-failed
  S 400 BadRequestError (API uploads), 416 (retried by the library), 'Xet headers have not been correctly set' (a
    broken mirror), Force download failed / force_download with local_files_only or offline (vLLM never forces),
    'Invalid repo type' (caller's bug), LocalTokenNotFoundError (token=True in code), CacheNotFound /
    CorruptedCacheException (the scan-cache CLI), 'HTTP Error N thrown while requesting' / 'Retrying in' / 'Rate
    limited. Waiting' (retry warnings; the final error is read), HF_HUB_ENABLE_HF_TRANSFER deprecation (a warning)
the `hf` CLI (huggingface_hub 2.4 cli/_errors.py format_known_exception; `hf download` caused offline and with a bad id)
  W "Error: Access denied. Repository 'X' requires approval.", "Error: Repository 'X' not found." + 'If the repo is
    private, make sure you are authenticated ...'                                               gated-repo
  W "Error: File not found in repository 'X'." (below 0.70: shared_wordings caps the family)    hub-entry-not-found
  A 'Error: Local entry not found. Cannot reach URL: offline mode is enabled', '... The cached snapshot ... is
    incomplete', "Error: Invalid value. Repo id must be in the form"                          hub-offline, hub-bad-repo-id
  L "Error: Revision not found in repository 'X'."                                              hub-revision-not-found (engine-config.toml)
  S "Error: Not logged in. Run 'hf auth login' first." (uploads and token=True only)
transformers (configuration_utils.py, models/auto/*, tokenization_*.py, convert_slow_tokenizer.py, utils/hub.py,
modeling_utils.py, utils/import_utils.py; 5.19 caused, 4.x read)
  A 'Unrecognized model in X. Should have a `model_type` key', 'has model type `X` but Transformers does not
    recognize this architecture', 'contains custom code' / 4.x 'requires you to execute the configuration file',
    'does not appear to have a file named', "Can't load tokenizer for", 'is not a valid JSON file', "We couldn't
    connect to 'https://huggingface.co'", 'is not a local folder and is not a valid model identifier', 'You are
    trying to access a gated repo', 'is not a valid git identifier', 'requires the X library but it was not found',
    "Couldn't instantiate the backend tokenizer", 'You need to have sentencepiece or tiktoken installed to convert a
    slow tokenizer' (caused on an empty folder: tokenizer-missing), 'Tokenizer class X does not exist or is not
    currently imported', 'Unrecognized processing class', "Missing required keys in `rope_parameters`", 4.x
    '`rope_scaling` must be a dictionary with two fields', GenerationConfig validation
  W "Can't load image processor / feature extractor / processor / video processor for 'X'" (image_processing_base.py
    and its siblings, 4.x-5.19)                                                                processor-files-unrecognized
  W 'Please install torch and gguf>=0.10.0 to load a GGUF checkpoint in PyTorch.' (modeling_gguf_pytorch_utils.py)
                                                                                               optional-package-missing
  L mistral_common 'TokenizerException: Unrecognized tokenizer filename' (tokenizer_mode mistral) tokenizer-mode-mismatch (engine-config.toml)
  W "Can't load the configuration of 'X'" (configuration_utils _get_config_dict)               model-dir-invalid
  W 4.x 'This tokenizer cannot be instantiated. Please make sure you have `sentencepiece` installed' (dummy objects),
    '`tiktoken` is required to read a `tiktoken` file'; 4.x 'Cannot instantiate this tokenizer from a slow version'
    (a hint: missing tokenizer files say the same)                                             tokenizer-backend-missing
  N 'Converting from SentencePiece and Tiktoken failed' (5.19) / 'Converting from Tiktoken failed' (4.x) (a hint)
                                                                                               tokenizer-model-corrupt
  W 4.x 'Error no file named pytorch_model.bin, model.safetensors, ... found in directory'     weights-missing
  W 4.x 'You seem to have cloned a repository without having git-lfs installed'; 'Unable to load weights from
    pytorch checkpoint file' (a hint)                                                          weights-corrupt
  L 4.x "Unrecognized configuration class <class X> to build an AutoTokenizer" (no tokenizer files for a model type
    without a default tokenizer)                                                               tokenizer-missing (engine-config.toml)
  L 4.x "KeyError: 'qwen2'" raised in configuration_auto.py (CONFIG_MAPPING[model_type])      unknown-model-type (gpu-kernels.toml)
  L 'Cannot use chat template functions because tokenizer.chat_template is not set' (vLLM raises its own wording,
    read already)                                                                              chat-template-absent (engine-config.toml)
safetensors 0.8 (and 0.4.5's enum names)
  A every 'Error while deserializing header: ...' (header too small/large, invalid JSON/UTF-8, invalid header length,
    incomplete metadata, invalid offset for tensor, invalid shape, data type, or offset; 0.4.5 HeaderTooLarge,
    MetadataIncompleteBuffer, InvalidOffset, TensorInvalidInfo), unknown dtype variant         weights-corrupt, safetensors-*
  W load(bytes)'s 'Error while deserializing: header too large' / 'invalid header length' (no 'header': caused)
                                                                                               weights-corrupt, safetensors-header-unreadable
  S 'Could not read tensor', 'Error preparing tensor view', 'Dtype not understood', 'Error during slicing' (strings of
    _safetensors_rust.abi3.so not reached by a broken file here: a caller's misuse)
  S vLLM's own read of model.safetensors.index.json (weight_utils.py 'weight_map = json.load(f)["weight_map"]'): a bare
    JSONDecodeError there (an LFS pointer or cut index). Tried as a context wording of weights-corrupt and taken back:
    tools/harvest_shared_wordings.py counts a context wording's raw hits without its context, so every config/tokenizer
    JSONDecodeError of the corpus would have capped weights-corrupt (0.95 -> 0.88, 'calibrated')
  N 'File does not contain tensor NAME' (safe_open.get_tensor)                                 safetensors-tensor-absent
  W 'FileNotFoundError: No such file or directory: X.safetensors' (safe_open, no errno)        weights-missing
  S 'No such device (os error 19)' (a directory named *.safetensors)
torch.load (torch/serialization.py, _weights_only_unpickler.py; 2.13 caused, 2.0-2.5 read)
  N 'Weights only load failed ... WeightsUnpickler error: Unsupported global: GLOBAL X' (2.4+), 'Unsupported class X'
    (2.0-2.3)                                                                                  torch-load-weights-only-refused
  W 'Weights only load failed ... Unsupported operand 118/60' (an LFS pointer / HTML page under weights_only)
  W bare 'EOFError' raised in _weights_only_unpickler.py (0-byte file), 'EOFError: Ran out of input' (older)
  W 'PytorchStreamReader failed reading file data/N: invalid header or archive is corrupted' (was 0.50),
    'failed locating file data.pkl: file not found', "invalid load key, '\\x00'"              weights-corrupt
  A 'failed finding central directory', "invalid load key, 'v'/'<'", 'unexpected EOF, expected N more bytes'
  W the other miniz reasons (strings of libtorch_cpu.so): 'CRC-32 check failed', 'decompression failed or archive is
    corrupted', 'unexpected decompressed size', 'not a ZIP archive'; legacy 'Invalid magic number; corrupt file?'  weights-corrupt
  A 'Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False'  torch-load-cuda-unavailable
  S 'Expected hasRecord("version") to be true' (a zip torch never wrote: made here only by hand)
tokenizers 0.23 / sentencepiece 0.2 / tiktoken 0.14
  A 'data did not match any variant of untagged enum ModelWrapper/ModelUntagged/PreTokenizerUntagged/...'
  A JSONDecodeError on tokenizer.json / tokenizer_config.json (5.x reads them with json first)
  W serde's 'Exception: EOF while parsing a string / expected value / Model missing. / Merges text file invalid /
    unknown variant `X` ... at line L column C' (Tokenizer.from_file, as 4.x calls it)       tokenizer-corrupt
  W the model loaders' refusals (strings of tokenizers.abi3.so, caused): "Unknown tokenizer version '2.0'", 'Token `c`
    out of vocabulary', 'Unable to load vocab UnkIdNotInVocabulary', 'invalid type: ... expected a string'  tokenizer-corrupt
  S 'Error while initializing BPE', 'Error while reading BPE files', 'Training error', 'Cannot build UnigramTrainer'
    (building a tokenizer from vocab/merges files or training one: not what a server loads)
  N sentencepiece 'could not parse ModelProto from PATH' (0.2), 'Internal: ... [model_proto->ParseFromArray(...)]'
    (0.1.9x); tiktoken load_tiktoken_bpe "Error parsing line b'...' in PATH"                   tokenizer-model-corrupt
  S tokenizers 'No such file or directory (os error 2)' (transformers checks the file first), 5.19 "KeyError:
    'added_tokens'" (a hand-made tokenizer.json)
  N protobuf's parse of tokenizer.model (4.x get_spm_processor): "DecodeError: Error parsing message with type
    'sentencepiece.ModelProto'" (caused; 5.19 logs it only as a warning and falls back to tiktoken: not matched)
                                                                                               tokenizer-model-corrupt
protobuf 4.21-5.x (python/google/protobuf/descriptor.py)
  N 'Descriptors cannot (not) be created directly ... regenerated with protoc >= 3.19.0'        protobuf-generated-code-too-old
  A "cannot import name 'builder' from 'google.protobuf.internal'" (protobuf too old)          python-import-name-missing
hf_xet 1.8 (its Rust error texts, read with strings(1) from hf_xet.abi3.so)
  W 'CAS Client Error: ...', 'Network error: ...' (only beside xet_get / hf_xet frames: the Python-side rendering of
    this release was not caused here, no network)                                              hub-xet-download-failed
  S 'File reconstruction error:', 'Authentication error:', 'Configuration error:' ... (not caused; a disk or token
    fault can hide behind them)
transformers 5.19, the raise statements of configuration_utils.py, tokenization_utils_base.py, tokenization_utils_tokenizers.py,
tokenization_python.py, models/auto/{configuration,tokenization,processing}_auto.py, utils/hub.py, dynamic_module_utils.py,
modeling_rope_utils.py, convert_slow_tokenizer.py (145, listed with ast; 121 unnamed at first, nearly all programming errors
of a caller -- padding, batching, special tokens, save/push -- not a server's start: skipped)
  W 'X is a gated repository. Make sure to request access' (hub.py has_file)                  gated-repo
  W "Tokenizer class 'X' specified in the tokenizer config was not found" (tokenization_auto)  tokenizer-corrupt
  W 'Unable to load tokenizer model from SPM ... Tried to load SPM model with non-SPM vocab file'; 'Unable to load
    vocabulary from file' (a hint) (tokenization_utils_base _from_pretrained)                 tokenizer-model-corrupt
  N 'This modeling file requires the following packages that were not found in your environment' remote-code-packages-missing
  L 'PermissionError at X when downloading X. Check cache directory permissions' (hub.py; the PermissionError it
    wraps is read by cache-permission-denied)                                                  service-machine.toml
  S 'layer_types entries must be in', 'multiple chat templates with no default', 'model_type attribute that is not
    consistent', "you're file was trained with a different algorithm" (rare hand edits), 'Cannot apply chat template to
    an empty conversation' (a request, not a checkpoint)
transformers 4.3x utils/hub.py cached_file
  L "Incorrect path_or_model_id: 'X'. Please provide either the path to a local folder or the repo_id of a model on
    the Hub." (raised from the HFValidationError that model-path-not-found / hub-bad-repo-id read)  engine-config.toml
  L sentencepiece 'TypeError: not a string' / 'Either model_file or model_proto must be specified' (4.x, no
    tokenizer.model)                                                                           tokenizer-missing (engine-config.toml)
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import run, top_cause

SITE = "/opt/venv/lib/python3.12/site-packages/"


def tb(frame: str, line: str, *more: str) -> str:
    """A traceback's last frame and its exception line(s), as Python prints them."""
    return (
        "\n".join(
            ["Traceback (most recent call last):", f'  File "{SITE}{frame}", line 100, in f', line, *more]
        )
        + "\n"
    )


# (log, expected top family, confident)
CASES = [
    # huggingface_hub utils/_errors.py (<= 0.2x) passes requests' str(HTTPError) on
    (
        tb(
            "huggingface_hub/utils/_errors.py",
            "huggingface_hub.utils._errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/Qwen/Qwen2-7B/revision/main",
        ),
        "hub-rate-limited",
        True,
    ),
    (
        tb(
            "huggingface_hub/utils/_errors.py",
            "requests.exceptions.HTTPError: 504 Server Error: Gateway Time-out for url: https://huggingface.co/Qwen/Qwen2-7B/resolve/main/config.json",
        ),
        "hub-server-error",
        True,
    ),
    # _snapshot_download.py _raise_if_incomplete_snapshot (2.x)
    (
        tb(
            "huggingface_hub/_snapshot_download.py",
            "huggingface_hub.errors.IncompleteSnapshotError: The cached snapshot for 'Qwen/Qwen3-8B' (revision 'main', commit 9c925d64d72725edaf899c6cb9c377fd0709d9c5) is incomplete: 2 file(s) are missing (model-00004-of-00005.safetensors, model-00005-of-00005.safetensors). Outgoing traffic is disabled ('local_files_only=True'). Re-run the download with network access to complete the snapshot.",
        ),
        "hub-offline",
        True,
    ),
    # file_download.py get_hf_file_metadata: 2.4, then 0.1x-1.x
    (
        tb(
            "huggingface_hub/file_download.py",
            "huggingface_hub.errors.FileMetadataError: Response from https://hf-mirror.com/org/m/resolve/main/config.json is missing the 'X-Repo-Commit' header, so it does not seem to be served by a Hugging Face Hub endpoint. If HF_ENDPOINT is set, check that it points to a Hub-compatible endpoint.",
        ),
        "hub-response-not-from-hub",
        True,
    ),
    (
        tb(
            "huggingface_hub/file_download.py",
            "OSError: Distant resource does not seem to be on huggingface.co. It is possible that a configuration issue prevents you from downloading resources from https://huggingface.co. Please check your firewall and proxy settings and make sure your SSL certificates are updated.",
        ),
        "hub-response-not-from-hub",
        True,
    ),
    (
        tb(
            "huggingface_hub/file_download.py",
            "huggingface_hub.errors.FileMetadataError: Distant resource does not have an ETag, we won't be able to reliably ensure reproducibility.",
        ),
        "hub-response-not-from-hub",
        True,
    ),
    # file_download.py http_get
    (
        tb(
            "huggingface_hub/file_download.py",
            "OSError: Consistency check failed: file should be of size 4976698672 but has size 1782580224 ((…)of-00004.safetensors).",
            "This is usually due to network issues while downloading the file. Please retry with `force_download=True`.",
        ),
        "hub-download-size-mismatch",
        True,
    ),
    (
        tb(
            "huggingface_hub/file_download.py",
            'ValueError: To use optimized download using Xet storage, you need to install the hf_xet package. Try `pip install "huggingface_hub[hf_xet]"` or `pip install hf_xet`.',
        ),
        "hub-xet-client-missing",
        True,
    ),
    (
        tb(
            "huggingface_hub/file_download.py",
            "RuntimeError: An error occurred while downloading using `hf_transfer`. Consider disabling HF_HUB_ENABLE_HF_TRANSFER for better error handling.",
        ),
        "hf-transfer-download-failed",
        False,
    ),
    # transformers configuration_utils.py _get_config_dict (4.x-5.19)
    (
        tb(
            "transformers/configuration_utils.py",
            "OSError: Can't load the configuration of '/models/llama3'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name. Otherwise, make sure '/models/llama3' is the correct path to a directory containing a config.json file",
        ),
        "model-dir-invalid",
        # not confident since s33: the family's words stood under five causes in the corpus, 6 of its 12 logs this one
        False,
    ),
    # transformers 4.x utils/dummy_sentencepiece_objects.py; convert_slow_tokenizer.py; tokenization_utils_fast.py
    (
        tb(
            "transformers/utils/dummy_sentencepiece_objects.py",
            "ValueError: This tokenizer cannot be instantiated. Please make sure you have `sentencepiece` installed in order to use this tokenizer.",
        ),
        "tokenizer-backend-missing",
        True,
    ),
    (
        tb(
            "transformers/convert_slow_tokenizer.py",
            "ValueError: `tiktoken` is required to read a `tiktoken` file. Install it with `pip install tiktoken`.",
        ),
        "tokenizer-backend-missing",
        True,
    ),
    (
        tb(
            "transformers/tokenization_utils_fast.py",
            "ValueError: Cannot instantiate this tokenizer from a slow version. If it's based on sentencepiece, make sure you have sentencepiece installed.",
        ),
        "tokenizer-backend-missing",
        False,
    ),
    (
        tb(
            "transformers/convert_slow_tokenizer.py",
            "ValueError: Converting from SentencePiece and Tiktoken failed, if a converter for SentencePiece is available, provide a model path with a SentencePiece tokenizer.model file.Currently available slow->fast converters: ['AlbertTokenizer']",
        ),
        "tokenizer-model-corrupt",
        False,
    ),
    # sentencepiece 0.2.3 (caused), 0.1.9x; tiktoken/load.py load_tiktoken_bpe (caused via transformers 5.19)
    (
        tb(
            "sentencepiece/__init__.py",
            "RuntimeError: INTERNAL: could not parse ModelProto from /models/m/tokenizer.model",
        ),
        "tokenizer-model-corrupt",
        True,
    ),
    (
        tb(
            "sentencepiece/__init__.py",
            "RuntimeError: Internal: src/sentencepiece_processor.cc(1101) [model_proto->ParseFromArray(serialized.data(), serialized.size())] ",
        ),
        "tokenizer-model-corrupt",
        True,
    ),
    (
        tb(
            "tiktoken/load.py",
            "ValueError: Error parsing line b'version https://git-lfs.github.com/spec/v1' in /models/m/tokenizer.model",
        ),
        "tokenizer-model-corrupt",
        True,
    ),
    # tokenizers' serde wordings through 4.x tokenization_utils_fast.py TokenizerFast.from_file (caused with 0.23.3)
    (
        tb(
            "transformers/tokenization_utils_fast.py",
            "Exception: EOF while parsing a string at line 1 column 60",
        ),
        "tokenizer-corrupt",
        True,
    ),
    (
        tb("transformers/tokenization_utils_fast.py", "Exception: expected value at line 1 column 1"),
        "tokenizer-corrupt",
        True,
    ),
    (
        tb("transformers/tokenization_utils_fast.py", "Exception: Model missing. at line 1 column 18"),
        "tokenizer-corrupt",
        True,
    ),
    # transformers 4.x modeling_utils.py
    (
        tb(
            "transformers/modeling_utils.py",
            "OSError: Error no file named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or flax_model.msgpack found in directory /models/llama3.",
        ),
        "weights-missing",
        True,
    ),
    (
        tb(
            "transformers/modeling_utils.py",
            "OSError: You seem to have cloned a repository without having git-lfs installed. Please install git-lfs and run `git lfs install` followed by `git lfs pull` in the folder you cloned.",
        ),
        "weights-corrupt",
        True,
    ),
    (
        tb(
            "transformers/modeling_utils.py",
            "OSError: Unable to load weights from pytorch checkpoint file for '/models/m/pytorch_model.bin' at '/models/m/pytorch_model.bin'. If you tried to load a PyTorch model from a TF 2.0 checkpoint, please set from_tf=True.",
        ),
        "weights-corrupt",
        False,
    ),
    # safetensors 0.8 safe_open (caused)
    (
        tb(
            "vllm/model_executor/model_loader/weight_utils.py",
            "safetensors_rust.SafetensorError: File does not contain tensor model.layers.17.mlp.down_proj.weight",
        ),
        "safetensors-tensor-absent",
        True,
    ),
    (
        tb(
            "vllm/model_executor/model_loader/weight_utils.py",
            "FileNotFoundError: No such file or directory: /models/m/model-00002-of-00002.safetensors",
        ),
        "weights-missing",
        True,
    ),
    # torch 2.13 torch/serialization.py (caused: a numpy array pickled in a .bin; an LFS pointer; a 0-byte file)
    (
        tb(
            "torch/serialization.py",
            "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint. ",
            "\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`.",
            "\tWeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. Please use `torch.serialization.add_safe_globals([numpy._core.multiarray._reconstruct])`",
        ),
        "torch-load-weights-only-refused",
        True,
    ),
    (
        tb(
            "torch/serialization.py",
            "_pickle.UnpicklingError: Weights only load failed. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution.Do it only if you get the file from a trusted source. WeightsUnpickler error: Unsupported class numpy.core.multiarray._reconstruct",
        ),
        "torch-load-weights-only-refused",
        True,
    ),
    (
        tb(
            "torch/serialization.py",
            "_pickle.UnpicklingError: Weights only load failed. In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`.",
            "Please file an issue with the following so that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error: ",
            "",
            "Unsupported operand 118",
            "",
            "Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.",
        ),
        "weights-corrupt",
        True,
    ),
    (tb("torch/_weights_only_unpickler.py", "EOFError"), "weights-corrupt", True),
    (tb("torch/serialization.py", "EOFError: Ran out of input"), "weights-corrupt", True),
    (
        tb(
            "torch/serialization.py",
            "RuntimeError: PytorchStreamReader failed reading file data/2: invalid header or archive is corrupted",
        ),
        "weights-corrupt",
        True,
    ),
    (
        tb("torch/serialization.py", "_pickle.UnpicklingError: invalid load key, '\\x00'."),
        "weights-corrupt",
        True,
    ),
]


CASES += [
    # protobuf 4.21 python/google/protobuf/descriptor.py (the 'cannot not' typo of that release)
    (
        tb(
            "google/protobuf/descriptor.py",
            "TypeError: Descriptors cannot not be created directly.",
            "If this call came from a _pb2.py file, your generated code is out of date and must be regenerated with protoc >= 3.19.0.",
        ),
        "protobuf-generated-code-too-old",
        True,
    ),
    # protobuf's parse of tokenizer.model under transformers 4.x (caused with import_protobuf().ModelProto.FromString)
    (
        tb(
            "transformers/models/llama/tokenization_llama.py",
            "google.protobuf.message.DecodeError: Error parsing message with type 'sentencepiece.ModelProto'",
        ),
        "tokenizer-model-corrupt",
        True,
    ),
    # transformers 5.19 utils/hub.py has_file; models/auto/tokenization_auto.py; tokenization_utils_base.py; dynamic_module_utils.py
    (
        tb(
            "transformers/utils/hub.py",
            "OSError: meta-llama/Llama-3.1-8B is a gated repository. Make sure to request access at https://huggingface.co/meta-llama/Llama-3.1-8B and pass a token having permission to this repo either by logging in with `hf auth login` or by passing `token=<your_token>`.",
        ),
        "gated-repo",
        True,
    ),
    (
        tb(
            "transformers/models/auto/tokenization_auto.py",
            "ValueError: Tokenizer class 'Qwen9Tokenizer' specified in the tokenizer config was not found. The tokenizer may need to be converted or re-saved.",
        ),
        "tokenizer-corrupt",
        True,
    ),
    (
        tb(
            "transformers/tokenization_utils_base.py",
            "RuntimeError: Unable to load tokenizer model from SPM, loading from TikToken will be attempted instead.(SentencePiece RuntimeError: Tried to load SPM model with non-SPM vocab file).",
        ),
        "tokenizer-model-corrupt",
        True,
    ),
    (
        tb(
            "transformers/tokenization_utils_base.py",
            "OSError: Unable to load vocabulary from file. Please check that the provided vocabulary is accessible and not corrupted.",
        ),
        "tokenizer-model-corrupt",
        False,
    ),
    (
        tb(
            "transformers/dynamic_module_utils.py",
            "ImportError: This modeling file requires the following packages that were not found in your environment: flash_attn, einops. Run `pip install flash_attn einops`",
        ),
        "remote-code-packages-missing",
        True,
    ),
    # huggingface_hub 2.x utils/_http.py; 0.1x file_download (and transformers 3.x-4.1x file_utils)
    (
        tb(
            "huggingface_hub/utils/_http.py",
            "httpx.TooManyRedirects: Exceeded 10 redirects while resolving 'https://hf-mirror.com/Qwen/Qwen3-8B/resolve/main/config.json'.",
        ),
        "hub-response-not-from-hub",
        True,
    ),
    (
        tb(
            "transformers/file_utils.py",
            "ValueError: Connection error, and we cannot find the requested files in the cached path. Please try again or make sure your Internet connection is on.",
        ),
        "hub-offline",
        True,
    ),
    # safetensors 0.8 load(bytes) (caused); tokenizers 0.23.3 model loaders (caused with Tokenizer.from_file)
    (
        tb(
            "safetensors/torch.py",
            "safetensors_rust.SafetensorError: Error while deserializing: header too large",
        ),
        "weights-corrupt",
        True,
    ),
    (
        tb(
            "transformers/tokenization_utils_fast.py",
            "Exception: Unknown tokenizer version '2.0' at line 1 column 17",
        ),
        "tokenizer-corrupt",
        True,
    ),
    (
        tb(
            "transformers/tokenization_utils_fast.py",
            "Exception: Token `c` out of vocabulary at line 1 column 231",
        ),
        "tokenizer-corrupt",
        True,
    ),
    # the hf CLI (huggingface_hub 2.4 cli/_errors.py), as `hf download` prints it (ANSI colours kept)
    (
        "\x1b[1m\x1b[31mError: Access denied. Repository 'meta-llama/Llama-3.1-8B' requires approval.\x1b[0m\n",
        "gated-repo",
        True,
    ),
    (
        "\x1b[1m\x1b[31mError: Model 'org/private-model' not found.\nIf the repo is private, make sure you are authenticated and your token has the required permissions.\nIf the repo does not exist, create it with: hf repos create org/private-model\x1b[0m\n",
        "gated-repo",
        True,
    ),
    # huggingface_hub 0.2x utils/_errors.py: requests' 403 line, then the hub's reason (a fine-grained token)
    (
        tb(
            "huggingface_hub/utils/_errors.py",
            "huggingface_hub.utils._errors.HfHubHTTPError: 403 Client Error: Forbidden for url: https://huggingface.co/api/models/meta-llama/Llama-3.1-8B/revision/main (Request ID: Root=1-66)",
            "",
            "403 Forbidden: Please enable access to public gated repositories in your fine-grained token settings to view this repository..",
            "Cannot access content at: https://huggingface.co/api/models/meta-llama/Llama-3.1-8B/revision/main.",
        ),
        "hub-token-forbidden",
        True,
    ),
    # torch's zip reader (miniz, strings of libtorch_cpu.so) and legacy reader (serialization.py _legacy_load)
    (
        tb(
            "torch/serialization.py",
            "RuntimeError: PytorchStreamReader failed reading file data/3: CRC-32 check failed",
        ),
        "weights-corrupt",
        True,
    ),
    (
        tb("torch/serialization.py", "RuntimeError: Invalid magic number; corrupt file?"),
        "weights-corrupt",
        True,
    ),
    # a hub download timing out / breaking off: requests (<= 0.2x), httpx and h11 (2.x)
    (
        tb(
            "huggingface_hub/file_download.py",
            "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='cdn-lfs.huggingface.co', port=443): Read timed out. (read timeout=10)",
        ),
        "hub-download-interrupted",
        True,
    ),
    (
        tb(
            "huggingface_hub/file_download.py",
            "httpx.RemoteProtocolError: peer closed connection without sending complete message body (received 1048576 bytes, expected 3928170496)",
        ),
        "hub-download-interrupted",
        False,
    ),
    (
        tb(
            "huggingface_hub/file_download.py",
            "requests.exceptions.ConnectTimeout: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /Qwen/Qwen3-8B/resolve/main/config.json (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f>, 'Connection to huggingface.co timed out. (connect timeout=10)'))",
        ),
        "hub-offline",
        True,
    ),
    (
        tb(
            "transformers/image_processing_base.py",
            "OSError: Can't load image processor for '/models/qwen2-vl'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name. Otherwise, make sure '/models/qwen2-vl' is the correct path to a directory containing a preprocessor_config.json file",
        ),
        "processor-files-unrecognized",
        True,
    ),
    (
        tb(
            "transformers/modeling_gguf_pytorch_utils.py",
            "ImportError: Please install torch and gguf>=0.10.0 to load a GGUF checkpoint in PyTorch.",
        ),
        "optional-package-missing",
        True,
    ),
    (
        tb(
            "huggingface_hub/file_download.py",
            "RuntimeError: CAS Client Error: Request failed after 5 retries",
        ).replace(", in f", ", in xet_get"),
        "hub-xet-download-failed",
        True,
    ),
]


@pytest.mark.parametrize("prefix", ["", "(EngineCore pid=4242) "])
@pytest.mark.parametrize("log, family, confident", CASES)
def test_the_library_wording_is_named(log: str, family: str, confident: bool, prefix: str) -> None:
    top = top_cause(run("".join(prefix + line + "\n" for line in log.splitlines())))
    assert top is not None and top.id == family, (log.splitlines()[2][:80], top and top.id)
    # a confident family may be capped below 0.70 where the corpus saw its words under other causes (shared_wording.py)
    assert (top.confidence >= CONFIDENT) is confident or (confident and top.confidence_kind == "calibrated")


# near misses: the same words from another program, or without the context that makes them this cause's
NEAR_MISSES = [
    # an EOFError raised elsewhere (a multiprocessing pipe) is no weight file
    (tb("multiprocessing/connection.py", "EOFError"), "weights-corrupt"),
    # a 5xx from another server (the engine's own API behind a proxy) is not the hub's
    (
        tb(
            "requests/models.py",
            "requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: http://localhost:8000/v1/models",
        ),
        "hub-server-error",
    ),
    # a serde-like 'Exception:' outside transformers' tokenizer loading
    (tb("foo/config.py", "Exception: expected value at line 1 column 1"), "tokenizer-corrupt"),
    # an unsupported operand with no weights-only unpickler above it
    ("Unsupported operand 118\n", "weights-corrupt"),
    # Python's own FileNotFoundError (with errno) of a config file is not a missing weight
    (
        tb(
            "vllm/config.py",
            "FileNotFoundError: [Errno 2] No such file or directory: '/models/m/config.json'",
        ),
        "weights-missing",
    ),
    # a client that cannot reach the local server is no hub
    (
        tb(
            "requests/adapters.py",
            "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: /v1/models (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))",
        ),
        "hub-offline",
    ),
    # hf_xet's wording without the Xet download path
    (tb("foo/bar.py", "RuntimeError: Network error: connection reset"), "hub-xet-download-failed"),
    # a client's read timeout (an OpenAI client waiting on the server) is no hub download
    (
        tb("openai/_base_client.py", "httpx.ReadTimeout: The read operation timed out"),
        "hub-download-interrupted",
    ),
    # Ollama's missing model is not a hub repo
    ("Error: model 'llama3' not found.\n", "gated-repo"),
    # another program's protobuf model (ONNX), and transformers 5.19's warning before its tiktoken fallback succeeds
    (
        tb(
            "onnx/__init__.py",
            "google.protobuf.message.DecodeError: Error parsing message with type 'onnx.ModelProto'",
        ),
        "tokenizer-model-corrupt",
    ),
    (
        "[transformers] Could not extract SentencePiece model from /m/tokenizer.model using sentencepiece library due to Error parsing message with type 'sentencepiece.ModelProto': Wire format was corrupt. Falling back to TikToken extractor.\n",
        "tokenizer-model-corrupt",
    ),
]


@pytest.mark.parametrize("log, family", NEAR_MISSES)
def test_the_near_miss_is_not_taken(log: str, family: str) -> None:
    top = top_cause(run(log))
    assert top is None or top.id != family, log
