"""Extract the errors installing an engine prints (pip, uv, CMake, nvcc, the host compiler) into a catalogue.

Why: benchmarks/doctor_coverage_install_errors.py measures how much of what users meet installing vLLM /
llama-cpp-python or building llama.cpp doctor can name; it must run offline, so the texts are taken once,
here, from the real tools and committed with where each came from:
  pip    23.2.1, the pip of .venv and .venv-vllm: the literal is looked up in pip/_internal/<file> (its line
         recorded); pip prints errors as 'ERROR: %s' (cli/base_command.py) and DiagnosticPipError as
         'error: <reference>' then '× <message>' / '╰─> <context>' (exceptions.py __rich_console__)
  uv     the `uv` binary of the PyPI wheel (`pip download uv --no-deps -d /tmp/uvdl`, version recorded):
         each fragment must occur in `strings` of the binary; the report layout ('error: ', '  × ', '  ╰─▶ ')
         is uv's miette-style output
  CMake  3.25.1 (Debian 12): /usr/share/cmake-3.25/Modules/*.cmake message(FATAL_ERROR) texts, and the
         'No CMAKE_<LANG>_COMPILER could be found.' of the cmake binary (`strings`); printed as
         'CMake Error at FILE:LINE (CMD):' with the text indented two spaces (seen in a real run)
  nvcc   CUDA 13.0 (/usr/local/cuda-13.0): `nvcc -arch=compute_35` is run and its line kept as printed;
         host_config.h's '#error -- unsupported GNU version!' as gcc prints an #error
         ('FILE:LINE:COL: error: #error ...', seen running nvcc with a gcc that says __GNUC__ 16)
  setuptools  .venv's setuptools/_distutils/spawn.py: "command 'gcc' failed: No such file or directory"
  CUDA 12.4  nvidia-cuda-nvcc-cu12 12.4.131 (PyPI; ptxas and crt/host_config.h, no nvcc): ptxas run on sm_120
  llama.cpp  its CMake FATAL_ERRORs for a missing CUDA toolkit and libcurl, read at a recorded commit
Run: python tools/harvest_install_errors.py benchmarks/data/install_errors.json [--uv /tmp/uvdl]
         [--cuda124 /tmp/nvcc124]  (each wheel downloaded with `pip download ... --no-deps -d DIR` and unzipped there)
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / ".venv/lib/python3.11/site-packages"
PIP = SITE / "pip/_internal"
CMAKE = Path("/usr/share/cmake-3.25/Modules")
CUDA = Path("/usr/local/cuda-13.0")
CM = "CMake Error at {file}:{line} (message):\n"
# (tool, code, name, the literal looked up in the source, source file, how it is printed in a log)
PIP_ENTRIES = [
    ("no-matching-distribution", "No matching distribution found for", "resolution/resolvelib/factory.py",
     "ERROR: Could not find a version that satisfies the requirement vllm==0.99.0 (from versions: 0.10.0, "
     "0.11.0)\nERROR: No matching distribution found for vllm==0.99.0"),
    ("requires-python-skipped", "Ignored the following versions that require a different python ",
     "resolution/resolvelib/factory.py",
     "ERROR: Ignored the following versions that require a different python version: 0.11.0 Requires-Python "
     "<3.14,>=3.10\nERROR: Could not find a version that satisfies the requirement vllm (from versions: none)"
     "\nERROR: No matching distribution found for vllm"),
    ("requires-different-python", "requires a different ", "resolution/resolvelib/factory.py",
     "ERROR: Package 'vllm' requires a different Python: 3.13.1 not in '<3.13,>=3.9'"),
    ("resolution-impossible", "have conflicting dependencies.", "resolution/resolvelib/factory.py",
     "ERROR: Cannot install -r requirements.txt (line 1) and torch==2.5.1 because these package versions "
     "have conflicting dependencies.\n\nThe conflict is caused by:\n    The user requested torch==2.5.1\n"
     "    vllm 0.11.0 depends on torch==2.8.0\n\nERROR: ResolutionImpossible: for help visit "
     "https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts"),
    ("hash-mismatch", "THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS ", "exceptions.py",
     "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the "
     "package versions, please update the hashes. Otherwise, examine the package contents carefully; someone "
     "may have tampered with them.\n    torch==2.8.0 from https://files.pythonhosted.org/packages/torch-2.8.0-"
     "cp311-cp311-manylinux_2_28_x86_64.whl:\n        Expected sha256 1a2b\n             Got        9f8e"),
    ("hashes-required", "Hashes are required in --require-hashes mode, but they are ", "exceptions.py",
     "ERROR: Hashes are required in --require-hashes mode, but they are missing from some requirements. "
     "Here is a list of those requirements along with the hashes their downloaded archives actually had."),
    ("externally-managed-environment", "This environment is externally managed", "exceptions.py",
     "error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install "
     "Python packages system-wide, try apt install\n    python3-xyz, where xyz is the package you are trying "
     "to\n    install."),
    ("subprocess-exited-with-error", "did not run successfully.", "exceptions.py",
     "  error: subprocess-exited-with-error\n\n  × Building wheel for llama-cpp-python (pyproject.toml) did "
     "not run successfully.\n  │ exit code: 1\n  ╰─> [45 lines of output]\n      [end of output]\n\n  note: "
     "This error originates from a subprocess, and is likely not a problem with pip."),
    ("metadata-generation-failed", "Encountered error while generating package metadata.", "exceptions.py",
     "error: metadata-generation-failed\n\n× Encountered error while generating package metadata.\n╰─> See "
     "above for output.\n\nnote: This is an issue with the package mentioned above, not pip."),
    ("failed-building-wheel", "Failed building wheel for %s", "operations/build/wheel.py",
     "  ERROR: Failed building wheel for llama-cpp-python\nFailed to build llama-cpp-python"),
    ("could-not-build-wheels", "Could not build wheels for {}, which is required to ", "commands/install.py",
     "ERROR: Could not build wheels for llama-cpp-python, which is required to install pyproject.toml-based "
     "projects"),
    ("unsupported-wheel", " is not a supported wheel on this platform.", "resolution/resolvelib/factory.py",
     "ERROR: vllm-0.11.0-cp38-abi3-manylinux1_aarch64.whl is not a supported wheel on this platform."),
    ("install-oserror", "Could not install packages due to an OSError", "commands/install.py",
     "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device"),
    ("http-error", "HTTP error %s while getting %s", "network/download.py",
     "ERROR: HTTP error 404 while getting https://download.pytorch.org/whl/cu999/torch-2.8.0.whl"),
    ("invalid-requirement", "Invalid requirement: ", "req/constructors.py",
     "ERROR: Invalid requirement: 'vllm=0.11.0'"),
    ("requirements-file", "Could not open requirements file: ", "req/req_file.py",
     "ERROR: Could not open requirements file: [Errno 2] No such file or directory: 'requirements-cuda.txt'"),
    ("dependency-conflicts-installed", "pip's dependency resolver does not currently take into account ",
     "commands/install.py",
     "ERROR: pip's dependency resolver does not currently take into account all the packages that are "
     "installed. This behaviour is the source of the following dependency conflicts.\nxformers 0.0.28 "
     "requires torch==2.5.1, but you have torch 2.8.0 which is incompatible."),
]  # fmt: skip
UV_ENTRIES = [
    ("no-solution-not-found", ["No solution found when resolving", "not found in the package registry",
                               "we can conclude that", "requirements are unsatisfiable"],
     "  × No solution found when resolving dependencies:\n  ╰─▶ Because vllm==0.99.0 was not found in the "
     "package registry and you require vllm==0.99.0, we can conclude that your requirements are unsatisfiable."),
    ("no-solution-python", ["No solution found when resolving", "the current Python version", ") does not satisfy "],
     "  × No solution found when resolving dependencies:\n  ╰─▶ Because the current Python version (3.13.1) "
     "does not satisfy Python>=3.9,<3.13 and vllm==0.10.0 depends on Python>=3.9,<3.13, we can conclude that "
     "vllm==0.10.0 cannot be used."),
    ("no-solution-platform", ["No solution found when resolving", " only has wheels for the following platform"],
     "  × No solution found when resolving dependencies:\n  ╰─▶ Because vllm==0.11.0 has no wheels with a "
     "matching platform tag (e.g., `macosx_14_0_arm64`) and you require vllm==0.11.0, we can conclude that your "
     "requirements are unsatisfiable.\n\n      hint: Wheels are available for `vllm` (v0.11.0) on the following "
     "platform: `manylinux_2_31_x86_64`"),
    ("failed-to-build", ["Failed to build `", "The build backend returned an error"],
     "  × Failed to build `llama-cpp-python==0.3.16`\n  ├─▶ The build backend returned an error\n  ╰─▶ Call to "
     "`scikit_build_core.build.build_wheel` failed (exit status: 1)"),
    ("hash-mismatch", ["Hash mismatch for `"],
     "  × Failed to download `torch==2.8.0`\n  ╰─▶ Hash mismatch for `torch==2.8.0`\n\n      Expected:\n        "
     "sha256:1a2b\n\n      Computed:\n        sha256:9f8e"),
    ("externally-managed", ["` is externally managed"],
     "error: The interpreter at /usr is externally managed, and indicates the following:\n\n  To install Python "
     "packages system-wide, try apt install\n  python3-xyz, where xyz is the package you are trying to\n  install."),
    ("no-interpreter", ["No interpreter found for "],
     "error: No interpreter found for Python 3.14 in virtual environments, managed installations, or search path"),
    ("download-timeout", ["Failed to download distribution due to network timeout."],
     "error: Failed to download distribution due to network timeout. Try increasing UV_HTTP_TIMEOUT (current "
     "value: 30s)."),
]  # fmt: skip
# (code, the literal, file under Modules/ or the cmake binary, the rendered error)
CMAKE_ENTRIES = [
    ("no-cuda-compiler", " could be found.", None,
     "CMake Error at CMakeLists.txt:2 (project):\n  No CMAKE_CUDA_COMPILER could be found.\n\n  Tell CMake where "
     "to find the compiler by setting either the environment\n  variable \"CUDACXX\" or the CMake cache entry "
     "CMAKE_CUDA_COMPILER to the full\n  path to the compiler, or to the compiler name if it is in the PATH."),
    ("no-cxx-compiler", " could be found.", None,
     "CMake Error at CMakeLists.txt:2 (project):\n  No CMAKE_CXX_COMPILER could be found.\n\n  Tell CMake where "
     "to find the compiler by setting either the environment\n  variable \"CXX\" or the CMake cache entry "
     "CMAKE_CXX_COMPILER to the full path\n  to the compiler, or to the compiler name if it is in the PATH."),
    ("cudacxx-not-found", "Could not find compiler set in environment variable CUDACXX:",
     "CMakeDetermineCUDACompiler.cmake",
     CM + "  Could not find compiler set in environment variable CUDACXX:\n\n  /usr/local/cuda/bin/nvcc."),
    ("cudatoolkit-not-found", "Could NOT find ${_NAME}", "FindPackageHandleStandardArgs.cmake",
     "CMake Error at /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n  Could "
     "NOT find CUDAToolkit (missing: CUDAToolkit_NVCC_EXECUTABLE CUDA_CUDART)"),
    ("nvcc-not-in-root", "Could not find nvcc executable in path specified by", "FindCUDAToolkit.cmake",
     CM + "  Could not find nvcc executable in path specified by CUDAToolkit_ROOT=/usr/local/cuda-12.4"),
    ("nvcc-not-found", "Could not find nvcc, please set CUDAToolkit_ROOT.", "FindCUDAToolkit.cmake",
     CM + "  Could not find nvcc, please set CUDAToolkit_ROOT."),
    ("default-arch-undetected", "Failed to detect a default CUDA architecture.", "CMakeDetermineCUDACompiler.cmake",
     CM + "  Failed to detect a default CUDA architecture.\n\n  Compiler output:"),
    ("architectures-empty", "CMAKE_CUDA_ARCHITECTURES must be non-empty if set.",
     "CMakeDetermineCUDACompiler.cmake", CM + "  CMAKE_CUDA_ARCHITECTURES must be non-empty if set."),
    ("cuda-compiler-broken", "is not able to compile a simple test program.", "CMakeTestCUDACompiler.cmake",
     "CMake Error at /usr/share/cmake-3.25/Modules/CMakeTestCUDACompiler.cmake:103 (message):\n  The CUDA "
     "compiler\n\n    \"/usr/local/cuda/bin/nvcc\"\n\n  is not able to compile a simple test program."),
    ("build-program-missing", "CMake was unable to find a build program corresponding to", None,
     "CMake Error: CMake was unable to find a build program corresponding to \"Ninja\".  CMAKE_MAKE_PROGRAM is "
     "not set.  You probably need to select a different build tool."),
    ("cmake-too-old", " or higher is required.  You are running version ", None,
     "CMake Error at CMakeLists.txt:1 (cmake_minimum_required):\n  CMake 3.26 or higher is required.  You are "
     "running version 3.22.1"),
    ("cuda-runtime-h-missing", "Unable to find cuda_runtime.h in", "CMakeDetermineCUDACompiler.cmake",
     CM + "  Unable to find cuda_runtime.h in \"/usr/lib/cuda/include\" for _CUDA_INCLUDE_DIR."),
]  # fmt: skip


# llama.cpp's own CMake refusals: read in ggml-org/llama.cpp through the code index (no checkout here), so this
# tool records them with the commit they were read at instead of re-checking them
LLAMA_CPP_ENTRIES = [
    ("cuda-toolkit-not-found", 'message(FATAL_ERROR "CUDA Toolkit not found")',
     "ggml-org/llama.cpp@00a2d609 ggml/src/ggml-cuda/CMakeLists.txt (after find_package(CUDAToolkit); the log's line number N varies by version)",
     "CMake Error at ggml/src/ggml-cuda/CMakeLists.txt:N (message):\n  CUDA Toolkit not found"),
    ("curl-not-found", 'message(FATAL_ERROR "Could NOT find CURL. Hint: to disable this feature, set -DLLAMA_CURL=OFF")',
     "ggml-org/llama.cpp@0014ce6e common/CMakeLists.txt (LLAMA_CURL, ON by default)",
     "-- Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR)\nCMake Error at common/CMakeLists.txt:85 "
     "(message):\n  Could NOT find CURL. Hint: to disable this feature, set -DLLAMA_CURL=OFF"),
]  # fmt: skip


def line_of(path: Path, literal: str) -> int:
    """The 1-based line of `literal` in `path`; raises when the tool's source no longer says it."""
    for i, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if literal in line:
            return i
    raise SystemExit(f"{literal!r} not in {path}")


def pip_entries() -> list[dict]:
    version = subprocess.run([ROOT / ".venv/bin/python", "-m", "pip", "--version"], capture_output=True,
                             text=True, check=True).stdout.split()[1]  # fmt: skip
    return [{"tool": "pip", "code": code, "message": lit, "source": f"pip {version} pip/_internal/{f}:"
             f"{line_of(PIP / f, lit)}", "log": log} for code, lit, f, log in PIP_ENTRIES]  # fmt: skip


def uv_entries(uv_dir: Path) -> list[dict]:
    binary = next(uv_dir.glob("**/scripts/uv"), None)
    if binary is None:
        raise SystemExit(
            f"no uv binary under {uv_dir}: pip download uv --no-deps -d {uv_dir}; unzip the wheel"
        )
    wheel = next(uv_dir.glob("uv-*.whl"))
    version = wheel.name.split("-")[1]
    text = subprocess.run(
        ["strings", "-n", "8", str(binary)], capture_output=True, text=True, check=True
    ).stdout
    out = []
    for code, fragments, log in UV_ENTRIES:
        missing = [f for f in fragments if f not in text]
        if missing:
            raise SystemExit(f"uv {version}: {missing} not in the binary")
        out.append({"tool": "uv", "code": code, "message": " | ".join(fragments),
                    "source": f"uv {version} ({wheel.name}) strings of the binary", "log": log})  # fmt: skip
    return out


def cmake_entries() -> list[dict]:
    version = subprocess.run(
        ["cmake", "--version"], capture_output=True, text=True, check=True
    ).stdout.split()[2]
    strings = subprocess.run(["strings", "/usr/bin/cmake"], capture_output=True, text=True, check=True).stdout
    out = []
    for code, lit, f, log in CMAKE_ENTRIES:
        if f is None:
            if lit not in strings:
                raise SystemExit(f"{lit!r} not in /usr/bin/cmake")
            where = f"/usr/bin/cmake (strings: {lit!r})"
        else:
            where = f"{CMAKE / f}:{line_of(CMAKE / f, lit)}"
        out.append(
            {"tool": "cmake", "code": code, "message": lit, "source": f"CMake {version} {where}", "log": log}
        )
    return out


def nvcc_entries() -> list[dict]:
    nvcc = CUDA / "bin/nvcc"
    release = re.search(r"release ([\d.]+)", subprocess.run([nvcc, "--version"], capture_output=True,
                                                             text=True).stdout)[1]  # fmt: skip
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "k.cu")
        src.write_text("__global__ void k() {}\n")
        for code, args in (
            ("unsupported-gpu-architecture", ["-arch=compute_35"]),
            ("unknown-option", ["--foo"]),
        ):
            r = subprocess.run(
                [nvcc, *args, "-c", src, "-o", Path(tmp, "k.o")], capture_output=True, text=True
            )
            line = (r.stderr or r.stdout).strip().splitlines()[0]
            out.append({"tool": "nvcc", "code": code, "message": line, "log": line,
                        "source": f"CUDA {release} nvcc {' '.join(args)} (run)"})  # fmt: skip
    header = CUDA / "include/crt/host_config.h"
    n = line_of(header, "unsupported GNU version!")
    text = header.read_text().splitlines()[n - 1].strip()
    out.append(
        {
            "tool": "nvcc",
            "code": "unsupported-gnu-version",
            "message": text,
            "source": f"CUDA {release} {header}:{n} (printed by gcc as FILE:LINE:COL: error: #error ...)",
            "log": f"/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:{n}:2: error: {text}",
        }
    )
    spawn = SITE / "setuptools/_distutils/spawn.py"
    st = next(SITE.glob("setuptools-*.dist-info")).name.removesuffix(".dist-info").split("-")[1]
    out.append({"tool": "setuptools", "code": "compiler-not-found", "message": "command {!r} failed: {}",
                "source": f"setuptools {st} {spawn.relative_to(SITE)}:{line_of(spawn, 'failed: {}')}",
                "log": "error: command 'gcc' failed: No such file or directory"})  # fmt: skip
    return out


def llama_cpp_entries() -> list[dict]:
    return [{"tool": "llama.cpp", "code": code, "message": lit, "source": f"llama.cpp {src}", "log": log}
            for code, lit, src, log in LLAMA_CPP_ENTRIES]  # fmt: skip


def cuda124_entries(wheel_dir: Path | None) -> list[dict]:
    """CUDA 12.4 (nvidia-cuda-nvcc-cu12 12.4.131 from PyPI, unzipped): its ptxas run on an arch it predates, the
    option parser's 'Value %s is not defined' as nvcc prints it for --gpu-architecture, and its host_config.h."""
    if wheel_dir is None:
        return []
    root = next(wheel_dir.glob("**/nvidia/cuda_nvcc"))
    ptxas = root / "bin/ptxas"
    version = re.search(r"cuda_(\d+\.\d+)", subprocess.run([ptxas, "--version"], capture_output=True,
                                                         text=True).stdout)[1]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp, "k.ptx")
        ptx.write_text(".version 8.4\n.target sm_80\n.address_size 64\n")
        r = subprocess.run([ptxas, "--gpu-name", "sm_120", ptx, "-o", Path(tmp, "k.cubin")], capture_output=True,
                           text=True)  # fmt: skip
    line = (r.stderr or r.stdout).strip().splitlines()[0]
    fmt = "Value '%s' is not defined for option '%s'"
    strings = subprocess.run(["strings", ptxas], capture_output=True, text=True, check=True).stdout
    if fmt not in strings:
        raise SystemExit(f"{fmt!r} not in {ptxas}")
    header = root / "include/crt/host_config.h"
    n = line_of(header, "unsupported GNU version!")
    text = header.read_text().splitlines()[n - 1].strip()
    src = f"CUDA {version} (nvidia-cuda-nvcc-cu12 wheel)"
    return [
        {"tool": "nvcc", "code": "ptxas-unknown-gpu-name", "message": line, "log": line,
         "source": f"{src} ptxas --gpu-name sm_120 (run)"},
        {"tool": "nvcc", "code": "value-not-defined-gpu-architecture", "message": fmt,
         "source": f"{src} ptxas's option parser format (the wheel ships no nvcc; nvcc's option is gpu-architecture)",
         "log": "nvcc fatal   : Value 'sm_120' is not defined for option 'gpu-architecture'"},
        {"tool": "nvcc", "code": "unsupported-gnu-version-12.4", "message": text,
         "source": f"{src} {header.relative_to(wheel_dir)}:{n} (printed by gcc as FILE:LINE:COL: error: #error ...)",
         "log": f"/usr/local/cuda-12.4/bin/../targets/x86_64-linux/include/crt/host_config.h:{n}:2: error: {text}"},
    ]  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument(
        "--uv", type=Path, default=Path("/tmp/uvdl"), help="where the uv wheel was downloaded and unzipped"
    )
    ap.add_argument(
        "--cuda124", type=Path, help="where nvidia-cuda-nvcc-cu12==12.4.131 was downloaded and unzipped"
    )
    a = ap.parse_args()
    entries = pip_entries() + uv_entries(a.uv) + cmake_entries() + nvcc_entries() + cuda124_entries(a.cuda124)
    entries += llama_cpp_entries()
    sources = sorted({e["source"].split(" ")[0] + " " + e["source"].split(" ")[1] for e in entries})
    doc = {"about": "the errors installing an engine prints (pip, uv, CMake, nvcc, gcc), for "
           "benchmarks/doctor_coverage_install_errors.py; made by tools/harvest_install_errors.py.",
           "sources": sources}  # fmt: skip
    with a.out.open("w") as f:
        f.write(json.dumps(doc)[:-1] + ', "entries": [\n')  # one entry a line: a diff shows what changed
        f.write(",\n".join(json.dumps(e, ensure_ascii=False) for e in entries))
        f.write("\n]}\n")
    print(f"{len(entries)} entries -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
