"""What the measured batch fresh-369 (around the engines re-draw round 9) taught, with each miss's neighbourhood in the
programs' own texts.

- no-usable-temporary-directory (new): CPython's Lib/tempfile.py _get_default_tempdir() 'No usable temporary directory
  found in %s' % dirlist (Python 3's FileNotFoundError, Python 2's IOError), coreutils mktemp's 'failed to create file
  via template %s' / 'failed to create directory via template %s' and gcc's libiberty make_temp_file 'Cannot create
  temporary file in %s: %s'; a read-only /tmp shown in the log stays read-only-filesystem's.
- systemd-groups-comma-list: systemd 252's user-util.c 'Accepting user/group name '%s', which does not match strict
  user/group name rules.' for a list written with ';' as for ','.
Every message below is rendered from those format strings (marked so), not copied from the corpus log.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

VLLM = "$ vllm serve /models/qwen2.5-0.5b-instruct --port 8000\n"
TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.12/dist-packages/dill/session.py", line 25, in <module>\n'
    "    TEMPDIR = pathlib.PurePath(tempfile.gettempdir())\n"
    '  File "/usr/lib/python3.12/tempfile.py", line 226, in _get_default_tempdir\n'
    "    raise FileNotFoundError(_errno.ENOENT,\n"
)
UNIT = "/etc/systemd/system/vllm.service"


def groups(value: str, name: str) -> str:
    """A unit with SupplementaryGroups=VALUE and systemd-analyze verify's notice (user-util.c, rendered)."""
    return (
        f"$ cat {UNIT}\n[Service]\nUser=vllm\nSupplementaryGroups={value}\nExecStart=/opt/vllm/bin/vllm serve /m\n"
        f"$ systemd-analyze verify {UNIT}\n"
        f"Accepting user/group name '{name}', which does not match strict user/group name rules.\n# exit: 0\n"
    )


CASES = [
    # Python 3 with TMPDIR pointing at a folder that is not there (rendered: the list tempfile builds)
    (
        "no-usable-temporary-directory",
        "$ TMPDIR=/scratch/tmp "
        + VLLM[2:]
        + TRACE
        + "FileNotFoundError: [Errno 2] No usable temporary directory "
        "found in ['/scratch/tmp', '/tmp', '/var/tmp', '/usr/tmp', '/workspace']\n",
    ),
    # Python 2's wording of the same check (IOError), as an old helper script prints it (rendered)
    (
        "no-usable-temporary-directory",
        "$ python2 fetch_weights.py\nTraceback (most recent call last):\n"
        '  File "/usr/lib/python2.7/tempfile.py", line 275, in _get_default_tempdir\n'
        "IOError: [Errno 2] No usable temporary directory found in ['/tmp', '/var/tmp', '/usr/tmp', '/']\n",
    ),
    # coreutils mktemp in an entrypoint script, C locale quotes (rendered)
    (
        "no-usable-temporary-directory",
        "$ docker run --user 1001 llm-image\n+ tmp=$(mktemp)\n"
        "mktemp: failed to create file via template '/tmp/tmp.XXXXXXXXXX': Permission denied\n",
    ),
    # ... a directory with a UTF-8 locale's quotes (rendered)
    (
        "no-usable-temporary-directory",
        "+ work=$(mktemp -d)\nmktemp: failed to create directory via template \u2018/tmp/tmp.XXXXXXXXXX\u2019: "
        "Permission denied\n",
    ),
    # gcc's make_temp_file while a compile step runs (libiberty, rendered)
    (
        "no-usable-temporary-directory",
        "$ gcc -O3 -shared -fPIC cuda_utils.c -o cuda_utils.so\nCannot create temporary file in /var/tmp/: No such "
        "file or directory\n",
    ),
    # a semicolon list with spaces (the first word keeps its ';') and a three-name list
    ("systemd-groups-comma-list", groups("video; render", "video;")),
    ("systemd-groups-comma-list", groups("render;video;audio", "render;video;audio")),
]

NEAR_MISSES = [
    # mktemp on a full disk is the disk's, not a missing temporary folder
    (
        "no-usable-temporary-directory",
        "+ tmp=$(mktemp /data/out.XXXXXX)\n"
        "mktemp: failed to create file via template '/data/out.XXXXXX': No space left on device\n",
    ),
    # torch.hub's own 'No usable temporary file name found' (every random name taken) is another refusal
    (
        "no-usable-temporary-directory",
        "FileExistsError: [Errno 17] No usable temporary file name found\n",
    ),
    # under ProtectSystem=strict the read-only /tmp is read-only-filesystem's
    (
        "no-usable-temporary-directory",
        f"$ cat {UNIT}\n[Service]\nProtectSystem=strict\nExecStart=/opt/vllm/bin/vllm serve /m\n"
        + TRACE
        + "FileNotFoundError: [Errno 2] No usable temporary directory found in ['/tmp', '/var/tmp', '/usr/tmp', '/']\n",
    ),
    # a dotted or realm name is a real name outside the strict rules, no list
    ("systemd-groups-comma-list", groups("ml.team", "ml.team")),
    ("systemd-groups-comma-list", groups("gpu@CORP.EXAMPLE", "gpu@CORP.EXAMPLE")),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
