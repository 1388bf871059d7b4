"""Who raised it: attribution of an unexplained root exception by the file that raised it.

The logs here are written for these tests (no corpus wording): a plugin outside vLLM's stack, a feature's
own assertion, a refusal that is not a defect, a family that keeps winning.
"""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path

import pytest

from servebox.doctor.attribution import FEATURE, THIRD_PARTY, engine_stack, module_path
from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream

ROOT = Path(__file__).resolve().parent.parent
VLLM_TREE = ROOT / ".venv-vllm" / "lib" / "python3.11" / "site-packages"


def run(frames: list[str], last: str):
    text = [
        "INFO 03-02 10:00:01 [core.py:90] Initializing a V1 LLM engine",
        "Traceback (most recent call last):",
    ]
    for path, line, func in (f.split("|") for f in frames):
        text += [f'  File "{path}", line {line}, in {func}', "    pass"]
    return triage_stream(io.BytesIO("\n".join([*text, last, ""]).encode()), "t")


ENGINE_FRAME = "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py|812|run_busy_loop"


def test_a_plugin_outside_the_engines_stack_is_named_with_its_exception():
    plugin = "/usr/local/lib/python3.12/dist-packages/tidecache_connector/scheduler_hooks.py|141|update_state"
    result = run(
        [ENGINE_FRAME, plugin], "AttributeError: 'SchedulerOutput' object has no attribute 'kv_hints'"
    )
    top = result.diagnoses[0]
    assert top.id == THIRD_PARTY and top.confidence < CONFIDENT
    assert "tidecache_connector" in top.cause and "tidecache_connector" in top.fix
    assert "'SchedulerOutput' object has no attribute 'kv_hints'" in top.evidence[0].text
    assert [d.id for d in result.diagnoses][:2] == [THIRD_PARTY, "uncaught-exception"]
    assert result.verdict == "exception only" and result.last_error_lines  # an inference, not a known cause


@pytest.mark.parametrize(
    "frame",
    [
        "/opt/venv/lib/python3.12/site-packages/transformers/modeling_utils.py|3001|from_pretrained",
        "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/module.py|1750|_call_impl",
        "/opt/venv/lib/python3.12/site-packages/llama_cpp/llama.py|400|__init__",
        "/usr/lib/python3.12/concurrent/futures/_base.py|449|result",
        "/root/.pyenv/versions/3.12.3/lib/python3.12/importlib/metadata/__init__.py|397|from_name",
        "/home/ana/.cache/huggingface/modules/transformers_modules/orca9b/modeling_orca.py|88|forward",
    ],
)
def test_the_engines_own_stack_a_host_or_remote_code_is_not_a_plugin(frame):
    result = run([ENGINE_FRAME, frame], "AttributeError: 'NoneType' object has no attribute 'shape'")
    assert THIRD_PARTY not in [d.id for d in result.diagnoses]


def test_a_users_own_script_is_not_a_plugin():
    result = run(["/home/ana/serve.py|12|main"], "AttributeError: 'NoneType' object has no attribute 'shape'")
    assert THIRD_PARTY not in [d.id for d in result.diagnoses]


def test_a_plugin_run_from_its_source_tree_and_called_by_vllm_is_named():
    plugin = "/data/checkouts/TideCache/src/tidecache/vllm/connector.py|212|wait_for_layer_load"
    result = run([ENGINE_FRAME, plugin], "AssertionError: layer 31 was never registered")
    assert result.diagnoses[0].id == THIRD_PARTY and "The package tidecache," in result.diagnoses[0].cause


def test_the_stack_is_harvested_from_the_engine_with_its_source():
    data = json.loads((ROOT / "servebox" / "doctor" / "engine_stack.json").read_text())
    assert data["engine_version"] and "Requires-Dist" in data["source"]
    assert {"torch", "transformers", "xgrammar", "vllm", "flashinfer"} <= engine_stack()
    assert "lmcache" not in engine_stack() and "kvcached" not in engine_stack()


def test_a_feature_s_own_assertion_names_the_feature_and_how_to_turn_it_off():
    frame = "/opt/venv/lib/python3.12/site-packages/vllm/v1/spec_decode/eagle.py|377|propose"
    result = run([ENGINE_FRAME, frame], "AssertionError: draft positions out of step with target positions")
    top = result.diagnoses[0]
    assert top.id == FEATURE and top.confidence < CONFIDENT
    assert "speculative decoding" in top.cause and "--speculative-config" in top.fix
    assert "not a value you set" in top.cause and "eagle.py" in top.cause
    assert "draft positions out of step" in top.evidence[0].text


def test_an_old_layout_in_a_source_checkout_is_read_too():
    frame = "/home/ana/src/vllm/vllm/worker/multi_step_model_runner.py|560|_advance_step"
    result = run([frame], "IndexError: list index out of range")
    assert result.diagnoses[0].id == FEATURE
    assert "multi-step scheduling" in result.diagnoses[0].cause
    assert "--num-scheduler-steps 1" in result.diagnoses[0].fix


def test_a_templated_row_names_the_method():
    frame = "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/gptq_marlin.py|301|apply"
    result = run(
        [ENGINE_FRAME, frame], "RuntimeError: shape '[4096, 11008]' is invalid for input of size 7340032"
    )
    assert result.diagnoses[0].id == FEATURE
    assert "quantization method gptq_marlin" in result.diagnoses[0].cause


@pytest.mark.parametrize(
    ("frame", "last"),
    [  # a refusal of a value, a non-internal kind, a CUDA RuntimeError, no feature's path, another project's vllm/
        ("vllm/v1/spec_decode/eagle.py", "ValueError: num_speculative_tokens must be positive"),
        ("vllm/lora/models.py", "KeyError: 'adapter sql-helper not found; available: none'"),
        (
            "vllm/compilation/backends.py",
            "RuntimeError: CUDA error: an illegal memory access was encountered",
        ),
        # (after29e: an assertion in vLLM's core code under no row now reads as that module's defect, below; a
        #  message naming a setting stays out)
        ("vllm/v1/engine/core.py", "AttributeError: 'ModelConfig' object has no attribute 'runner'"),
    ],
)
def test_what_is_not_a_feature_defect(frame, last):
    result = run([f"/opt/venv/lib/python3.12/site-packages/{frame}|10|f"], last)
    assert FEATURE not in [d.id for d in result.diagnoses]


def test_an_invariant_under_no_row_is_its_modules_defect_below_a_rows_confidence():
    """engine_features.toml [core] (after29e, fresh-74): an assertion in vLLM's own code that no row names."""
    result = run(
        ["/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py|10|f"],
        "AssertionError: scheduler step overran",
    )
    top = result.diagnoses[0]
    assert top.id == FEATURE and "core" in top.cause and top.confidence < 0.5


def test_a_directory_called_vllm_inside_another_project_is_not_vllm():
    assert module_path("/srv/acme/src/acme/vllm/connector_v1.py:88") == (
        "/srv/acme/src/acme/vllm/connector_v1.py",
        False,
    )
    assert module_path("/work/vllm/vllm/lora/layers.py:3") == ("vllm/lora/layers.py", False)


def test_a_family_that_explains_the_exception_keeps_winning():
    plugin = "/usr/local/lib/python3.12/dist-packages/tidecache_connector/pool.py|52|alloc"
    last = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.1 GiB"
    ids = [d.id for d in run([ENGINE_FRAME, plugin], last).diagnoses]
    assert ids[0] not in (THIRD_PARTY, FEATURE, "uncaught-exception")
    assert THIRD_PARTY not in ids


@pytest.mark.skipif(not (VLLM_TREE / "vllm").is_dir(), reason="the local vLLM 0.32 tree is not here")
def test_every_row_read_from_the_local_tree_exists_there():
    data = tomllib.loads((ROOT / "servebox" / "doctor" / "engine_features.toml").read_text())
    for row in data["row"]:
        if "0.32" in row["source"]:
            head = row["prefix"].split("{name}", 1)[0]
            assert any(VLLM_TREE.glob(head + "*")), row["prefix"]


def test_a_library_that_raised_is_read_by_the_vllm_code_that_called_it():
    frames = [
        ENGINE_FRAME,
        "/root/vllm/.venv/lib/python3.12/site-packages/vllm/v1/spec_decode/medusa.py|95|propose",
        "/root/vllm/.venv/lib/python3.12/site-packages/vllm/_custom_ops.py|410|gather_heads",
        "/root/vllm/.venv/lib/python3.12/site-packages/torch/_ops.py|1158|__call__",
    ]
    top = run(
        frames, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (3x4096 and 5120x4096)"
    ).diagnoses[0]
    assert top.id == FEATURE and "speculative decoding" in top.cause
    assert "medusa.py:95, raised in torch/_ops.py:1158" in top.cause


def test_a_model_s_own_shape_error_under_torch_is_no_feature_s():
    frames = [
        ENGINE_FRAME,
        "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/models/llama.py|230|forward",
        "/opt/venv/lib/python3.12/site-packages/torch/nn/functional.py|2380|linear",
    ]
    ids = [
        d.id
        for d in run(
            frames, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (3x10 and 4x4)"
        ).diagnoses
    ]
    assert FEATURE not in ids and ids[0] == "uncaught-exception"


def test_a_reading_ranks_below_every_family_shown_and_above_the_bare_exception():
    from servebox.doctor.attribution import below_families
    from servebox.doctor.triage import Diagnosis

    def d(id_, conf):
        return Diagnosis(id=id_, category="engine bug", role="cause", cause="", fix="", confidence=conf,
                         occurrences=1, first_line=1, evidence=[])  # fmt: skip

    ranked = below_families([d(THIRD_PARTY, 0.55), d("some-family", 0.50), d("uncaught-exception", 0.45)])
    assert [x.id for x in ranked] == ["some-family", THIRD_PARTY, "uncaught-exception"]
    assert ranked[1].confidence == 0.50


@pytest.mark.parametrize(
    ("frame", "package"),
    [
        ("/opt/checkouts/TideCache-NPU/tidecache_npu/v1/connector.py", "tidecache_npu"),
        ("/opt/checkouts/TideCache/tidecache/integration/vllm/utils.py", "tidecache"),
        ("/tmp/plugins/tide_fs_backend/worker.py", "tide_fs_backend"),
    ],
)
def test_a_checkout_is_named_by_its_package_and_its_vllm_folder_is_not_vllm(frame, package):
    result = run([ENGINE_FRAME, f"{frame}|40|store"], "IndexError: tuple index out of range")
    assert result.diagnoses[0].id == THIRD_PARTY and f"The package {package}," in result.diagnoses[0].cause


@pytest.mark.skipif(not (VLLM_TREE / "vllm").is_dir(), reason="the local vLLM 0.32 tree is not here")
def test_the_committed_stack_is_what_the_harvest_tool_reads_from_the_engine():
    from tools.harvest_engine_stack import harvest

    committed = json.loads((ROOT / "servebox" / "doctor" / "engine_stack.json").read_text())
    fresh = harvest(VLLM_TREE)
    assert fresh["imports"] == committed["imports"] and fresh["vllm_modules"] == committed["vllm_modules"]


def test_each_reading_is_listed_with_the_words_doctor_gives_it():
    """The knowledge base's id list (what a batch maker picks expected answers from) holds every structural reading,
    and doctor words each as readings.toml does: one text, not a copy in code that could drift."""
    from servebox.doctor.attribution import STRUCTURAL, readings

    # every structural reading is worded there; readings.toml also words answers other modules work out in code
    # (learn50c's responses-builtin-tool-needs-tool-server), which attribution does not place
    assert set(STRUCTURAL) <= set(readings())
    log = (
        "(EngineCore_DP0 pid=7) Traceback (most recent call last):\n"
        '(EngineCore_DP0 pid=7)   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 90, in step\n'
        '(EngineCore_DP0 pid=7)   File "/opt/venv/lib/python3.12/site-packages/kvpool/connector.py", line 12, in load\n'
        "(EngineCore_DP0 pid=7) RuntimeError: kvpool expects 2 KV planes, got 1\n"
    )
    top = triage_stream(io.StringIO(log), "t").diagnoses[0]
    template = readings()[THIRD_PARTY]
    assert top.id == THIRD_PARTY and top.confidence == template["confidence"]
    assert top.cause.startswith(template["cause"].split("{", 1)[0] + "kvpool")


def test_a_script_run_directly_is_not_a_plugin():
    """fresh-29: llama.cpp's convert script run as `python convert-hf-to-gguf.py` raised in a frame named by a bare
    file name; no import could have loaded it into an engine (a hyphen, no package directory)."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "convert_lora_to_gguf.py", line 410, in <module>\n'
        '  File "convert_lora_to_gguf.py", line 88, in modify_tensors\n'
        "ValueError: Can not map tensor 'base_model.model.lm_head.lora_B'\n"
    )
    ids = [d.id for d in triage_stream(io.StringIO(log), "t").diagnoses]
    assert THIRD_PARTY not in ids, ids
    assert module_path("convert-hf-to-gguf.py:246") == ("convert-hf-to-gguf.py", False)
