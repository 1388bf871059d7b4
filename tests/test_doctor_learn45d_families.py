"""What the measured batch fresh-377 (real vLLM 0.26.0 on an H100) taught about its one miss: an EAGLE-3 draft head on
a target it was not made for (eagle3-aux-hidden-states-do-not-fit-target, new).

The head's fc takes num_aux_hidden_states (len(eagle_aux_hidden_state_layer_ids), else 3) x target_hidden_size features
per token (vLLM 0.32 model_executor/models/llama_eagle3.py, qwen3_eagle3.py, deepseek_eagle3.py); the target collects
only the layers it has among those named (the head's config, else its defaults (2, n // 2, n - 3)). A head made for
another target fails at its first forward in combine_hidden_states. The logs below are NOT the corpus log's wording:
other widths (a head for a 70B target on an 8B one, a 3B target's hidden size), the Qwen3 head's file, V1's proposer
(eagle.py) at the first request, older torch's 'mat1 dim 1 must match mat2 dim 0' and the RMSNorm broadcast of a head
that norms before fc (torch's messages rendered with these shapes).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run

FAMILY = "eagle3-aux-hidden-states-do-not-fit-target"
SITE = "/usr/local/lib/python3.12/dist-packages"


def engine_core(frames: str, error: str, method: str = "eagle3") -> str:
    """A V1 engine core's start that failed in its profile run, as vLLM 0.2x logs it (rendered, not the corpus log)."""
    return (
        f"$ vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        f'\'{{"method": "{method}", "model": "/models/draft", "num_speculative_tokens": 4}}\'\n'
        f"(EngineCore_DP0 pid=311) INFO 05-02 09:12:40 [core.py:93] Initializing a V1 LLM engine (v0.24.1) with "
        f"config: model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='{method}', "
        f"model='/models/draft', num_spec_tokens=4)\n"
        "(EngineCore_DP0 pid=311) ERROR 05-02 09:13:02 [core.py:708] EngineCore failed to start.\n"
        "(EngineCore_DP0 pid=311) ERROR 05-02 09:13:02 [core.py:708] Traceback (most recent call last):\n"
        f'(EngineCore_DP0 pid=311) ERROR 05-02 09:13:02 [core.py:708]   File "{SITE}/vllm/v1/worker/gpu_model_runner.py",'
        " line 2710, in _dummy_run\n"
        f"{frames}"
        f"(EngineCore_DP0 pid=311) ERROR 05-02 09:13:02 [core.py:708] {error}\n"
        "(APIServer pid=77) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
    )


def frame(path: str, line: int, func: str) -> str:
    return f'(EngineCore_DP0 pid=311) ERROR 05-02 09:13:02 [core.py:708]   File "{SITE}/vllm/{path}", line {line}, in {func}\n'


LLAMA_HEAD = frame("v1/spec_decode/eagle.py", 212, "propose") + frame(
    "model_executor/models/llama_eagle3.py", 258, "combine_hidden_states"
)
QWEN_HEAD = frame("v1/spec_decode/eagle.py", 230, "propose") + frame(
    "model_executor/models/qwen3_eagle3.py", 301, "combine_hidden_states"
)

CASES = [
    # a head for Llama-3.3-70B (3 x 8192) on an 8B target (4096 wide): the same number of layers, a narrower target
    (
        FAMILY,
        engine_core(
            LLAMA_HEAD, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x12288 and 24576x8192)"
        ),
    ),
    # a Qwen3 head made for a 3B target (2048 wide) on a deeper 4096-wide one, the head's own file
    (
        FAMILY,
        engine_core(
            QWEN_HEAD, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (16x12288 and 6144x2048)"
        ),
    ),
    # older torch's wording of the same refusal
    (FAMILY, engine_core(LLAMA_HEAD, "RuntimeError: mat1 dim 1 must match mat2 dim 0")),
    # a head that norms before fc (norm_before_fc / fc_norm): the RMSNorm's weight meets the narrower input first
    (
        FAMILY,
        engine_core(
            LLAMA_HEAD + frame("model_executor/layers/layernorm.py", 271, "forward_native"),
            "RuntimeError: The size of tensor a (8192) must match the size of tensor b (12288) at non-singleton "
            "dimension 1",
        ),
    ),
    # no combine_hidden_states frame (a traceback cut short), but the method eagle3 and the layer choice in the log:
    # only the 0.65 hint, still the first answer
    (
        FAMILY,
        "(EngineCore pid=9) INFO 03-03 10:00:01 [eagle3_utils.py:31] Using Eagle3 auxiliary layers from model: "
        "(2, 8, 13)\n"
        "(EngineCore pid=9) ERROR 03-03 10:00:09 [core.py:1330] EngineCore failed to start.\n"
        "(EngineCore pid=9) ERROR 03-03 10:00:09 [core.py:1330] RuntimeError: mat1 and mat2 shapes cannot be "
        "multiplied (2048x6144 and 12288x4096)\n",
    ),
]

BARE_MATMUL = engine_core(
    frame("model_executor/models/llama.py", 420, "forward")
    + frame("model_executor/layers/linear.py", 390, "forward"),
    "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8192x4096 and 2048x4096)",
    method="ngram",
)

NEAR_MISSES = [
    # the same matmul error in a run with another speculative method (ngram) and no EAGLE-3 head: not this family
    (FAMILY, BARE_MATMUL),
    # a broadcast error beside eagle3 but outside combine_hidden_states (the target's own layer): not confidently this
    (
        FAMILY,
        engine_core(
            frame("model_executor/models/llama.py", 420, "forward"),
            "RuntimeError: The size of tensor a (4096) must match the size of tensor b (2048) at non-singleton dimension 1",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_hint_without_the_heads_frame_is_below_confident():
    """The bare matmul error beside the method eagle3 is a guess (0.65), the head's frame makes it 0.85."""
    answers = {d.id: d.confidence for d in run(CASES[-1][1]).diagnoses}
    assert answers[FAMILY] < 0.7
    assert {d.id: d.confidence for d in run(CASES[0][1]).diagnoses}[FAMILY] >= 0.8


def test_bare_matmul_error_without_eagle3_never_takes_the_family():
    """A 'mat1 and mat2 shapes cannot be multiplied' with no EAGLE-3 in the log is any layer's: the family is absent."""
    assert FAMILY not in {d.id for d in run(BARE_MATMUL).diagnoses}
    plain = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x768 and 1024x10)\n"
    assert FAMILY not in {d.id for d in run(plain).diagnoses}
