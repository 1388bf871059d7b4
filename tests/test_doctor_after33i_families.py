"""What after33i learnt in stop 33 from the misses of batch fresh-161 (the process environment around a correct
`vllm serve` on the CPU, a second round), after it was scored: the shadowing family reads Python's own words for a
module file found where a package was meant (a zmq.py in the working directory: "No module named 'zmq.asyncio'; 'zmq'
is not a package", which python-module-missing took at 0.78 with "install it") and ImportError's path to a lone X.py
outside site-packages; and a new family, shared-library-file-invalid, the dynamic loader's refusals of a library FILE
it found (an empty libstdc++.so.6 on LD_LIBRARY_PATH: 'file too short'). Each is tested on a wording other than the
batch's and on a near miss. The third miss (umask 0777, a start that stalls with no line saying why) is left a miss:
nothing in its log names the cause.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

CASES = [
    # a packaging.py on sys.path shadows the installed package that pytest's _checkversion imports (wording quoted in
    # a public repository's conftest comment: "crashes at startup with 'packaging' is not a package")
    (
        "engine-package-shadowed-by-source-tree",
        '  File "/opt/venv/lib/python3.11/site-packages/_pytest/config/__init__.py", line 1200, in _checkversion\n'
        "    from packaging.version import Version\n"
        "ModuleNotFoundError: No module named 'packaging.version'; 'packaging' is not a package\n",
    ),
    # FastAPI importing pydantic.version with a pydantic.py in the working directory (as another repository's failure
    # report words it: "FastAPI importing `pydantic.version` (`'pydantic' is not a package`)")
    (
        "engine-package-shadowed-by-source-tree",
        "ModuleNotFoundError: No module named 'pydantic.version'; 'pydantic' is not a package\n",
    ),
    # CPython's ImportError for a script named like the library it imports (a user's openai.py running
    # `from openai import OpenAI`): the circular import of itself, its path outside site-packages
    (
        "engine-package-shadowed-by-source-tree",
        "ImportError: cannot import name 'OpenAI' from partially initialized module 'openai' (most likely due to a "
        "circular import) (/home/me/bot/openai.py)\n",
    ),
    # a numpy.py in the working directory, imported by an installed package
    (
        "engine-package-shadowed-by-source-tree",
        '  File "/opt/venv/lib/python3.11/site-packages/safetensors/numpy.py", line 5, in <module>\n'
        "    from numpy import ndarray\n"
        "ImportError: cannot import name 'ndarray' from 'numpy' (/srv/app/numpy.py)\n",
    ),
    # a package truly absent keeps python-module-missing
    ("python-module-missing", "ModuleNotFoundError: No module named 'zmq'\n"),
    # glibc's 'file too short' for a truncated extension (traveller59/second.pytorch#339, train side)
    (
        "shared-library-file-invalid",
        "ImportError: /home/mike/.local/lib/python3.7/site-packages/spconv/spconv_utils.cpython-37m-x86_64-linux-gnu.so"
        ": file too short\n",
    ),
    # glibc's 'not properly aligned' for a wheel stripped after patchelf (as AWS Lambda users met it with Pillow)
    (
        "shared-library-file-invalid",
        "/var/task/PIL/_imaging.cpython-36m-x86_64-linux-gnu.so: ELF load command address/offset not properly aligned\n"
        "Unable to import module 'handler': cannot import name '_imaging'\n",
    ),
    # a program's own loader refusal (glibc's rtld, 'error while loading shared libraries'), a text file as .so
    (
        "shared-library-file-invalid",
        "/usr/local/bin/llama-server: error while loading shared libraries: /opt/cuda/lib64/libcudart.so.12: "
        "invalid ELF header\n",
    ),
    # ctypes' OSError for an object file given where a shared library is loaded (glibc >= 2.35 wording of alignment
    # is the next row's)
    ("shared-library-file-invalid", "OSError: /tmp/build/libfoo.so: only ET_DYN and ET_EXEC can be loaded\n"),
    (
        "shared-library-file-invalid",
        "ImportError: libscipy_openblas64_-ff651d7f.so: ELF load command address/offset not page-aligned\n",
    ),
]

NEAR_MISSES = [
    # a DOTTED parent that is a module of the installed package (unsloth-zoo patching vLLM 0.8.5): version skew
    (
        "engine-package-shadowed-by-source-tree",
        "ModuleNotFoundError: No module named 'vllm.transformers_utils.tokenizer_group.tokenizer_group'; "
        "'vllm.transformers_utils.tokenizer_group' is not a package\n",
    ),
    # a module of the user's own that lacks a name is the user's bug, not shadowing
    (
        "engine-package-shadowed-by-source-tree",
        "ImportError: cannot import name 'helper' from 'utils' (/home/me/app/utils.py)\n",
    ),
    # a package on a --target folder (its __init__.py) lacking a name is version skew, not a file of the user's
    (
        "engine-package-shadowed-by-source-tree",
        "ImportError: cannot import name 'StructuralTagItem' from 'xgrammar' (/opt/extra/xgrammar/__init__.py)\n",
    ),
    # nothing found at all is a missing library, not a broken file
    (
        "shared-library-file-invalid",
        "ImportError: libstdc++.so.6: cannot open shared object file: No such file or directory\n",
    ),
    # a library of the other architecture has its own family
    (
        "shared-library-file-invalid",
        "OSError: /usr/lib/i386-linux-gnu/libgomp.so.1: wrong ELF class: ELFCLASS32\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
