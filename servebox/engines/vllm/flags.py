"""vLLM's own `vllm serve` flag names, parsed into the settings the planner uses.

The same parser reads `servebox plan SOURCE --flag ...` and `--from-command "vllm serve MODEL ..."`.
"""

from __future__ import annotations

import argparse
import json
import shlex
from dataclasses import dataclass, field
from typing import Any

from servebox.engines.vllm.serve_options import as_vllm_reads, is_flag
from servebox.errors import InputError

MAMBA_DTYPES = ("auto", "float32", "float16", "bfloat16")  # vllm/config/cache.py MambaDType


@dataclass
class ServeFlags:
    model: str | None = None
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    data_parallel_size: int = 1
    nnodes: int | None = None  # vLLM's --nnodes (servebox's --nodes); None: as many as the GPUs per node need
    node_rank: int | None = None
    gpus_per_node: int | None = None  # servebox's --gpus-per-node (not a vLLM flag)
    env: dict[str, str] = field(
        default_factory=dict
    )  # the engine's environment as servebox is told it (--env)
    gpu_memory_utilization: float = 0.9
    max_model_len: str | None = None  # an int, "auto", or None (the model's max positions)
    max_num_seqs: int | None = None
    max_num_batched_tokens: int | None = None
    kv_cache_dtype: str = "auto"
    kv_cache_memory_bytes: int | None = None
    enforce_eager: bool = False
    compilation_config: dict[str, Any] = field(default_factory=dict)
    optimization_level: int | None = None  # -O0..-O3; 1 captures piecewise graphs only
    speculative_config: dict[str, Any] | None = None
    mamba_cache_mode: str | None = None
    mamba_cache_dtype: str | None = None  # conv (and, left 'auto', recurrent) state; vLLM's MambaDType
    mamba_ssm_cache_dtype: str | None = None  # recurrent state only
    enable_prefix_caching: bool | None = None
    async_scheduling: bool | None = None
    language_model_only: bool = False
    block_size: int | None = None
    dtype: str = "auto"
    default_chat_template_kwargs: dict[str, Any] = field(default_factory=dict)
    quantization: str | None = None
    attention_backend: str | None = None
    kv_offloading_size: float | None = None
    served_model_name: list[str] = field(default_factory=list)
    port: int | None = None
    host: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # other known flags, kept verbatim for rendering
    # every flag token as written (the modeled ones too): the release's option list refuses some servebox reads
    # (--swap-space, gone by 0.26), so plan and check read them all against it
    written: list[str] = field(default_factory=list)


def _json_arg(flag: str):
    def parse(text: str) -> dict[str, Any]:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(flag, None, f"not valid JSON ({exc.msg}): {text!r}") from None
        if not isinstance(value, dict):
            raise InputError(flag, None, "must be a JSON object")
        return value

    return parse


def _bytes(text: str) -> int:
    units = {"k": 10**3, "m": 10**6, "g": 10**9, "ki": 2**10, "mi": 2**20, "gi": 2**30}
    t = text.strip().lower().rstrip("b")
    for suffix in sorted(units, key=len, reverse=True):
        if t.endswith(suffix):
            return int(float(t[: -len(suffix)]) * units[suffix])
    return int(float(t))


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2 through InputError
        raise InputError("vllm flags", None, message)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="vllm serve", add_help=False, allow_abbrev=False)
    p.add_argument("model", nargs="?")
    p.add_argument("--model", dest="model_flag")
    p.add_argument("--tensor-parallel-size", "-tp", type=int, default=1)
    p.add_argument("--pipeline-parallel-size", "-pp", type=int, default=1)
    p.add_argument("--data-parallel-size", "-dp", type=int, default=1)
    p.add_argument("--nnodes", type=int)
    p.add_argument("--node-rank", type=int)
    p.add_argument("--gpu-memory-utilization", type=float, default=0.9)
    p.add_argument("--max-model-len", type=str)
    p.add_argument("--max-num-seqs", type=int)
    p.add_argument("--max-num-batched-tokens", type=int)
    p.add_argument("--kv-cache-dtype", default="auto")
    p.add_argument("--kv-cache-memory-bytes", "--kv-cache-memory", type=_bytes)
    p.add_argument("--enforce-eager", action="store_true")
    p.add_argument("--compilation-config", "-cc", "-O", type=_json_arg("--compilation-config"), default={})
    p.add_argument("--optimization-level", type=int, choices=(0, 1, 2, 3))
    p.add_argument("--speculative-config", type=_json_arg("--speculative-config"))
    p.add_argument("--mamba-cache-mode")
    p.add_argument("--mamba-cache-dtype", choices=MAMBA_DTYPES)
    p.add_argument("--mamba-ssm-cache-dtype", choices=MAMBA_DTYPES)
    p.add_argument("--enable-prefix-caching", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--async-scheduling", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--language-model-only", action="store_true")
    p.add_argument("--block-size", type=int)
    p.add_argument("--dtype", default="auto")
    p.add_argument(
        "--default-chat-template-kwargs",
        "--chat-template-kwargs",
        type=_json_arg("--default-chat-template-kwargs"),
        default={},
    )
    p.add_argument("--quantization", "-q")
    p.add_argument("--attention-backend")
    p.add_argument("--kv-offloading-size", type=float)
    p.add_argument("--served-model-name", nargs="+", default=[])
    p.add_argument("--port", type=int)
    p.add_argument("--host")
    # flags the planner does not use but must not mistake for the model argument
    for flag in (
        "--reasoning-parser",
        "--tool-call-parser",
        "--chat-template",
        "--tokenizer",
        "--revision",
        "--download-dir",
        "--limit-mm-per-prompt",
        "--mm-processor-kwargs",
        "--generation-config",
        "--api-key",
        "--override-generation-config",
        "--hf-overrides",
        "--kv-transfer-config",
        "--swap-space",
        "--cpu-offload-gb",
        "--seed",
        "--load-format",
        "--distributed-executor-backend",
        "--data-parallel-backend",
        "--data-parallel-size-local",
        "--master-addr",
        "--master-port",
        "--max-logprobs",
        "--uvicorn-log-level",
    ):
        p.add_argument(flag, dest="extra_" + flag.strip("-").replace("-", "_"))
    return p


def _optimization_shorthand(argv: list[str]) -> list[str]:
    """vLLM's FlexibleArgumentParser reads `-O3`, `-O=3` and `-O 3` as --optimization-level (`-O` followed by a JSON
    object stays the compilation config, as older releases had it): the same rewriting, before argparse."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        value = arg[3:] if arg.startswith("-O=") else arg[2:]
        if arg.startswith("-O") and value and not value.startswith("{"):
            out += ["--optimization-level", value]
        elif arg.startswith("-O") and value:
            out += ["--compilation-config", value]
        elif arg == "-O" and i + 1 < len(argv) and argv[i + 1] in {"0", "1", "2", "3"}:
            out.append("--optimization-level")
        else:
            out.append(arg)
    return out


def parse_flags(argv: list[str]) -> tuple[ServeFlags, list[str]]:
    """Known flags into ServeFlags; the rest (flags the planner does not need) are returned, not rejected."""
    # read as vLLM reads it: --max_model_len and a unique prefix (--max-model) are --max-model-len there
    ns, rest = parser().parse_known_args(as_vllm_reads(_optimization_shorthand(argv)))
    if ns.max_model_len is not None and ns.max_model_len != "auto":
        try:
            ns.max_model_len = str(
                _bytes(ns.max_model_len.replace("k", "ki"))
                if ns.max_model_len[-1:].lower() == "k"
                else int(ns.max_model_len)
            )
        except ValueError:
            raise InputError(
                "--max-model-len", None, f"must be an integer or 'auto', got {ns.max_model_len!r}"
            ) from None
    if not 0 < ns.gpu_memory_utilization <= 1:
        raise InputError(
            "--gpu-memory-utilization", None, f"must be in (0, 1], got {ns.gpu_memory_utilization}"
        )
    flags = ServeFlags(
        model=ns.model_flag or ns.model,
        tensor_parallel_size=ns.tensor_parallel_size,
        pipeline_parallel_size=ns.pipeline_parallel_size,
        data_parallel_size=ns.data_parallel_size,
        nnodes=ns.nnodes,
        node_rank=ns.node_rank,
        gpu_memory_utilization=ns.gpu_memory_utilization,
        max_model_len=ns.max_model_len,
        max_num_seqs=ns.max_num_seqs,
        max_num_batched_tokens=ns.max_num_batched_tokens,
        kv_cache_dtype=ns.kv_cache_dtype,
        kv_cache_memory_bytes=ns.kv_cache_memory_bytes,
        enforce_eager=ns.enforce_eager or ns.optimization_level == 0,  # -O0: no compilation, no CUDA graphs
        optimization_level=ns.optimization_level,
        compilation_config=ns.compilation_config,
        speculative_config=ns.speculative_config,
        mamba_cache_mode=ns.mamba_cache_mode,
        mamba_cache_dtype=ns.mamba_cache_dtype,
        mamba_ssm_cache_dtype=ns.mamba_ssm_cache_dtype,
        enable_prefix_caching=ns.enable_prefix_caching,
        async_scheduling=ns.async_scheduling,
        language_model_only=ns.language_model_only,
        block_size=ns.block_size,
        dtype=ns.dtype,
        default_chat_template_kwargs=ns.default_chat_template_kwargs,
        quantization=ns.quantization,
        attention_backend=ns.attention_backend,
        kv_offloading_size=ns.kv_offloading_size,
        served_model_name=ns.served_model_name,
        port=ns.port,
        host=ns.host,
        extra={
            k[len("extra_") :]: v for k, v in vars(ns).items() if k.startswith("extra_") and v is not None
        },
        written=[t for t in _optimization_shorthand(argv) if is_flag(t)],
    )
    return flags, rest


def parse_command(command: str) -> tuple[ServeFlags, list[str]]:
    """`vllm serve MODEL ...` or `python -m vllm.entrypoints.openai.api_server --model MODEL ...`."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise InputError("--from-command", None, f"cannot split the command line: {exc}") from None
    if "serve" in words:
        words = words[words.index("serve") + 1 :]
    elif any("api_server" in w for w in words):
        words = words[next(i for i, w in enumerate(words) if "api_server" in w) + 1 :]
    else:
        raise InputError(
            "--from-command",
            None,
            "expected 'vllm serve MODEL ...' or '... vllm.entrypoints.openai.api_server ...'",
        )
    return parse_flags(words)


def parse_env(pairs: list[str]) -> dict[str, str]:
    """--env NAME=VALUE (repeatable): the engine's environment as the planner should assume it."""
    env = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise InputError("--env", None, f"expected NAME=VALUE, got {pair!r}")
        env[name] = value
    return env
