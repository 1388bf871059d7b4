"""Which public threads may teach doctor and which only measure it: a fixed split by a hash of the thread's URL.

Engineers who grow the knowledge base from public threads and engineers who make unseen batches from public
threads work at the same time from the same search results; without a rule decided in advance the same thread
could land on both sides and the unseen figure would overstate. `side(url)` is that rule: sha256 of the
normalised URL (see normalise: one GitHub thread under every form it is cited by, mirrors and proxies
included; other pages by host, path and query), even -> "train", odd -> "measure".
Run: python tools/corpus_split.py URL [URL...]   (prints the side of each)
     python tools/corpus_split.py --check         (cases on the wrong side: batch from train, taught from measure)
The rule holds from batch fresh-17 on (FIRST_BATCH); earlier batches were made before it and were each learnt from
after they were scored.
"""

from __future__ import annotations

import hashlib
import re
import sys
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

FIRST_BATCH = 17
MOVED = {
    "ggerganov/llama.cpp": "ggml-org/llama.cpp",
    "jmorganca/ollama": "ollama/ollama",
    # renames the fresh-50 maker met in search results (the old and new URL of one thread, on opposite sides)
    "oobabooga/text-generation-webui": "oobabooga/textgen",
    "go-skynet/localai": "mudler/localai",
    "menloresearch/jan": "janhq/jan",
    "killianlucas/open-interpreter": "openinterpreter/openinterpreter",
    "imartinez/privategpt": "zylon-ai/private-gpt",
    "hwchase17/langchain": "langchain-ai/langchain",
    "jerryjliu/llama_index": "run-llama/llama_index",
    "jerryjliu/gpt_index": "run-llama/llama_index",
    "mozilla-ocho/llamafile": "mozilla-ai/llamafile",
    "ollama-webui/ollama-webui": "open-webui/open-webui",
    # renames the fresh-71 maker met (it skipped a thread of each, its two URLs on opposite sides)
    "cpacker/memgpt": "letta-ai/letta",
    "mannaandpoem/openmanus": "foundationagents/openmanus",
    # and the fresh-84 maker (it dropped an ipex-llm thread taken on the measure side of its new name)
    "intel-analytics/ipex-llm": "intel/ipex-llm",
    "geekan/metagpt": "foundationagents/metagpt",
    # and the fresh-88 maker (each skipped a thread whose two URLs fell on opposite sides)
    "opendevin/opendevin": "openhands/openhands",
    "all-hands-ai/openhands": "openhands/openhands",
    "openinterpreter/open-interpreter": "openinterpreter/openinterpreter",
    "janhq/cortex.cpp": "menloresearch/cortex.cpp",
    # and the fresh-93 maker (every corpus case from these uses the name on the right, so none changes side)
    "volcengine/verl": "verl-project/verl",
    "hiyouga/llama-factory": "hiyouga/llamafactory",
}  # one thread, two URLs (keys lower-case: URLs are matched case-blind)
MANIFEST = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "doctor-corpus" / "manifest.toml"


def normalise(url: str) -> str:
    """The thread a URL points into: a GitHub thread by owner/repo/number wherever it is cited (github.com, a
    comment anchor, a /files tab, a mirror or proxy whose address holds the GitHub path); any other page by its
    host, path and query (blog pages told apart only by ?p=N)."""
    parts = urlsplit(url.strip())
    text = unquote(url)
    thread = re.search(r"github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull|discussions)/(\d+)", text, re.I)
    if not thread and not parts.netloc.lower().endswith("github.com"):  # a mirror serving GitHub's own paths
        thread = re.match(r"/([\w.-]+/[\w.-]+)/(?:issues|pull|discussions)/(\d+)", parts.path)
    if thread:
        repo = thread.group(1).lower()
        return f"github.com/{MOVED.get(repo, repo)}/thread/{thread.group(2)}"
    path = parts.path.rstrip("/")
    return f"{parts.netloc.lower()}{path}" + (f"?{parts.query}" if parts.query else "")


def side(url: str) -> str:
    digest = hashlib.sha256(normalise(url).encode()).digest()
    return "train" if digest[-1] % 2 == 0 else "measure"


def contaminated() -> list[str]:
    """Cases on the wrong side: a batch case (an unseen measure, fresh-17 on) from a train-side thread, or a case
    taught from a thread (`train`) on the measure side."""
    cases = tomllib.loads(MANIFEST.read_text())["case"]
    wrong = []
    for c in cases:
        if not c["source"].startswith("http"):
            continue
        if int(re.sub(r"\D", "", c.get("batch", "")) or 0) >= FIRST_BATCH and side(c["source"]) == "train":
            wrong.append(f"{c['file']}: batch case from a train-side thread")
        if c.get("train") and side(c["source"]) == "measure":
            wrong.append(f"{c['file']}: taught from a measure-side thread")
    return wrong


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        bad = contaminated()
        print(
            "\n".join(bad)
            or "no batch case comes from a train-side thread, no taught case from a measure-side one"
        )
        return 1 if bad else 0
    for url in argv:
        print(f"{side(url)}\t{url}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
