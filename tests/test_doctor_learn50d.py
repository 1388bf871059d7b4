"""What the measured batch fresh-460 (version skew in vLLM's Python environment, round 3: a pip --target copy of another
version first on PYTHONPATH) taught: which side of a version skew is the copy out of place (copy_side.py).

The refusal lines are transformers' utils/versions.py _compare_versions format string ("{requirement} is required for
a normal functioning of this module, but found {pkg}=={got_ver}.{hint}", read in .venv-vllm's transformers 5.19.0)
filled with other releases' dependency-table ranges (transformers 4.46's tokenizers>=0.20,<0.21; 5.19's
tokenizers>=0.23.1,<0.24.0); the missing-module traceback is anthropic's `import sniffio` (anthropic/_utils/_sync.py)
from a copy pip put in another folder. Paths, versions and models differ from the batch's logs.

- dependency-version-refused (widened): a refusal whose found version is under the range's floor is the dependency's
  (tokenizers too, which was transformers-version-mismatch's hint only); a module missing where a copy that pip
  installed outside site-packages imports it names that copy.
- transformers-older-than-engine-refuses-installed-tokenizers (new): the tokenizers refusal over the range's ceiling,
  raised by a transformers copy outside site-packages.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

REFUSED = "dependency-version-refused"
OLD_CHECKER = "stale-transformers-copy-refuses-newer-dependency"  # renamed, widened by learn54e
SITE = "/opt/llm/venv/lib/python3.12/site-packages"
HINT = "Try: `pip install transformers -U` or `pip install -e '.[dev]'` if you're working with git main\n"


def pip_target(folder: str, pkg: str, version: str) -> str:
    return (
        f"$ pip install -U --no-deps --target {folder} {pkg}=={version}\n"
        f"Collecting {pkg}=={version}\nInstalling collected packages: {pkg}\n"
        f"Successfully installed {pkg}-{version}\n"
    )


def check_raised(transformers_dir: str, requirement: str, found: str, above: str = "") -> str:
    """vLLM importing transformers, whose import-time check refuses a dependency (frames from transformers_dir)."""
    return (
        above + "$ PYTHONPATH=/srv/pins vllm serve Qwen/Qwen2.5-0.5B-Instruct --port 8100\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/transformers_utils/config.py", line 12, in <module>\n'
        "    from transformers import AutoConfig\n"
        f'  File "{transformers_dir}/transformers/__init__.py", line 26, in <module>\n'
        "    from . import dependency_versions_check\n"
        f'  File "{transformers_dir}/transformers/dependency_versions_check.py", line 57, in <module>\n'
        "    require_version_core(deps[pkg])\n"
        f'  File "{transformers_dir}/transformers/utils/versions.py", line 44, in _compare_versions\n'
        "    raise ImportError(\n"
        f"ImportError: {requirement} is required for a normal functioning of this module, but found {found}.\n"
        + HINT
    )


def missing_from(importer_file: str, module: str, above: str = "") -> str:
    return (
        above
        + "$ PYTHONPATH=/srv/extra python -m vllm.entrypoints.openai.api_server --model /m/phi --port 8100\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/entrypoints/anthropic/protocol.py", line 8, in <module>\n'
        "    from anthropic.types import Message\n"
        f'  File "{importer_file}", line 7, in <module>\n'
        f"    import {module}\n"
        f"ModuleNotFoundError: No module named '{module}'\n"
    )


CASES = [
    # an old tokenizers pip put in a --target folder, under the environment's transformers (its frames installed)
    (
        REFUSED,
        check_raised(
            SITE,
            "tokenizers>=0.23.1,<0.24.0",
            "tokenizers==0.21.4",
            above=pip_target("/srv/pins", "tokenizers", "0.21.4"),
        ),
    ),
    # the same under the floor with no pip output at all: the arithmetic alone says the dependency is too old
    (REFUSED, check_raised(SITE, "tokenizers>=0.20,<0.21", "tokenizers==0.19.1")),
    # transformers 4.46.3 copied into /home/ana/libs (its frames there) refusing the environment's newer tokenizers
    (
        OLD_CHECKER,
        check_raised(
            "/home/ana/libs",
            "tokenizers>=0.20,<0.21",
            "tokenizers==0.22.1",
            above=pip_target("/home/ana/libs", "transformers", "4.46.3"),
        ),
    ),
    # the same copy with no pip output (a folder someone left on PYTHONPATH): the frames' path still shows it
    (OLD_CHECKER, check_raised("/srv/pins", "tokenizers>=0.22.0,<=0.23.0", "tokenizers==0.23.5")),
    # an old anthropic installed --no-deps into /srv/extra imports its own dependency, which is not installed
    (
        REFUSED,
        missing_from(
            "/srv/extra/anthropic/_utils/_sync.py",
            "sniffio",
            above=pip_target("/srv/extra", "anthropic", "0.40.0"),
        ),
    ),
]

NEAR_MISSES = [
    # over the ceiling with the environment's own transformers: which side is stale the log does not show
    (OLD_CHECKER, check_raised(SITE, "tokenizers>=0.22.0,<=0.23.0", "tokenizers==0.23.3")),
    # an editable transformers checkout refusing an OLD tokenizers: the tokenizers is stale, not that transformers
    (
        OLD_CHECKER,
        check_raised("/home/ana/src/transformers/src", "tokenizers>=0.23.1,<0.24.0", "tokenizers==0.22.0"),
    ),
    # vLLM itself importing a module that is not installed, in a log that pip-installed something else
    (
        REFUSED,
        missing_from(
            f"{SITE}/vllm/entrypoints/anthropic/serving.py",
            "sniffio",
            above=pip_target("/srv/extra", "regex", "2024.11.6"),
        ),
    ),
    # the user's own folder (no pip install of it) importing a missing module: that module is what is missing
    (REFUSED, missing_from("/srv/extra/mytools/helpers.py", "sniffio")),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_missing_module_from_a_copy_names_the_copy_and_its_version():
    log = missing_from(
        "/srv/extra/anthropic/_utils/_sync.py",
        "sniffio",
        above=pip_target("/srv/extra", "anthropic", "0.40.0"),
    )
    top = top_cause(run(log))
    assert top.id == REFUSED
    assert "anthropic (0.40.0, the copy in /srv/extra" in top.cause and "'sniffio'" in top.cause


def test_vllm_importing_a_missing_module_stays_python_module_missing():
    log = missing_from(f"{SITE}/vllm/entrypoints/anthropic/serving.py", "sniffio")
    assert top_cause(run(log)).id == "python-module-missing"


def test_the_old_transformers_copy_is_named_with_its_folder():
    top = top_cause(run(check_raised("/home/ana/libs", "tokenizers>=0.20,<0.21", "tokenizers==0.22.1")))
    assert top.id == OLD_CHECKER and "/home/ana/libs" in top.cause and top.confidence >= 0.7


def test_over_the_ceiling_with_no_copy_shown_stays_the_mismatch_hint():
    top = top_cause(run(check_raised(SITE, "tokenizers>=0.22.0,<=0.23.0", "tokenizers==0.23.3")))
    assert top.id == "transformers-version-mismatch" and top.confidence < 0.7
