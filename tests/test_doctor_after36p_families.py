"""What after36p learnt from after36d's check of an empty yaml.py first on PYTHONPATH under vLLM 0.32 (Python 3.11,
huggingface_hub 2.4): a shadow whose file the traceback never names.

- engine-package-shadowed-by-source-tree: huggingface_hub's lazy loader ('Error importing huggingface_hub.X: cannot
  import name Y from huggingface_hub.Z'), the package failing to import itself, where the log also names a file called
  like a library outside site-packages (a `cat DIR/yaml.py`).
- python-import-name-missing: the same lines without such a file answer below 0.70 (rival_cause: a shadowed
  dependency or a broken huggingface_hub install); a 'cannot import name' from site-packages between two packages
  stays confident.
The tracebacks are as `.venv-vllm/bin/python -c "import vllm.entrypoints.openai.api_server"` printed them here, with the
venv's path shortened; the other shadows checked (filelock.py, packaging.py) name their file and stay this family's.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

SP = "/opt/venv/lib/python3.11/site-packages"

YAML_SHADOW = (
    f"Error importing huggingface_hub.file_download: cannot import name 'WeakFileLock' from 'huggingface_hub.utils' "
    f"({SP}/huggingface_hub/utils/__init__.py)\n"
    "Traceback (most recent call last):\n"
    '  File "<string>", line 1, in <module>\n'
    f'  File "{SP}/transformers/utils/hub.py", line 29, in <module>\n'
    "    from huggingface_hub import (\n"
    f'  File "{SP}/huggingface_hub/__init__.py", line 1236, in __getattr__\n'
    "    submod = importlib.import_module(submod_path)\n"
    f'  File "{SP}/huggingface_hub/_local_folder.py", line 59, in <module>\n'
    "    from .utils import WeakFileLock\n"
    "ImportError: cannot import name 'WeakFileLock' from 'huggingface_hub.utils' "
    f"({SP}/huggingface_hub/utils/__init__.py)\n"
)

FILELOCK_SHADOW = (
    "Traceback (most recent call last):\n"
    f'  File "{SP}/huggingface_hub/utils/_fixes.py", line 12, in <module>\n'
    "    from filelock import BaseFileLock, FileLock, SoftFileLock, Timeout\n"
    "ImportError: cannot import name 'BaseFileLock' from 'filelock' (/srv/app/lib/filelock.py)\n"
)

PACKAGING_SHADOW = (
    "Traceback (most recent call last):\n"
    f'  File "{SP}/vllm/utils/torch_utils.py", line 15, in <module>\n'
    "    from packaging import version\n"
    "ImportError: cannot import name 'version' from 'packaging' (/home/me/tools/packaging.py)\n"
)

CASES = [
    # the file shown by the log (a listing of the PYTHONPATH folder), the import chain silent about it
    ("engine-package-shadowed-by-source-tree", "$ ls /home/me/pylib\n/home/me/pylib/yaml.py\n" + YAML_SHADOW),
    # the same with the folder exported and the file printed, as a maker's log shows it
    (
        "engine-package-shadowed-by-source-tree",
        "$ export PYTHONPATH=/tmp/x/shadow\n$ cat /tmp/x/shadow/yaml.py\n" + YAML_SHADOW,
    ),
    # shadows that name their own file in the refusal (real wordings here, path changed)
    ("engine-package-shadowed-by-source-tree", FILELOCK_SHADOW),
    ("engine-package-shadowed-by-source-tree", PACKAGING_SHADOW),
]

NEAR_MISSES = [
    # no file of the user's shown: the log cannot tell a shadowed yaml from a broken huggingface_hub, and shows no skew
    ("python-import-name-missing", YAML_SHADOW),
    ("engine-package-shadowed-by-source-tree", YAML_SHADOW),
    # a yaml.py named only inside site-packages is an installed file, not a shadow
    (
        "engine-package-shadowed-by-source-tree",
        f"$ ls {SP}/vendored/yaml.py\n{SP}/vendored/yaml.py\n" + YAML_SHADOW,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_real_version_skew_from_site_packages_stays_confident():
    """transformers importing a name its installed huggingface_hub lacks: two packages, no lazy-loader line."""
    log = (
        "Traceback (most recent call last):\n"
        f'  File "{SP}/transformers/modeling_utils.py", line 44, in <module>\n'
        "    from huggingface_hub import split_torch_state_dict_into_shards\n"
        "ImportError: cannot import name 'split_torch_state_dict_into_shards' from 'huggingface_hub' "
        f"({SP}/huggingface_hub/__init__.py)\n"
    )
    assert_named("python-import-name-missing", log)
    assert top_cause(run(log)).confidence >= 0.7


def test_lazy_loader_line_alone_names_both_causes():
    """Without a shadowing file in the log the answer names the shadow and the broken install, below 0.70."""
    top = top_cause(run(YAML_SHADOW))
    assert top.id == "python-import-name-missing" and top.confidence < 0.7
    assert "yaml" in top.cause and "broken" in top.cause
