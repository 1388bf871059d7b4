"""The fourth fresh batch of doctor's corpus (batch "fresh-4"): real engines broken in ordinary ways
that the first three batches did not try. Kept apart from tools/doctor-corpus.py (which merges these
into its table and runs them the same way) so that each module stays short. Their expected causes were
written in manifest.toml before doctor was run on the logs, and the knowledge base was not changed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

ROUTER_PORT = int(os.environ.get("DOCTOR_CORPUS_ROUTER_PORT", "22013"))
UP_SPEC = """[router]
listen = "127.0.0.1:{router}"

[[models]]
name = "qwen"
checkpoint = "{checkpoint}"
engine = "llama.cpp"
binary = "{binary}"
port = {engine}
cold_start_s = 30
"""
BROKEN_TEMPLATE = "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }<|end|>{% endfor %}"


def split_into_two_shards(model: Path, keep_second: bool = False) -> None:
    """Rewrite model.safetensors as a two-shard checkpoint with an index, then delete one shard:
    the state of a sharded download that stopped before its last file arrived."""
    from safetensors.torch import load_file, save_file  # noqa: PLC0415 (tool only)

    tensors = load_file(model / "model.safetensors")
    names = sorted(tensors)
    halves = names[: len(names) // 2], names[len(names) // 2 :]
    shards = ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]
    weight_map = {}
    for shard, part in zip(shards, halves, strict=True):
        save_file({n: tensors[n] for n in part}, model / shard, metadata={"format": "pt"})
        weight_map.update(dict.fromkeys(part, shard))
    total = sum(t.numel() * t.element_size() for t in tensors.values())
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    (model / "model.safetensors.index.json").write_text(json.dumps(index, indent=2))
    (model / "model.safetensors").unlink()
    (model / shards[0 if keep_second else 1]).unlink()


def servebox_up(h, tmp: Path, binary: str, timeout: float = 40) -> str:
    """`servebox up` on a one-model llama.cpp spec, stopped with SIGINT after `timeout` seconds."""
    spec = tmp / "spec.toml"
    spec.write_text(
        UP_SPEC.format(router=ROUTER_PORT, checkpoint=h.GGUF, binary=binary, engine=ROUTER_PORT + 1)
    )
    up = str(h.REPO / ".venv" / "bin" / "servebox")
    return h.run(
        ["timeout", "-s", "INT", str(timeout), up, "up", str(spec), "--state-dir", str(tmp / "state")], 90
    )


def cut_file(src: Path, dst: Path, keep: int) -> Path:
    """Copy `src` to `dst` keeping `keep` bytes (negative: all but the last -keep bytes)."""
    data = src.read_bytes()
    dst.write_bytes(data[:keep])
    return dst


def cases(h, tiny: Path, tmp: Path) -> dict:
    """id -> a function returning the captured log; `h` is tools/doctor-corpus.py (its helpers)."""

    def model(name: str, mutate) -> Path:
        m = h.copy_model(tiny, tmp, name)
        mutate(m)
        return m

    def template(name: str, text: str) -> Path:
        p = tmp / name
        p.write_text(text)
        return p

    unit = h.UNIT.format(extra="")
    return {
        # ---- vLLM
        "vllm-config-model-type-missing": lambda: h.vllm(
            model("no-mtype", lambda m: h.edit_config(m, model_type=None)), "--max-model-len", "512"
        ),
        "vllm-shard-missing": lambda: h.vllm(
            model("shard", split_into_two_shards), "--max-model-len", "512", timeout=400
        ),
        "vllm-cpu-kvcache-space-too-large": lambda: h.vllm(
            tiny, "--max-model-len", "512", env={"VLLM_CPU_KVCACHE_SPACE": "4096"}, timeout=400
        ),
        "vllm-cpu-omp-bind-bad-cores": lambda: h.vllm(
            tiny, "--max-model-len", "512", env={"VLLM_CPU_OMP_THREADS_BIND": "0-63"}, timeout=400
        ),
        "vllm-lora-module-path-missing": lambda: h.vllm(
            tiny,
            "--max-model-len",
            "512",
            "--enable-lora",
            "--lora-modules",
            "support-bot=/srv/lora/support-bot",
            timeout=480,
        ),
        "vllm-bool-flag-given-value": lambda: h.vllm(tiny, "--enforce-eager", "true"),
        "vllm-custom-code-needs-trust": lambda: h.vllm(
            model(
                "custom",
                lambda m: h.edit_config(
                    m,
                    model_type="fancy_llama",
                    architectures=["FancyLlamaForCausalLM"],
                    auto_map={
                        "AutoConfig": "configuration_fancy.FancyLlamaConfig",
                        "AutoModelForCausalLM": "modeling_fancy.FancyLlamaForCausalLM",
                    },
                ),
            ),
            "--max-model-len",
            "512",
        ),
        "vllm-rope-yarn-without-factor": lambda: h.vllm(
            model(
                "yarn",
                lambda m: h.edit_config(m, rope_parameters={"rope_type": "yarn", "rope_theta": 10000.0}),
            ),
            "--max-model-len",
            "512",
            timeout=400,
        ),
        "vllm-tokenizer-class-unknown": lambda: h.vllm(
            model("tokclass", _tokenizer_class("Qwen9Tokenizer")), "--max-model-len", "512", timeout=400
        ),
        "vllm-env-var-typo": lambda: h.vllm(
            tiny, "--max-model-len", "512", env={"VLLM_CPU_KVCACHE_SPCE": "2"}, timeout=300
        ),
        # ---- llama.cpp's llama-server
        "llama-mmproj-missing": lambda: h.llama("-m", str(h.GGUF), "--mmproj", "/srv/models/mmproj-f16.gguf"),
        "llama-cache-type-k-invalid": lambda: h.llama("-m", str(h.GGUF), "--cache-type-k", "q9_0"),
        "llama-gguf-cut-in-header": lambda: h.llama("-m", str(cut_file(h.GGUF, tmp / "head.gguf", 24))),
        "llama-gguf-cut-last-kib": lambda: h.llama("-m", str(cut_file(h.GGUF, tmp / "tail.gguf", -1024))),
        "llama-chat-template-syntax-error": lambda: h.llama(
            "-m", str(h.GGUF), "--chat-template-file", str(template("broken.jinja", BROKEN_TEMPLATE))
        ),
        "llama-port-out-of-range": lambda: h.llama("-m", str(h.GGUF), port="70000"),
        "llama-draft-model-missing": lambda: h.llama(
            "-m", str(h.GGUF), "-md", "/srv/models/qwen3-0.6b-q8_0.gguf"
        ),
        "llama-lora-missing": lambda: h.llama("-m", str(h.GGUF), "--lora", "/srv/lora/support-bot.gguf"),
        "llama-ctx-above-training": lambda: h.llama("-m", str(h.GGUF), "-c", "16384", timeout=40),
        # ---- servebox up on a broken spec
        "servebox-up-engine-binary-missing": lambda: servebox_up(
            h, tmp, "/opt/llama.cpp/build/bin/llama-server"
        ),
        "servebox-up-router-port-held": lambda: h._with_port(
            ROUTER_PORT, lambda: servebox_up(h, tmp, h.LLAMA)
        ),
        # ---- systemd-analyze verify on broken units
        "systemd-service-keys-in-unit-section": lambda: h.systemd_verify(unit.replace("[Service]\n", "")),
        "systemd-section-name-lowercase": lambda: h.systemd_verify(unit.replace("[Service]", "[service]")),
        "systemd-execstart-env-var-path": lambda: h.systemd_verify(
            unit.replace("ExecStart=/bin/sleep 1000", "ExecStart=${VENV}/bin/vllm serve /srv/models/llm")
        ),
        "systemd-inline-comment": lambda: h.systemd_verify(
            h.UNIT.format(extra="TimeoutStartSec=900 # vLLM compiles for minutes on first start\n")
        ),
    }


def _tokenizer_class(name: str):
    def mutate(m: Path) -> None:
        cfg = json.loads((m / "tokenizer_config.json").read_text())
        cfg["tokenizer_class"] = name
        (m / "tokenizer_config.json").write_text(json.dumps(cfg, indent=2))

    return mutate
