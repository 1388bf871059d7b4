"""How much of the CUDA runtime's and NCCL's error vocabulary `servebox doctor` can name.

Why: a log whose only clue is a CUDA or NCCL error string is named only if some family knows that
string. benchmarks/data/cuda_errors.json holds every string the real libraries return (made by
tools/harvest_cuda_errors.py from NVIDIA's PyPI wheels) and the formats torch, llama.cpp and vLLM print
them in. Each entry is rendered in each format that prints its library, fed alone to triage_stream and
classified by the top diagnosis: named by a specific cause, a symptom family that says where to look,
generic only (a catch-all or the bare exception), or nothing. An entry counts by its worst format among
those that print errors of running work (the two init-path formats, which see only what cudaGetDeviceCount
returns, are in the per-format table).
Run: python benchmarks/doctor_coverage_cuda_errors.py [--uncovered N] [--json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
import coverage_common as common  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "cuda_errors.json"
UMBRELLA = common.BACKEND_UMBRELLA  # catch-alls that say "the backend failed here", not why
# Codes a vLLM / llama.cpp user on their own GPU box cannot plausibly meet (left without a family), and why
SKIPPED = {
    **dict.fromkeys(
        (
            18,
            19,
            20,
            21,
            22,
            23,
            24,
            25,
            26,
            27,
            37,
            43,
            44,
            45,
            66,
            67,
            205,
            206,
            207,
            208,
            210,
            211,
            212,
            213,
            219,
            703,
        ),
        "textures, surfaces, graphics interop and mapped arrays: APIs the engines do not call",
    ),
    **dict.fromkeys((5, 6, 7, 8), "profiler API control: only under a profiler the user started"),
    **dict.fromkeys(
        (65, 68, 69, 225, 811, 812), "CUDA dynamic parallelism: no engine kernel launches kernels"
    ),
    **dict.fromkeys(
        (28, 31, 32, 52, 49), "legacy or programming-model errors (device emulation, unconfigured launch)"
    ),
    **dict.fromkeys(
        (16, 402, 704, 705, 712, 713, 215, 224, 913, 914, 915, 917, 911),
        "a caller's bookkeeping error on an API the engines use rarely or never (peer enable twice, host"
        " registration, green contexts, external devices): a bug report, not a machine fault",
    ),
    103: "confidential-computing integrity check: H100/Blackwell CC mode, not a home or lab box",
    10: "a runtime too old to translate a newer driver's result (internal compatibility gap)",
    909: "cudaErrorTimeout: only from explicit timed waits the engines do not use",
    98: "invalid device function: the existing rocm-gfx-unsupported hint owns it (HIP builds); left as it is",
}
SKIPPED_NCCL = {7: "ncclInProgress: not an error for blocking calls (torch's non-blocking check skips it)"}


def skipped(entry: dict) -> str:
    """Why the entry is out of scope for a family, or '' when a user may meet it."""
    return (SKIPPED if entry["lib"] == "cudart" else SKIPPED_NCCL).get(entry["code"], "")


def render(fmt: dict, entry: dict) -> str:
    return fmt["template"].format(msg=entry["message"], code=entry["code"], name=entry["name"])


def formats_for(doc: dict, entry: dict) -> list[dict]:
    return [
        f
        for f in doc["formats"]
        if f["lib"] == entry["lib"] and entry["code"] not in f.get("codes_except", ())
    ]


def measure(doc: dict) -> list[dict]:
    """One row per entry: its verdict and family in each format, and the worst verdict over them."""
    generic = common.generic_ids(UMBRELLA)
    init_formats = {f["id"] for f in doc["formats"] if f.get("path") == "init"}
    rows = []
    for e in doc["entries"]:
        per = {f["id"]: common.judge(render(f, e), generic) for f in formats_for(doc, e)}
        rows.append(common.entry_row(e, per, skipped(e), counted=set(per) - init_formats))
    return rows


def main(argv: list[str] | None = None) -> int:
    a = common.vocabulary_args(__doc__.splitlines()[0], 200, argv)
    doc = json.loads(DATA.read_text())
    rows = measure(doc)
    if a.json:
        for r in rows:
            print(json.dumps({k: r[k] for k in ("lib", "code", "name", "verdict", "skipped", "per_format")}))
        return 0
    print(f"sources: {', '.join(doc['sources'])}; {len(rows)} entries, {len(doc['formats'])} formats")
    print(
        "named: a specific cause; symptom: a family that says where to look; generic: a catch-all or the bare exception"
    )
    common.print_format_table(doc, rows, 22)
    print("entries, by their worst format (init-path formats apart):")
    uncovered = common.print_summary(rows, "lib", ("cudart", "nccl"))
    print(
        f"\nplausible entries without a family in some format ({min(a.uncovered, len(uncovered))} of {len(uncovered)}):"
    )
    for r in uncovered[: a.uncovered]:
        fams = " ".join(
            f"{k}={v[0][0]}:{v[1][:24]}"
            for k, v in r["per_format"].items()
            if v[0] not in ("named", "symptom")
        )
        print(f"  {r['lib']:6} {r['code']:4} {r['name'][:34]:34} {r['message'][:60]!r:62} {fams}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
