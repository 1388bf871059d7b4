"""What fresh-511 and fresh-513 (first contact) taught, each on logs written here from the programs' own wordings
(llama.cpp b11434's common/arg.cpp, checked on .llama-cpp/bin/llama-server; vLLM 0.32's path refusals; systemd 252's
"%s exited, code=%s, status=%i/%s" and `systemctl status`'s "(code=killed, signal=TERM)"), not the batches' logs.

- path-tilde-not-expanded reads the 'not a directory' refusals when the refused path itself begins with '~' (fresh-513's
  llama-06-slot-save-path-quoted-tilde, read as llamacpp-arg-file-unreadable 0.85): arg.cpp's --slot-save-path /
  --media-path 'not a directory: ~/slots', Python's '[Errno 20] Not a directory: '~/x'', vLLM's 'snapshot path is not
  a directory: ~/x' and '~/x is not a directory', Go's 'stat ~/x: not a directory'. The quoted tilde is the cause, the
  missing folder its consequence; a '~' inside a path (/srv/a~b) or an absolute path stays the folder family's.
- shutdown-requested reads systemd's record of a SIGINT / SIGTERM death ('Main process exited, code=killed,
  status=2/INT' or '15/TERM', `systemctl status`'s '(code=killed, signal=INT)') as the asked-for stop (fresh-511's
  llama-ctrl-c-start-journal-short, read as systemd-main-killed-by-signal 0.30): where the server had not come up, the
  stop ended the start at 0.50 (inferred: systemd names the signal, not who sent it). KILL, SEGV, ABRT, QUIT stay their
  families', and a TERM that systemd's own start timeout sent stays systemd-start-timeout's.
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import answer_ids, run, top_cause

TILDE = "path-tilde-not-expanded"
USAGE = "\nusage:\n--slot-save-path PATH                   path to save slot kv cache (default: disabled)\n\n"


def _refused(flag: str, path: str) -> str:
    return (
        f"$ llama-server -m /srv/models/qwen3-0.6b-q8_0.gguf --port 8080 {flag} '{path}'\n"
        f'error while handling argument "{flag}": not a directory: {path}\n' + USAGE
    )


@pytest.mark.parametrize(
    "log",
    [
        _refused("--slot-save-path", "~/slots"),
        _refused("--media-path", "~/media/"),
        _refused("--slot-save-path", "~llama/kv"),
        # a unit's ExecStart= (no shell): the journal's prefix before llama-server's words
        'Dec 07 21:06:56 gpu-box llama-server[2214]: error while handling argument "--slot-save-path": not a directory:'
        " ~/.cache/llama/slots\n",
        # Python's NotADirectoryError, vLLM 0.32's snapshot/manifest.py and weight cache wordings
        "NotADirectoryError: [Errno 20] Not a directory: '~/models/qwen3/config.json'\n",
        "vllm.snapshot.manifest.SnapshotSecurityError: snapshot path is not a directory: ~/snapshots/run1\n",
        "WeightCacheUnavailableError: ~/.cache/vllm/weights is not a directory\n",
        # a Go program's (llama-swap's) stat of its configured folder
        "error: stat ~/llama/models: not a directory\n",
    ],
)
def test_a_refused_folder_that_begins_with_a_tilde_is_the_tilde(log):
    top = top_cause(run(log))
    assert top.id == TILDE and top.confidence >= CONFIDENT, [(d.id, d.confidence) for d in run(log).diagnoses]
    assert "'~'" in top.cause and "absolute path" in top.fix


def test_the_folder_family_is_hidden_behind_the_tilde():
    ids = answer_ids(_refused("--slot-save-path", "~/slots"))
    assert (
        ids[0] == TILDE
        and "llamacpp-arg-file-unreadable" not in ids
        and "llamacpp-invalid-argument" not in ids
    )


@pytest.mark.parametrize("path", ["/srv/a~b", "/var/lib/llama/slots", "slots~old"])
def test_near_miss_a_path_without_a_leading_tilde_stays_the_folder_family(path):
    ids = answer_ids(_refused("--slot-save-path", path))
    assert ids[0] == "llamacpp-arg-file-unreadable" and TILDE not in ids


def test_near_miss_a_healthy_slot_folder_is_no_tilde():
    log = (
        "$ llama-server -m ~/models/qwen3.gguf --slot-save-path ~/slots\n"
        "0.00.010.304 I srv  llama_server: initializing ...\n"
        "0.00.420.100 I srv  llama_server: server is listening on http://127.0.0.1:8080\n"
    )
    assert TILDE not in answer_ids(log)


STOP = "shutdown-requested"
J = "Dec 07 21:06:56 gpu-box systemd[1]: llama.service: "
LOADING = (
    "Dec 07 21:06:56 gpu-box systemd[1]: Started llama.service - llama-server.\n"
    "Dec 07 21:06:56 gpu-box llama-server[2214]: 0.00.010.304 I srv  llama_server: initializing ...\n"
    "Dec 07 21:06:56 gpu-box llama-server[2214]: 0.00.018.989 I srv    load_model: loading model"
    " '/srv/models/qwen3-0.6b-q8_0.gguf'\n"
)


@pytest.mark.parametrize(
    "death",
    [
        J + "Main process exited, code=killed, status=2/INT\n" + J + "Failed with result 'signal'.\n",
        J + "Main process exited, code=killed, status=15/TERM\n" + J + "Failed with result 'signal'.\n",
        "     Main PID: 2214 (code=killed, signal=INT)\n",
        "      Process: 2214 ExecStart=/usr/local/bin/llama-server -m /srv/models/q.gguf (code=killed, signal=TERM)\n",
    ],
)
def test_a_stop_signal_systemd_records_mid_start_is_the_stop_inferred(death):
    r = run(LOADING + death)
    top = top_cause(r)
    assert top.id == STOP and top.confidence < CONFIDENT, [(d.id, d.role, d.confidence) for d in r.diagnoses]
    assert "still starting" in top.cause and "signal" in top.fix
    assert all(d.confidence < CONFIDENT for d in r.diagnoses)


def test_the_same_death_with_a_ctrl_c_in_view_is_the_stop_too():
    log = LOADING + J + "Main process exited, code=killed, status=2/INT\n\n# and from my terminal:\n^C\n"
    assert answer_ids(log)[0] == STOP


def test_a_term_after_the_server_came_up_is_no_failure():
    log = (
        LOADING
        + "Dec 07 21:07:10 gpu-box llama-server[2214]: 0.14.201.020 I srv  llama_server: server is listening on"
        " http://127.0.0.1:8080\n" + J + "Main process exited, code=killed, status=15/TERM\n"
    )
    r = run(log)
    assert all(not d.fatal for d in r.diagnoses), [(d.id, d.role, d.fatal) for d in r.diagnoses]


@pytest.mark.parametrize(
    "death,family",
    [
        ("Main process exited, code=killed, status=3/QUIT", "systemd-main-killed-by-signal"),
        ("Main process exited, code=dumped, status=11/SEGV", None),
        ("Main process exited, code=dumped, status=6/ABRT", None),
        ("Main process exited, code=killed, status=9/KILL", None),
    ],
)
def test_near_miss_other_signals_are_not_a_stop(death, family):
    ids = answer_ids(LOADING + J + death + "\n" + J + "Failed with result 'signal'.\n")
    assert ids[0] != STOP, ids
    if family:
        assert ids[0] == family


def test_near_miss_a_term_from_systemds_start_timeout_stays_the_timeout():
    log = (
        LOADING
        + J
        + "Start operation timed out. Terminating.\n"
        + J
        + "Main process exited, code=killed, status=15/TERM\n"
        + J
        + "Failed with result 'timeout'.\n"
    )
    top = top_cause(run(log))
    assert top.id == "systemd-start-timeout" and "TimeoutStartSec=" in top.fix
