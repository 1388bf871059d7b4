"""`plan` across pipeline stages and nodes: stage ranges, per-stage weights, the node table, bad layouts.

Expected figures are worked by hand from the Llama-3.1-70B-Instruct config (tests/fixtures/README.md): a
decoder layer holds 855,654,400 BF16 parameters (q/o 8192x8192, k/v 1024x8192, MLP 3x28672x8192, two norms),
1,711,308,800 bytes; the embeddings and the lm_head 128256x8192 each, 2,101,346,304 bytes; the final norm
16,384 bytes; the rotary cache 131072 positions x 128 x 2 bytes = 33,554,432 bytes per rank.
"""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.profile import load_profile
from servebox.errors import InputError
from servebox.hardware import custom_gpu
from servebox.plan import make_plan
from servebox.plan.stages import partition
from tests.conftest import CHECKPOINTS

L70 = str(CHECKPOINTS / "llama-3.1-70b-instruct")
LAYER, EMB, NORM, ROTARY = 1_711_308_800, 2_101_346_304, 16_384, 33_554_432


def plan(source: str, argv: list[str], gib: float = 80, **kw):
    flags, _ = parse_flags(argv)
    for key, value in kw.items():
        setattr(flags, key, value)
    return make_plan(load_checkpoint(source, False), flags, custom_gpu(gib), load_profile("0.32.0"))


def test_partition_as_get_pp_indices():
    assert partition(80, 2) == [(0, 40), (40, 80)]
    assert partition(80, 3) == [(0, 27), (27, 54), (54, 80)]  # remainder on all but the last
    assert partition(82, 4) == [(0, 20), (20, 41), (41, 62), (62, 82)]
    assert partition(32, 4, "6,10,10,6") == [(0, 6), (6, 16), (16, 26), (26, 32)]
    for bad in ("6,10,10", "6,10,10,7", "a,b,c,d"):
        with pytest.raises(InputError, match="VLLM_PP_LAYER_PARTITION"):
            partition(32, 4, bad)
    with pytest.raises(InputError, match="--pipeline-parallel-size"):
        partition(4, 5)


def test_70b_stage_weights_hold_their_own_embeddings():
    p = plan(L70, ["-tp", "4", "-pp", "2", "--max-model-len", "32768"])
    w = [round(st["weights_gib"] * 2**30) for st in p.stages]
    assert w == [(40 * LAYER + EMB) // 4 + ROTARY, (40 * LAYER + EMB + NORM) // 4 + ROTARY]
    old = (80 * LAYER + NORM) // 8 + 2 * EMB // 4 + ROTARY  # main's lm/(TP x PP) + emb/TP on every rank
    assert old - max(w) > 0.45 * 2**30
    assert [st["ranks"] for st in p.stages] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_tied_embeddings_keep_a_copy_on_the_last_stage(tmp_path):
    """LlamaForCausalLM with tie_word_embeddings: embed_tokens on the first stage and, as the tied lm_head, on
    the last (llama.py builds it where `is_first_rank or (tie_word_embeddings and is_last_rank)`)."""
    sys.path.insert(0, str(CHECKPOINTS.parent))
    import build_headers

    d = tmp_path / "tied"
    shutil.copytree(CHECKPOINTS / "llama-3.1-8b-instruct", d)
    cfg = json.loads((d / "config.json").read_text())
    cfg["tie_word_embeddings"] = True
    (d / "config.json").write_text(json.dumps(cfg))
    build_headers.write(d, build_headers.transformer(cfg))
    p = plan(str(d), ["-pp", "2", "--max-model-len", "8192"], gib=40)
    emb, layer = 128256 * 4096 * 2, 436_224_000  # Llama-3.1-8B: vocab x hidden; one decoder layer in BF16
    first, last = (round(st["weights_gib"] * 2**30) for st in p.stages)
    assert first == 16 * layer + emb + ROTARY
    assert last == 16 * layer + emb + 4096 * 2 + ROTARY  # its own copy of the embedding, and the final norm


def test_every_stage_classes_hold_embeddings_everywhere():
    p = plan(str(CHECKPOINTS / "nemotron-h-8b-base"), ["-pp", "2", "--max-model-len", "8192"], gib=24)
    assert any("every stage" in line and "NemotronHForCausalLM" in line for line in p.explain)


def test_smallest_stage_decides_and_says_so():
    p = plan(
        L70, ["-tp", "4", "-pp", "2", "--max-model-len", "32768"], env={"VLLM_PP_LAYER_PARTITION": "30,50"}
    )
    assert [st["layers"] for st in p.stages] == [[0, 30], [30, 80]]
    own = [st["num_blocks"] for st in p.stages]
    assert own[1] < own[0] and p.deciding_stage == 1 and p.num_blocks == own[1]
    assert p.stages[1]["decides"] and not p.stages[0]["decides"]
    # every worker allocates the smallest count: stage 0 holds 30 layers' pages of it, not its own count
    assert p.stages[0]["kv_allocated_gib"] < p.stages[0]["available_kv_gib"]


def test_node_memory_sums_its_ranks():
    p = plan(L70, ["-tp", "4", "-pp", "2", "--max-model-len", "32768"], nnodes=2, gpus_per_node=4)
    assert [n["ranks"] for n in p.node_memory] == [[0, 3], [4, 7]]
    for node, stage in zip(p.node_memory, p.stages, strict=True):
        assert node["weights_gib"] == pytest.approx(4 * stage["weights_gib"])
        assert node["gpus_used"] == 4 and node["gpus"] == 4


def test_data_parallel_replicas_fill_more_nodes():
    p = plan(L70, ["-tp", "4", "-pp", "2", "-dp", "2"], gpus_per_node=4)
    assert p.nodes == 4 and p.data_parallel_size == 2
    assert [n["ranks"] for n in p.node_memory] == [[0, 3], [4, 7], [8, 11], [12, 15]]
    assert p.node_memory[2]["weights_gib"] == pytest.approx(p.node_memory[0]["weights_gib"])


@pytest.mark.parametrize(
    "argv, kw, field",
    [
        (["-tp", "4", "-pp", "2"], {"nnodes": 3}, "--nodes"),  # vLLM: world_size % nnodes
        (["-tp", "4", "-pp", "2"], {"nnodes": 2, "gpus_per_node": 2}, "--gpus-per-node"),
        (["-tp", "4"], {"env": {"VLLM_PP_LAYER_PARTITION": "40,40"}}, "VLLM_PP_LAYER_PARTITION"),
        (["-pp", "81"], {}, "--pipeline-parallel-size"),
    ],
)
def test_bad_layouts_name_the_field(argv, kw, field):
    with pytest.raises(InputError) as exc:
        plan(L70, argv, **kw)
    assert field in str(exc.value) and "\n" not in str(exc.value)


def test_cli_prints_per_rank_and_per_node(run_cli):
    args = ["plan", L70, "--gpu", "h100-80gb", "-tp", "4", "-pp", "2", "--nodes", "2", "--gpus-per-node", "4"]
    r = run_cli(*args, "--max-model-len", "32768")
    assert r.code == 0, r.err
    assert "Per rank" in r.out and "Per node" in r.out and "decides" in r.out
    j = run_cli(*args, "--max-model-len", "32768", "--json").json()
    assert j["nodes"] == 2 and len(j["stages"]) == 2 and len(j["node_memory"]) == 2
    bad = run_cli(
        "plan", L70, "--gpu", "h100-80gb", "-tp", "4", "-pp", "2", "--env", "VLLM_PP_LAYER_PARTITION=1,2"
    )
    assert bad.code == 2 and "VLLM_PP_LAYER_PARTITION" in bad.err


SPEC = """
[[hosts]]
name = "gpu-a"
address = "10.0.0.1"
gpus = ["h100-80gb", "h100-80gb", "h100-80gb", "h100-80gb"]

[[hosts]]
name = "gpu-b"
address = "10.0.0.2"
gpus = {gpus_b}

[router]
listen = "127.0.0.1:18300"

[[models]]
name = "llama70"
checkpoint = "{checkpoint}"
port = 18301
nodes = ["gpu-a", "gpu-b"]

[models.flags]
tensor-parallel-size = 4
pipeline-parallel-size = 2
max-model-len = 32768

[models.env]
VLLM_PP_LAYER_PARTITION = "30,50"
"""


def test_spec_with_nodes_plans_per_rank_and_node(run_cli, tmp_path):
    spec = tmp_path / "cluster.toml"
    spec.write_text(
        SPEC.format(checkpoint=L70, gpus_b='["h100-80gb", "h100-80gb", "h100-80gb", "h100-80gb"]')
    )
    r = run_cli("plan", spec, "--json")
    assert r.code == 0, r.err
    (model,) = r.json()["models"]
    assert model["hosts"] == ["gpu-a", "gpu-b"] and model["nodes"] == 2 and model["gpus_per_node"] == 4
    assert [st["layers"] for st in model["stages"]] == [[0, 30], [30, 80]]  # the model's env reached the plan
    assert [n["ranks"] for n in model["node_memory"]] == [[0, 3], [4, 7]] and model["deciding_stage"] == 1
    spec.write_text(
        SPEC.format(checkpoint=L70, gpus_b='["a100-80gb", "a100-80gb", "a100-80gb", "a100-80gb"]')
    )
    bad = run_cli("plan", spec)
    assert bad.code == 2 and "models.llama70.nodes" in bad.err


def test_only_the_last_stage_warms_the_sampler_up():
    """gpu_model_runner.profile_run runs the sampler warm-up on the last PP rank only: the 70B's stages hold the
    same weights, and the last one (1,024 seqs x 128,256 logits x 16 B = 1.96 GiB of sampler) decides."""
    p = plan(L70, ["-tp", "4", "-pp", "2", "--max-model-len", "32768"])
    first, last = p.stages
    assert last["non_kv_gib"] - first["non_kv_gib"] == pytest.approx(1.96 - 0.51, abs=0.01)
    assert p.deciding_stage == 1 and first["num_blocks"] > last["num_blocks"] == p.num_blocks


def test_a_nodes_own_command_line_plans(run_cli):
    """The command deploy/node_argv.py renders for a worker node (vLLM's --nnodes / --node-rank / --master-addr,
    --headless) is read as vLLM reads it."""
    command = (
        f"vllm serve {L70} --tensor-parallel-size 4 --pipeline-parallel-size 2 --nnodes 2 --node-rank 1 "
        "--master-addr 10.0.0.1 --master-port 29501 --headless --max-model-len 32768"
    )
    j = run_cli(
        "plan", "--from-command", command, "--gpu", "h100-80gb", "--gpus-per-node", "4", "--json"
    ).json()
    assert j["nodes"] == 2 and [st["nodes"] for st in j["stages"]] == [[0], [1]]
