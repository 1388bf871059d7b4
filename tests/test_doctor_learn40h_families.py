"""What the scored batch fresh-298 (servebox's own deploy step refusing or warning) taught after scoring: a user who
pastes `servebox check` / `servebox plan`'s output gets the cause the engine would report at start.

Every log below is rendered by servebox itself from the source's format strings (marked so), not copied from the corpus:
- check's findings go through servebox.report.check_view.show_check on a rich console 80 and 120 columns wide, so
  rich wraps them as a pipe (80) or a terminal (COLUMNS=120) would (console_wrap.py rejoins them);
- the refusals are servebox.errors.InputError.one_line() behind 'servebox: error: ', as servebox/cli prints them.
Families: quantization-min-capability (check's 'awq (W4A16)'),
no-memory-for-cache-blocks (a budget shown negative or 0.00 GiB), tp-not-dividing-heads, weights-missing,
weights-corrupt, tokenizer-missing, marlin-tile-not-divisible, kv-cache-dtype-unsupported-on-gpu,
attention-backend-name-unknown, spec-mtp-model-without-mtp-layers / mtp-weights-missing, parallel-size-exceeds-gpus,
pp-not-dividing-layers, pp-layer-partition-invalid, llama.cpp's unknown-arch, invalid-argument, build-too-old-for-
tensor-type, context-params-invalid, mmproj-load-failed, cuda-oom, model-file-missing, gguf-split-incomplete, and the
hub's gated-repo, hub-revision-not-found, model-dir-invalid, data-parallel-launch-invalid. A refusal whose only family
would speak of an engine doing what servebox did not (a SOURCE path with nothing there, the lead's ruling on fresh-298's
servebox-03) stays servebox-spec-invalid, servebox's own refusal quoting its reason.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from servebox.check.context import CheckReport, finding
from servebox.doctor.console_wrap import rejoin_console_wrapped
from servebox.errors import InputError
from servebox.report.check_view import show_check
from tests.doctor_text import assert_named, assert_not_confident, run, top_cause

SRC = "/srv/models/qwen2.5-7b-instruct"
WIDTHS = (80, 120)


def check_log(
    width: int, *findings, gpu: str = "l4-24gb", profile: str = "vllm-0.32", exit_code: int = 1
) -> str:
    """`servebox check`'s console for these findings, as show_check prints it at this width (rendered)."""
    report = CheckReport(
        source=SRC,
        gpu=gpu,
        engine_profile=profile,
        findings=list(findings),
        errors=sum(f.severity == "error" for f in findings),
        warnings=sum(f.severity == "warn" for f in findings),
    )
    buf = io.StringIO()
    show_check(report, Console(file=buf, width=width, color_system=None))
    return f"$ servebox check {SRC} --gpu {gpu}\n{buf.getvalue()}# exit: {exit_code}\n"


def refusal(source: str, field: str | None, message: str) -> str:
    """servebox's one-line refusal (exit 2), as servebox/cli prints an InputError (rendered)."""
    return f"$ servebox check {source}\nservebox: error: {InputError(source, field, message).one_line()}\n# exit: 2\n"


HEADER_ONLY = finding(
    "header-only",
    "info",
    "header-only copy: the metadata (config, tensor headers, template) is checked; shard sizes and tokenizer files are not",
    [f"{SRC}: every shard is its header with no tensor data"],
    "check the full download before serving it",
)
CHAT = finding(
    "chat-template",
    "warn",
    "no chat template: /v1/chat/completions will refuse requests",
    ["tokenizer_config.json chat_template absent"],
    "pass --chat-template FILE",
)

# (family, finding, gpu, profile): check's error findings, their format strings filled with other values than fresh-298's
FINDINGS = [
    (
        "quantization-min-capability",
        finding(
            "quantization-capability",
            "error",
            "The quantization method compressed-tensors (W4A4 (NVFP4)) is not supported for the current GPU. "
            "Minimum capability: 75. Current capability: 70.",
            ["config.json quantization_config.quant_method = 'compressed-tensors', scheme W4A4 (NVFP4)"],
            "use a checkpoint in a scheme this GPU supports (e.g. real AWQ on the Volta fork), or another GPU",
        ),
        "v100-32gb",
        "vllm-0.32",
    ),
    (
        "quantization-min-capability",
        finding(
            "quantization-capability",
            "error",
            "The quantization method gptq (W4A16) is not supported for the current GPU. Minimum capability: 60. "
            "Current capability: 52.",
            ["config.json quantization_config.quant_method = 'gptq', scheme W4A16"],
        ),
        "m60-8gb",
        "vllm-0.32",
    ),
    (
        "no-memory-for-cache-blocks",
        finding(
            "plan",
            "error",
            "ValueError: To serve at least one request with the model's max seq len (131072), (16.00 GiB KV cache is "
            "needed, which is larger than the available KV cache memory (0.00 GiB). Try increasing "
            "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
            [
                "Model loading took 131.4532 GiB",
                "Available KV cache memory: -64.67 GiB",
                "available KV = 71.27 - weights 131.45 - activation 1.96 - non-torch 0.15 - graphs 2.39 = -64.67 GiB",
            ],
            "--max-model-len 0 or less, or more memory (utilization, fp8 KV, TP)",
        ),
        "h100-80gb",
        "vllm-0.32",
    ),
    (
        "tp-not-dividing-heads",
        finding(
            "tp-kv-heads",
            "error",
            "8 KV heads can be neither split nor replicated evenly over TP 6",
            ["config.json num_key_value_heads = 8"],
        ),
        "l4-24gb",
        "vllm-0.32",
    ),
    (
        "tp-not-dividing-heads",
        finding(
            "tp-linear-heads",
            "error",
            "linear-attention heads (16 k, 48 v) are not divisible by TP 3",
            ["config.json linear_num_key_heads / linear_num_value_heads"],
        ),
        "h100-80gb",
        "vllm-0.32",
    ),
    (
        "weights-missing",
        finding(
            "no-weights",
            "error",
            "no weight files: the checkpoint holds no safetensors shard (an interrupted download?)",
            [SRC],
            "download the weights (`servebox fetch-model REPO --dir DIR`) and check again",
        ),
        "l4-24gb",
        "vllm-0.32",
    ),
    (
        "weights-corrupt",
        finding(
            "completeness",
            "error",
            "3 shard(s) incomplete: the download is partial or corrupt",
            [
                "model-00002-of-00004.safetensors: 1,073,741,824 bytes on disk, header implies 4,932,737,024 bytes"
            ],
        ),
        "l4-24gb",
        "vllm-0.32",
    ),
    (
        "tokenizer-missing",
        finding(
            "tokenizer-files",
            "error",
            "no tokenizer file (tokenizer.json, tokenizer.model, vocab.json)",
            [SRC],
            "copy the tokenizer files from the base model, or pass --tokenizer",
        ),
        "l4-24gb",
        "vllm-0.32",
    ),
    (
        "marlin-tile-not-divisible",
        finding(
            "marlin-tile",
            "error",
            "the marlin kernel is forced and 12 quantized layer(s) do not divide its tile (size_n % 64, size_k % 128): "
            "gptq_marlin_repack will fail at load",
            ["model.layers.0.mlp.down_proj: size_n = 5120, size_k = 8704"],
            "do not force marlin for this checkpoint (unset VLLM_SM70_QUANT_BACKEND=marlin)",
        ),
        "v100-32gb",
        "1cat-vllm-1.5-volta",
    ),
    (
        "kv-cache-dtype-unsupported-on-gpu",
        finding(
            "kv-dtype-backend",
            "error",
            "no attention backend of vllm-0.32 serves kv_cache_dtype fp8_e4m3 on t4-16gb",
            ["--kv-cache-dtype fp8_e4m3"],
            "choose a KV cache dtype one of the backends supports",
        ),
        "t4-16gb",
        "vllm-0.32",
    ),
    (
        "attention-backend-name-unknown",
        finding(
            "attention-backend",
            "error",
            "vllm-0.32 has no attention backend 'FLASH_ATTN_V3'",
            ["--kv-cache-dtype auto"],
            "choose one of FLASH_ATTN, FLASHINFER, TRITON_ATTN",
        ),
        "h100-80gb",
        "vllm-0.32",
    ),
    (
        "spec-mtp-model-without-mtp-layers",
        finding(
            "mtp-weights",
            "error",
            "--speculative-config method 'mtp' needs MTP weights, and the checkpoint has none",
            ["config.json mtp layers = 0, MTP tensors = 0 bytes"],
        ),
        "h100-80gb",
        "vllm-0.32",
    ),
    (
        "mtp-weights-missing",
        finding(
            "mtp-weights",
            "error",
            "--speculative-config method 'qwen3_next_mtp' needs MTP weights, and the checkpoint has none",
            ["config.json mtp layers = 1, MTP tensors = 0 bytes"],
        ),
        "h100-80gb",
        "vllm-0.32",
    ),
    (
        "parallel-size-exceeds-gpus",
        finding(
            "nodes-gpus",
            "error",
            "16 ranks per node but a node has 8 GPUs",
            ["DP 2 x PP 1 x TP 8 = 16 ranks"],
        ),
        "h100-80gb",
        "vllm-0.32",
    ),
    (
        "pp-not-dividing-layers",
        finding(
            "pp-layers",
            "error",
            "40 stages for 36 decoder layers: a stage would be empty",
            ["--pipeline-parallel-size 40"],
        ),
        "l4-24gb",
        "vllm-0.32",
    ),
    (
        "pp-layer-partition-invalid",
        finding(
            "pp-layers",
            "error",
            "the stages sum to 30 layers, the model has 36",
            ["VLLM_PP_LAYER_PARTITION=15,15"],
        ),
        "l4-24gb",
        "vllm-0.32",
    ),
    (
        "llamacpp-unknown-arch",
        finding(
            "llamacpp-arch",
            "error",
            "llama.cpp b11434 does not know the architecture 'granitemoehybrid2': it will refuse the file",
            ["/srv/models/granite.gguf: general.architecture = 'granitemoehybrid2'"],
        ),
        "l4-24gb",
        "llama.cpp b11434",
    ),
    (
        "llamacpp-invalid-argument",
        finding(
            "llamacpp-flag",
            "error",
            "llama-server b11434 does not accept --n-gpu-layer: it exits with 'invalid argument'",
            ["common/arg.cpp of the pinned build (servebox/engines/llamacpp/server_flags.toml)"],
        ),
        "l4-24gb",
        "llama.cpp b11434",
    ),
    (
        "llamacpp-build-too-old-for-tensor-type",
        finding(
            "llamacpp-quant-type",
            "error",
            "ggml types TYPE_44, TYPE_45 are not in llama.cpp b11434 (removed or newer)",
            ["blk.0.ffn_up.weight: TYPE_44"],
        ),
        "l4-24gb",
        "llama.cpp b11434",
    ),
    (
        "llamacpp-context-params-invalid",
        finding(
            "llamacpp-cache-block",
            "error",
            "-ctv iq4_nl packs 32 values per block but a KV row is 80 wide",
            ["/srv/models/phi-2.gguf: K/V widths [80]"],
        ),
        "l4-24gb",
        "llama.cpp b11434",
    ),
    (
        "llamacpp-mmproj-load-failed",
        finding(
            "llamacpp-mmproj", "error", "--mmproj /srv/models/mmproj-model-f16.gguf: no such file", ["x"]
        ),
        "l4-24gb",
        "llama.cpp b11434",
    ),
    (
        "llamacpp-mmproj-load-failed",
        finding(
            "llamacpp-mmproj",
            "error",
            "--mmproj /srv/models/gemma-3-4b-q4_k_m.gguf is a 'gemma3' model, not a projector (clip)",
            ["/srv/models/gemma-3-4b-q4_k_m.gguf: general.architecture = 'gemma3'"],
        ),
        "l4-24gb",
        "llama.cpp b11434",
    ),
    (
        "llamacpp-cuda-oom",
        finding(
            "llamacpp-fit", "error", "does not fit at n_ctx 262,144", ["CUDA0: 52,118 MiB planned of 22,010"]
        ),
        "l4-24gb",
        "llama.cpp b11434",
    ),
]

# (family, source, field, message): servebox's one-line refusals of a SOURCE or a flag (rendered)
REFUSALS = [
    ("llamacpp-gguf-split-incomplete", "/srv/m/qwen3-235b-q4_k_m-00001-of-00005.gguf", "split.count", "5 parts, but qwen3-235b-q4_k_m-00004-of-00005.gguf is missing"),
    ("tp-not-dividing-heads", "--tensor-parallel-size", None, "40 attention heads are not divisible by TP 3"),
    ("weights-missing", "/srv/models/qwen", None, "no weights: the folder has no safetensors shards (config.json only); pass --weights-gib to plan without them"),
    ("weights-missing", "/srv/models/qwen/model.safetensors.index.json", "weight_map['lm_head.weight']", "names shard 'model-00004-of-00004.safetensors', which is missing"),
    ("weights-corrupt", "/srv/models/qwen/model-00001-of-00002.safetensors", "header length", "file is truncated: 40,960 header bytes declared, 4,096 present"),
    ("model-dir-invalid", "/srv/models/qwen/config.json", None, "missing (a checkpoint needs it)"),
    ("gated-repo", "Qwen/Qwen3-8B-Instuct", None, "no such repo on the hub (or it is private: set HF_TOKEN)"),
    ("gated-repo", "meta-llama/Llama-3.3-70B-Instruct", None, "gated repo: accept its terms on the hub and set HF_TOKEN"),
    ("llamacpp-bad-gguf", "/srv/models/Qwen3-8B-Q4_K_M.gguf", "magic", "not a GGUF file"),
    ("llamacpp-bad-gguf", "/srv/models/Qwen3-8B-Q4_K_M.gguf", "header", "file ends inside the GGUF header (at byte 1048576)"),
    ("hub-revision-not-found", "Qwen/Qwen3-8B@v1.1", "revision", "no revision 'v1.1'"),
    ("data-parallel-launch-invalid", "--nodes", None, "vLLM refuses it: --nnodes 3 must evenly divide the world size 8 (DP 1 x PP 2 x TP 4)"),
    ("parallel-size-exceeds-gpus", "--gpus-per-node", None, "16 ranks per node (world 16 / 1 nodes) but a node has 8 GPUs"),
    ("pp-not-dividing-layers", "--pipeline-parallel-size", None, "64 stages for 48 decoder layers: a stage would be empty"),
    ("pp-layer-partition-invalid", "VLLM_PP_LAYER_PARTITION", None, "3 stages listed, pipeline parallel size is 4"),
    ("pp-layer-partition-invalid", "VLLM_PP_LAYER_PARTITION", None, "not a comma-separated list of integers: '24 24'"),
]  # fmt: skip

CASES = [
    pytest.param(family, check_log(w, f, HEADER_ONLY, gpu=gpu, profile=profile), id=f"{family}-{i}-w{w}")
    for i, (family, f, gpu, profile) in enumerate(FINDINGS)
    for w in WIDTHS
] + [
    pytest.param(family, refusal(source, field, message), id=f"{family}-refusal-{i}")
    for i, (family, source, field, message) in enumerate(REFUSALS)
]


@pytest.mark.parametrize(("expected", "log"), CASES)
def test_servebox_output_names_the_engines_cause(expected, log):
    assert_named(expected, log)


NEAR_MISSES = [
    # a gate check has no record of: a warning that servebox cannot tell, no capability refused
    (
        "quantization-min-capability",
        check_log(
            120,
            finding(
                "quantization-capability",
                "warn",
                "vllm-0.32 has no recorded gate for compressed-tensors:W4A8 (INT4 x FP8); servebox cannot tell whether it loads",
                ["config.json quantization_config.quant_method = 'compressed-tensors', scheme W4A8"],
                "check the engine's quantization/<method>.py get_min_capability()",
            ),
            exit_code=0,
        ),
    ),
    # a path that is there but is a file is not a missing path
    ("model-path-not-found", refusal("/srv/models/qwen/config.json", None, "not a directory")),
    # (fresh-298's servebox-03, servebox's refusal of a path with nothing there, is model-path-not-found's since
    # learn47f: tests/test_doctor_learn47f_families.py)
    # the config names MTP layers: the tensors are what is missing, not the model's MTP support
    (
        "spec-mtp-model-without-mtp-layers",
        check_log(
            120,
            finding(
                "mtp-weights",
                "error",
                "--speculative-config method 'mtp' needs MTP weights, and the checkpoint has none",
                ["config.json mtp layers = 1, MTP tensors = 0 bytes"],
            ),
        ),
    ),
    # llama.cpp's fit said without check's per-device budget line is no GPU's allocation
    ("llamacpp-cuda-oom", "$ my-planner model.gguf\nerror: the model does not fit at n_ctx 8192\n"),
    # the header-only note of a healthy check names no missing weights nor tokenizer
    ("weights-missing", check_log(80, HEADER_ONLY, CHAT, exit_code=0)),
    ("tokenizer-missing", check_log(120, HEADER_ONLY, CHAT, exit_code=0)),
]


@pytest.mark.parametrize(
    ("family", "log"), [pytest.param(f, log, id=f"{f}-{i}") for i, (f, log) in enumerate(NEAR_MISSES)]
)
def test_near_misses_are_not_named_confidently(family, log):
    assert_not_confident(family, log)


def plan_refusal(available: str) -> str:
    """vLLM's max-seq-len refusal without an estimate (kv_cache_utils.py: estimated_max_len is 0), at `available` GiB."""
    return (
        "ValueError: To serve at least one request with the model's max seq len (32768), (1.75 GiB KV cache is needed, "
        f"which is larger than the available KV cache memory ({available} GiB). Try increasing `gpu_memory_utilization` "
        "or decreasing `max_model_len` when initializing the engine."
    )


def test_max_seq_len_refusal_with_a_little_left_stays_below_one_token():
    """A budget that is small but there (0.01 GiB): not even one request fits, kv-cache-below-one-token; at 0.00 GiB
    (servebox check's old wording under a negative budget, or vLLM's own under 5 MiB) nothing is left: no-memory."""
    for width in WIDTHS:
        little = finding("plan", "error", plan_refusal("0.01"), ["Available KV cache memory: 0.01 GiB"])
        assert_named("kv-cache-below-one-token", check_log(width, little, gpu="t4-16gb"))
        none = finding("plan", "error", plan_refusal("0.00"), ["Available KV cache memory: 0.00 GiB"])
        assert_named("no-memory-for-cache-blocks", check_log(width, none, gpu="t4-16gb"))
    engine = (
        f"INFO 12-05 10:00:00 [gpu_worker.py:1] Available KV cache memory: 0.01 GiB\n{plan_refusal('0.01')}\n"
    )
    assert_named("kv-cache-below-one-token", engine)


def test_a_healthy_check_names_no_cause():
    """A check with warnings and notes only (exit 0) has nothing to name."""
    fits = finding(
        "plan", "warn", "uncalibrated, fits: 82,928 KV tokens, 2.53x at 32,768 (largest that fits 32,768)", []
    )
    for width in WIDTHS:
        assert top_cause(run(check_log(width, CHAT, fits, HEADER_ONLY, exit_code=0))) is None


def test_console_wrap_joins_only_what_rich_cut():
    """One line out per line in; a finding's cut message is joined, its indented evidence and a log pasted below the
    report are lines of their own."""
    text = (
        "/srv/q on v100-32gb with vllm-0.32: 1 error(s), 2 \n"
        "warning(s)\n"
        "error quantization-capability: The quantization method awq (W4A16) is not supported for the current GPU. "
        "Minimum capability: 75. Current capability: \n"
        "70.\n"
        "        config.json quantization_config.quant_method = 'awq', scheme W4A16, format gemm and a long tail "
        "of evidence\n"
        "(APIServer pid=12) INFO 12-05 10:00:00 [api_server.py:1] vLLM API server version 0.32.0\n"
    )
    out = rejoin_console_wrapped(text.encode()).decode().split("\n")
    assert len(out) == len(text.split("\n"))
    assert out[0].endswith("1 error(s), 2 warning(s)") and out[1] == ""
    assert out[2].endswith("Current capability: 70.") and out[3] == ""
    assert out[4].startswith("        config.json") and out[5].startswith("(APIServer pid=12)")


def test_console_wrap_leaves_other_logs_alone():
    text = b"INFO 12-05 10:00:00 [core.py:1] a line that is long enough to have been cut by some console \nnext\n"
    assert rejoin_console_wrapped(text) == text


def real_check_log(width: int, name: str, gpu: str, *argv: str) -> str:
    """servebox check's own run on a bundled fixture, at today's wording (not rendered by hand): whatever check and plan
    print now, doctor must name the engine's cause."""
    from servebox.check import load_engine_rules, run_check
    from servebox.checkpoint.facts import load_checkpoint
    from servebox.engines.vllm.flags import parse_flags
    from servebox.hardware import get_gpu
    from tests.conftest import CHECKPOINTS

    flags, rest = parse_flags(list(argv))
    ckpt = load_checkpoint(str(CHECKPOINTS / name))
    report = run_check(ckpt, flags, get_gpu(gpu), load_engine_rules("vllm-0.32"), rest, True, False)
    buf = io.StringIO()
    show_check(report, Console(file=buf, width=width, color_system=None))
    return f"$ servebox check {name} --gpu {gpu} {' '.join(argv)}\n{buf.getvalue()}# exit: {int(bool(report.errors))}\n"


@pytest.mark.parametrize(
    ("expected", "name", "gpu", "argv"),
    [
        # the weights alone exceed the budget: fresh-298's servebox-08 (the lead's plan now says vLLM's own refusal)
        ("no-memory-for-cache-blocks", "qwen2.5-7b-instruct", "t4-16gb", ("--max-model-len", "32768")),
        ("no-memory-for-cache-blocks", "llama-3.1-70b-instruct", "h100-80gb", ()),
        # a length that does not fit where a shorter one does: the estimate vLLM prints
        ("max-model-len-exceeds-kv", "llama-3.1-8b-instruct", "l4-24gb", ("--max-model-len", "131072")),
        ("quantization-min-capability", "qwen2.5-7b-instruct-awq", "v100-32gb", ("--quantization", "gptq")),
        ("quantization-min-capability", "qwen3-8b-fp8", "v100-32gb", ()),
        ("bf16-needs-sm80", "qwen2.5-7b-instruct", "v100-32gb", ("--dtype", "bfloat16")),
        ("tp-not-dividing-heads", "qwen2.5-7b-instruct", "l4-24gb", ("--tensor-parallel-size", "3")),
        ("max-model-len-above-positions", "qwen2.5-7b-instruct", "l4-24gb", ("--max-model-len", "131072")),
        ("pp-not-dividing-layers", "qwen2.5-7b-instruct", "l4-24gb", ("--pipeline-parallel-size", "32")),
    ],
)
def test_servebox_checks_own_run_names_the_engines_cause(expected, name, gpu, argv):
    for width in WIDTHS:
        assert_named(expected, real_check_log(width, name, gpu, *argv))


def test_a_gpu_index_past_the_hosts_list_stays_servebox_spec_invalid():
    """render's refusal of a model's GPU index (the wording fresh-298 met, and the lead's since) is servebox's own spec
    refusal: no engine would start to say it (model_sets.footprint, rendered)."""
    for message in (
        "GPU 1 but the host lists 1",
        "GPU index 1 is not on the host, which lists 1 GPU(s) (indices 0..0)",
    ):
        log = f"$ servebox render spec.toml --out out\nservebox: error: {InputError('models[qwen]', 'gpus', message).one_line()}\n"
        assert_named("servebox-spec-invalid", log)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("/srv/models/qwen/model.safetensors", "not a directory"),
        # a hub-shaped name (not a path) with no .gguf file named in it
        ("Qwen/Qwen3-8B-GGUF", "no such .gguf file (a hub file is org/name/file.gguf[@revision])"),
    ],
)
def test_a_source_refusal_no_engine_family_names_stays_servebox_spec_invalid(source, message):
    """The lead's ruling on fresh-298's servebox-03: servebox's refusal quoting why (exit 2) is servebox-spec-invalid's
    full cause where no other family's cause names it. (A path-shaped source with nothing there, 'neither an existing
    directory ...' / 'no such .gguf file', is model-path-not-found's since learn47f: its cause names servebox's refusal.)"""
    assert_named("servebox-spec-invalid", refusal(source, None, message))
