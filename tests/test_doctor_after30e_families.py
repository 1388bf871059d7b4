"""Families learnt after scoring fresh-110 (after30e, stop 30: public llama.cpp and Ollama failures sampled by the
platform -- WSL, FreeBSD, Intel Mac, arm64 vs x86, ppc64le, RISC-V, NixOS). Each is tested on a wording other than the
batch's (another program's, shell's or release's rendering of the same class, from that program's source or docs,
named per row) and a near miss that must not be read the same way confidently.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

CASES = [
    # binfmt-support's run-detectors (no wine) handed a llamafile on plain Linux (llamafile README's gotchas)
    (
        "ape-run-by-wrong-binfmt-handler",
        "$ ./llava-v1.5-7b-q4.llamafile\nrun-detectors: unable to find an interpreter for ./llava-v1.5-7b-q4.llamafile\n",
    ),
    # gcc's wording of the missing return (gcc/c-family), then systemd's report of the SIGILL
    (
        "sigill-from-missing-return",
        "src/backend.cpp:88:1: warning: control reaches end of non-void function [-Wreturn-type]\n"
        "llama-server.service: Main process exited, code=dumped, status=4/ILL\n",
    ),
    # a newer Ollama's slog line (llm/server.go, 'server list inconsistent') for a CUDA runner the build lacks
    (
        "ollama-runner-library-missing",
        'time=2024-11-02T10:00:00.000Z level=ERROR source=server.go:380 msg="server list inconsistent" '
        'error="[0] server cuda_v12 not listed in available servers map[cpu:/tmp/ollama1/runners/cpu]"\n',
    ),
    # a setup.py's git call in an sdist / zip (subprocess's CalledProcessError, exit status 128)
    (
        "build-runs-git-in-non-git-source-tree",
        "fatal: not a git repository (or any of the parent directories): .git\n"
        "subprocess.CalledProcessError: Command '['git', 'rev-parse', 'HEAD']' returned non-zero exit status 128.\n",
    ),
    # setuptools-scm's own wording of the same situation (setuptools_scm/_get_version_impl.py)
    (
        "build-runs-git-in-non-git-source-tree",
        "LookupError: setuptools-scm was unable to detect version for /build/llama-cpp-python-0.3.2.\n",
    ),
    # macOS: an x86_64 binary on Apple Silicon without Rosetta (zsh), and Python's errno 86
    ("exec-format-error", "zsh: bad CPU type in executable: ./llama-server\n"),
    ("exec-format-error", "OSError: [Errno 86] Bad CPU type in executable: '/usr/local/bin/ollama'\n"),
    # the same bare wording from a container's shell, beside the runtime's platform warning
    (
        "container-image-wrong-arch",
        "WARNING: The requested image's platform (linux/arm64/v8) does not match the detected host platform "
        "(linux/amd64) and no specific platform was requested\n"
        "/bin/sh: 1: /app/llama-server: cannot execute binary file\n",
    ),
    # zsh's ENOEXEC wording
    ("exec-format-error", "zsh: exec format error: ./ollama\n"),
    # clang 15+'s wording of an implicit declaration, the FILE:L:C prefix cut by the poster
    (
        "build-source-compile-error",
        "error: call to undeclared function '_mm256_cvtph_ps'; ISO C99 and later do not support implicit function "
        "declarations [-Wimplicit-function-declaration]\n",
    ),
    # clang's refusal of a CPU target (clang/lib/Driver), gcc's -march bad value
    ("build-source-compile-error", "clang: error: unknown target CPU 'power11'\n"),
    ("build-source-compile-error", "cc1: error: bad value ('znver5') for '-march=' switch\n"),
    # CMake's other wording of an empty submodule folder
    (
        "binding-vendored-llama-cpp-submodule-missing",
        "CMake Error at CMakeLists.txt:52 (add_subdirectory):\n"
        '  add_subdirectory given source "vendor/llama.cpp" which is not an existing directory.\n',
    ),
]

NEAR_MISSES = [
    # a real Windows program with no handler is no APE misroute
    ("ape-run-by-wrong-binfmt-handler", "run-detectors: unable to find an interpreter for ./setup.exe\n"),
    # a SIGILL with no missing-return warning is the CPU's (cpu-illegal-instruction)
    (
        "sigill-from-missing-return",
        "ggml.c:120:5: warning: unused variable 'x' [-Wunused-variable]\nIllegal instruction (core dumped)\n",
    ),
    # the warning alone, the program then running, is no failure
    (
        "sigill-from-missing-return",
        "ggml-backend-reg.cpp:441:1: warning: non-void function does not return a value [-Wreturn-type]\n"
        "main: server is listening on http://127.0.0.1:8080\n",
    ),
    # the payload scan's own line is no failure
    (
        "ollama-runner-library-missing",
        'level=DEBUG source=payload.go:71 msg="availableServers : found" file=/tmp/ollama1/runners/metal\n',
    ),
    # llama.cpp's CMake from a zip prints git's line and builds on
    (
        "build-runs-git-in-non-git-source-tree",
        "fatal: not a git repository (or any of the parent directories): .git\n"
        "-- Configuring done (1.2s)\n-- Build files have been written to: /src/llama.cpp/build\n",
    ),
    # a missing ELF interpreter is not another architecture
    ("exec-format-error", "bash: ./llama-server: cannot execute: required file not found\n"),
    # macOS's damaged-app dialog is Gatekeeper's, not the CPU's
    (
        "exec-format-error",
        "You can’t open the application “Ollama” because it may be damaged or incomplete.\n",
    ),
    # a warning with its -W tag is no refusal
    (
        "build-source-compile-error",
        "warning: implicit declaration of function 'foo' [-Wimplicit-function-declaration]\n",
    ),
    # another folder without a CMakeLists.txt is not the vendored llama.cpp
    (
        "binding-vendored-llama-cpp-submodule-missing",
        "CMake Error at CMakeLists.txt:7 (add_subdirectory):\n  The source directory\n\n"
        "    /src/proj/third_party/json\n\n  does not contain a CMakeLists.txt file.\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
