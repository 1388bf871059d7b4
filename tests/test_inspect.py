"""`servebox inspect` on real-model fixtures: each figure here was checked by hand against the source."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest
from safetensors.numpy import save_file

from tests.conftest import CHECKPOINTS, FIXTURES


def inspect(run_cli, name):
    result = run_cli("inspect", CHECKPOINTS / name if not str(name).endswith(".gguf") else name, "--json")
    assert result.code == 0, result.err
    return result.json()


def test_llama_dense_bytes_match_the_published_index(run_cli):
    facts = inspect(run_cli, "llama-3.1-8b-instruct")
    arch = facts["architecture"]
    assert arch["layer_kind_counts"] == {"full_attention": 32}
    assert (arch["num_attention_heads"], arch["num_key_value_heads"], arch["head_dim"]) == (32, 8, 128)
    assert arch["rope_scaling"]["rope_type"] == "llama3"
    # meta-llama/Llama-3.1-8B-Instruct model.safetensors.index.json: "total_size": 16060522496
    assert facts["tensors"]["total_bytes"] == 16_060_522_496
    # embed_tokens + lm_head: 2 x 128256 x 4096 x 2 bytes
    assert facts["tensors"]["bytes_by_component"]["embeddings"] == 2 * 128256 * 4096 * 2
    assert facts["quantization"]["method"] == "none"
    # header-only fixture: every shard is exactly its header, named as such (not "partial or corrupt")
    assert facts["tensors"]["complete"] is False and facts["tensors"]["header_only"] is True
    assert "header only" in facts["tensors"]["shards"][0]["problem"]


def test_hybrid_gdn_vision_tower_and_mtp(run_cli):
    facts = inspect(run_cli, "qwen3.5-27b")
    arch = facts["architecture"]
    assert arch["layer_kind_counts"] == {"linear_attention": 48, "full_attention": 16}
    assert arch["layer_kinds"][:4] == ["linear_attention"] * 3 + ["full_attention"]
    assert arch["linear_attention"]["num_value_heads"] == 48
    assert arch["mtp_layers"] == 1
    assert arch["vision"]["depth"] == 27
    # The digest measured the vision tower at 921 MB in FP16 from the safetensors headers.
    vision = facts["tensors"]["bytes_by_component"]["vision_tower"]
    assert vision == 921_460_192
    assert round(vision / 1e6) == 921


def test_digest_w4a4_quantizes_every_gdn_layer(run_cli):
    q = inspect(run_cli, "qwen3.5-27b-digest-w4a4")["quantization"]
    assert q["method"] == "compressed-tensors"
    assert q["scheme"] == "W4A4 (NVFP4)"
    assert len(q["declared_exclusions"]) == 6
    gdn = q["groups"]["linear_attention"]
    # 48 GDN layers x (in_proj_qkv, in_proj_z, in_proj_b, in_proj_a, out_proj)
    assert gdn == {
        "modules": 240,
        "declared_excluded": 0,
        "quantized_in_tensors": 240,
        "fully_excluded": False,
    }
    assert "vision_tower" in q["excluded_groups"] and "linear_attention" in q["quantized_groups"]


def test_digest_awq_excludes_96_gdn_modules_and_the_tower(run_cli):
    q = inspect(run_cli, "qwen3.5-27b-digest-awq")["quantization"]
    assert q["scheme"] == "W4A16" and q["group_size"] == 128
    assert len(q["declared_exclusions"]) == 103
    gdn = q["groups"]["linear_attention"]
    assert (gdn["declared_excluded"], gdn["quantized_in_tensors"]) == (96, 144)
    assert q["groups"]["vision_tower"]["fully_excluded"] is True
    assert q["groups"]["mtp"]["fully_excluded"] is True


@pytest.mark.parametrize(
    ("name", "method", "scheme", "group_size"),
    [
        ("qwen2.5-7b-instruct-awq", "awq", "W4A16", 128),
        ("qwen2.5-7b-instruct-gptq-int4", "gptq", "W4A16", 128),
        ("qwen3-8b-fp8", "fp8", "W8A8 (FP8)", 128),
        ("qwen3-8b-nvfp4", "compressed-tensors", "W4A4 (NVFP4)", 16),
    ],
)
def test_quantization_formats(run_cli, name, method, scheme, group_size):
    q = inspect(run_cli, name)["quantization"]
    assert (q["method"], q["scheme"], q["group_size"]) == (method, scheme, group_size)
    assert q["groups"]["lm_head"]["fully_excluded"] is True
    assert q["groups"]["attention"]["quantized_in_tensors"] == q["groups"]["attention"]["modules"]


def test_awq_bytes_follow_the_packing(run_cli):
    facts = inspect(run_cli, "qwen2.5-7b-instruct-awq")
    # q_proj of layer 0: qweight int32 [3584, 3584/8], qzeros [28, 448], scales fp16 [28, 3584]
    by_dtype = facts["tensors"]["bytes_by_dtype"]
    assert set(by_dtype) == {"I32", "F16"}
    assert facts["tensors"]["quantized_modules"] == 28 * 7


def test_moe_and_mamba_hybrid(run_cli):
    moe = inspect(run_cli, "mixtral-8x7b-instruct")["architecture"]["moe"]
    assert (moe["num_experts"], moe["experts_per_token"]) == (8, 2)
    nem = inspect(run_cli, "nemotron-h-8b-base")["architecture"]
    # M-M-M-M*-... : 24 Mamba-2, 4 attention, 24 MLP-only layers
    assert nem["layer_kind_counts"] == {"mamba": 24, "mlp_only": 24, "full_attention": 4}
    assert (
        nem["mamba"]
        == {
            "num_heads": 128,
            "head_dim": 64,
            "state_size": 128,
            "n_groups": 8,
            "conv_kernel": 4,
            "intermediate_size": 8192,
            "chunk_size": 128,  # the SSD chunk: vLLM aligns blocks to it when prefix caching caches a state per block
        }
    )


def test_chat_template_defaults_and_branches(run_cli):
    ct = inspect(run_cli, "qwen3.5-27b-digest-w4a4")["chat_template"]
    effort = next(v for v in ct["variables"] if v["name"] == "reasoning_effort")
    assert effort["default"] == "xhigh"
    assert "medium" not in effort["branch_values"] and {"xhigh", "high", "low"} <= set(
        effort["branch_values"]
    )
    names = {v["name"] for v in ct["variables"]}
    assert {"enable_thinking", "preserve_thinking", "reasoning_effort"} <= names
    assert ct["reasoning"]["end"] == "</think>" and ct["reasoning"]["end_token_id"] == 248069
    assert ct["reasoning"]["end_is_eos"] is False
    assert ct["reasoning_default_on"] is True
    assert ct["sample_render_ok"] is True


def test_qwen3_template_thinking_on_unless_false(run_cli):
    ct = inspect(run_cli, "qwen3-8b-fp8")["chat_template"]
    thinking = next(v for v in ct["variables"] if v["name"] == "enable_thinking")
    assert thinking["branch_values"] == [False] and ct["reasoning_default_on"] is True
    assert ct["eos_tokens"] == ["<|im_end|>", "<|endoftext|>"]


def test_gguf(run_cli):
    facts = inspect(run_cli, FIXTURES / "tiny-llama-q8_0.gguf")
    g = facts["gguf"]
    assert (g["architecture"], g["context_length"], g["block_count"], g["head_count_kv"]) == (
        "llama",
        2048,
        2,
        2,
    )
    assert g["predominant_type"] == "Q8_0" and g["file_type"] == "MOSTLY_Q8_0"
    # Q8_0 stores 32 weights in 34 bytes; output.weight is F16 [256, 128]
    assert g["bytes_by_type"]["F16"] == 256 * 128 * 2
    q8_elements = 256 * 128 + 2 * (128 * 128 * 2 + 2 * 64 * 128 + 3 * 256 * 128)
    assert g["bytes_by_type"]["Q8_0"] == q8_elements // 32 * 34


def test_complete_checkpoint_is_reported_complete(run_cli, tmp_path):
    cfg = json.loads((CHECKPOINTS / "llama-3.1-8b-instruct" / "config.json").read_text())
    cfg.update(
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=1,
        num_attention_heads=4,
        num_key_value_heads=2,
        vocab_size=32,
    )
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    tensors = {
        "model.embed_tokens.weight": np.zeros((32, 64), np.float16),
        "model.layers.0.self_attn.q_proj.weight": np.zeros((64, 64), np.float16),
        "lm_head.weight": np.zeros((32, 64), np.float16),
    }
    save_file(tensors, tmp_path / "model.safetensors")
    facts = run_cli("inspect", tmp_path, "--json").json()
    assert facts["tensors"]["complete"] is True
    assert facts["tensors"]["total_bytes"] == (32 * 64 * 2 + 64 * 64) * 2


def test_table_output_names_the_key_facts(run_cli):
    result = run_cli("inspect", CHECKPOINTS / "qwen3.5-27b-digest-w4a4")
    assert result.code == 0
    assert "48 linear_attention" in result.out and "W4A4 (NVFP4)" in result.out and "'xhigh'" in result.out


# ---- bad input: one line naming the file and the field, exit 2, no traceback ----


def copy_fixture(tmp_path, name="llama-3.1-8b-instruct"):
    dst = tmp_path / name
    shutil.copytree(CHECKPOINTS / name, dst)
    return dst


def assert_one_line_error(result, *needles):
    assert result.code == 2, (result.code, result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert "Traceback" not in result.err
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_missing_config(run_cli, tmp_path):
    assert_one_line_error(run_cli("inspect", tmp_path), "config.json", "missing")


def test_malformed_config_json(run_cli, tmp_path):
    d = copy_fixture(tmp_path)
    (d / "config.json").write_text('{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096,,}')
    assert_one_line_error(run_cli("inspect", d), "config.json", "line 1 column", "malformed JSON")


def test_absurd_header_length(run_cli, tmp_path):
    d = copy_fixture(tmp_path)
    (d / "model-00002-of-00004.safetensors").write_bytes(struct.pack("<Q", 200 * 2**20) + b"{")
    assert_one_line_error(run_cli("inspect", d), "model-00002-of-00004.safetensors", "header length")


def test_cut_header_json(run_cli, tmp_path):
    d = copy_fixture(tmp_path)
    shard = d / "model-00003-of-00004.safetensors"
    raw = shard.read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    shard.write_bytes(raw[:8] + raw[8 : 8 + length // 2])
    assert_one_line_error(run_cli("inspect", d), "model-00003-of-00004.safetensors", "header")


def test_hostile_header_offsets(run_cli, tmp_path):
    d = copy_fixture(tmp_path)
    header = {"model.norm.weight": {"dtype": "BF16", "shape": [4096], "data_offsets": [0, 10**15]}}
    raw = json.dumps(header).encode()
    (d / "model-00004-of-00004.safetensors").write_bytes(struct.pack("<Q", len(raw)) + raw)
    assert_one_line_error(
        run_cli("inspect", d), "model-00004-of-00004.safetensors", "'model.norm.weight'", "data_offsets"
    )


def test_index_names_a_missing_shard(run_cli, tmp_path):
    d = copy_fixture(tmp_path)
    (d / "model-00002-of-00004.safetensors").unlink()
    assert_one_line_error(
        run_cli("inspect", d),
        "model.safetensors.index.json",
        "weight_map[",
        "model-00002-of-00004.safetensors",
    )


def test_unknown_architecture_is_not_guessed_dense(run_cli, tmp_path):
    d = copy_fixture(tmp_path)
    cfg = json.loads((d / "config.json").read_text())
    cfg["architectures"] = ["FancyNewForCausalLM"]
    (d / "config.json").write_text(json.dumps(cfg))
    assert_one_line_error(
        run_cli("inspect", d), "config.json", "architectures", "unknown architecture 'FancyNewForCausalLM'"
    )


def test_unknown_layer_kind(run_cli, tmp_path):
    d = copy_fixture(tmp_path, "qwen3.5-27b")
    cfg = json.loads((d / "config.json").read_text())
    cfg["text_config"]["layer_types"][5] = "hyena"
    (d / "config.json").write_text(json.dumps(cfg))
    assert_one_line_error(run_cli("inspect", d), "layer_types[5]", "unknown layer kind 'hyena'")


def test_template_sandbox_escape_is_refused(run_cli, tmp_path):
    d = copy_fixture(tmp_path, "qwen3.5-27b")
    shutil.copy(FIXTURES / "templates" / "hostile_escape.jinja", d / "chat_template.jinja")
    assert_one_line_error(run_cli("inspect", d), "chat_template.jinja", "line 1", "attribute '__", "sandbox")


def test_garbage_gguf(run_cli, tmp_path):
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"NOTGGUF" * 10)
    assert_one_line_error(run_cli("inspect", bad), "bad.gguf", "GGUF")


def test_not_a_source(run_cli):
    assert_one_line_error(run_cli("inspect", "no such thing at all"), "no such thing at all")


# ---- remote: a local HTTP server speaking the hub's API, real header bytes only ----


def test_remote_inspect_reads_only_headers(tmp_path):
    from tests.hub_server import FakeHub

    with FakeHub(CHECKPOINTS / "qwen3.5-27b-digest-w4a4") as hub:
        env = {
            **os.environ,
            "HF_ENDPOINT": hub.url,
            "HF_HOME": str(tmp_path / "hf"),
            "HF_HUB_DISABLE_TELEMETRY": "1",
        }
        env.pop("HF_HUB_OFFLINE", None)
        proc = subprocess.run(
            [sys.executable, "-m", "servebox.cli", "inspect", "org/model", "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        facts = json.loads(proc.stdout)
    assert facts["source"] == "hf://org/model"
    assert facts["quantization"]["groups"]["linear_attention"]["quantized_in_tensors"] == 240
    checkpoint_bytes = facts["tensors"]["total_bytes"]
    assert facts["tensors"]["complete"] is True  # sizes the hub reports match what the headers imply
    assert hub.bytes_sent < 0.001 * checkpoint_bytes, (hub.bytes_sent, checkpoint_bytes)
    # no shard is ever fetched whole: every GET of a .safetensors file is a range request
    assert not [
        r
        for r in hub.requests
        if r.startswith("GET") and r.split()[1].endswith(".safetensors") and "bytes=" not in r
    ]


def test_remote_missing_repo(tmp_path):
    from tests.hub_server import FakeHub

    with FakeHub(CHECKPOINTS / "llama-3.1-8b-instruct") as hub:
        env = {**os.environ, "HF_ENDPOINT": hub.url, "HF_HOME": str(tmp_path / "hf")}
        proc = subprocess.run(
            [sys.executable, "-m", "servebox.cli", "inspect", "other/repo"],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,  # a bound on a hang, not a speed test (a busy CI machine)
        )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "other/repo" in proc.stderr
    assert "no such repo" in proc.stderr


PHI3_LIKE = (
    "{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}<|end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)


def test_no_reasoning_markers_for_a_template_without_them(run_cli, tmp_path):
    """A tokenizer that carries <think> tokens (every Qwen3 tokenizer does) and a template that
    never writes them, or one that only ends turns with <|end|> (Phi-3): no reasoning markers."""
    d = tmp_path / "ckpt"
    shutil.copytree(CHECKPOINTS / "qwen3-8b-fp8", d)
    (d / "chat_template.jinja").write_text(PHI3_LIKE)
    ct = inspect(run_cli, d)["chat_template"]
    assert ct["reasoning"] is None and ct["reasoning_default_on"] is None
    assert "reasoning markers" not in run_cli("inspect", d).out
