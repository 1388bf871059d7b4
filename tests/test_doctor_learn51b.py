"""What the measured batches fresh-468 (version skew in vLLM's Python environment, round 4: a pip --target copy of
another version first on PYTHONPATH) and fresh-466 (an option's optional package missing) taught (older_copy.py,
option_package.py).

The wordings are rendered from the sources that raise them, with other packages, versions, paths and options than the
batches' logs: pydantic/version.py _ensure_pydantic_core_version's SystemError (read in .venv-vllm's pydantic 2.14.4)
with pydantic 2.10's pin; Python's TypeError for a keyword a callee does not take, here httpx 0.28's Client refusing
the `proxies` an old openai copy passes (openai/_base_client.py); vLLM 0.32's bare `import ray` for its Ray options
(v1/executor/ray_executor.py, v1/engine/utils.py).

- dependency-version-refused (widened): a keyword refused inside a copy pip put outside site-packages in this log is
  that copy calling a newer neighbour; pydantic's pin refusing an OLDER pydantic-core is pydantic-core's.
- pydantic-older-copy-refuses-installed-pydantic-core (new): pydantic's pin refusing a NEWER pydantic-core, raised in
  a pydantic copy outside site-packages, or such a copy's import of a name the newer pydantic-core removed.
- optional-package-missing (widened): "No module named 'ray'" where the log shows an option that runs on Ray, named.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

REFUSED = "dependency-version-refused"
PYDANTIC = "pydantic-older-copy-refuses-installed-pydantic-core"
OPTIONAL = "optional-package-missing"
SITE = "/opt/llm/venv/lib/python3.12/site-packages"


def pip_target(folder: str, pkg: str, version: str) -> str:
    return (
        f"$ pip install -U --no-deps --target {folder} {pkg}=={version}\n"
        f"Collecting {pkg}=={version}\nInstalling collected packages: {pkg}\n"
        f"Successfully installed {pkg}-{version}\n"
    )


def keyword_refused(openai_dir: str, above: str = "") -> str:
    """vLLM's OpenAI-compatible client code building an openai client whose httpx call is refused."""
    return (
        above + "$ PYTHONPATH=/srv/pins vllm bench serve --model Qwen/Qwen2.5-1.5B-Instruct --port 8200\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/benchmarks/lib/endpoint_request_func.py", line 40, in <module>\n'
        "    client = openai.OpenAI(base_url=url)\n"
        f'  File "{openai_dir}/openai/_client.py", line 123, in __init__\n'
        "    super().__init__(\n"
        f'  File "{openai_dir}/openai/_base_client.py", line 856, in __init__\n'
        "    self._client = http_client or SyncHttpxClientWrapper(\n"
        f'  File "{openai_dir}/openai/_base_client.py", line 754, in __init__\n'
        "    super().__init__(**kwargs)\n"
        "TypeError: Client.__init__() got an unexpected keyword argument 'proxies'\n"
    )


def core_pin(pydantic_dir: str, found: str, req: str, above: str = "") -> str:
    """vLLM's config importing pydantic, whose import-time check refuses the installed pydantic-core."""
    return (
        above
        + "$ PYTHONPATH=/home/ana/pins python -m vllm.entrypoints.openai.api_server --model /m/qwen --port 8300\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/config/model.py", line 11, in <module>\n'
        "    from pydantic import ConfigDict, SkipValidation\n"
        f'  File "{pydantic_dir}/pydantic/__init__.py", line 5, in <module>\n'
        "    _ensure_pydantic_core_version()\n"
        f'  File "{pydantic_dir}/pydantic/version.py", line 88, in _ensure_pydantic_core_version\n'
        "    raise SystemError(\n"
        f"SystemError: The installed pydantic-core version ({found}) is incompatible with the current pydantic "
        f"version, which requires {req}. If you encounter this error, make sure that you haven't upgraded "
        "pydantic-core manually.\n"
    )


def core_name(pydantic_dir: str, above: str = "") -> str:
    """An older pydantic copy importing a name the environment's newer pydantic-core removed."""
    return (
        above + "$ PYTHONPATH=/home/ana/pins python -m vllm.entrypoints.openai.api_server --model /m/qwen\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/config/cache.py", line 9, in <module>\n'
        "    from pydantic import Field\n"
        f'  File "{pydantic_dir}/pydantic/_internal/_core_utils.py", line 9, in <module>\n'
        "    from pydantic_core import validate_core_schema as _validate_core_schema\n"
        "ImportError: cannot import name 'validate_core_schema' from 'pydantic_core' "
        f"({SITE}/pydantic_core/__init__.py)\n"
    )


def ray_missing(command: str, frame: str) -> str:
    return (
        f"$ {command}\n"
        "INFO 12-07 09:12:01 [utils.py:233] non-default args: {'model': '/m/phi'}\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/{frame}", line 124, in __init__\n'
        "    import ray\n"
        "ModuleNotFoundError: No module named 'ray'\n"
    )


TP_RAY = "vllm serve /m/phi --tensor-parallel-size 2 --distributed-executor-backend=ray"
DPB_RAY = "vllm serve /m/phi -dpb ray --data-parallel-size 2"

CASES = [
    # an old openai pip put in /srv/pins calls httpx 0.28, which no longer takes proxies
    (REFUSED, keyword_refused("/srv/pins", above=pip_target("/srv/pins", "openai", "1.40.0"))),
    # pydantic 2.10.6 copied into /home/ana/pins, pinned to pydantic-core 2.27.2, meets the environment's 2.33.2
    (
        PYDANTIC,
        core_pin(
            "/home/ana/pins", "2.33.2", "2.27.2", above=pip_target("/home/ana/pins", "pydantic", "2.10.6")
        ),
    ),
    # the same copy with no pip output: the check's frame still lies in the copy
    (PYDANTIC, core_pin("/home/ana/pins", "2.41.5", "2.33.2")),
    # an older pydantic copy failing on a name the newer pydantic-core removed, before its own check speaks
    (PYDANTIC, core_name("/home/ana/pins", above=pip_target("/home/ana/pins", "pydantic", "2.9.2"))),
    # the pin refusing an OLDER pydantic-core: pydantic-core is the stale one, whoever raised it
    (REFUSED, core_pin(SITE, "2.27.2", "2.33.2")),
    # vLLM's Ray options without ray installed
    (OPTIONAL, ray_missing(TP_RAY, "vllm/v1/executor/ray_executor.py")),
    (OPTIONAL, ray_missing(DPB_RAY, "vllm/v1/engine/utils.py")),
]

NEAR_MISSES = [
    # the same refused keyword with every frame installed: no copy out of place the log shows
    (REFUSED, keyword_refused(SITE)),
    # a folder of the user's own (pip installed another package): not a stale copy of a package
    (REFUSED, keyword_refused("/srv/pins", above=pip_target("/srv/pins", "regex", "2024.11.6"))),
    # the pin refusing a newer pydantic-core within one environment: which one was changed by hand, the log cannot say
    (PYDANTIC, core_pin(SITE, "2.33.2", "2.27.2")),
    # the pin refusing an older pydantic-core from a pydantic copy: pydantic-core is stale, not that copy
    (PYDANTIC, core_pin("/home/ana/pins", "2.27.2", "2.33.2")),
    # ray missing where no option of the start runs on Ray (the multiprocessing backend)
    (
        OPTIONAL,
        ray_missing("vllm serve /m/phi --data-parallel-backend mp", "vllm/v1/metrics/ray_wrappers.py"),
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_stale_copy_and_the_refused_keyword_are_named():
    top = top_cause(run(keyword_refused("/srv/pins", above=pip_target("/srv/pins", "openai", "1.40.0"))))
    assert (
        top.id == REFUSED and "openai (1.40.0, the copy in /srv/pins" in top.cause and "proxies" in top.cause
    )


def test_the_pydantic_copy_is_named_with_both_versions():
    top = top_cause(run(core_pin("/home/ana/pins", "2.33.2", "2.27.2")))
    assert top.id == PYDANTIC and "/home/ana/pins" in top.cause
    assert "2.33.2" in top.cause and "2.27.2" in top.cause and top.confidence >= 0.7


def test_the_ray_option_is_named():
    top = top_cause(run(ray_missing(TP_RAY, "vllm/v1/executor/ray_executor.py")))
    assert top.id == OPTIONAL and "--distributed-executor-backend ray" in top.cause
    top = top_cause(run(ray_missing(DPB_RAY, "vllm/v1/engine/utils.py")))
    assert "--data-parallel-backend ray" in top.cause and "--distributed" not in top.cause


def test_ray_missing_without_its_option_stays_a_missing_module():
    log = ray_missing("vllm serve /m/phi --data-parallel-backend mp", "vllm/v1/metrics/ray_wrappers.py")
    assert top_cause(run(log)).id == "python-module-missing"


def test_a_name_missing_from_a_target_copy_stays_python_import_name_missing():
    """An older --target copy lacking a name its newer neighbour imports (fresh-426's and fresh-468's typing_extensions
    lacking sentinel): the refused-keyword reading does not take it."""
    log = pip_target("/srv/te", "typing_extensions", "4.12.2") + (
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/anyio/_core/_typedattr.py", line 10, in <module>\n'
        "    from typing_extensions import sentinel\n"
        "ImportError: cannot import name 'sentinel' from 'typing_extensions' (/srv/te/typing_extensions.py)\n"
    )
    assert top_cause(run(log)).id == "python-import-name-missing"


def test_every_option_literal_reads_as_the_option_a_user_typed():
    """The literals live once, in install.toml's hint_requires; each reads as one of the two ray options."""
    from servebox.doctor.option_package import OPTIONAL, user_words  # noqa: PLC0415
    from servebox.doctor.signatures import load_signatures  # noqa: PLC0415

    literals = next(sig.hint_requires for sig in load_signatures() if sig.id == OPTIONAL)
    words = {w: user_words(w) for w in literals}
    assert words["-dpb=ray"] == "--data-parallel-backend ray"
    assert words["'distributed_executor_backend': 'ray'"] == "--distributed-executor-backend ray"
    assert words['distributed_executor_backend="ray"'] == "distributed_executor_backend='ray'"
    allowed = {"--data-parallel-backend ray", "--distributed-executor-backend ray"}
    allowed |= {"data_parallel_backend='ray'", "distributed_executor_backend='ray'"}
    assert set(words.values()) <= allowed and len(literals) >= 13
