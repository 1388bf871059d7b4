"""How much of Vulkan's, HIP's and the HSA runtime's error vocabulary `servebox doctor` can name.

Why: llama.cpp's Vulkan and HIP backends and PyTorch-ROCm (vLLM on AMD) fail with a VkResult, a hipError_t
string or an HSA status as the only clue. benchmarks/data/vulkan_hip_errors.json holds every code of the three
(tools/harvest_vulkan_hip_errors.py: Debian's libvulkan-dev 1.3.239, libamdhip64 5.2.3, libhsa-runtime64 5.2.3 and
ROCm/clr's ROCm 6 strings) and the formats the programs print them in. Each entry is rendered in each format of
its library, fed alone to triage_stream and classified by coverage_common: named by a specific cause, a symptom
family that says where to look, generic (a catch-all or the bare exception) or nothing. An entry counts by its
worst format among those that print errors of running work (the init-path format is in the per-format table).
Measured 2026-12-03, 218 entries (Vulkan 33, HIP 72, HSA 33, UR 77, whole lines 3), 75 plausible: main's KB (e149a13)
2 named, 0 symptom, 44 generic, 29 none; with knowledge/vulkan-hip.toml and sycl.toml 23 named + 36 symptom, 16 generic
(the codes that name no fault, and 700 on ggml's ROCm path: llamacpp-cuda-error outranks cuda-illegal-memory-access), 0 none.
Run: python benchmarks/doctor_coverage_vulkan_hip_errors.py [--uncovered N] [--json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
import coverage_common as common  # noqa: E402

from servebox.doctor.signatures import load_signatures  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "vulkan_hip_errors.json"
UMBRELLA = common.BACKEND_UMBRELLA  # catch-alls that say "the backend failed here", not why
_WSI = "window-system and display results (swapchains, surfaces, full-screen): ggml-vulkan draws nothing"
_VIDEO = "Vulkan video decode/encode results: ggml-vulkan runs compute shaders only"
_GFX = "textures, graphics interop and mapped arrays: APIs the engines do not call"
_CAPTURE = "stream capture (HIP graphs) bookkeeping: a bug report against the caller, not a machine fault"
_BOOK = "a caller's bookkeeping error on an API the engines use rarely or never: a bug report, not a machine fault"
_HSA_API = "an HSA API misuse code (code objects, symbols, executables, signals): the runtime's caller's bug"
_UR_API = "a UR API misuse code (invalid handles, sizes, kernels' arguments, graphs): a bug in the caller, not the machine"
# UR codes a user's machine can cause: no device, lost device, memory, a build or driver that does not fit
_UR_PLAUSIBLE = {7, 16, 18, 20, 21, 22, 29, 35, 37, 38, 39, 40, 41, 42, 43, 44, 56, 65, 66, 69}
# Entries a llama.cpp / vLLM user on their own GPU box cannot plausibly meet (left without a family), and why
SKIPPED = {
    ("vulkan", -1000000000): _WSI, ("vulkan", -1000000001): _WSI, ("vulkan", -1000001004): _WSI,
    ("vulkan", -1000003001): _WSI, ("vulkan", -1000255000): _WSI,
    **{("vulkan", c): _VIDEO for c in (-1000023000, -1000023001, -1000023002, -1000023003, -1000023004, -1000023005)},
    ("vulkan", -11): "image format queries: ggml-vulkan uses buffers, not images",
    ("vulkan", -12): "descriptor-pool fragmentation: ggml-vulkan sizes its pools itself; a ggml bug, not the machine",
    ("vulkan", -1000161000): "descriptor-pool fragmentation: as above",
    ("vulkan", -1000069000): "descriptor-pool exhaustion: ggml-vulkan grows its pools; a ggml bug if ever",
    ("vulkan", -1000072003): "external memory handles (interop): ggml-vulkan imports none",
    ("vulkan", -1000257000): "buffer capture/replay addresses: tools only",
    ("vulkan", -1000158000): "DRM format modifiers: display images only",
    ("vulkan", -1000174001): "global queue priority refused: ggml-vulkan asks no such priority",
    ("vulkan", -1000338000): "image compression: images only",
    ("vulkan", -1000012000): "NVIDIA's GLSL shader path (VK_NV_glsl_shader): ggml ships SPIR-V",
    ("vulkan", -1000011001): "validation layer result: only under a debug layer the user enabled",
    ("vulkan", -6): "a requested layer: ggml-vulkan asks only the validation layer in debug builds",
    ("vulkan", -10): "object count limits: not reached by ggml-vulkan's few objects",
    **{("hip", c): _GFX for c in (205, 206, 207, 208, 210, 211, 212, 213, 219)},
    **{("hip", c): "profiler API control: only under a profiler the user started" for c in (5, 6, 7, 8)},
    **{("hip", c): _CAPTURE for c in (900, 901, 902, 903, 904, 905, 906, 907, 908, 910)},
    **{("hip", c): _BOOK for c in (12, 21, 52, 202, 215, 216, 704, 705, 708, 712, 713, 720, 401)},
    ("hip", 98): "invalid device function: the existing rocm-gfx-unsupported family owns it; left as it is",
    **{("hsa", c): _HSA_API for c in range(0x100A, 0x1026) if c not in (0x100B, 0x100F, 0x1010, 0x1016)},
    **{("hsa", c): _HSA_API for c in (0x1001, 0x1002, 0x1003, 0x1004, 0x1005, 0x1006, 0x1007, 0x1009)},
    # oneAPI's Unified Runtime: every code but the machine's own faults is the caller's or the adapter's bug
    **{("ur", c): _UR_API for c in range(1, 78) if c not in _UR_PLAUSIBLE},
}  # fmt: skip


def render(fmt: dict, entry: dict) -> str:
    return fmt["template"].format(
        msg=entry["message"],
        code=entry["code"],
        name=entry["name"],
        cls=entry.get("cls", ""),
        old=entry.get("old", ""),
    )


def judge_note(text: str, generic: set[str], notes: set[str]) -> tuple[str, str]:
    """For a harmless line (`expect` "note"): 'named' when a note family explains it and nothing fails, else
    'none' when doctor is silent and 'generic' when it blames the line."""
    verdict, fam = common.classify(text, generic)
    if fam in notes:
        return "named", fam
    return ("none", fam) if verdict == "none" else ("generic", fam)


def measure(doc: dict) -> list[dict]:
    """One row per entry: its verdict and family in each format of its library, and the worst over them."""
    generic = common.generic_ids(UMBRELLA)
    notes = {s.id for s in load_signatures() if s.role == "note"}
    init_formats = {f["id"] for f in doc["formats"] if f.get("path") == "init"}
    rows = []
    for e in doc["entries"]:
        fmts = [
            f for f in doc["formats"] if f["lib"] == e["lib"] and e["code"] in f.get("codes", [e["code"]])
        ]
        if e.get("expect") == "note":
            per = {f["id"]: judge_note(render(f, e), generic, notes) for f in fmts}
        else:
            per = {f["id"]: common.judge(render(f, e), generic) for f in fmts}
        rows.append(
            common.entry_row(e, per, SKIPPED.get((e["lib"], e["code"]), ""), counted=set(per) - init_formats)
        )
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
        "named: a specific cause; symptom: a family that says where to look; generic: a catch-all or bare exception"
    )
    common.print_format_table(doc, rows, 20, shares=False)
    print("entries, by their worst format (init-path format apart):")
    uncovered = common.print_summary(rows, "lib", ("vulkan", "hip", "hsa", "ur", "lines"))
    print(f"\nplausible entries without a family in some format ({len(uncovered)}):")
    for r in uncovered[: a.uncovered]:
        fams = " ".join(
            f"{k}={v[0][0]}:{v[1][:24]}"
            for k, v in r["per_format"].items()
            if v[0] not in ("named", "symptom")
        )
        print(f"  {r['lib']:6} {str(r['code'])[:11]:11} {r['name'][:34]:34} {r['message'][:50]!r:52} {fams}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
