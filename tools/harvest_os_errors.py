"""Harvest the OS-error vocabulary a GPU serving box prints into benchmarks/data/os_errors.json.

Why: a third of doctor's unseen misses were codes of a standard vocabulary no family knew; this takes
three such vocabularies from their authoritative sources so benchmarks/doctor_coverage_os_errors.py can
measure how much of each doctor names:
  errno  every name and text of this machine's libc (Python's errno.errorcode and os.strerror, glibc's
         version recorded), with Go's lower-case texts from Go's syscall table (transcribed below from
         golang/go src/syscall/zerrors_linux_amd64.go, the `errors` table; texts only, no code);
  gai    every EAI_ code of Python's socket module with glibc's gai_strerror text (ctypes), plus Go's
         resolver texts (net/dnsclient_unix.go, net/net.go: errNoSuchHost, errServerMisbehaving, i/o timeout);
  xid    the NVIDIA kernel driver's Xid events a serving box meets, hand-entered from NVIDIA's Xid catalogue
         (XID_SOURCE; the search tool shows excerpts only, so the rows are a subset, not the whole table),
         and the NVML / kernel-module version-mismatch lines.
Run: python tools/harvest_os_errors.py [--out PATH]
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import json
import os
import platform
import socket
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "os_errors.json"
GO_SOURCE = "golang/go src/syscall/zerrors_linux_amd64.go (commit 2bd616b1), the `errors` table"
XID_SOURCE = "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html"
PAGE_RETIREMENT = "https://docs.nvidia.com/deploy/dynamic-page-retirement/visibility.html"

# How programs print each code; where each format comes from.
FORMATS = {
    "python": ("{cls}: [Errno {code}] {text}: '{path}'", "CPython Objects/exceptions.c OSError_str "
               "('[Errno %S] %S: %R'), the last line of a traceback names the OSError subclass"),
    "c": ("{prog}: {text}", "glibc perror(3) ('%s: %s\\n'); strerror(3) gives the text"),
    "go_open": ("open {path}: {go_text}", "Go os.PathError.Error() (io/fs: op + ' ' + path + ': ' + err)"),
    "go_dial": ("dial tcp {addr}: connect: {go_text}", "Go net.OpError.Error() around os.SyscallError('connect')"),
    "gai_python": ("socket.gaierror: [Errno {code}] {text}", "CPython Modules/socketmodule.c set_gaierror "
                   "(gai_strerror text, code as Errno)"),
    "go_lookup": ("dial tcp: lookup {host} on {server}: {go_text}", "Go net.DNSError.Error() "
                  "('lookup ' + name + ' on ' + server + ': ' + err) inside net.OpError"),
    "xid": ("NVRM: Xid (PCI:{pci}): {code}, pid={pid}, name={name}, {text}", "NVIDIA kernel driver "
            "src/nvidia/src/kernel/gpu/rc/kernel_rc.c ('NVRM: Xid (PCI:%04x:%02x:%02x): %d, pid=%s, name=%s, %s')"),
    "kernel": ("{text}", "the NVIDIA kernel module's own lines, in the journal as 'kernel: ' lines (dmesg)"),
    "nvidia_smi": ("{text}", "nvidia-smi / NVML's nvmlErrorString, printed alone"),
}  # fmt: skip

# Go's text is glibc's with the first letter lower-cased, except these (Go's table, read in full: codes 1-132;
# 133 is not in it, so Go prints "errno 133")
GO_TEXT = {"ESTALE": "stale NFS file handle", "EDOTDOT": "RFS specific error", "EHWPOISON": "errno 133"}
SOCKET_ERRNOS = {
    "ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN",
    "EHOSTDOWN", "EADDRINUSE", "EADDRNOTAVAIL", "EAFNOSUPPORT", "EPIPE", "ENOTCONN", "ESHUTDOWN",
    "EPROTONOSUPPORT", "ENOBUFS", "EMSGSIZE", "EINPROGRESS", "EALREADY", "EISCONN", "ENETRESET",
}  # fmt: skip

# Go's own resolver errors (net/net.go, net/dnsclient_unix.go)
GO_DNS = [
    ("errNoSuchHost", "no such host"),
    ("errServerMisbehaving", "server misbehaving"),
    ("timeout", "i/o timeout"),
]

# Xid rows a serving box meets: (code, mnemonic, description or the driver's message text, immediate action).
# Hand-entered for XID_SOURCE (Ampere and newer): only rows 1-8 and 43 (and 41, not listed: a copy engine)
# showed in the search tool's excerpts of that page; the other mnemonics and actions are entered from memory
# of the catalogue and are NOT verified here (check them against its spreadsheet). 48/63/64 per
# PAGE_RETIREMENT. The families key on the code only, never on these texts.
XID = [
    (8, "ROBUST_CHANNEL_FIFO_ERROR_IDLE_TIMEOUT", "GPU stopped processing", "RESTART_APP"),
    (13, "ROBUST_CHANNEL_GR_EXCEPTION", "Graphics Engine Exception", "RESTART_APP"),
    (31, "ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT", "GPU memory page fault", "RESTART_APP"),
    (32, "ROBUST_CHANNEL_PBDMA_ERROR", "Invalid or corrupted push buffer stream", "RESTART_APP"),
    (38, "ROBUST_CHANNEL_FECS_ERR_UNIMP_FIRMWARE_METHOD", "Driver firmware error", "RESTART_APP"),
    (43, "ROBUST_CHANNEL_RESETCHANNEL_VERIF_ERROR", "GPU stopped processing", "RESTART_APP"),
    (44, "ROBUST_CHANNEL_GR_FAULT_DURING_CTXSW", "Graphics Engine fault during context switch", "RESTART_APP"),
    (45, "ROBUST_CHANNEL_PREEMPTIVE_REMOVAL", "Preemptive cleanup, due to previous errors", "IGNORE"),
    (46, "ROBUST_CHANNEL_NVENC0_ERROR", "GPU stopped processing", "RESET_GPU"),
    (48, "ROBUST_CHANNEL_DBE", "An uncorrectable double bit error (DBE) has been detected on GPU", "RESET_GPU"),
    (61, "PMU_BREAKPOINT", "Internal micro-controller breakpoint/warning", "RESET_GPU"),
    (62, "PMU_HALT_ERROR", "Internal micro-controller halt", "RESET_GPU"),
    (63, "INFOROM_DRAM_RETIREMENT_EVENT", "Row Remapper: New row marked for remapping, reset gpu to activate.",
     "RESET_GPU"),
    (64, "INFOROM_DRAM_RETIREMENT_FAILURE", "Row Remapper: Fatal error, unable to remap row", "RESET_GPU"),
    (69, "ROBUST_CHANNEL_GR_CLASS_ERROR", "Graphics Engine class error", "RESTART_APP"),
    (74, "NVLINK_ERROR", "NVLink: fatal error detected on link", "RESET_GPU"),
    (79, "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS", "GPU has fallen off the bus.", "RESTART_BM"),
    (92, "EXCESSIVE_SBE_INTERRUPTS", "High single-bit ECC error rate", "IGNORE"),
    (94, "ROBUST_CHANNEL_CONTAINED_ERROR", "Contained: SM (0x1). RST: No, D-RST: No", "RESTART_APP"),
    (95, "ROBUST_CHANNEL_UNCONTAINED_ERROR", "Uncontained: FBHUB. RST: Yes, D-RST: No", "RESET_GPU"),
    (109, "ROBUST_CHANNEL_CTXSW_TIMEOUT_ERROR", "Context Switch Timeout Error", "RESTART_APP"),
    (119, "GSP_RPC_TIMEOUT", "Timeout after 6s of waiting for RPC response from GPU0 GSP! "
     "Expected function 76 (GSP_RM_CONTROL) (0x20800a4c 0x4).", "RESET_GPU"),
    (120, "GSP_ERROR", "GSP Error: Task 1 raised error code 0x5 for reason 0x0", "RESET_GPU"),
    (140, "ROBUST_CHANNEL_UNRECOVERED_ECC", "Unrecovered ECC Error", "RESET_GPU"),
    (143, "GPU_INIT_ERROR", "GPU Initialization Failure", "RESET_GPU"),
    (154, "GPU_RECOVERY_ACTION_CHANGED", "GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)",
     "RESET_GPU"),
]  # fmt: skip
# Version mismatches between the kernel module and the user-space libraries (NVML, the driver's own check)
NVIDIA_LINES = [
    ("nvml-mismatch", "nvidia_smi", "Failed to initialize NVML: Driver/library version mismatch"),
    ("rm-api-mismatch", "kernel", "NVRM: API mismatch: the client has the version 550.127.05, but\n"
     "NVRM: this kernel module has the version 550.90.07.  Please\n"
     "NVRM: make sure that this kernel module and all NVIDIA driver\n"
     "NVRM: components have the same version."),
]  # fmt: skip


def errno_entries() -> list[dict]:
    out = []
    for code, name in sorted(errno.errorcode.items()):
        text = os.strerror(code)
        cls = type(OSError(code, text, "x")).__name__
        printers = ["python", "c", "go_dial" if name in SOCKET_ERRNOS else "go_open"]
        out.append({
            "part": "errno", "code": code, "name": name, "text": text, "python_class": cls,
            "go_text": GO_TEXT.get(name, text[:1].lower() + text[1:]), "printers": printers,
        })  # fmt: skip
    return out


def gai_entries() -> list[dict]:
    libc = ctypes.CDLL(None)
    libc.gai_strerror.restype = ctypes.c_char_p
    out = []
    for name in sorted(n for n in dir(socket) if n.startswith("EAI_")):
        code = getattr(socket, name)
        text = libc.gai_strerror(code).decode()
        out.append({"part": "gai", "code": code, "name": name, "text": text, "printers": ["gai_python"]})
    for name, text in GO_DNS:
        out.append({"part": "gai", "code": None, "name": f"go.{name}", "text": text, "go_text": text,
                    "printers": ["go_lookup"]})  # fmt: skip
    return out


def xid_entries() -> list[dict]:
    out = [
        {"part": "xid", "code": code, "name": name, "text": text, "action": action, "printers": ["xid"]}
        for code, name, text, action in XID
    ]
    for name, printer, text in NVIDIA_LINES:
        out.append({"part": "xid", "code": None, "name": name, "text": text, "printers": [printer]})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    entries = errno_entries() + gai_entries() + xid_entries()
    doc = {
        "about": "OS-error vocabulary (errno, getaddrinfo, NVIDIA Xid) as a serving box prints it; "
        "made by tools/harvest_os_errors.py for benchmarks/doctor_coverage_os_errors.py.",
        "sources": {
            "errno": f"Python {platform.python_version()} errno/os.strerror on {' '.join(platform.libc_ver())}",
            "go": GO_SOURCE,
            "gai": f"socket.EAI_* and ctypes gai_strerror on {' '.join(platform.libc_ver())}",
            "xid": f"{XID_SOURCE} (subset, hand-entered; mnemonics beyond 1-8/43 unverified); {PAGE_RETIREMENT}",
        },
        "formats": {k: {"format": f, "from": src} for k, (f, src) in FORMATS.items()},
        "entries": entries,
    }
    lines = ",\n".join(json.dumps(e) for e in entries)
    head = json.dumps({k: v for k, v in doc.items() if k != "entries"})[:-1]
    a.out.write_text(f'{head}, "entries": [\n{lines}\n]}}\n')
    print(f"{len(entries)} entries -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
