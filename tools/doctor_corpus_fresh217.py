"""fresh-217: an unseen made-here batch, llama-server (the real 11434.0.0): a THIRD round of FILES AND FOLDERS that
llama-server's ARGUMENTS NAME, drawn only from conditions batches fresh-200 and fresh-211 did not have.

What was drawn from: CONDITIONS below (from CASES' keys), one per path-taking argument (or form of it) that those
batches did not draw: the model itself (-m a thing that is no regular file, a symlink gone wrong, a file still being
written, a path no shell expanded or split, a relative path from another working directory), --mmproj, --lora,
--control-vector, -md (draft), --log-file, --models-dir and --models-preset (router), and LLAMA_ARG_* environment forms.
Each value class is written from what a user does, not from what the engine is known to do.

Not drawn (read: tools/doctor_corpus_fresh200.py's and fresh211.py's CONDITIONS keys only, not their cases or logs):
--chat-template-file, --grammar-file, -jf, --api-key-file, --ssl-*, --media-path, -lcs/-lcd, GGUF templates, request
fields; and --slot-save-path (fresh-211 drew "a folder nobody may not write, the server as nobody, a slot save request",
so it is left out here although the brief named it). This build has no --model-vocab argument: left out too.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2217, CONDITIONS, 10): r = random.Random(2217), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary; a copy
in /tmp/fresh217/bin run through setpriv as nobody where permissions matter, as fresh-207 did) with -m the tiny GGUF
(corpus_tools.tiny_gguf) unless the case names the model otherwise, --host 127.0.0.1 --port 21321 -c 512 plus the
case's flags, in the case's own folder /tmp/fresh217/run/ID (or the working directory the case names), started, asked
and stopped with corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ ` and the variables set and the command
as a user pastes it (a `$ cd` line first where the working directory matters), the server's whole stdout+stderr, then
per request `# request: ...` and the reply's status line and first 1000 bytes. One server at a time. Ports 21320-21339.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh217.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh217")
RUN = WORK / "run"
BIN = WORK / "bin"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21321
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
NOBODY = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
CHAT = "/v1/chat/completions"


def chat(model: str = "tiny") -> tuple[str, dict]:
    return (CHAT, {"model": model, "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8})


MODELS = ("/v1/models", None)
D = "{d}"  # the case's own folder under RUN
G = "{g}"  # the tiny GGUF (WORK/tiny-f32.gguf)
INI_MISSING = "[tiny]\nmodel = {d}/models/gone.gguf\nctx-size = 512\n"


@dataclass
class Case:
    id: str
    flags: list[str]
    model: str | None = G  # -m VALUE; None: no -m at all
    calls: list = field(default_factory=lambda: [chat()])
    # files made in the case's folder: name -> "folder" | "gguf" | "half-gguf" | "head-gguf" | "unreadable-gguf"
    # | "fifo" | "loop" | "dangling" | "ro-folder" | text
    files: dict = field(default_factory=dict)
    nobody: bool = False
    env: dict = field(default_factory=dict)
    cwd: str = D
    split_shown: bool = False  # the command shown unquoted, as a user typed it (a path with spaces split)
    healthy: bool = False  # labelled before the run: what the value class is expected to do


CASES: dict[tuple[str, str], Case] = {
    ("-m a thing that is no regular file", "a folder holding the GGUF"): Case(
        "fresh217-llama-model-folder", [], model=D + "/models", files={"models/tiny.gguf": "gguf"}
    ),
    ("-m a thing that is no regular file", "/dev/null"): Case(
        "fresh217-llama-model-dev-null", [], model="/dev/null"
    ),
    ("-m a thing that is no regular file", "/dev/zero"): Case(
        "fresh217-llama-model-dev-zero", [], model="/dev/zero"
    ),
    ("-m a symlink gone wrong", "a symlink loop"): Case(
        "fresh217-llama-model-symlink-loop", [], model=D + "/model.gguf", files={"model.gguf": "loop"}
    ),
    ("-m a symlink gone wrong", "a dangling symlink (its target removed)"): Case(
        "fresh217-llama-model-dangling-symlink",
        [],
        model=D + "/current.gguf",
        files={"current.gguf": "dangling"},
    ),
    ("-m a file still being written", "the GGUF's first half (a copy cut mid-way)"): Case(
        "fresh217-llama-model-half-copied", [], model=D + "/tiny.gguf", files={"tiny.gguf": "half-gguf"}
    ),
    ("-m a file still being written", "the GGUF's first 4096 bytes only"): Case(
        "fresh217-llama-model-header-only", [], model=D + "/tiny.gguf", files={"tiny.gguf": "head-gguf"}
    ),
    ("-m a path no shell expanded or split", "a leading ~ in quotes"): Case(
        "fresh217-llama-model-tilde-unexpanded",
        [],
        model="~/models/tiny.gguf",
        files={"home/models/tiny.gguf": "gguf"},
        env={"HOME": D + "/home"},  # the file is there, at ~/models/tiny.gguf (amended after the first run)
    ),
    ("-m a path no shell expanded or split", "a path with a space, unquoted (split in two)"): Case(
        "fresh217-llama-model-space-unquoted",
        [],
        model=D + "/my models/tiny.gguf",
        files={"my models/tiny.gguf": "gguf"},
        split_shown=True,
    ),
    ("-m a path no shell expanded or split", "a path with a space, quoted (healthy)"): Case(
        "fresh217-llama-model-space-quoted",
        [],
        model=D + "/my models/tiny.gguf",
        files={"my models/tiny.gguf": "gguf"},
        healthy=True,
    ),
    ("-m a relative path", "models/tiny.gguf, run from another working directory"): Case(
        "fresh217-llama-model-relative-other-cwd",
        [],
        model="models/tiny.gguf",
        files={"srv/models/tiny.gguf": "gguf", "home/": "folder"},
        cwd=D + "/home",
    ),
    ("-m a relative path", "../models/tiny.gguf from the right folder (healthy)"): Case(
        "fresh217-llama-model-relative-right-cwd",
        [],
        model="../models/tiny.gguf",
        files={"models/tiny.gguf": "gguf", "bin/": "folder"},
        cwd=D + "/bin",
        healthy=True,
    ),
    ("--mmproj", "a missing file"): Case(
        "fresh217-llama-mmproj-missing", ["--mmproj", D + "/mmproj-f16.gguf"]
    ),
    ("--mmproj", "a folder"): Case(
        "fresh217-llama-mmproj-folder", ["--mmproj", D + "/mmproj"], files={"mmproj/": "folder"}
    ),
    ("--mmproj", "the text model's own GGUF (no projector)"): Case(
        "fresh217-llama-mmproj-text-gguf", ["--mmproj", G]
    ),
    ("--lora", "a missing file"): Case("fresh217-llama-lora-missing", ["--lora", D + "/adapter.gguf"]),
    ("--lora", "a folder (a PEFT adapter folder)"): Case(
        "fresh217-llama-lora-folder",
        ["--lora", D + "/adapter"],
        files={"adapter/adapter_config.json": '{"r": 8, "lora_alpha": 16}\n'},
    ),
    ("--lora", "a GGUF nobody may read, the server run as nobody"): Case(
        "fresh217-llama-lora-unreadable-nobody",
        ["--lora", D + "/adapter.gguf"],
        files={"adapter.gguf": "unreadable-gguf"},
        nobody=True,
    ),
    ("--lora", "the base model's own GGUF (no adapter)"): Case(
        "fresh217-llama-lora-base-gguf", ["--lora", G]
    ),
    ("--control-vector", "a missing file"): Case(
        "fresh217-llama-control-vector-missing", ["--control-vector", D + "/happy.gguf"]
    ),
    ("--control-vector", "a text file, not a GGUF"): Case(
        "fresh217-llama-control-vector-text",
        ["--control-vector", D + "/happy.txt"],
        files={"happy.txt": "layer 1: 0.1 0.2 0.3\n"},
    ),
    ("--control-vector", "the model's own GGUF (no direction tensors)"): Case(
        "fresh217-llama-control-vector-model-gguf", ["--control-vector", G]
    ),
    ("-md (draft model)", "a missing file"): Case("fresh217-llama-draft-missing", ["-md", D + "/draft.gguf"]),
    ("-md (draft model)", "a folder"): Case(
        "fresh217-llama-draft-folder", ["-md", D + "/draft"], files={"draft/": "folder"}
    ),
    ("-md (draft model)", "a safetensors file, not a GGUF"): Case(
        "fresh217-llama-draft-safetensors",
        ["-md", D + "/model.safetensors"],
        files={"model.safetensors": '{"__metadata__": {"format": "pt"}}\n'},
    ),
    ("--log-file", "in a missing folder"): Case(
        "fresh217-llama-log-file-missing-dir", ["--log-file", D + "/logs/s.log"]
    ),
    ("--log-file", "in a read-only folder, the server run as nobody"): Case(
        "fresh217-llama-log-file-readonly-nobody",
        ["--log-file", D + "/logs/s.log"],
        files={"logs/": "ro-folder"},
        nobody=True,
    ),
    ("--log-file", "a folder"): Case(
        "fresh217-llama-log-file-folder", ["--log-file", D + "/logs"], files={"logs/": "folder"}
    ),
    ("--models-dir (router, no -m)", "a missing folder"): Case(
        "fresh217-llama-models-dir-missing", ["--models-dir", D + "/models"], model=None, calls=[MODELS]
    ),
    ("--models-dir (router, no -m)", "the GGUF file, not a folder"): Case(
        "fresh217-llama-models-dir-file", ["--models-dir", G], model=None, calls=[MODELS]
    ),
    ("--models-dir (router, no -m)", "an empty folder, a chat request"): Case(
        "fresh217-llama-models-dir-empty",
        ["--models-dir", D + "/models"],
        model=None,
        files={"models/": "folder"},
        calls=[MODELS, chat()],
    ),
    ("--models-preset (router, no -m)", "a missing file"): Case(
        "fresh217-llama-models-preset-missing",
        ["--models-preset", D + "/presets.ini"],
        model=None,
        calls=[MODELS],
    ),
    ("--models-preset (router, no -m)", "the GGUF (a binary file, not INI)"): Case(
        "fresh217-llama-models-preset-binary", ["--models-preset", G], model=None, calls=[MODELS]
    ),
    ("--models-preset (router, no -m)", "an INI whose model path is missing, a chat request"): Case(
        "fresh217-llama-models-preset-model-gone",
        ["--models-preset", D + "/presets.ini"],
        model=None,
        files={"presets.ini": INI_MISSING},
        calls=[MODELS, chat()],
    ),
    ("LLAMA_ARG_* environment", "LLAMA_ARG_MODEL a folder, no -m"): Case(
        "fresh217-llama-env-model-folder",
        [],
        model=None,
        files={"models/tiny.gguf": "gguf"},
        env={"LLAMA_ARG_MODEL": D + "/models"},
    ),
    ("LLAMA_ARG_* environment", "LLAMA_ARG_MMPROJ a missing file"): Case(
        "fresh217-llama-env-mmproj-missing", [], env={"LLAMA_ARG_MMPROJ": D + "/mmproj-f16.gguf"}
    ),
    ("LLAMA_ARG_* environment", "LLAMA_ARG_MODELS_DIR a missing folder, no -m"): Case(
        "fresh217-llama-env-models-dir-missing",
        [],
        model=None,
        env={"LLAMA_ARG_MODELS_DIR": D + "/models"},
        calls=[MODELS],
    ),
    ("LLAMA_ARG_* environment", "LLAMA_ARG_LOG_FILE in a missing folder"): Case(
        "fresh217-llama-env-log-file-missing-dir", [], env={"LLAMA_ARG_LOG_FILE": D + "/logs/s.log"}
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 10 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2217, CONDITIONS, 10)


def setup() -> None:
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    os.chmod(WORK, 0o755)
    os.chmod(WORK / "tiny-f32.gguf", 0o644)
    BIN.mkdir(exist_ok=True)
    exe = BIN / "llama-server"
    if not exe.exists():
        shutil.copy(os.path.realpath(LLAMA), exe)
        os.chmod(exe, 0o755)
    RUN.mkdir(exist_ok=True)
    os.chmod(RUN, 0o755)


def make_file(p: Path, what: str) -> None:
    src = WORK / "tiny-f32.gguf"
    if what.endswith("/") or what in ("folder", "ro-folder"):
        p.mkdir(parents=True, exist_ok=True)
        os.chmod(p, 0o555 if what == "ro-folder" else 0o755)
        return
    p.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(p.parent, 0o755)
    if what in ("gguf", "unreadable-gguf"):
        shutil.copy(src, p)
        os.chmod(p, 0o000 if what == "unreadable-gguf" else 0o644)
    elif what in ("half-gguf", "head-gguf"):
        data = src.read_bytes()
        p.write_bytes(data[: len(data) // 2] if what == "half-gguf" else data[:4096])
        os.chmod(p, 0o644)
    elif what == "loop":
        os.symlink(p.with_name(p.name + ".link"), p)
        os.symlink(p, p.with_name(p.name + ".link"))
    elif what == "dangling":
        os.symlink(p.with_name("tiny-2025-old.gguf"), p)
    elif what == "fifo":
        os.mkfifo(p)
    else:
        p.write_text(what)
        os.chmod(p, 0o644)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    os.chmod(d, 0o755)
    for name, what in c.files.items():
        make_file(d / name.rstrip("/"), "folder" if name.endswith("/") and what == "folder" else what)

    def sub(s: str) -> str:
        return s.replace(D, str(d)).replace(G, str(WORK / "tiny-f32.gguf"))

    flags = [sub(f) for f in c.flags]
    model_args: list[str] = []
    if c.model is not None:
        model = sub(c.model)
        model_args = [*model.split(" ", 1)] if c.split_shown else [model]
        model_args = ["-m", *model_args]
    exe = str(BIN / "llama-server") if c.nobody else LLAMA
    prefix = NOBODY if c.nobody else []
    tail = [*model_args, "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    argv = [*prefix, exe, *tail]
    shown_exe = [*prefix, exe if c.nobody else "llama-server"]
    env_set = {k: sub(v) for k, v in c.env.items()}
    base = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    cwd = sub(c.cwd)
    text = serve_and_ask(argv, PORT, c.calls, env={**base, **env_set}, cwd=cwd, bound=120)
    shown_env = "".join(f"{k}={shlex.quote(v)} " for k, v in env_set.items())
    join = " ".join if c.split_shown else shlex.join
    head = f"$ cd {shlex.quote(cwd)}\n" if c.cwd != D else ""
    return f"{head}$ {shown_env}{join([*shown_exe, *tail])}\n" + text


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
