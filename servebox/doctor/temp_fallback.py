"""A socket path too long because the temporary folder was unusable, not because TMPDIR is deep (learn49a).

vLLM 0.32 binds its ZMQ ipc sockets at VLLM_RPC_BASE_PATH/<uuid4>, the base defaulting to tempfile.gettempdir().
CPython's tempfile tries $TMPDIR, $TEMP, $TMP, /tmp, /var/tmp, /usr/tmp and, last, the working directory. On a
read-only root with no writable /tmp and no TMPDIR (docker run --read-only without --tmpfs /tmp), it falls back to
the working directory without a word, and a socket path there can pass the 107 bytes a socket address holds. The
user's fix is then a writable /tmp, not a shorter TMPDIR: zmq-ipc-path-too-long's cause (a deep TMPDIR) names the
symptom. Told apart by what the log shows: a read-only root, no temporary folder given (no tmpfs on /tmp, no
TMPDIR / VLLM_RPC_BASE_PATH, no PrivateTmp=), and a socket folder that is none of the fixed candidates.
fresh-437's fresh437-container-vllm-read-only-root-no-tmpfs-tmp.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis
    from servebox.doctor.triage import Triage

TOO_LONG = "zmq-ipc-path-too-long"
READ_ONLY_ROOT, TEMP_GIVEN = "read-only-root-shown", "temp-folder-given"
FIXED_CANDIDATES = ("/tmp", "/var/tmp", "/usr/tmp")  # Lib/tempfile.py _candidate_tempdir_list on POSIX
IPC_PATH = re.compile(r'ipc path "(?P<path>/[^"]+)"')
CAUSE = answer_text("temp_fallback", "cause")
FIX = answer_text("temp_fallback", "fix")


def fallen_back_folder(t: Triage, d: Diagnosis) -> str | None:
    """The folder of the too-long socket path where the log shows the fallback (see the module's docstring)."""
    if d.id != TOO_LONG or READ_ONLY_ROOT not in t.hits or TEMP_GIVEN in t.hits:
        return None
    for ev in d.evidence:
        if (m := IPC_PATH.search(ev.text)) is not None:
            folder = m.group("path").rsplit("/", 1)[0] or "/"
            return None if folder in FIXED_CANDIDATES else folder
    return None


def temp_fell_back(t: Triage, diagnoses: list[Diagnosis]) -> None:
    """zmq-ipc-path-too-long becomes read-only-filesystem, with the fallback named, where the temporary folder was
    unusable (fallen_back_folder): the fix is the writable /tmp that read-only-filesystem's family names."""
    for d in diagnoses:
        if (folder := fallen_back_folder(t, d)) is not None:
            d.id, d.category = "read-only-filesystem", "sandbox"
            d.cause, d.fix = CAUSE.format(folder=folder), FIX
