"""The twenty-fifth fresh batch of doctor's corpus (batch "fresh-25"): the real engines broken through their MODEL
FILES, one field or header entry altered, DRAWN AT RANDOM by a procedure fixed before any case ran, so the batch
measures doctor on what that procedure produces rather than on the failures we expect it to know.

No llama-swap: no binary could be had from the registries this machine reaches (`pip download llama-swap`: no
matching distribution; `npm view llama-swap`: 404; `apt-cache search llama-swap` after apt-get update: nothing), so the
brief's 5 router draws are replaced by 3 more llama-server draws and 2 more vLLM draws, as the brief says.

Base files: llama-server's base is the loadable tiny GGUF of tests/engine/make_tiny_gguf.py (built from the tiny
model's tokenizer), NOT tests/fixtures/tiny-llama-q8_0.gguf: that fixture has no tokenizer and llama-server refuses it
as it is ("key not found in model: tokenizer.ggml.model"), which would mask every drawn change. vLLM's base is the tiny
Llama of tests/engine/make_tiny_model.py. An unaltered copy made by the same copier must serve (checked: --control).

Procedure (fixed before any case ran, and before doctor ran on any log); r = random.Random(2029):
  1. llama-server: KEYS = the GGUF's metadata keys in file order (21; the GGUF.* header counts are not keys);
     keys = r.sample(KEYS, 9); then ways = [r.choice(GGUF_WAYS) for each key], GGUF_WAYS = delete, wrong-type,
     out-of-range. Draws 1-6 are the brief's six; 7-9 replace llama-swap.
     wrong-type: a STRING written as UINT32 1; a number written as the STRING of its value; an array's element type
     swapped (strings -> UINT32 0..n-1, numbers -> their strings). out-of-range: unsigned -> its type's maximum,
     signed -> -1, float -> -1.0, STRING -> "servebox-unknown", array -> its first half only.
     The new file is written with gguf.GGUFWriter: every field (in order) and every tensor copied, the drawn one altered.
  2. vLLM, 6 draws one after another (1-4 the brief's four, 5-6 replace llama-swap): kind = r.choice(VLLM_KINDS)
     (config.json, safetensors-header, tokenizer-file), then
       config.json: key = r.choice(its keys in file order), way = r.choice(JSON_WAYS);
       safetensors-header: tensor = r.choice(tensor names in header order), way = r.choice(TENSOR_WAYS);
       tokenizer-file: file = r.choice([tokenizer_config.json, tokenizer.json]), key = r.choice(its top-level keys
       in file order), way = r.choice(JSON_WAYS).
     A draw identical to an earlier one is drawn again.
     JSON_WAYS = delete, wrong-type, zero. wrong-type: a string -> 1, a list -> its first element, an object -> a
     string holding its JSON, a bool/number/null -> the string of its JSON ("false", "256", "null"); zero: the value 0.
     TENSOR_WAYS = rename (drop a leading "model.", else add one), dtype (BF16 -> F32: the bytes no longer match),
     shape (2-D reversed; 1-D [n] -> [n/2, 2]): only the JSON header changes, padded with spaces to 8 bytes.
Each engine runs alone, stopped as soon as it fails or answers /health (corpus_tools.until_failed_or_served, as
fresh-20 and fresh-23 start them); its whole stdout+stderr is the log. Healthy or exotic outcomes are kept as they come.
Usage (from the repository root; ports 18800-18802 of this batch's range 18800-18899):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh25.py \
    [--draws | --control | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import sys
import tempfile
from pathlib import Path

from corpus_tools import load, until_failed_or_served, use_ports  # tools/ is on sys.path

use_ports(18800, "/tmp/fresh25/tiny-f32.gguf")

GGUF_WAYS = ["delete", "wrong-type", "out-of-range"]
VLLM_KINDS = ["config.json", "safetensors-header", "tokenizer-file"]
JSON_WAYS = ["delete", "wrong-type", "zero"]
TENSOR_WAYS = ["rename", "dtype", "shape"]
TOKENIZER_FILES = ["tokenizer_config.json", "tokenizer.json"]


def gguf_fields(path: Path) -> list:
    import gguf

    return [f for k, f in gguf.GGUFReader(str(path)).fields.items() if not k.startswith("GGUF.")]


def st_header(path: Path) -> dict:
    with path.open("rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        return json.loads(f.read(n))


def draws(gguf_path: Path, tiny: Path) -> list[tuple[str, str, str, str]]:
    """(engine, target, item, way) for the 15 cases, in draw order: the procedure of the docstring."""
    r = random.Random(2029)
    keys = r.sample([f.name for f in gguf_fields(gguf_path)], 9)
    out = [("llama", "gguf", k, r.choice(GGUF_WAYS)) for k in keys]
    pools = {
        "config.json": list(json.loads((tiny / "config.json").read_text())),
        "safetensors-header": [k for k in st_header(tiny / "model.safetensors") if k != "__metadata__"],
    }
    for name in TOKENIZER_FILES:
        pools[name] = list(json.loads((tiny / name).read_text()))
    vllm: list[tuple[str, str, str, str]] = []
    while len(vllm) < 6:
        kind = r.choice(VLLM_KINDS)
        target = r.choice(TOKENIZER_FILES) if kind == "tokenizer-file" else kind
        item = r.choice(pools[target])
        way = r.choice(TENSOR_WAYS if target == "safetensors-header" else JSON_WAYS)
        if ("vllm", target, item, way) not in vllm:
            vllm.append(("vllm", target, item, way))
    return out[:6] + vllm[:4] + out[6:] + vllm[4:]


def case_id(engine: str, target: str, item: str, way: str) -> str:
    where = {"gguf": "", "config.json": "config-", "safetensors-header": "st-"}.get(target, "tok-")
    return f"fresh25-{engine}-{where}{item.replace('_', '-')}-{way}"


def gguf_altered(src: Path, dst: Path, key: str, way: str) -> None:
    """Copy every field and tensor of SRC into DST with gguf.GGUFWriter, the field KEY altered in WAY."""
    import gguf

    T = gguf.GGUFValueType
    reader = gguf.GGUFReader(str(src))
    w = gguf.GGUFWriter(str(dst), "llama")
    w.kv_data[0].clear()
    for f in gguf_fields(src):
        vtype, sub = f.types[0], (f.types[1] if len(f.types) > 1 else None)
        val = f.contents()
        if f.name == key:
            if way == "delete":
                continue
            if way == "wrong-type" and vtype == T.ARRAY:
                if sub == T.STRING:
                    val, sub = list(range(len(val))), T.UINT32
                else:
                    val, sub = [str(v) for v in val], T.STRING
            elif way == "wrong-type":
                val, vtype = (1, T.UINT32) if vtype == T.STRING else (str(val), T.STRING)
            elif vtype == T.ARRAY:
                val = val[: len(val) // 2]
            elif vtype == T.STRING:
                val = "servebox-unknown"
            elif vtype in (T.FLOAT32, T.FLOAT64):
                val = -1.0
            elif vtype.name.startswith("UINT"):
                val = (1 << (8 * {"UINT8": 1, "UINT16": 2, "UINT32": 4, "UINT64": 8}[vtype.name])) - 1
            else:
                val = -1
        w.add_key_value(f.name, val, vtype, sub)
    for t in reader.tensors:
        w.add_tensor(t.name, t.data, raw_dtype=t.tensor_type)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def json_altered(path: Path, key: str, way: str) -> None:
    data = json.loads(path.read_text())
    val = data[key]
    if way == "delete":
        del data[key]
    elif way == "zero":
        data[key] = 0
    elif isinstance(val, str):
        data[key] = 1
    elif isinstance(val, list):
        data[key] = val[0]
    else:
        data[key] = json.dumps(val)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False))


def safetensors_altered(path: Path, tensor: str, way: str) -> None:
    """Rewrite only the JSON header of a .safetensors file (data offsets are relative to its end)."""
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    if way == "rename":
        new = tensor.removeprefix("model.") if tensor.startswith("model.") else f"model.{tensor}"
        header = {(new if k == tensor else k): v for k, v in header.items()}
    elif way == "dtype":
        header[tensor]["dtype"] = "F32"
    else:
        shape = header[tensor]["shape"]
        header[tensor]["shape"] = shape[::-1] if len(shape) == 2 else [shape[0] // 2, 2]
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + raw[8 + n :])


def makers(h, tiny: Path, tmp: Path, timeout: float) -> dict:
    vport, lport = os.environ["DOCTOR_CORPUS_PORT"], h.LLAMA_PORT

    def llama(key: str, way: str):
        def make() -> str:
            dst = tmp / f"{key}-{way}.gguf"
            gguf_altered(h.GGUF, dst, key, way)
            return until_failed_or_served(h, [h.LLAMA, "--port", lport, "-m", str(dst)], lport, 40)

        return make

    def vllm(target: str, item: str, way: str):
        def make() -> str:
            model = h.copy_model(tiny, tmp, f"{target}-{item}-{way}")
            if target == "safetensors-header":
                safetensors_altered(model / "model.safetensors", item, way)
            else:
                json_altered(model / target, item, way)
            argv = [*h.VLLM, str(model), "--port", vport, "--max-model-len", "512"]
            return until_failed_or_served(h, argv, vport, timeout)

        return make

    out = {}
    for engine, target, item, way in draws(h.GGUF, tiny):
        cid = case_id(engine, target, item, way)
        out[cid] = llama(item, way) if engine == "llama" else vllm(target, item, way)
    return out


def control(h, tiny: Path, tmp: Path, timeout: float) -> None:
    """The copiers without a change: an unaltered GGUF copy and a re-dumped model folder must both serve."""
    dst = tmp / "control.gguf"
    gguf_altered(h.GGUF, dst, "", "none")
    text = until_failed_or_served(h, [h.LLAMA, "--port", h.LLAMA_PORT, "-m", str(dst)], h.LLAMA_PORT, 40)
    print("llama control:", [x for x in text.splitlines() if "listening" in x or "error" in x.lower()][:3])
    model = h.copy_model(tiny, tmp, "control")
    for name in ["config.json", *TOKENIZER_FILES]:
        (model / name).write_text(
            json.dumps(json.loads((model / name).read_text()), indent=2, ensure_ascii=False)
        )
    hdr = st_header(model / "model.safetensors")
    first = next(k for k in hdr if k != "__metadata__")
    for _ in range(2):  # reversed twice: only the header is re-written
        safetensors_altered(model / "model.safetensors", first, "shape")
    port = os.environ["DOCTOR_CORPUS_PORT"]
    text = until_failed_or_served(
        h, [*h.VLLM, str(model), "--port", port, "--max-model-len", "512"], port, timeout
    )
    print("vllm control:", [x for x in text.splitlines() if "startup complete" in x or "Error" in x][:3])


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/fresh25/tiny"))
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "240"))
    args = sys.argv[1:]
    if args[:1] == ["--draws"]:
        for n, d in enumerate(draws(h.GGUF, tiny), 1):
            print(n, case_id(*d), d)
        return
    with tempfile.TemporaryDirectory(prefix="doctor-fresh25-") as tmp:
        if args[:1] == ["--control"]:
            control(h, tiny, Path(tmp), timeout)
            return
        f5.write_cases(h, makers(h, tiny, Path(tmp), timeout), set(args))
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
