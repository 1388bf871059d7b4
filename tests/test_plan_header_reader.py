"""The local safetensors header reader (no huggingface_hub) and what a whole `servebox plan` imports.

Issue 11: one plan under 0.5 s as a whole command; importing huggingface_hub.utils for local headers cost
~0.23 s of it. These tests pin the behaviour (the same answers, the same one-line errors) and that a local
plan never imports huggingface_hub, without timing anything (the machine is shared)."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from servebox.checkpoint.safetensors_header import read_local_header
from servebox.errors import InputError

REPO = Path(__file__).resolve().parent.parent
QWEN = REPO / "tests" / "fixtures" / "checkpoints" / "qwen3.5-27b"


def shard(tmp_path: Path, raw: bytes) -> Path:
    path = tmp_path / "model.safetensors"
    path.write_bytes(raw)
    return path


def framed(header: dict) -> bytes:
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw


def test_a_valid_header_reads_as_huggingface_hub_read_it(tmp_path):
    header = {
        "__metadata__": {"format": "pt"},
        "a": {"dtype": "BF16", "shape": [2, 3], "data_offsets": [0, 12]},
        "b": {"dtype": "F4", "shape": [4], "data_offsets": [12, 14]},
    }
    meta = read_local_header(shard(tmp_path, framed(header) + b"\0" * 14))
    assert meta.metadata == {"format": "pt"}
    assert meta.tensors["a"].shape == [2, 3] and meta.tensors["a"].parameter_count == 6
    assert list(meta.tensors["b"].data_offsets) == [12, 14]


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (b"\x01\x02", "header length", "too small"),
        (struct.pack("<Q", 2**40) + b"{}", "header length", "more than any real header"),
        (struct.pack("<Q", 50) + b"{}", "header length", "truncated"),
        (struct.pack("<Q", 5) + b"{abc}", "header", "not valid JSON"),
        (struct.pack("<Q", 2) + b"[]", "header", "JSON object"),
        (framed({"w": {"dtype": "BF16", "shape": [1]}}), "tensor 'w'", "data_offsets"),
        (struct.pack("<Q", 3) + b'"\xff"', "header", "UTF-8"),
    ],
    ids=["short", "huge-length", "truncated", "bad-json", "not-object", "missing-field", "not-utf8"],
)
def test_bad_headers_are_one_named_field(tmp_path, raw, field, words):
    with pytest.raises(InputError) as err:
        read_local_header(shard(tmp_path, raw))
    text = str(err.value)
    assert "model.safetensors" in text and field in text and words in text, text


def test_a_local_plan_never_imports_huggingface_hub():
    """huggingface_hub stays for hub ids only; a local plan must not pay its import."""
    code = (
        "import sys\n"
        "from servebox.cli import main\n"
        f"sys.argv = ['servebox', 'plan', {str(QWEN)!r}, '--gpu', 'h100-80gb', '--json']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('\\nHF', any(m.startswith('huggingface_hub') for m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    assert out.rstrip().endswith("HF False"), out[-300:]
    plan = json.loads(out[: out.rindex("\nHF")])
    assert plan["model_loading_gib"] > 10  # the headers were read: the plan has the real weights
