"""The 127th fresh batch of doctor's corpus (batch "fresh-127", made here): TWO LLAMA-SERVER ARGUMENTS TOGETHER, each
valid alone, drawn at random from the real llama-server's own `--help` (llama.cpp 11434.0.0, .llama-cpp/bin).

fresh-101 drew one argument at a time; this batch draws PAIRS, so it measures interactions. What was drawn from: every
option line of `llama-server --help` (help_options() parses it: the first `--` name of each line; 256 lines, the same
names as tools/doctor_corpus_fresh101.py's FLAGS, which this file reuses), less fresh-101's EXCLUDED (options that need
network, which this machine lacks, or whose value must name GPU hardware this CPU-only machine lacks).
Procedure (fixed before the draw was printed and before any case ran): PAIRS = {option: [every other option]};
draw_distinct_conditions(2127, PAIRS, 14): r = random.Random(2127), first = r.choice(list(PAIRS)), second =
r.choice(PAIRS[first]); a first option drawn before is drawn anew. For each option of a kept pair, one value that
llama-server accepts ALONE (judged from its help text and llama.cpp's source, not by running): CONCRETE, written after
`--draws` printed the draw and committed before any case ran.
Each case: llama-server -m TINY --port 18621 -c 512 plus the pair's arguments (TINY = tests/engine/make_tiny_gguf.py's
F32 GGUF of tests/engine/make_tiny_model.py's model, in /tmp/fresh127), waited for until /health answers or it exits
(120 s), one POST /completion (n_predict 8) if it answered, then SIGTERM (SIGKILL after 20 s). Case log = the server's
whole stdout+stderr, then `# client:` and the request's status line and first 400 bytes of its body. One server at a
time. Ports 18620-18639.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh127.py [--draws | --help-check | CASE_ID ...]
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions, load, maker_main, use_ports  # tools/ is on sys.path

PORT = 18621
use_ports(18620, "/tmp/fresh127/tiny-f32.gguf")

F101 = load("doctor_corpus_fresh101", "doctor_corpus_fresh101.py")
F101.PORT = PORT  # its serve() reads the module's PORT
REPO = Path(__file__).resolve().parent.parent
LLAMA = F101.LLAMA
WORK = Path("/tmp/fresh127")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"


def help_options() -> list[str]:
    """The first `--` name of each option line of the real `llama-server --help`."""
    text = subprocess.run([LLAMA, "--help"], capture_output=True, text=True).stdout
    names = []
    for line in text.splitlines():
        if line.startswith("-") and not line.startswith("-----"):
            head = re.split(r"\s{2,}(?=[^\s-])", line, maxsplit=1)[0]
            names.append(re.search(r"--[\w.-]+", head).group(0))
    return names


OPTIONS = [name for name, _ in F101.FLAGS if name not in F101.EXCLUDED]
PAIRS = {first: [second for second in OPTIONS if second != first] for first in OPTIONS}


def draws():
    return draw_distinct_conditions(2127, PAIRS, 14)


def main() -> None:
    if sys.argv[1:2] == ["--help-check"]:
        names = help_options()
        print(
            f"{len(names)} option lines; same names as fresh-101's FLAGS: {names == [n for n, _ in F101.FLAGS]}"
        )
        return
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(F101.FLAGS)} options, {len(F101.EXCLUDED)} excluded, {len(OPTIONS)} drawn from")
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


def makers() -> dict:
    F101.LLAMA = LLAMA
    return {
        case_id: (lambda flags=flags: F101.serve(TINY_GGUF, flags, prefix(flags)))
        for case_id, flags in CONCRETE.items()
    }


def prefix(flags: list[str]) -> str:
    return flags[flags.index("--api-prefix") + 1] if "--api-prefix" in flags else ""


CONCRETE: dict[str, list[str]] = {}

if __name__ == "__main__":
    main()
