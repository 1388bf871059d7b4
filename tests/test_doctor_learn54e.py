"""What the measured batches fresh-515 (a pip --target copy of one vLLM dependency first on PYTHONPATH) and fresh-518
(offline LLM API calls) taught learn54e.

- stale-transformers-copy-refuses-newer-dependency (renamed from transformers-older-than-engine-refuses-installed-
  tokenizers, widened): an older transformers copy's import-time check (utils/versions.py _compare_versions: "REQ is
  required for a normal functioning of this module, but found PKG==V.") refusing ANY dependency newer than its
  table's ceiling (fresh515-vllm-02: transformers 5.16.1 wanting huggingface-hub>=1.5.0,<2.0, found 2.4.0), not only
  tokenizers; dependency-version-refused (whose cause says the dependency is too old) steps aside there.
- dependency-version-refused via typing_backport.py: an older typing_extensions pip installed in the log, then an
  exception raised in typing.py's frames (fresh515-vllm-09: torch's 'Too few arguments for <class ...CSE>'), answered
  below 0.70 (the error names neither package nor version).
- insecure-serialization-not-enabled (new): vLLM's msgpack encoder / decoder refusing pickle without
  VLLM_ALLOW_INSECURE_SERIALIZATION=1 (v1/serial_utils.py enc_hook, _decode_utility_result; weight_transfer/
  ipc_engine.py), fresh518-vllm-05's LLM.apply_model(func).
The logs are written from the engines' own format strings (transformers 5.19's versions.py, vLLM 0.32's serial_utils.py
and ipc_engine.py, Python 3.11's typing.py _check_generic), with other packages, paths, versions and prefixes.
"""

from __future__ import annotations

from tests.doctor_text import answer_ids, family_tests, run, top_cause

STALE = "stale-transformers-copy-refuses-newer-dependency"
REFUSED = "dependency-version-refused"
INSECURE = "insecure-serialization-not-enabled"
SITE = "/opt/venvs/serve/lib/python3.12/site-packages"


def pip_target(folder: str, pkg: str, version: str) -> str:
    return (
        f"$ python -m pip install --no-deps -t {folder} {pkg}=={version}\n"
        f"Collecting {pkg}=={version}\nInstalling collected packages: {pkg}\n"
        f"Successfully installed {pkg}-{version}\n"
    )


def transformers_check(transformers_dir: str, requirement: str, found: str, above: str = "") -> str:
    """vLLM importing transformers, whose import-time table check refuses a dependency (frames in transformers_dir)."""
    return (
        above + "$ PYTHONPATH=/data/pins vllm serve /models/qwen3-0.6b --port 8200\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/config/model.py", line 30, in <module>\n'
        "    from transformers import PretrainedConfig\n"
        f'  File "{transformers_dir}/transformers/__init__.py", line 27, in <module>\n'
        "    from . import dependency_versions_check\n"
        f'  File "{transformers_dir}/transformers/dependency_versions_check.py", line 57, in <module>\n'
        "    require_version_core(deps[pkg])\n"
        f'  File "{transformers_dir}/transformers/utils/versions.py", line 44, in _compare_versions\n'
        "    raise ImportError(\n"
        f"ImportError: {requirement} is required for a normal functioning of this module, but found {found}.\n"
        "Try: `pip install transformers -U` or `pip install -e '.[dev]'` if you're working with git main\n"
    )


def typing_failure(above: str = "", message: str = "") -> str:
    """A library's class body subscripting a generic whose TypeVar default an old typing_extensions does not fill."""
    message = message or "Too few arguments for <class 'mylib.sched.Queue'>; actual 1, expected 2"
    return (
        above
        + "$ PYTHONPATH=/data/te python -m vllm.entrypoints.openai.api_server --model /models/m --port 8201\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/__init__.py", line 14, in <module>\n'
        "    import vllm.env_override  # noqa: F401\n"
        f'  File "{SITE}/torch/_inductor/codegen/simd.py", line 210, in <module>\n'
        "    class SIMDKernel:\n"
        f'  File "{SITE}/torch/_inductor/codegen/simd.py", line 215, in SIMDKernel\n'
        "    queue: Queue[int] | None = None\n"
        '  File "/usr/lib/python3.12/typing.py", line 1220, in __class_getitem__\n'
        "    _check_generic(cls, params, len(cls.__parameters__))\n"
        '  File "/usr/lib/python3.12/typing.py", line 304, in _check_generic\n'
        "    raise TypeError(f\"Too {'many' if alen > elen else 'few'} arguments for {cls};\"\n"
        f"TypeError: {message}\n"
    )


def rpc_failure(message: str, exc: str = "TypeError", prefix: str = "") -> str:
    """A script's LLM call whose argument or result vLLM's msgpack encoder / decoder refuses."""
    return (
        "$ python probe.py\n"
        f"{prefix}INFO 03-02 10:11:12 [llm.py:360] Supported tasks: ['generate']\n"
        "Traceback (most recent call last):\n"
        '  File "/home/kim/probe.py", line 21, in <module>\n'
        "    llm.collective_rpc(report, args=(Settings(),))\n"
        f'  File "{SITE}/vllm/v1/engine/core_client.py", line 1098, in collective_rpc\n'
        '    return self.call_utility("collective_rpc", method, timeout, args, kwargs)\n'
        f'  File "{SITE}/vllm/v1/serial_utils.py", line 221, in enc_hook\n'
        "    raise TypeError(\n"
        f"{exc}: {message}\n"
    )


FALLBACK = "Set VLLM_ALLOW_INSECURE_SERIALIZATION=1 to allow fallback to pickle-based serialization."

CASES = [
    # the copy's huggingface-hub ceiling, with pip's --target lines above
    (
        STALE,
        transformers_check(
            "/data/pins",
            "huggingface-hub>=0.34.0,<1.0",
            "huggingface-hub==1.3.2",
            above=pip_target("/data/pins", "transformers", "4.56.2"),
        ),
    ),
    # the same with no pip output: the frames' path shows the copy
    (STALE, transformers_check("/srv/old-libs", "huggingface-hub>=1.5.0,<2.0", "huggingface-hub==2.1.0")),
    # the tokenizers case the family was made from stays
    (STALE, transformers_check("/data/pins", "tokenizers>=0.21,<0.22", "tokenizers==0.22.1")),
    # numpy over an old 4.x ceiling
    (STALE, transformers_check("/home/li/libs", "numpy>=1.17,<2.0", "numpy==2.2.6")),
    # an older typing_extensions pip installed, then typing's own check refusing a generic's subscription
    (REFUSED, typing_failure(above=pip_target("/data/te", "typing-extensions", "4.9.0"))),
    (
        REFUSED,
        typing_failure(
            above=pip_target("/data/te", "typing_extensions", "4.11.0"),
            message="Too many arguments for <class 'mylib.sched.Queue'>; actual 3, expected 2",
        ),
    ),
    # vLLM 0.32's encoder: a function / a class of the user's, with and without the process prefix
    (INSECURE, rpc_failure(f"Object of type <class 'function'> is not serializable{FALLBACK}")),
    (
        INSECURE,
        rpc_failure(
            f"Object of type <class '__main__.Settings'> is not serializable{FALLBACK}",
            prefix="(MainProcess pid=77) ",
        ),
    ),
    # the decoder, the variable set on one side only
    (
        INSECURE,
        rpc_failure("VLLM_ALLOW_INSECURE_SERIALIZATION must be set to use custom utility result types"),
    ),
    # weight transfer's pickled IPC handles
    (
        INSECURE,
        rpc_failure(
            "Refusing to deserialize `ipc_handles_pickled` without VLLM_ALLOW_INSECURE_SERIALIZATION=1",
            exc="ValueError",
        ),
    ),
]

NEAR_MISSES = [
    # the environment's own transformers refusing a newer hub: which side is stale the log does not show
    (STALE, transformers_check(SITE, "huggingface-hub>=1.5.0,<2.0", "huggingface-hub==2.4.0")),
    # an old copy under its floor: the dependency is too old, not the copy
    (STALE, transformers_check("/data/pins", "huggingface-hub>=1.5.0,<2.0", "huggingface-hub==1.2.0")),
    # a lower bound only (no ceiling): never this family
    (STALE, transformers_check("/data/pins", "safetensors>=0.4.3", "safetensors==0.4.1")),
    # the same TypeError with no typing_extensions installed in the log: not a stale copy
    (REFUSED, typing_failure()),
    # typing_extensions installed, but the failure is elsewhere (a plain TypeError in the user's code)
    (
        REFUSED,
        pip_target("/data/te", "typing_extensions", "4.10.0")
        + 'Traceback (most recent call last):\n  File "/home/kim/run.py", line 3, in <module>\n'
        "    f(1)\nTypeError: f() takes 0 positional arguments but 1 was given\n",
    ),
    # the variable set: the warning vLLM logs, and a healthy run
    (
        INSECURE,
        "WARNING 03-02 10:11:12 [serial_utils.py:79] Allowing insecure serialization using pickle due to "
        "VLLM_ALLOW_INSECURE_SERIALIZATION=1\nProcessed prompts: 100%|##########| 2/2\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_stale_copy_names_the_refused_package_and_folder():
    top = top_cause(
        run(transformers_check("/srv/old-libs", "huggingface-hub>=1.5.0,<2.0", "huggingface-hub==2.1.0"))
    )
    assert top.id == STALE and "/srv/old-libs" in top.cause and "blames huggingface-hub" in top.cause
    assert "do not downgrade huggingface-hub" in top.fix and top.confidence >= 0.7


def test_under_the_floor_in_a_copy_is_the_dependency_too_old():
    log = transformers_check("/data/pins", "huggingface-hub>=1.5.0,<2.0", "huggingface-hub==1.2.0")
    assert top_cause(run(log)).id == REFUSED


def test_the_typing_failure_is_an_inference_naming_the_copy():
    top = top_cause(run(typing_failure(above=pip_target("/data/te", "typing_extensions", "4.10.0"))))
    assert top.id == REFUSED and top.confidence < 0.7
    assert "typing_extensions==4.10.0" in top.cause and "Inferred" in top.cause


def test_the_typing_failure_without_the_install_stays_an_exception():
    assert REFUSED not in answer_ids(typing_failure())


def test_insecure_serialization_says_the_risk_and_the_alternative():
    top = top_cause(run(rpc_failure(f"Object of type <class 'function'> is not serializable{FALLBACK}")))
    assert top.id == INSECURE and top.confidence >= 0.7
    assert "arbitrary code" in top.cause and "collective_rpc('method_name'" in top.fix


def test_the_unsupported_extension_code_is_only_a_hint():
    log = rpc_failure("Extension type code 2 is not supported", exc="NotImplementedError")
    top = top_cause(run(log))
    assert top.id == INSECURE and top.confidence < 0.7
