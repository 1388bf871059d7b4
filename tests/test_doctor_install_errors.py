"""The errors installing an engine prints (pip 23.2.1, uv 0.13.9, CMake 3.25, CUDA 13.0's nvcc) as doctor names them.

The logs below are written from the texts in benchmarks/data/install_errors.json (taken from the real tools by
tools/harvest_install_errors.py), in the order the tools print them. The cases that could go wrong are the
ones where the last line is not the cause: pip's 'Failed building wheel' after a compiler's refusal, the
'Ignored ... different python' line when the asked version does not exist anyway, CMake's failed trial compile
whose compiler output names the reason, and FlashInfer's JIT wrapper around nvcc's own refusal.
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.conftest import load_script
from tests.doctor_text import run, top_cause

GCC16 = (
    "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:137:2: error: #error -- unsupported "
    "GNU version! gcc versions later than 15 are not supported! The nvcc flag '-allow-unsupported-compiler' can "
    "be used to override this version check; however, using an unsupported host compiler may cause compilation "
    "failure or incorrect run time execution. Use at your own risk."
)
PIP_BUILD_TAIL = (
    "      [end of output]\n\n  note: This error originates from a subprocess, and is likely not a problem with pip.\n"
    "  ERROR: Failed building wheel for llama-cpp-python\nFailed to build llama-cpp-python\n"
    "ERROR: Could not build wheels for llama-cpp-python, which is required to install pyproject.toml-based projects\n"
)
NOT_FOUND = "ERROR: No matching distribution found for vllm"

# (expected top family, log, the answer must be confident)
CASES = [
    # llama-cpp-python built by pip with CMAKE_ARGS=-DGGML_CUDA=on on a gcc too new for nvcc
    ("nvcc-unsupported-host-compiler",
     "  error: subprocess-exited-with-error\n\n  × Building wheel for llama-cpp-python (pyproject.toml) did not run "
     "successfully.\n  │ exit code: 1\n  ╰─> [45 lines of output]\n      -- The CUDA compiler identification is unknown\n"
     "      CMake Error at /usr/share/cmake-3.25/Modules/CMakeDetermineCUDACompiler.cmake:603 (message):\n"
     "        Failed to detect a default CUDA architecture.\n\n        Compiler output:\n      " + GCC16 + "\n"
     + PIP_BUILD_TAIL, True),
    # the same pip build on a driver-only machine: no nvcc
    ("build-no-cuda-toolkit",
     "  error: subprocess-exited-with-error\n  ╰─> [30 lines of output]\n      CMake Error at CMakeLists.txt:2 "
     "(project):\n        No CMAKE_CUDA_COMPILER could be found.\n\n      *** CMake configuration failed\n"
     + PIP_BUILD_TAIL, True),
    # every release needs another Python: the 'Ignored' line names the cause, not the version
    ("pip-no-release-for-this-python",
     "ERROR: Ignored the following versions that require a different python version: 0.10.0 Requires-Python "
     "<3.13,>=3.9; 0.11.0 Requires-Python <3.14,>=3.10\nERROR: Could not find a version that satisfies the "
     "requirement vllm (from versions: none)\n" + NOT_FOUND + "\n", True),
    # some releases skipped for Python, but the asked version does not exist at all: still version-not-found
    ("pip-version-not-found",
     "ERROR: Ignored the following versions that require a different python version: 0.2.0 Requires-Python "
     "<3.11\nERROR: Could not find a version that satisfies the requirement vllm==0.99.0 (from versions: 0.10.0, "
     "0.11.0)\nERROR: No matching distribution found for vllm==0.99.0\n", True),
    ("pip-python-version-unsupported",
     "  × No solution found when resolving dependencies:\n  ╰─▶ Because the current Python version (3.13.1) does "
     "not satisfy Python>=3.9,<3.13 and vllm==0.10.0 depends on Python>=3.9,<3.13, we can conclude that "
     "vllm==0.10.0 cannot be used.\n", True),
    # uv's conclusion alone says only that something collides
    ("uv-requirements-unsatisfiable",
     "  × No solution found when resolving dependencies:\n  ╰─▶ Because xformers==0.0.28 depends on torch==2.5.1 "
     "and vllm==0.11.0 depends on torch==2.8.0, we can conclude that your requirements are unsatisfiable.\n", False),
    ("pip-dependency-conflict",
     "ERROR: Cannot install torch==2.5.1 and vllm==0.11.0 because these package versions have conflicting "
     "dependencies.\n\nThe conflict is caused by:\n    The user requested torch==2.5.1\n    vllm 0.11.0 depends on "
     "torch==2.8.0\n\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/"
     "dependency-resolution/#dealing-with-dependency-conflicts\n", True),
    # a source build whose reason pip's output does not show: only a symptom
    ("pip-build-from-source-failed", PIP_BUILD_TAIL, False),
    # FlashInfer's JIT build refused by nvcc: nvcc's line is the reason
    ("nvcc-unsupported-gpu-architecture",
     "RuntimeError: Ninja build failed. Ninja output: /root/.cache/flashinfer/80/batch_decode.cu\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_120'\n", True),
    ("build-no-host-compiler", "error: command 'x86_64-linux-gnu-gcc' failed: No such file or directory\n", True),
    ("pip-externally-managed",
     "error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install Python "
     "packages system-wide, try apt install\n", True),
    # llama.cpp's default LLAMA_CURL=ON without libcurl's headers: FindCURL's status line, then llama.cpp's error
    ("llamacpp-build-libcurl-missing",
     "-- Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR)\nCMake Error at common/CMakeLists.txt:85 "
     "(message):\n  Could NOT find CURL. Hint: to disable this feature, set -DLLAMA_CURL=OFF\n\n\n"
     "-- Configuring incomplete, errors occurred!\n", True),
    # CUDA 12.4's nvcc asked for a Blackwell card; Triton's own ptxas refusing the same arch stays Triton's
    ("nvcc-unsupported-gpu-architecture", "nvcc fatal   : Value 'sm_120' is not defined for option 'gpu-architecture'\n", True),
    ("triton-ptxas-failed", "ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'\n", True),
    ("cmake-build-program-missing",
     'CMake Error: CMake was unable to find a build program corresponding to "Ninja".  CMAKE_MAKE_PROGRAM is not '
     "set.  You probably need to select a different build tool.\n", True),
    ("cmake-cuda-compiler-check-failed",
     "CMake Error at /usr/share/cmake-3.25/Modules/CMakeDetermineCUDACompiler.cmake:603 (message):\n"
     "  Failed to detect a default CUDA architecture.\n", False),
]  # fmt: skip


@pytest.mark.parametrize("expected,log,confident", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_install_errors_are_named(expected, log, confident):
    r = run(log)
    top = top_cause(r)
    assert top is not None and top.id == expected, [(d.id, d.role, d.confidence) for d in r.diagnoses]
    assert (top.confidence >= CONFIDENT) == confident, top.confidence
    assert all(d.id == expected or d.confidence < CONFIDENT for d in r.diagnoses)


def test_an_optional_cuda_probe_is_no_missing_toolkit():
    """CMake's '-- Could NOT find CUDAToolkit' STATUS line is a probe a CPU build goes on without."""
    r = run(
        "-- Could NOT find CUDAToolkit (missing: CUDAToolkit_NVCC_EXECUTABLE CUDA_CUDART)\n-- Configuring done\n"
    )
    assert all(d.id != "build-no-cuda-toolkit" for d in r.diagnoses)
    required = (
        "CMake Error at /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
    )
    top = top_cause(
        run(required + "  Could NOT find CUDAToolkit (missing: CUDAToolkit_NVCC_EXECUTABLE CUDA_CUDART)\n")
    )
    assert top.id == "build-no-cuda-toolkit" and top.confidence >= CONFIDENT


def test_the_gcc_fix_names_the_version_nvcc_accepts():
    top = top_cause(run(GCC16 + "\n"))
    assert "gcc-15" in top.fix and "CMAKE_CUDA_HOST_COMPILER" in top.fix


def test_the_catalogue_is_covered(capsys):
    """The committed catalogue, offline: at most the three skipped pip entries leave doctor silent."""
    bench = load_script("benchmarks/doctor_coverage_install_errors.py")
    assert bench.main([]) == 0
    overall = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("overall"))
    n, named, generic, none = (int(x) for x in overall.split()[1:5])
    assert n >= 46 and named >= 35 and none <= 3
