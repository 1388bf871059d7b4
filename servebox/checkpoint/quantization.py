"""One normalised description of every quantization format, with what it leaves unquantized.

Formats spell the same facts differently (AWQ `modules_to_not_convert` by substring, compressed-
tensors `ignore` with `re:` regexes, ModelOpt `exclude_modules` with wildcards). This module turns
each into bits, group size, weight/activation precision, and per component group: how many linear
modules the declaration excludes and how many the tensors actually show unquantized. The digest's
two failures (GDN layers quantized at W4A4; a vision tower quantized and unshardable) are both
visible here before anyone downloads a byte.
"""

# no `from __future__ import annotations`: pydantic builds its models faster from real annotations
import fnmatch
from typing import Any

from pydantic import BaseModel

from servebox.checkpoint.config_schema import ModelOptSchema, check_quant_config
from servebox.checkpoint.source import CheckpointSource
from servebox.checkpoint.tensors import TensorInventory
from servebox.errors import InputError

# Groups an operator cares about, in the order reports show them.
REPORTED_GROUPS = (
    "vision_tower",
    "linear_attention",
    "mamba",
    "mtp",
    "lm_head",
    "attention",
    "mlp",
    "moe_experts",
    "moe_router",
)


class GroupQuantization(BaseModel):
    modules: int
    declared_excluded: int
    quantized_in_tensors: int | None
    fully_excluded: bool


class Quantization(BaseModel):
    method: str  # none, awq, gptq, compressed-tensors, fp8, modelopt, bitsandbytes, gguf
    format: str | None = None
    weight_bits: int | None = None
    weight_type: str | None = None  # int or float
    group_size: int | None = None
    activation_bits: int | None = None  # None: activations stay 16-bit
    activation_dynamic: bool | None = None
    symmetric: bool | None = None
    scheme: str = "W16A16"
    declared_exclusions: list[str] = []
    exclusion_rule: str | None = None
    groups: dict[str, GroupQuantization] = {}
    excluded_groups: list[str] = []
    quantized_groups: list[str] = []
    kv_cache_scheme: str | None = None


def _scheme(weight_bits: int | None, weight_type: str | None, act_bits: int | None, fmt: str | None) -> str:
    if weight_bits is None:
        return "W16A16"
    label = f"W{weight_bits}A{act_bits or 16}"
    if fmt and "nvfp4" in fmt.lower():
        return f"{label} (NVFP4)"
    if fmt and "mxfp4" in fmt.lower():
        return f"{label} (MXFP4)"
    if weight_type == "float" and weight_bits == 8:
        return f"{label} (FP8)"
    return label


MAX_PATTERN_CHARS = 1024


def _re2(pattern: str, where: str):
    """A checkpoint's `re:` pattern compiled by RE2, whose matching time is linear in the input:
    Python's backtracking `re` took 128 s on a 44-character name against `(a+)+$`."""
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own complaint on stderr
    if len(pattern) > MAX_PATTERN_CHARS:
        raise InputError(
            where, "ignore", f"a pattern of {len(pattern):,} characters (limit {MAX_PATTERN_CHARS})"
        )
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        detail = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise InputError(
            where, "ignore", f"pattern {pattern!r:.80} is not a linear-time (RE2) regex: {detail}"
        ) from None


def _matcher(rule: str, entries: list[str], where: str = "config.json"):
    """How each format's list matches a module name (as vLLM applies it)."""
    if not all(isinstance(e, str) for e in entries):
        raise InputError(where, "ignore", "every exclusion entry must be a string")
    if rule == "substring":  # AWQ / GPTQ / FP8 / bitsandbytes modules_to_not_convert
        return lambda module: any(e and e in module for e in entries)
    if rule == "wildcard":  # ModelOpt exclude_modules
        return lambda module: any(
            fnmatch.fnmatchcase(module, e) or fnmatch.fnmatchcase(module, e + ".*") for e in entries
        )
    regexes = [_re2(e[3:], where) for e in entries if e.startswith("re:")]
    exact = {e for e in entries if not e.startswith("re:")}

    def compressed_tensors(module: str) -> bool:  # exact names, or re: patterns anchored at the start
        return (
            module in exact
            or any(module.endswith("." + e) for e in exact)
            or any(r.match(module) for r in regexes)
        )

    return compressed_tensors


def _from_compressed_tensors(qc: dict[str, Any], q: Quantization, source: str) -> str:
    q.format = qc.get("format")
    groups = qc.get("config_groups") or {}
    if not isinstance(groups, dict) or not groups:
        raise InputError(
            source,
            "quantization_config.config_groups",
            "missing: compressed-tensors needs at least one group",
        )
    first = next(iter(groups.values()))
    weights = first.get("weights") or {}
    acts = first.get("input_activations") or None
    q.weight_bits = weights.get("num_bits")
    q.weight_type = weights.get("type")
    q.group_size = weights.get("group_size")
    q.symmetric = weights.get("symmetric")
    if acts:
        q.activation_bits = acts.get("num_bits")
        q.activation_dynamic = acts.get("dynamic") not in (False, None)
    kv = qc.get("kv_cache_scheme")
    if isinstance(kv, dict):
        q.kv_cache_scheme = f"{kv.get('type', '')}{kv.get('num_bits', '')}"
    q.declared_exclusions = list(qc.get("ignore") or [])
    return "compressed-tensors"


def _from_modelopt(hq: dict[str, Any], q: Quantization, where: str = "hf_quant_config.json") -> str:
    quant = hq.get("quantization", hq)
    if not isinstance(quant, dict):
        raise InputError(where, "quantization", "must be an object")
    check_quant_config(quant, where, ModelOptSchema)
    algo = str(quant.get("quant_algo") or "")
    q.format = algo
    if "FP4" in algo.upper():
        q.weight_bits, q.weight_type, q.activation_bits = 4, "float", 4
    elif "FP8" in algo.upper():
        q.weight_bits, q.weight_type, q.activation_bits = 8, "float", 8
    elif "W4A16" in algo.upper() or "AWQ" in algo.upper():
        q.weight_bits, q.weight_type = 4, "int"
    q.group_size = quant.get("group_size")
    q.kv_cache_scheme = quant.get("kv_cache_quant_algo")
    q.declared_exclusions = list(quant.get("exclude_modules") or [])
    return "wildcard"


def quantization_config_of(config: dict[str, Any]) -> dict[str, Any] | None:
    qc = config.get("quantization_config")
    if qc is None and isinstance(config.get("text_config"), dict):
        qc = config["text_config"].get("quantization_config")
    return qc


def parse_quantization(
    source: CheckpointSource, config: dict[str, Any], inv: TensorInventory | None
) -> Quantization:
    where = source.location("config.json")
    qc = quantization_config_of(config)
    modelopt = source.read_json("hf_quant_config.json") if source.has("hf_quant_config.json") else None
    if qc is None and source.has("quantize_config.json"):  # old AutoGPTQ layout
        qc = source.read_json("quantize_config.json")
        qc.setdefault("quant_method", "gptq")
        where = source.location("quantize_config.json")
    if qc is not None and not isinstance(qc, dict):
        raise InputError(where, "quantization_config", "must be an object")
    if qc is not None:
        check_quant_config(qc, where)
    q = Quantization(method="none")
    rule = None
    if modelopt is not None and (qc is None or qc.get("quant_method") in ("modelopt", "modelopt_fp4", None)):
        q.method = "modelopt"
        rule = _from_modelopt(modelopt, q, source.location("hf_quant_config.json"))
    elif qc is not None:
        method = str(qc.get("quant_method") or "").lower()
        if not method:
            raise InputError(where, "quantization_config.quant_method", "missing")
        q.method = method
        if method == "compressed-tensors":
            rule = _from_compressed_tensors(qc, q, where)
        elif method in ("awq", "gptq", "awq_marlin", "gptq_marlin", "autoround", "auto-round"):
            q.weight_bits, q.weight_type = qc.get("bits", qc.get("w_bit")), "int"
            q.group_size = qc.get("group_size", qc.get("q_group_size"))
            q.symmetric = qc.get("sym", None if method.startswith("awq") else True)
            q.format = qc.get("version") or qc.get("checkpoint_format")
            q.declared_exclusions = list(qc.get("modules_to_not_convert") or [])
            rule = "substring"
        elif method == "fp8":
            q.weight_bits, q.weight_type, q.activation_bits = 8, "float", 8
            q.format = qc.get("fmt", "e4m3")
            block = qc.get("weight_block_size")
            q.group_size = block[-1] if isinstance(block, list) and block else None
            q.activation_dynamic = qc.get("activation_scheme") == "dynamic"
            q.declared_exclusions = list(qc.get("modules_to_not_convert") or qc.get("ignored_layers") or [])
            rule = "substring"
        elif method == "bitsandbytes":
            four = qc.get("load_in_4bit") or qc.get("_load_in_4bit")
            q.weight_bits = 4 if four else 8
            q.weight_type = "float" if four and qc.get("bnb_4bit_quant_type") in ("nf4", "fp4") else "int"
            q.format = qc.get("bnb_4bit_quant_type") if four else "llm.int8"
            q.declared_exclusions = list(qc.get("llm_int8_skip_modules") or [])
            rule = "substring"
        elif (
            method == "gguf"
        ):  # vLLM's old GGUF method name; neither 0.26.0 nor 0.32.0 knows it (check says so)
            rule = None
        elif (
            method in ("modelopt", "modelopt_fp4")
            and (qc.get("quant_algo") or isinstance(qc.get("quantization"), dict))
        ):  # ModelOpt's fields in config.json itself: vLLM reads the quant_algo there (_extract_modelopt_quant_algo)
            rule = _from_modelopt(qc, q, where)
        elif method in ("mxfp4", "modelopt", "modelopt_fp4"):
            q.weight_bits, q.weight_type, q.format = 4, "float", method
            q.declared_exclusions = list(qc.get("modules_to_not_convert") or qc.get("ignore") or [])
            rule = "substring"
        elif method == "fbgemm_fp8":
            # FBGEMM's FP8 (e.g. meta-llama/Llama-3.1-405B-Instruct-FP8): per-channel e4m3 weights, activations
            # quantized per token at run time under activation_scale_ub (vLLM quantization/fbgemm_fp8.py)
            q.weight_bits, q.weight_type, q.activation_bits, q.format = 8, "float", 8, "e4m3"
            q.activation_dynamic = True
            q.declared_exclusions = list(qc.get("modules_to_not_convert") or [])
            rule = "substring"
        else:
            rule = _unread_method(qc, q)
    q.exclusion_rule = rule or None
    q.scheme = _scheme(q.weight_bits, q.weight_type, q.activation_bits, q.format)
    if q.method != "none" and q.weight_bits is None and rule == "substring":
        q.scheme = (
            "not read (servebox has no reader for this method; the tensors' own dtypes are what plan counts)"
        )
    if q.method != "none" and inv is not None:
        _exclusions_by_group(q, inv, rule, where)
    return q


def _unread_method(qc: dict[str, Any], q: Quantization) -> str:
    """A method servebox has no reader for (vLLM has many: quark, torchao, experts_int8, ...): not the user's
    mistake, so no refusal here. Its bit width and exclusion list are read where they carry the common names;
    whether an engine release knows the method is check's question (quantization-method-unknown)."""
    bits = qc.get("bits", qc.get("w_bit", qc.get("weight_bits")))
    q.weight_bits = bits if isinstance(bits, int) and not isinstance(bits, bool) else None
    for key in ("modules_to_not_convert", "ignore", "ignored_layers", "exclude_modules"):
        if isinstance(qc.get(key), list):
            q.declared_exclusions = [str(x) for x in qc[key]]
            break
    return "substring"


def _exclusions_by_group(q: Quantization, inv: TensorInventory, rule: str | None, where: str) -> None:
    matches = _matcher(rule or "compressed-tensors", q.declared_exclusions, where)
    for group in REPORTED_GROUPS:
        members = [
            m
            for m in inv.modules.values()
            if (m.component if group in ("vision_tower", "mtp") else m.group) == group
        ]
        if group not in ("vision_tower", "mtp"):
            members = [m for m in members if m.component not in ("vision_tower", "mtp")]
        if not members:
            continue
        declared = sum(1 for m in members if matches(m.name))
        quantized = sum(1 for m in members if m.quantized)
        q.groups[group] = GroupQuantization(
            modules=len(members),
            declared_excluded=declared,
            quantized_in_tensors=quantized,
            fully_excluded=quantized == 0,
        )
    q.excluded_groups = [g for g, v in q.groups.items() if v.fully_excluded]
    q.quantized_groups = [g for g, v in q.groups.items() if not v.fully_excluded]
