"""The 148th fresh batch of doctor's corpus (batch "fresh-148", made here): ONE LLAMA-SERVER ARGUMENT WITH A VALUE OF
A CLASS DRAWN AT RANDOM, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server), a new draw of fresh-101's
dimension to measure doctor on failures it has not seen.

What was drawn from: fresh-101's conditions list (tools/doctor_corpus_fresh101.py: FLAGS = every option line of this
build's `llama-server --help`, 256 lines, checked again here against `--help`: the same 256 option lines; less its
EXCLUDED flags that need network or GPU hardware; each flag's value classes from its argument's kind, KINDS), read and
imported as it is. Less, here: every (flag, value class) pair fresh-101 drew (its 10 flag draws), the removed
--spec-ngram-size-n / --spec-ngram-min-hits, and --help / --version / --list-devices (CONDITIONS below).

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2148, CONDITIONS, 14)
(r = random.Random(2148): flag = r.choice(list(CONDITIONS)), value class = r.choice(its classes not drawn by
fresh-101), a flag drawn before is drawn anew). The concrete value of each drawn class (CONCRETE) was written after the
draw was printed and committed before any case ran.
Each case: llama-server -m TINY --port 19141 -c 512 plus the case's flags (TINY = tests/engine/make_tiny_gguf.py's F32
GGUF of tests/engine/make_tiny_model.py's model, written to /tmp/fresh148), waited for until /health answers or it
exits (120 s), one POST /completion (n_predict 8) if it answered, then SIGTERM (SIGKILL after 20 s): fresh-101's
serve(), on this batch's port. Case log = the server's whole stdout+stderr, then `# client:` and the request's status
line and the first 400 bytes of its body. One server at a time. Ports 19140-19159.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh148.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, load, maker_main, use_ports  # tools/ is on sys.path

PORT = 19141
use_ports(19140, "/tmp/fresh148/tiny-f32.gguf")
f101 = load("doctor_corpus_fresh101", "doctor_corpus_fresh101.py")

WORK = Path("/tmp/fresh148")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"

# fresh-101's 10 flag draws (its `--draws`, draws 1-10): never drawn again here
DRAWN_BY_101 = {
    ("--api-prefix", "valid"),
    ("--dry-sequence-breaker", "valid"),
    ("--threads-http", "wrong type"),
    ("--cpu-strict-batch", "incompatible with another flag"),
    ("--cache-ram", "wrong type"),
    ("--mmproj-auto", "valid"),
    ("--chat-template", "malformed value"),
    ("--spec-ngram-size-n", "wrong type"),
    ("--spec-ngram-simple-min-hits", "out of range"),
    ("--spec-ngram-mod-n-min", "wrong type"),
}
LEFT_OUT = ("--spec-ngram-size-n", "--spec-ngram-min-hits", "--help", "--version", "--list-devices")
CONDITIONS = {
    flag: [c for c in classes if (flag, c) not in DRAWN_BY_101]
    for flag, classes in f101.FLAG_CLASSES.items()
    if flag not in LEFT_OUT
}
CONDITIONS = {flag: classes for flag, classes in CONDITIONS.items() if classes}
MEAN_HEALTHY = sum(("valid" in c) / len(c) for c in CONDITIONS.values()) / len(CONDITIONS)


def draws():
    """The kept draws: 14 (flag, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2148, CONDITIONS, 14)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} flags drawn from, mean healthy share {MEAN_HEALTHY:.2f}")
    maker_main(draws, lambda h, tiny, _timeout: makers(h), str(TINY_DIR))


# Each drawn class's concrete value: written after `--draws` printed the draw (commit e2ddae4), before any case ran.
# "incompatible" where llama.cpp has no check that refuses the drawn flag with another one (common/arg.cpp,
# common/sampling.cpp, tools/server read for it): the other flag that silently makes it moot.
CONCRETE: dict[str, list[str]] = {
    "fresh148-llama-grammar-yes-no": ["--grammar", 'root ::= "yes" | "no"'],
    "fresh148-llama-perf": ["--perf"],
    # --ui-config has no check against another flag; --no-ui turns off the Web UI it configures
    "fresh148-llama-ui-config-with-no-ui": ["--ui-config", '{"theme": "dark"}', "--no-ui"],
    "fresh148-llama-reasoning-off": ["--reasoning", "off"],
    "fresh148-llama-log-prompts-dir-missing": ["--log-prompts-dir", "/tmp/fresh148/run/no/such/prompts"],
    "fresh148-llama-fit-off": ["--fit", "off"],
    "fresh148-llama-tools-get-info": ["--tools", "get_info"],
    # no check refuses DRY with another flag; with --mirostat 2 common/sampling.cpp builds no DRY sampler at all
    "fresh148-llama-dry-multiplier-with-mirostat": ["--dry-multiplier", "0.8", "--mirostat", "2"],
    "fresh148-llama-spec-ngram-mod-n-match-decimal": ["--spec-ngram-mod-n-match", "24.5"],
    "fresh148-llama-spec-ngram-map-k-size-n-auto": ["--spec-ngram-map-k-size-n", "auto"],
    "fresh148-llama-cors-headers": ["--cors-headers", "Content-Type,Authorization"],
    "fresh148-llama-spec-draft-ngl-negative": ["--spec-draft-ngl", "-5"],
    "fresh148-llama-mmproj-auto-given-value": ["--mmproj-auto", "true"],
    "fresh148-llama-spec-draft-p-split": ["--spec-draft-p-split", "0.2"],
}


def makers(h) -> dict:
    """One maker per kept draw, in draw order: fresh-101's serve() on this batch's port and tiny GGUF."""
    f101.PORT = PORT
    return {
        case_id: (lambda flags=flags: f101.serve(TINY_GGUF, flags, "")) for case_id, flags in CONCRETE.items()
    }


if __name__ == "__main__":
    main()
