"""Property-based fuzzing (hypothesis) of every verb that reads a checkpoint: `inspect`, `plan` and
`check` on hostile config.json values and whole-file damage, hostile safetensors headers, and
hostile chat templates. Each input must keep tests/fuzz_contract.py's contract. The runs are
derandomized (the same inputs every CI run) and the counts per verb are printed at the end."""

from __future__ import annotations

import json
import shutil
import struct
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CHECKPOINTS
from tests.fuzz_contract import assert_contract, examples, report

LLAMA = CHECKPOINTS / "llama-3.1-8b-instruct"
QWEN35 = CHECKPOINTS / "qwen3.5-27b"
QWEN3 = CHECKPOINTS / "qwen3-8b-fp8"
FUZZ = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
}

# ---- values a stranger can put anywhere ----
deep = st.integers(1, 3000).map(lambda n: json.loads("[" * min(n, 60) + "]" * min(n, 60)))
hostile_value = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, -1, 1, 2**31, 2**63, 10**8, 10**18]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(["32", "", "\n", "\x00", "a" * 5000, "re:(a+)+$", "{{ 9**(9**9) }}"]),
    st.lists(st.one_of(st.integers(-5, 10**9), st.text(max_size=5), st.booleans()), max_size=6),
    st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
    deep,
)
CONFIG_KEYS = [
    "architectures",
    "num_hidden_layers",
    "hidden_size",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "intermediate_size",
    "vocab_size",
    "max_position_embeddings",
    "rope_scaling",
    "sliding_window",
    "torch_dtype",
    "tie_word_embeddings",
    "layer_types",
    "num_local_experts",
    "num_experts_per_tok",
    "quantization_config",
    "text_config",
    "vision_config",
    "full_attention_interval",
    "linear_num_key_heads",
    "mtp_num_hidden_layers",
    "use_sliding_window",
    "max_window_layers",
]


@st.composite
def config_damage(draw) -> tuple[Path, bytes]:
    """A config.json: one field set to a hostile value (nested or top level), or the file itself broken."""
    base = draw(st.sampled_from([LLAMA, QWEN35]))
    cfg = json.loads((base / "config.json").read_text())
    kind = draw(st.sampled_from(["field", "field", "field", "nested", "quant", "bytes"]))
    if kind == "bytes":
        raw = json.dumps(cfg).encode()
        cut = draw(st.integers(0, len(raw)))
        junk = draw(st.binary(max_size=30))
        return base, raw[:cut] + junk + raw[cut + draw(st.integers(0, 5)) :]
    target = cfg
    if kind == "nested" and isinstance(cfg.get("text_config"), dict):
        target = cfg[draw(st.sampled_from(["text_config", "vision_config"]))]
    if kind == "quant":
        cfg["quantization_config"] = {
            "quant_method": draw(
                st.sampled_from(["compressed-tensors", "awq", "gptq", "fp8", "bitsandbytes", "x"])
            ),
            draw(
                st.sampled_from(
                    [
                        "bits",
                        "group_size",
                        "ignore",
                        "config_groups",
                        "modules_to_not_convert",
                        "weight_block_size",
                        "sym",
                    ]
                )
            ): draw(hostile_value),
        }
    else:
        target[draw(st.sampled_from(CONFIG_KEYS))] = draw(hostile_value)
    return base, json.dumps(cfg).encode()


def _with_config(tmp: Path, base: Path, raw: bytes) -> Path:
    d = tmp / "ckpt"
    shutil.copytree(base, d)
    (d / "config.json").write_bytes(raw)
    return d


VERB_ARGS = {"inspect": [], "plan": ["--gpu", "h100-80gb"], "check": ["--gpu", "h100-80gb"]}


@settings(**FUZZ, max_examples=examples(300))
@given(damage=config_damage())
def test_fuzz_inspect_config(damage):
    _fuzz_config("inspect config.json", "inspect", damage)


@settings(**FUZZ, max_examples=examples(100))
@given(damage=config_damage())
def test_fuzz_plan_config(damage):
    _fuzz_config("plan config.json", "plan", damage)


@settings(**FUZZ, max_examples=examples(100))
@given(damage=config_damage())
def test_fuzz_check_config(damage):
    _fuzz_config("check config.json", "check", damage)


def _fuzz_config(label: str, verb: str, damage) -> None:
    base, raw = damage
    with tempfile.TemporaryDirectory() as tmp:
        d = _with_config(Path(tmp), base, raw)
        assert_contract(label, Path(tmp), verb, [str(d), *VERB_ARGS[verb]], "config.json")


# ---- safetensors headers ----
SHARD = "model-00004-of-00004.safetensors"
HEADER = json.loads((LLAMA / SHARD).read_bytes()[8:].decode().rstrip())


@st.composite
def header_damage(draw) -> bytes:
    header = json.loads(json.dumps(HEADER))
    kind = draw(st.sampled_from(["entry", "entry", "entry", "new", "length", "bytes"]))
    if kind == "entry":
        name = draw(st.sampled_from([k for k in header if k != "__metadata__"] + ["__metadata__"]))
        entry = header[name]
        key = draw(st.sampled_from(["dtype", "shape", "data_offsets", "format", None]))
        if key is None:
            header[name] = draw(hostile_value)
        else:
            entry[key] = draw(hostile_value)
    elif kind == "new":
        header[draw(st.text(max_size=20))] = {
            "dtype": draw(st.sampled_from(["BF16", "BOOL", "F4", "Q4"])),
            "shape": draw(st.lists(st.one_of(st.integers(-3, 2**45), st.booleans()), max_size=4)),
            "data_offsets": draw(st.lists(st.integers(-3, 2**40), min_size=0, max_size=3)),
        }
    raw = json.dumps(header).encode()
    if kind == "length":
        return struct.pack("<Q", draw(st.integers(0, 2**64 - 1))) + raw
    if kind == "bytes":
        cut = draw(st.integers(0, len(raw)))
        raw = raw[:cut] + draw(st.binary(max_size=20)) + raw[cut:]
    return struct.pack("<Q", len(raw)) + raw


@settings(**FUZZ, max_examples=examples(300))
@given(shard=header_damage())
def test_fuzz_inspect_safetensors_header(shard):
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "ckpt"
        shutil.copytree(LLAMA, d)
        (d / SHARD).write_bytes(shard)
        assert_contract("inspect safetensors header", Path(tmp), "inspect", [str(d)], SHARD)


# ---- chat templates ----
PIECES = [
    "{% for i in range(N) %}X{% endfor %}",
    "{% for m in messages %}X{% endfor %}",
    "{% if enable_thinking is not defined or enable_thinking %}X{% endif %}",
    "{% set ns = namespace(s='ab') %}{% for i in range(N) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}X",
    "{{ 'a'|center(N) }}X",
    "{{ 'ab' * N }}X",
    "{{ N ** N }}X",
    "{{ '%0Nd' % 1 }}X",
    "{{ lipsum(N) }}X",
    "{{ ''.__class__ }}X",
    "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}X",
    "{{ messages[0].content|upper }}X",
    "{{ raise_exception('no') }}X",
    "{% set x %}{% for i in range(N) %}{{ 'y' * 500 }}{% endfor %}{% endset %}X",
    "{{ (range(N)|list)|join(',') }}X",
    "{{ X",
]


@st.composite
def template(draw) -> str:
    text = "X"
    for _ in range(draw(st.integers(1, 3))):
        piece = draw(st.sampled_from(PIECES)).replace(
            "N", str(draw(st.sampled_from([0, 3, 99, 10**5, 10**9])))
        )
        text = text.replace("X", piece, 1)
    return text.replace("X", draw(st.sampled_from(["", "<think>", "</think>", "{{ bos_token }}"])))


@settings(**FUZZ, max_examples=examples(150))
@given(text=template())
def test_fuzz_inspect_chat_template(text):
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "ckpt"
        shutil.copytree(QWEN3, d)
        (d / "chat_template.jinja").write_text(text)
        assert_contract("inspect chat template", Path(tmp), "inspect", [str(d)], "chat_template.jinja")


def test_fuzz_checkpoint_report(capsys):
    with capsys.disabled():
        print("\n" + report("config.json", "header", "template"))
