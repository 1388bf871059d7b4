"""Families grown from the OS-error vocabulary (errno, getaddrinfo, NVIDIA Xid; knowledge/os-errors.toml and the
Xid block of gpu-kernels.toml; benchmarks/doctor_coverage_os_errors.py).

Each case is a line in one printer's format (Python, C's perror, Go, the driver's journal line) with values
unlike the entry's excerpt; the negatives pin that prose using the same words, and Xids that are leads, do not
take the answer from a cause.
"""

from __future__ import annotations

import io

import pytest

from servebox.doctor.triage import triage_stream
from tests.conftest import load_script

J = "Dec 03 13:00:00 gpubox kernel: "


def top(text: str):
    r = triage_stream(io.StringIO(text if text.endswith("\n") else text + "\n"), "t")
    return r.diagnoses[0] if r.diagnoses else None


CASES = [
    ("nfs-stale-file-handle", "open /mnt/share/llm/qwen3-14b-q5_k_m.gguf: stale NFS file handle"),
    ("nfs-stale-file-handle", "/mnt/share/llm/tokenizer.json: Stale file handle"),
    ("disk-quota-exceeded", "write /home/ops/.cache/llama.cpp/model.gguf.downloadInProgress: disk quota exceeded"),
    ("cross-device-rename", "OSError: [Errno 18] Invalid cross-device link: '/tmp/x.part' -> '/data/hf/blobs/ab12'"),
    ("executable-busy", "OSError: [Errno 26] Text file busy: '/usr/local/bin/llama-server'"),
    ("path-name-too-long", "open /var/cache/x/aaaaaaaaaaaaaaaaaaaaaaaa.json: file name too long"),
    ("storage-io-error", "read /mnt/nfs/llm/qwen3-14b-q5_k_m.gguf: input/output error"),
    ("network-unreachable", "dial tcp [2606:4700::6812:1b2c]:443: connect: network is unreachable"),
    ("dns-lookup-timeout", "Error: Get https://huggingface.co/api/models: dial tcp: lookup huggingface.co on 10.0.0.1:53: i/o timeout"),
    ("dns-server-failure", "urllib3: Failed to resolve 'hf.co' ([Errno -4] Non-recoverable failure in name resolution)"),
    ("host-memory-exhausted", "fork/exec /opt/llama/llama-server: cannot allocate memory"),
    ("system-file-table-full", "socket: Too many open files in system"),
    ("xid-gpu-fell-off-bus", J + "NVRM: Xid (PCI:0000:c1:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."),
    ("xid-gpu-fell-off-bus", J + "NVRM: GPU 0000:c1:00.0: GPU has fallen off the bus."),
    ("xid-uncorrectable-ecc", J + "NVRM: Xid (PCI:0000:41:00): 95, pid=9911, name=llama-server, Uncontained: LTC. RST: Yes, D-RST: No"),
    ("xid-contained-ecc", J + "NVRM: Xid (PCI:0000:41:00): 94, pid=9911, name=VLLM::EngineCor, Contained: SM (0x1). RST: No, D-RST: No"),
    ("xid-gsp-firmware", J + "NVRM: Xid (PCI:0000:41:00): 119, pid=9911, name=nvidia-smi, Timeout after 45s of waiting for RPC response from GPU1 GSP!"),
    ("driver-module-version-mismatch", J + "NVRM: API mismatch: the client has the version 570.86.15, but"),
]  # fmt: skip


@pytest.mark.parametrize(("family", "line"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_printer_forms_are_named(family: str, line: str) -> None:
    d = top(line)
    assert d is not None and d.id == family, (line, d and d.id)


def test_an_application_xid_is_a_lead_below_the_cause() -> None:
    """An illegal-address Xid is a symptom: the fault's cause, when the log has it, stays on top."""
    d = top(J + "NVRM: Xid (PCI:0000:41:00): 13, pid=9911, name=python3, Graphics SM Warp Exception")
    assert d.id == "xid-application-fault" and d.role == "symptom" and d.confidence < 0.7
    d = top(J + "NVRM: Xid (PCI:0000:41:00): 45, pid=9911, name=python3, Ch 00000010\n"
            + J + "NVRM: Xid (PCI:0000:41:00): 48, pid=9911, name=python3, An uncorrectable double bit error")  # fmt: skip
    assert d.id == "xid-uncorrectable-ecc"


@pytest.mark.parametrize(
    "line",
    [
        "INFO: retrying after a connection refused by the proxy is normal",
        "the model was saved; no space, no quota, no input/output error reported",
        "INFO 12-03 13:00:00 [loader.py:42] symbolic links in the cache are resolved",
        "Xid errors are logged by the NVIDIA driver",
    ],
)
def test_prose_does_not_wake_the_families(line: str) -> None:
    # the general reader may quote a line that says "error" (statement.py); no family may claim it
    d = top(line)
    assert d is None or (d.id == "stated-cause" and d.confidence < 0.7)


def test_symptoms_stay_under_the_confident_line() -> None:
    """ECONNREFUSED / ECONNRESET / EPERM / ENOENT say where to look, never a confident cause."""
    for line in (
        "ConnectionRefusedError: [Errno 111] Connection refused",
        "write tcp 127.0.0.1:8080->127.0.0.1:51234: write: broken pipe",
        "PermissionError: [Errno 1] Operation not permitted",
        "open /srv/models/x.gguf: no such file or directory",
    ):
        d = top(line)
        assert d is not None and d.confidence < 0.7, (line, d and d.id)


def test_coverage_benchmark_reads_only_its_catalogue() -> None:
    bench = load_script("benchmarks/doctor_coverage_os_errors.py")
    doc = __import__("json").loads(bench.DATA.read_text())
    lines = list(bench.rows(doc, ("xid",)))
    assert lines and all(line.startswith(bench.JOURNAL) for e, p, line in lines if p == "xid")
    py = [line for e, p, line in bench.rows(doc, ("errno",)) if p == "python" and e["name"] == "ENOENT"]
    assert py == [
        "FileNotFoundError: [Errno 2] No such file or directory: '/srv/models/Qwen3-8B/model-00002-of-00004.safetensors'"
    ]
