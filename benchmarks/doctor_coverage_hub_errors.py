"""How much of what fetching and opening a checkpoint prints `servebox doctor` can name.

Why: a vLLM start that dies on the hub (401, gated, offline, 5xx), on a model folder transformers cannot
read, on a missing tokenizer backend, or on a broken safetensors/GGUF file shows only that library's
words. benchmarks/data/hub_errors.json holds them as the real libraries raise them (made by
tools/harvest_hub_errors.py from huggingface_hub, transformers, safetensors (0.8 and an older 0.4.5, whose
errors are the Rust enum names) and gguf). Each entry is
rendered as a traceback's end (what `vllm serve` prints) and as vLLM's EngineCore prints it, fed alone
to triage_stream and classified by coverage_common: named by a specific cause, a symptom family that says
where to look, generic only (a catch-all or the bare exception) or nothing; an entry counts by its worst
format. llama.cpp prints none of these (it reads GGUF in C and downloads with its own code).
Run: python benchmarks/doctor_coverage_hub_errors.py [--uncovered N] [--json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
from coverage_common import entry_row, generic_ids, judge, print_summary, vocabulary_args  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "hub_errors.json"
UMBRELLA = {"uncaught-exception", "engine-core-init-failed", "worker-failed"}
SITE = "/opt/venv/lib/python3.12/site-packages/"
ENGINE = "(EngineCore pid=4242) "
ENGINE_HEAD = "ERROR 12-03 10:00:00 [core.py:1510] EngineCore failed to start."
# entries a vLLM user on their own GPU box cannot plausibly meet (left without a family), and why
SKIPPED = {
    "bad-request-400": "400 is an API call's malformed request (uploads, endpoints), not a file download",
    "range-416": "a resumed download's bad Range: huggingface_hub retries it itself",
    "cached_file/range-416": "a resumed download's bad Range: huggingface_hub retries it itself",
    "metadata-error": "a proxy or mirror that strips ETag headers: a mirror's misconfiguration, rare on a GPU box",
    "cached_file/metadata-error": "its transformers wrapper says only 'couldn't connect' (hub-offline names it)",
    "force-download-failed": "only with force_download=True, which vLLM never passes",
    "does not appear to have a file named@738": "from_pretrained(variant=...): vLLM loads weights itself",
    "does not appear to have a file named@694": "from_pretrained(use_safetensors=True): vLLM loads weights itself",
    "HF_HUB_ENABLE_HF_TRANSFER@302": "a deprecation warning, not a failure (the download proceeds)",
    "Xet headers have not been correctly set@181": "a hub server fault seen only with a broken mirror",
    "backend-missing/jinja": "jinja2 is a hard dependency of vLLM: it cannot be missing in a working install",
    "truncated": "numpy's own message (view dtype), names no file: only the gguf_reader frame would tell",
}


def render_lines(entry: dict) -> list[str]:
    """The exception (or warning) as Python prints it: 'module.Type: message' or 'file:line: Category: message'."""
    msg = entry["message"]
    if entry["type"].endswith("Warning"):
        path = SITE + entry["source"].split(":")[0]
        line = entry["source"].split(":")[1] if ":" in entry["source"] else "1"
        return f"{path}:{line}: {entry['type']}: {msg}".splitlines()
    return ["Traceback (most recent call last):", *f"{entry['type']}: {msg}".splitlines()]


def render(fmt: str, entry: dict) -> str:
    lines = render_lines(entry)
    if fmt == "vllm-engine-core":
        lines = [ENGINE + ENGINE_HEAD, *(ENGINE + x for x in lines)]
    return "\n".join(lines)


def measure(doc: dict) -> list[dict]:
    generic = generic_ids(UMBRELLA)
    rows = []
    for e in doc["entries"]:
        per = {f: judge(render(f, e), generic) for f in ("traceback", "vllm-engine-core")}
        rows.append(entry_row(e, per, SKIPPED.get(e["name"], "")))
    return rows


def main(argv: list[str] | None = None) -> int:
    a = vocabulary_args(__doc__.splitlines()[0], 200, argv)
    doc = json.loads(DATA.read_text())
    rows = measure(doc)
    if a.json:
        for r in rows:
            print(json.dumps({k: r[k] for k in ("lib", "name", "verdict", "skipped", "per_format")}))
        return 0
    print(f"sources: {doc['sources']}; {len(rows)} entries, formats: traceback, vllm-engine-core")
    print("named: a specific cause; symptom: says where to look; generic: a catch-all or the bare exception")
    uncovered = print_summary(rows, "lib")
    print(
        f"\nplausible entries not named in some format ({min(a.uncovered, len(uncovered))} of {len(uncovered)}):"
    )
    for r in uncovered[: a.uncovered]:
        fams = " ".join(f"{k}={v[0]}:{v[1][:26]}" for k, v in r["per_format"].items() if v[0] != "named")
        print(f"  {r['lib'][:12]:12} {r['name'][:34]:34} {r['message'].strip()[:50]!r:52} {fams}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
