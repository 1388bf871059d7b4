"""servebox's llama.cpp plan on tiny GGUFs of real architectures, without the engine: the header reader
against the `gguf` package, each architecture's layer kinds, KV/recurrent bytes worked out by hand from
the pinned llama.cpp's rules, layer placement, overrides, the fit searches, and the CLI's bad-input paths.
(The same figures against the real llama-server: tests/test_llamacpp_plan_engine.py.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

import gguf
import pytest

from servebox.checkpoint.gguf_header import GGML_TYPES, read_local
from servebox.engines.llamacpp.fit import emulate_fit, largest_context, layers_that_fit
from servebox.engines.llamacpp.flags import parse_server_args
from servebox.engines.llamacpp.layout import read_layout
from servebox.engines.llamacpp.placement import place_layers
from servebox.engines.llamacpp.plan import plan_gguf
from servebox.engines.llamacpp.planner import Problem, evaluate, fits
from servebox.errors import InputError
from tests.llamacpp_engine_runs import make_models

MiB = 2**20
FIXTURE = Path(__file__).parent / "fixtures" / "tiny-llama-q8_0.gguf"


@pytest.fixture(scope="session")
def models(tmp_path_factory) -> dict[str, Path]:
    return make_models(tmp_path_factory.getbasetemp() / "llamacpp-tiny")


def _plan(path: Path, *args: str, gpus: list[int] | None = None):
    return plan_gguf(str(path), parse_server_args(list(args)), gpus or [])


def _kv(plan, kind: str):
    return next(k for k in plan.kv if k.kind == kind)


def test_header_reader_agrees_with_the_gguf_package():
    ours = read_local(str(FIXTURE))
    theirs = gguf.GGUFReader(FIXTURE)
    assert [(t.name, t.type, t.n_bytes) for t in ours.tensors] == [
        (t.name, t.tensor_type.name, int(t.n_bytes)) for t in theirs.tensors
    ]
    assert ours.data_offset == theirs.data_offset
    assert ours.kv["llama.block_count"] == 2
    for qtype, (blck, size) in gguf.GGML_QUANT_SIZES.items():
        assert GGML_TYPES[qtype.value] == (qtype.name, blck, size)


def test_layer_kinds_follow_each_architecture(models):
    kinds = {arch: [la.kind for la in read_layout(read_local(str(p))).layers] for arch, p in models.items()}
    assert kinds["llama"] == ["attn"] * 4
    assert kinds["gemma3"] == ["swa"] * 5 + ["attn", "swa"]  # load_swa_pattern(ml, 6): il % 6 < 5
    assert kinds["qwen35"] == ["recr", "recr", "recr", "attn"] * 2  # full_attention_interval 4


def test_kv_bytes_by_hand(models):
    # llama: 4 layers, 2 KV heads x 32 = 64 values per cell; one slot is not unified, 4096 cells
    p = _plan(models["llama"], "-c", "4096", "-np", "1")
    assert (_kv(p, "attn").cells, _kv(p, "attn").k_mib, _kv(p, "attn").v_mib) == (4096, 2.0, 2.0)
    # -c 3000 is padded to 3072; -kvu keeps one stream of 3072 cells for both slots
    p = _plan(models["llama"], "-c", "3000", "-np", "2", "-kvu", "-fa", "off")
    assert (p.n_ctx, _kv(p, "attn").cells, _kv(p, "attn").k_mib) == (3072, 3072, 1.5)
    # q8_0: 2 blocks of 34 bytes per 64-value row; 4 streams of 2048 cells
    p = _plan(models["llama"], "-c", "8192", "-np", "4", "-ctk", "q8_0", "-ctv", "q8_0", "-fa", "on")
    assert _kv(p, "attn").k_mib == round(68 * 2048 * 4 * 4 / MiB, 2)


def test_sliding_window_cache_is_window_plus_ubatch_padded(models):
    p = _plan(models["gemma3"], "-c", "4096", "-np", "1")
    swa, full = _kv(p, "swa"), _kv(p, "attn")
    assert (swa.cells, swa.layers, full.cells, full.layers) == (768, 6, 4096, 1)  # pad(128 + 512, 256)
    assert swa.k_mib == round(128 * 2 * 768 * 6 / MiB, 2)
    assert _kv(_plan(models["gemma3"], "-c", "4096", "--swa-full"), "swa").cells == 4096


def test_recurrent_state_of_gated_deltanet_layers(models):
    p = _plan(models["qwen35"], "-c", "4096", "-np", "1")
    cpu = p.devices[0]
    # conv (4-1) x (128 + 2*2*32) + state 32 x 128, F32, 6 recurrent layers, one sequence
    assert cpu.recurrent_mib == round((768 + 4096) * 4 * 6 / MiB, 2)
    assert _kv(p, "attn").layers == 2
    four = _plan(models["qwen35"], "-c", "4096", "-np", "4").devices[0]
    assert four.recurrent_mib == round((768 + 4096) * 4 * 6 * 4 / MiB, 2)


def test_ngl_counts_the_output_layer_and_tensor_split_splits_layers(models):
    layout = read_layout(read_local(str(models["llama"])))
    one = place_layers(layout, parse_server_args(["-ngl", "1"]), [8 << 30])
    assert one.layer_device == ["CPU"] * 4 + ["CUDA0"]
    split = place_layers(layout, parse_server_args(["-ts", "1,1"]), [8 << 30, 8 << 30])
    assert split.layer_device == ["CUDA0"] * 3 + ["CUDA1"] * 2


def test_n_cpu_moe_moves_expert_tensors_to_the_host(models):
    base = _plan(models["qwen3moe"], "-c", "4096", gpus=[8 << 30])
    moved = _plan(models["qwen3moe"], "-c", "4096", "--n-cpu-moe", "3", gpus=[8 << 30])
    gpu_drop = base.devices[1].model_mib - moved.devices[1].model_mib
    experts = sum(
        t.n_bytes for t in read_local(str(models["qwen3moe"])).tensors if "_exps." in t.name
    )  # all 3 layers' experts
    assert gpu_drop == pytest.approx(experts / MiB, abs=0.01)


def test_largest_context_and_fit_emulation_are_consistent(models):
    layout = read_layout(read_local(str(models["qwen3"])))
    flags = parse_server_args(["-np", "1", "--fit-target", "1"])
    probe = Problem(layout, [1 << 40])
    at = {n: evaluate(probe, flags, n).devices["CUDA0"].total for n in (4096, 8192)}
    gpu = (at[4096] + at[8192]) // 2 + MiB  # between the two, plus the 1 MiB margin
    problem = Problem(layout, [gpu])
    assert not fits(problem, flags, evaluate(problem, flags))
    best = largest_context(problem, flags)
    assert best is not None and best < 8192
    assert fits(problem, flags, evaluate(problem, flags, best))
    assert not fits(problem, flags, evaluate(problem, flags, best + 256))
    answer = emulate_fit(problem, parse_server_args(["-np", "1", "--fit-target", "1", "--fit-ctx", "256"]))
    assert answer.fits and answer.ctx_size == best and answer.flags == ["-c", str(best)]
    ngl = layers_that_fit(problem, parse_server_args(["-np", "1", "--fit-target", "1"]), 8192)
    assert ngl is not None and ngl < layout.n_layer_all + 1


def test_cli_json_and_exit_codes(models, run_cli):
    res = run_cli("plan", models["gemma3"], "-c", "4096", "--jinja", "--json")
    assert res.code == 0, res.err
    data = res.json()
    assert data["engine"] == "llama.cpp" and data["architecture"] == "gemma3"
    assert data["ignored_flags"] == ["--jinja"]
    tight = run_cli("plan", models["gemma3"], "--gpu-memory-gib", "0.5", "--json")
    assert tight.code == 1 and tight.json()["fits"] is False


@pytest.mark.parametrize(
    "args, field",
    [
        (["-c", "many"], "-c"),
        (["-ctk", "q3_k"], "-ctk"),
        (["-fa", "maybe"], "-fa"),
        (["-ot", "no-equals-sign"], "-ot"),
        (["-ngl", "2", "-ot", "exps=CUDA7"], "-ot"),
    ],
)
def test_bad_flags_are_one_line_exit_2(models, run_cli, args, field):
    res = run_cli("plan", models["llama"], *args, "--gpu", "rtx3090-24gb")
    assert res.code == 2, res.out
    assert field in res.err and res.out == ""
    assert len(res.err.strip().splitlines()) == 1


def test_cut_or_foreign_files_are_bad_input(tmp_path, models, run_cli):
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(models["llama"].read_bytes()[:5000])
    foreign = tmp_path / "foreign.gguf"
    foreign.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    for path, field in ((cut, "header"), (foreign, "magic")):
        res = run_cli("plan", path)
        assert res.code == 2 and field in res.err and len(res.err.strip().splitlines()) == 1


def test_unknown_architecture_fails_closed(tmp_path, models):
    data = models["llama"].read_bytes().replace(b"llama", b"llamz", 1)
    odd = tmp_path / "odd.gguf"
    odd.write_bytes(data)
    with pytest.raises(InputError, match="unknown to llama.cpp"):
        plan_gguf(str(odd), parse_server_args([]), [])


def test_projector_weights_join_the_main_device(models):
    plain = _plan(models["gemma3"], "-c", "4096", gpus=[8 << 30])
    with_mm = _plan(models["gemma3"], "-c", "4096", "--mmproj", str(models["llama"]), gpus=[8 << 30])
    added = sum(t.n_bytes for t in read_local(str(models["llama"])).tensors) / MiB
    assert with_mm.devices[1].model_mib - plain.devices[1].model_mib == pytest.approx(added, abs=0.01)


def test_calibrate_needs_buffer_lines(models, tmp_path, run_cli):
    empty = tmp_path / "quiet.log"
    empty.write_text("srv  llama_server: listening on http://127.0.0.1:8080\n")
    res = run_cli("plan", models["llama"], "--calibrate", empty)
    assert res.code == 2 and "-lv 4" in res.err


def test_hub_file_header_by_range_requests(models, tmp_path, monkeypatch, run_cli):
    from tests.hub_server import FakeHub

    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(models["qwen3"], repo / "qwen3-tiny-F16.gguf")
    with FakeHub(repo) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        res = run_cli("plan", "org/model/qwen3-tiny-F16.gguf", "-c", "4096", "--json")
        missing = run_cli("plan", "org/model/absent.gguf")
    assert res.code == 0, res.err
    local = _plan(models["qwen3"], "-c", "4096")
    assert res.json()["devices"][0]["model_mib"] == local.devices[0].model_mib
    assert res.json()["source"] == "hf://org/model/qwen3-tiny-F16.gguf"
    assert hub.bytes_sent < (repo / "qwen3-tiny-F16.gguf").stat().st_size / 4  # the header, not the weights
    assert all("bytes=" in r for r in hub.requests if r.startswith("GET") and ".gguf" in r)
    assert missing.code == 2 and len(missing.err.strip().splitlines()) == 1


def test_no_kv_offload_keeps_the_cache_on_the_host_and_row_split_spreads_matrices(models):
    offloaded = _plan(models["llama"], "-c", "4096", "-np", "1", gpus=[8 << 30])
    host = _plan(models["llama"], "-c", "4096", "-np", "1", "-nkvo", gpus=[8 << 30])
    assert offloaded.devices[1].kv_mib == 4.0 and offloaded.devices[0].kv_mib == 0
    assert host.devices[0].kv_mib == 4.0 and host.devices[1].kv_mib == 0
    rows = _plan(
        models["llama"], "-c", "4096", "-np", "1", "-sm", "row", "-ts", "3,1", gpus=[8 << 30, 8 << 30]
    )
    layers = _plan(models["llama"], "-c", "4096", "-np", "1", "-ts", "3,1", gpus=[8 << 30, 8 << 30])
    gpu0, gpu1 = rows.devices[1].model_mib, rows.devices[2].model_mib
    assert gpu0 > 2 * gpu1 > 0  # every matrix split 3:1 by rows
    # whole layers: il/5 for il = 0..4 (the output is the 5th) against the split points 0.75, 1.0
    assert [d.layers for d in layers.devices] == [0, 4, 0] and layers.devices[2].model_mib > 0


def test_pipeline_parallel_copies_on_several_gpus_holding_every_layer(models):
    one = _plan(models["llama"], "-c", "4096", "-np", "1", gpus=[8 << 30])
    two = _plan(models["llama"], "-c", "4096", "-np", "1", gpus=[8 << 30, 8 << 30])
    partial = _plan(models["llama"], "-c", "4096", "-np", "1", "-ngl", "3", gpus=[8 << 30, 8 << 30])
    extra = 3 * (4096 * 512 * 2 + 256 * 512 * 4) / MiB  # 3 more copies of the F16 mask and the hidden state
    assert two.devices[1].compute_mib == pytest.approx(one.devices[1].compute_mib + extra, abs=0.01)
    assert partial.devices[1].compute_mib == pytest.approx(one.devices[1].compute_mib, abs=0.01)
