"""What the scored batch fresh-263 (LoRA adapters on vLLM, an adapter's file combined with a setting) taught after
scoring, with the neighbourhood of each miss's check in vLLM 0.32's own source.

- set_lora's copy (lora/layers/base_linear.py, column_parallel_linear.py, logits_processor.py,
  vocab_parallel_embedding.py) into lora_a_stacked[i, 0, :rank, :in] / lora_b_stacked[i, 0, :out, :rank]: torch's
  'The size of tensor a (A) must match the size of tensor b (B) at non-singleton dimension D' is read by D and the
  figures. D 0 with A a rank vLLM takes: B up to 128 is a rank (lora-rank-too-large: the config's r understated),
  B above 512 an in/out size where the rank belongs (A/B transposed or swapped: lora-adapter-base-mismatch), between
  the two either (that family's hint, below 0.70). D 1, or D 0 against an A no rank, is another base's shape.
- lora_model.py check_unexpected_modules: another architecture's module names (gpt_neox., query_key_value, c_attn,
  Wqkv ...) beside a Llama-style expected set, or the reverse, is lora-adapter-base-mismatch; a module of this
  model's own layout stays lora-target-modules-unsupported.
- lora-modules-flag-repeated: utils/argparse_utils.py 'Found duplicate keys %s' naming --lora-modules (whose
  LoRAParserAction keeps the last occurrence) beside a 404 for the dropped adapter.
Messages are the source's format strings filled with other values (rendered), not the batch's log lines.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

ADD = (
    "ValueError: Call to add_lora method failed: Worker failed with error '{msg}', please check the stack trace "
    "above for the root cause\n"
)
SIZE = "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {d}"
NOT_FOUND = (
    '# request: POST http://127.0.0.1:8000/v1/completions {{"model": "{name}", "prompt": "hi"}}\n'
    "HTTP/1.1 404 Not Found\n"
    '{{"error":{{"message":"The model `{name}` does not exist. Valid aliases: /models/llama","type":"NotFoundError",'
    '"param":"model","code":404}}}}\n'
)
LLAMA_EXPECTED = "{'q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'}"
MODULES = (
    "ValueError: While loading /adapters/{n}, expected target modules in {exp} but received {got}. Please verify "
    "that the loaded LoRA module is correct\n"
)

CASES = [
    # tensors of rank 64 under an r that passed --max-lora-rank 32 (rendered)
    ("lora-rank-too-large", ADD.format(msg=SIZE.format(a=32, b=64, d=0))),
    # ... rank 128 against the default 16
    ("lora-rank-too-large", ADD.format(msg=SIZE.format(a=16, b=128, d=0))),
    # lora_A stored [in, r] on a 4096-wide model: an in size where the rank belongs
    ("lora-adapter-base-mismatch", ADD.format(msg=SIZE.format(a=16, b=4096, d=0))),
    # ... at --max-lora-rank 64, a 896-wide model (Qwen2.5-0.5B's hidden size)
    ("lora-adapter-base-mismatch", ADD.format(msg=SIZE.format(a=64, b=896, d=0))),
    # lora_B's output rows of another base (tensor a no rank vLLM takes)
    ("lora-adapter-base-mismatch", ADD.format(msg=SIZE.format(a=1024, b=4096, d=0))),
    # lora_A's input of another base
    ("lora-adapter-base-mismatch", ADD.format(msg=SIZE.format(a=2048, b=4096, d=1))),
    # a GPT-2 adapter on a Llama (c_attn under transformer.h.)
    (
        "lora-adapter-base-mismatch",
        MODULES.format(
            n="gpt2-sql",
            exp=LLAMA_EXPECTED,
            got="['transformer.h.0.attn.c_attn', 'transformer.h.0.attn.c_proj']",
        ),
    ),
    # a Falcon adapter (query_key_value under transformer.h.) on a Llama, list form of the expected set
    (
        "lora-adapter-base-mismatch",
        MODULES.format(
            n="falcon",
            exp="['q_proj', 'k_proj', 'v_proj', 'o_proj']",
            got="['transformer.h.0.self_attention.query_key_value']",
        ),
    ),
    # a Llama adapter on a GPT-NeoX (the reverse)
    (
        "lora-adapter-base-mismatch",
        MODULES.format(
            n="llama-ad",
            exp="{'query_key_value', 'dense', 'dense_h_to_4h', 'dense_4h_to_h'}",
            got="['model.layers.0.self_attn.q_proj', 'model.layers.0.self_attn.v_proj']",
        ),
    ),
    # --lora-modules repeated among other repeated flags, then the dropped adapter asked for
    (
        "lora-modules-flag-repeated",
        "Found duplicate keys --max-model-len, --lora-modules\n"
        "(APIServer pid=9) INFO 12-05 10:00:00 [launcher.py:46] Route: /v1/chat/completions, Methods: POST\n"
        + NOT_FOUND.format(name="sql-lora"),
    ),
]

NEAR_MISSES = [
    # 512 rows against 16 slots: rank 512 under an understated r, or a 512-wide model's A transposed; neither sure
    ("lora-rank-too-large", ADD.format(msg=SIZE.format(a=16, b=512, d=0))),
    ("lora-adapter-base-mismatch", ADD.format(msg=SIZE.format(a=16, b=512, d=0))),
    # a rank that fits no slot is no base mismatch
    ("lora-adapter-base-mismatch", ADD.format(msg=SIZE.format(a=16, b=64, d=0))),
    # another base's input size is no rank
    ("lora-rank-too-large", ADD.format(msg=SIZE.format(a=256, b=2048, d=1))),
    # this model's own embed_tokens, not wrapped by vLLM: the target-modules family, not another base
    (
        "lora-adapter-base-mismatch",
        MODULES.format(n="emb", exp=LLAMA_EXPECTED, got="['model.embed_tokens', 'model.embed_tokens']"),
    ),
    # a repeat with no refused request is no failure
    (
        "lora-modules-flag-repeated",
        "Found duplicate keys --lora-modules\n"
        "(APIServer pid=9) INFO 12-05 10:00:00 [launcher.py:46] Route: /v1/chat/completions, Methods: POST\n"
        "INFO:     Application startup complete.\n",
    ),
    # another flag repeated beside a 404 is not the LoRA list's
    (
        "lora-modules-flag-repeated",
        "Found duplicate keys --served-model-name\n" + NOT_FOUND.format(name="llama"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
