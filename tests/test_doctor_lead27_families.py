"""What the lead learnt after scoring fresh-39 (real vLLM 0.26 on the H200): the attention selector's refusal whose
every reason is the KV-cache dtype is that dtype's refusal, not the model's attention (kv-cache-dtype-unsupported-on-gpu);
a refusal with any other reason stays attention-backend-none-valid."""

from __future__ import annotations

from tests.doctor_text import run

SELECTOR = (
    "(EngineCore pid=4085) ValueError: No valid attention backend found for cuda with AttentionSelectorConfig("
    "head_size=256, dtype=torch.bfloat16, kv_cache_dtype={dtype}, block_size=None, use_mla=False, has_sink=False, "
    "attn_type=AttentionType.DECODER, has_sliding_window=True). Reasons: {{{reasons}}}."
)


def _first(log: str):
    """The first cause doctor names in `log` (notes, symptoms and progress lines are not causes)."""
    return next(d for d in run(log).diagnoses if d.role == "cause")


def _causes(log: str) -> list[str]:
    return [d.id for d in run(log).diagnoses if d.role == "cause"]


def test_every_backend_refusing_the_kv_dtype_is_the_kv_dtype():
    # another dtype and another set of backends than fresh-39's fp8_inc log
    reasons = "FLASH_ATTN: [kv_cache_dtype not supported], FLASHINFER: [ImportError], TRITON_ATTN: [kv_cache_dtype not supported, sliding window not supported]"
    assert (
        _first(SELECTOR.format(dtype="fp8_ds_mla", reasons=reasons) + "\n").id
        == "kv-cache-dtype-unsupported-on-gpu"
    )


def test_a_backend_refusing_for_another_reason_leaves_the_selector_family():
    reasons = "FLASH_ATTN: [kv_cache_dtype not supported], TRITON_ATTN: [head_size not supported]"
    assert (
        _first(SELECTOR.format(dtype="fp8_inc", reasons=reasons) + "\n").id == "attention-backend-none-valid"
    )


def _answer(log: str) -> tuple[str, float]:
    d = _first(log)
    return d.id, d.confidence


def test_a_syntax_error_in_an_installed_package_is_a_python_too_old():
    # Python's own form of a SyntaxError frame (no ", in <func>"): a match statement (3.10) read by 3.9
    log = (
        'Traceback (most recent call last):\n  File "/usr/bin/vllm", line 5, in <module>\n'
        '  File "/opt/venv/lib/python3.9/site-packages/vllm/entrypoints/cli/main.py", line 12\n'
        "    match args.cmd:\n          ^\nSyntaxError: invalid syntax\n"
    )
    assert _answer(log) == ("python-too-old-for-engine", 0.65)


def test_a_syntax_error_in_the_users_own_script_is_not():
    log = (
        'Traceback (most recent call last):\n  File "/home/me/run.py", line 3\n    print "hi"\n          ^\n'
        "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?\n"
    )
    assert _answer(log)[0] == "uncaught-exception"


def test_a_pep_604_union_under_python_39_is_a_python_too_old():
    log = (
        '  File "/usr/local/lib/python3.9/dist-packages/transformers/utils/import_utils.py", line 40, in <module>\n'
        "    def f(x: int | None = None):\nTypeError: unsupported operand type(s) for |: 'type' and 'NoneType'\n"
    )
    assert _answer(log)[0] == "python-too-old-for-engine"
    # another operand pair is an ordinary type error of the program's own
    assert (
        _answer("TypeError: unsupported operand type(s) for |: 'int' and 'str'\n")[0] == "uncaught-exception"
    )


# a native crash as other programs report it: (line, family); each line's source in the knowledge entry's comment
CRASH_WORDINGS = [
    ("llama runner process has terminated: exit status 0xc0000005", "segfault"),
    ("Process finished with exit code -1073741819 (0xC0000005)", "segfault"),
    ("Windows fatal exception: access violation", "segfault"),
    ("vllm-1 exited with code 139", "segfault"),
    ("Engine core proc EngineCore_DP0 died unexpectedly, exitcode=-11", "segfault"),
    ("Error: llama runner process has terminated: exit status 0xc000001d", "cpu-illegal-instruction"),
    ("Process finished with exit code -1073741795 (0xC000001D)", "cpu-illegal-instruction"),
    ("llama-server exited with code 132", "cpu-illegal-instruction"),
    ("Fatal Python error: Aborted", "native-abort"),
    ("llama runner process has terminated: exit status 0xc0000409", "native-abort"),
    ("container exited with code 135", "bus-error-shm"),
    ("Floating point exception (core dumped)", "native-floating-point-exception"),
    # learn48d: a SIGKILL with nothing about memory in the log is a kill from outside (the OOM killer is one sender)
    ("Error: llama runner process has terminated: signal: killed", "engine-killed-from-outside"),
]


def test_a_native_crash_is_named_by_its_kind_whoever_reports_it():
    for line, family in CRASH_WORDINGS:
        assert _answer(line + "\n")[0] == family, line


def test_numbers_that_only_look_like_exit_codes_are_not_crashes():
    for line in ("Loaded qwen-4b in 139 ms, exit code 0", "tokens: 132, exit status 0", "exit code 1390"):
        assert not _causes(line + "\n"), line


WARNED = (
    "(APIServer pid=6704) WARNING 12-04 11:18:58 [vllm.py:2276] max_num_scheduled_tokens is set to 2048 based on the "
    "speculative decoding settings. This may lead to suboptimal performance.\n"
)
REFUSED = (
    "(APIServer pid=6704) ERROR 12-04 11:18:58 [core.py:1] ValueError: max_num_scheduled_tokens is set to -3 based on "
    "the speculative decoding settings, which does not allow any tokens to be scheduled.\n"
)
UP = "(APIServer pid=6704) INFO:     Application startup complete.\n"


def test_a_warning_worded_like_a_refusal_before_the_server_came_up_is_not_a_failure():
    # fresh-42: vLLM 0.32 prints the refusal's words as a WARNING on a healthy speculative-decoding start
    assert _causes(WARNED + UP) == []
    assert _causes(REFUSED) == ["spec-decode-token-budget"]


def test_a_cause_logged_as_a_warning_stays_a_cause_when_the_server_never_came_up():
    # the general rule (ranking.py): only a later 'server is up' line turns a warning-level cause into a note
    warned = "(EngineCore pid=8) WARNING 12-04 10:00:00 [utils.py:1] Failed to import from vllm._C with ImportError('/x/_C.abi3.so: undefined symbol: _ZN3c10')\n"
    assert _causes(warned) == ["extension-abi-mismatch"]
    assert _causes(warned + UP) == []


def test_a_projector_cut_short_is_a_truncated_file_not_another_models_projector():
    # fresh-42: llama-server b11434 with a truncated --mmproj; another tensor name here
    log = (
        "0.00.017.927 E clip_init: failed to load model '/m/mmproj-f16.gguf': load_tensors: failed to seek for tensor v.blk.3.attn_q.weight\n"
        "0.00.017.994 E mtmd_init_from_file: error: Failed to load CLIP model from /m/mmproj-f16.gguf\n"
    )
    assert _causes(log)[0] == "llamacpp-bad-gguf"
    # without the seek failure, the same refusal stays the projector's family
    other = (
        "0.00.017.994 E srv    load_model: failed to load multimodal model, '/m/mmproj-f16.gguf'\n"
        "0.00.020.889 E srv  llama_server: exiting due to model loading error\n"
    )
    assert _causes(other)[0] == "llamacpp-mmproj-load-failed"
