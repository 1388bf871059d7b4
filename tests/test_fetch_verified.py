"""fetch-model against the local hub (real HTTP, huggingface_hub's own download code): every file is
checked against the hub's hash (LFS sha256 for weights, git blob id for small files), so one flipped
byte of the right size is `complete: false` naming the file; a shard set with a missing shard or with
no weights at all is incomplete too (exit 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from tests.hub_server import FakeHub, git_blob_id

CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "hidden_size": 64,
    "num_hidden_layers": 1,
    "num_attention_heads": 4,
    "vocab_size": 32,
}


def fetch(hub: FakeHub, dest: Path, home: Path) -> tuple[int, dict]:
    env = {**os.environ, "HF_ENDPOINT": hub.url, "HF_HOME": str(home), "HF_HUB_DISABLE_XET": "1"}
    env.pop("HF_HUB_OFFLINE", None)
    proc = subprocess.run(
        [sys.executable, "-m", "servebox.cli", "fetch-model", "org/model", "--dir", str(dest), "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "config.json").write_text(json.dumps(CONFIG))
    save_file({"model.embed_tokens.weight": np.ones((32, 64), np.float16)}, root / "model.safetensors")
    return root


def test_git_blob_id_is_gits(tmp_path):
    """Both the local hub's and fetch-model's small-file hash are git's object id (`git hash-object`),
    which is what the real hub lists as blobId."""
    from servebox.deploy.fetch import git_blob_sha1

    out = subprocess.run(["git", "hash-object", "--stdin"], input=b"hello\n", capture_output=True, check=True)
    (tmp_path / "f").write_bytes(b"hello\n")
    assert git_blob_id(b"hello\n") == out.stdout.decode().strip() == git_blob_sha1(tmp_path / "f")


def test_a_clean_download_is_verified_file_by_file(repo, tmp_path):
    with FakeHub(repo) as hub:
        code, result = fetch(hub, tmp_path / "dl", tmp_path / "hf")
    assert code == 0 and result["complete"] and result["verified"] == 2 and result["problems"] == []


@pytest.mark.parametrize(
    ("name", "hash_kind"), [("model.safetensors", "sha256"), ("config.json", "git blob id")]
)
def test_a_flipped_byte_of_the_right_size_is_named(repo, tmp_path, name, hash_kind):
    offset = (repo / name).stat().st_size - 5  # in the tensor data / the JSON, size unchanged
    with FakeHub(repo, corrupt={name: offset}) as hub:
        code, result = fetch(hub, tmp_path / "dl", tmp_path / "hf")
    assert (tmp_path / "dl" / name).stat().st_size == (repo / name).stat().st_size
    assert code == 1 and result["complete"] is False
    assert [p.split(":")[0] for p in result["problems"]] == [name]
    assert f"{hash_kind} " in result["problems"][0] and "does not match the hub's" in result["problems"][0]


def test_a_shard_the_index_names_but_the_hub_lacks(repo, tmp_path):
    weight_map = {
        "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
        "lm_head.weight": "model-00002-of-00002.safetensors",
    }
    (repo / "model.safetensors").rename(repo / "model-00001-of-00002.safetensors")
    (repo / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    with FakeHub(repo) as hub:
        code, result = fetch(hub, tmp_path / "dl", tmp_path / "hf")
    assert code == 1 and result["problems"] == [
        "model-00002-of-00002.safetensors: named by model.safetensors.index.json but missing"
    ]


def test_a_repo_without_weights_is_not_complete(repo, tmp_path):
    (repo / "model.safetensors").unlink()
    with FakeHub(repo) as hub:
        code, result = fetch(hub, tmp_path / "dl", tmp_path / "hf")
    assert code == 1 and result["problems"] == [
        "no weight files (.safetensors, .bin, .gguf): not a complete checkpoint"
    ]
