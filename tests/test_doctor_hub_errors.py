"""What fetching and opening a checkpoint prints (huggingface_hub, transformers, gguf) as doctor names it.

The messages are the real libraries' (benchmarks/data/hub_errors.json, executed by
tools/harvest_hub_errors.py: huggingface_hub 2.4.0, transformers 5.19.0, gguf 0.19.0). The cases that
could go wrong: a 401 for a missing repo is not a bad token, a 5xx or 403 from another server (the
engine's own API, a proxy in a test) is not the hub's, and a bare 404 with no hub reason stays a symptom.
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.conftest import load_script
from tests.doctor_text import run, top_cause

BENCH = load_script("benchmarks/doctor_coverage_hub_errors.py")
CATALOGUE = BENCH.json.loads(BENCH.DATA.read_text())["entries"]
ENTRIES: dict[str, dict] = {}
for _e in CATALOGUE:  # the first of a name: safetensors' git-lfs-pointer before gguf's
    ENTRIES.setdefault(_e["name"], _e)

# (catalogue entry, expected top family, confident)
CASES = [
    ("repo-not-found-401", "gated-repo", True),
    ("bad-token-401", "hub-token-invalid", True),
    ("cached_file/bad-token-401", "hub-token-invalid", True),
    ("forbidden-403", "hub-token-forbidden", True),
    ("disabled", "hub-repo-disabled", True),
    # named, but not confident: the corpus's one log with these words was a vLLM without GGUF support reading a
    # .gguf repo (shared_wording.py caps the family at 0.67)
    ("entry-not-found", "hub-entry-not-found", False),
    ("not-found-404", "hub-http-not-found", False),
    ("rate-limit-429", "hub-rate-limited", True),
    ("cached_file/unavailable-503", "hub-server-error", True),
    ("offline mode is enabled@294", "hub-offline", True),
    # named, but not confident (after35e, fresh-205 draws 9 and 13: the same log): snapshot_download's offline 'Cannot
    # find an appropriate cached snapshot folder' cannot tell a repo never cached where the process reads from
    # refs/main naming a missing snapshot
    ("uncached-snapshot", "hub-offline", False),
    ("Not enough free disk space@773", "hub-disk-space-low", True),
    ("backend-missing/sentencepiece", "tokenizer-backend-missing", True),
    ("backend-missing/protobuf", "tokenizer-backend-missing", True),
    ("git-lfs-pointer", "weights-corrupt", True),  # the safetensors one (the gguf one is renamed below)
    ("invalid-dtype", "safetensors-dtype-unknown", True),  # not a corrupt file: a newer dtype
    ("version-1", "gguf-file-invalid", True),
    ("empty", "model-file-empty", True),
]


@pytest.mark.parametrize("fmt", ["traceback", "vllm-engine-core"])
@pytest.mark.parametrize("name, family, confident", CASES)
def test_the_catalogue_entry_is_named(name: str, family: str, confident: bool, fmt: str) -> None:
    top = top_cause(run(BENCH.render(fmt, ENTRIES[name]) + "\n"))
    assert top is not None and top.id == family, (name, top and top.id)
    assert (top.confidence >= CONFIDENT) is confident


def test_a_gguf_lfs_pointer_is_a_bad_gguf() -> None:
    gguf = next(e for e in CATALOGUE if e["lib"] == "gguf" and e["name"] == "git-lfs-pointer")
    assert gguf["message"] == "GGUF magic invalid"
    assert top_cause(run(BENCH.render("traceback", gguf) + "\n")).id == "gguf-file-invalid"


@pytest.mark.parametrize(
    "log",
    [
        # the engine's own API or another server answering 5xx/403/429: not the hub
        "httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://127.0.0.1:8000/v1/models'\n",
        "ERROR 403 Forbidden: request rejected by the proxy at http://10.0.0.5:3128\n",
        "aiohttp.ClientResponseError: 429, message='429 Too Many Requests', url='http://127.0.0.1:8080/v1/chat'\n",
    ],
)
def test_another_servers_http_error_is_not_the_hubs(log: str) -> None:
    ids = [d.id for d in run(log).diagnoses]
    assert not any(i.startswith("hub-") for i in ids), ids


def test_the_whole_catalogue_is_covered_where_plausible(capsys) -> None:
    """The committed catalogue, offline: every plausible entry is named (or, one bare 404, a symptom)."""
    assert BENCH.main(["--uncovered", "0"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "plausible (not skipped)" in x)
    named, symptom = int(line.split("named")[1].split()[0]), int(line.split("symptom")[1].split()[0])
    assert named >= 77 and symptom >= 1


def test_the_offline_text_alone_is_hub_offline() -> None:
    """vLLM may log the hub's message without its exception type (a warning, a wrapped error)."""
    log = (
        "WARNING 12-03 10:00:00 [weight_utils.py:87] Cannot find the requested files in the disk cache and"
        " outgoing traffic has been disabled. To enable hf.co look-ups and downloads online, set"
        " 'local_files_only' to False.\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "hub-offline"


@pytest.mark.parametrize("name", ["invalid-header-start", "invalid-header-json", "invalid-dtype"])
def test_safetensors_04_header_word_is_two_readings_not_a_confident_corruption(name: str) -> None:
    """safetensors 0.4.5 prints InvalidHeaderDeserialization for a cut header and for a dtype newer than it
    knows alike (executed on the wheel): a confident 'corrupt download' would be wrong for the second."""
    entry = next(e for e in CATALOGUE if e["lib"] == "safetensors-0.4.5" and e["name"] == name)
    top = top_cause(run(BENCH.render("traceback", entry) + "\n"))
    assert top.id == "safetensors-header-unreadable" and top.confidence < CONFIDENT
    assert "dtype" in top.cause and "sha256" in top.fix
