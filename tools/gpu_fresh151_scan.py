"""List the environment variables that torch, triton and the Hugging Face libraries read, from their installed code.

Used for the doctor corpus batch fresh-151 (tools/gpu_fresh151_draw.py draws from what this prints). Run on the H200
device with its own Python (torch 2.11.0+cu130 preinstalled, with triton, transformers, huggingface_hub, tokenizers):
    python3 tools/gpu_fresh151_scan.py OUT_DIR
It writes OUT_DIR/py_env.tsv: one line per (variable, package) with the parser class read from the lines that read it
(NAME, package, parser, first file:line, the source line), for variables named CUDA_*, PYTORCH_*, TORCH_*, TRITON_*,
NCCL_*, HF_*, TRANSFORMERS_*, TOKENIZERS_*, OMP_NUM_THREADS; OUT_DIR/so_env.txt: the same prefixes found as NUL-ended
strings in torch's C++ libraries (libc10*.so, libtorch_cuda.so, libtorch_cpu.so: the names C++ getenv() may read);
OUT_DIR/alloc_keys.txt: which PYTORCH_CUDA_ALLOC_CONF option names occur as strings in libc10*.so, with the
allocator's own error texts; OUT_DIR/versions.txt.
Parser classes (from the reading line and the next two): int (int(...)), float, bool-word (compared with a word
list or "1", triton's env_bool), path (the name says DIR/PATH/HOME/CACHE/ROOT/FILE), str (anything else).
"""

import importlib
import os
import re
import sys

PREFIX = r"(?:CUDA_|PYTORCH_|TORCH_|TRITON_|NCCL_|HF_|TRANSFORMERS_|TOKENIZERS_)[A-Z0-9_]+|OMP_NUM_THREADS"
PKGS = ["torch", "triton", "transformers", "huggingface_hub", "tokenizers", "safetensors"]
READS = [
    rf"os\.environ\.get\(\s*[\"']({PREFIX})[\"']",
    rf"os\.getenv\(\s*[\"']({PREFIX})[\"']",
    rf"os\.environ\[\s*[\"']({PREFIX})[\"']\s*\]",
    rf"[\"']({PREFIX})[\"']\s+(?:not\s+)?in\s+os\.environ",
    rf"env_name_(?:default|force)\s*=\s*[\"']({PREFIX})[\"']",
    rf"\benv_(?:str|bool|int|opt_str|opt_bool|class|nvidia_tool|str_callable_default)\(\s*[\"']({PREFIX})[\"']",
    rf"\b(?:getenv|get_env|_get_env|getenv_bool|_getenv|_get_bool_env_var|_is_true)\(\s*[\"']({PREFIX})[\"']",
    rf"\b_?(?:parse_flag_from_env|parse_int_from_env|_env_var_true|check_env)\(\s*[\"']({PREFIX})[\"']",
]
ALLOC_KEYS = [
    "max_split_size_mb", "max_non_split_rounding_mb", "garbage_collection_threshold", "roundup_power2_divisions",
    "expandable_segments", "release_lock_on_cudamalloc", "pinned_use_cuda_host_register", "pinned_use_host_register",
    "pinned_num_register_threads", "pinned_use_background_threads", "pinned_reserve_segment_size_mb",
    "graph_capture_record_stream_reuse", "per_process_memory_fraction", "backend", "cudaMallocAsync", "native",
]  # fmt: skip


def classify(name, text):
    t = text.replace(" ", "")
    if re.search(r"\bint\(|env_int\(|parse_int_from_env", t):
        return "int"
    if "float(" in t:
        return "float"
    if re.search(r"env_bool\(|env_opt_bool\(|getenv_bool|_is_true|parse_flag_from_env|_get_bool_env_var", t):
        return "bool-word"
    if re.search(r'=="1"|=="0"|!="0"|!="1"|\.lower\(\)in|\.upper\(\)in|in\("1"|in\["1"|in\{"1"|==\'1\'', t):
        return "bool-word"
    if re.search(r"(DIR|PATH|HOME|CACHE|ROOT|FILE)", name):
        return "path"
    return "str"


RANK = {"int": 0, "float": 1, "bool-word": 2, "path": 3, "str": 4}


def scan_py(out):
    found = {}
    for pkg in PKGS:
        try:
            mod = importlib.util.find_spec(pkg)
        except Exception:
            mod = None
        if mod is None or not mod.submodule_search_locations:
            continue
        root = list(mod.submodule_search_locations)[0]
        for d, _, files in os.walk(root):
            for fn in files:
                if not fn.endswith(".py"):
                    continue
                p = os.path.join(d, fn)
                try:
                    text = open(p, errors="replace").read()
                except OSError:
                    continue
                lines = text.split("\n")
                for rx in READS:  # over the whole text: a call may put the name on the next line
                    for m in re.finditer(rx, text):
                        name = m.group(1)
                        i = text.count("\n", 0, m.start(1))
                        ctx = " ".join(lines[max(0, i - 2) : i + 3])
                        cls = classify(name, ctx)
                        key = (name, pkg)
                        loc = f"{os.path.relpath(p, os.path.dirname(root))}:{i + 1}"
                        old = found.get(key)
                        if old is None or RANK[cls] < RANK[old[0]]:
                            found[key] = (cls, loc, lines[i].strip()[:160])
    with open(os.path.join(out, "py_env.tsv"), "w") as f:
        for (name, pkg), (cls, loc, src) in sorted(found.items()):
            f.write(f"{name}\t{pkg}\t{cls}\t{loc}\t{src}\n")
    print(f"py: {len({k[0] for k in found})} variables, {len(found)} (variable, package) pairs")


def scan_so(out):
    import torch

    lib = os.path.join(os.path.dirname(torch.__file__), "lib")
    names = {}
    alloc = {}
    for fn in sorted(os.listdir(lib)):
        if not (fn.startswith("libc10") or fn in ("libtorch_cuda.so", "libtorch_cpu.so")):
            continue
        data = open(os.path.join(lib, fn), "rb").read()
        for m in re.finditer(rb"(?<=\x00)(" + PREFIX.encode() + rb")\x00", data):
            names.setdefault(m.group(1).decode(), set()).add(fn)
        if fn.startswith("libc10"):
            for k in ALLOC_KEYS:
                if re.search(rb"\x00" + k.encode() + rb"\x00", data) or re.search(
                    rb"[\x00 '\"]" + k.encode(), data
                ):
                    alloc.setdefault(k, set()).add(fn)
            for m in re.finditer(
                rb"[\x20-\x7e]{0,120}(?:[Aa]lloc[A-Za-z]*Conf|Unrecognized|[Ee]xpected a)[\x20-\x7e]{0,160}",
                data,
            ):
                alloc.setdefault("#text", set()).add(m.group(0).decode(errors="replace"))
    with open(os.path.join(out, "so_env.txt"), "w") as f:
        for n in sorted(names):
            f.write(f"{n}\t{','.join(sorted(names[n]))}\n")
    with open(os.path.join(out, "alloc_keys.txt"), "w") as f:
        for k in ALLOC_KEYS:
            f.write(f"{k}\t{','.join(sorted(alloc.get(k, [])))}\n")
        for t in sorted(alloc.get("#text", []))[:200]:
            f.write(f"TEXT\t{t}\n")
    print(f"so: {len(names)} names")


def versions(out):
    with open(os.path.join(out, "versions.txt"), "w") as f:
        for pkg in PKGS:
            try:
                m = importlib.import_module(pkg)
                f.write(f"{pkg} {getattr(m, '__version__', '?')} {os.path.dirname(m.__file__)}\n")
            except Exception as e:
                f.write(f"{pkg} MISSING {type(e).__name__}: {e}\n")


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    versions(out)
    scan_py(out)
    scan_so(out)
