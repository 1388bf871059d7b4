"""What the scored batches fresh-93 (public vLLM inside training frameworks) and fresh-94 (public llama.cpp through
other languages' bindings) taught after they were scored: each miss's family added or widened by the class of its
wording.

Each log is written in ANOTHER program's or version's wording than its corpus log (vLLM's and huggingface-cli's
argparse subcommands, pip's and typer's own refusals; LLamaSharp's later exception and llama-cpp-python's; gcc under a
-sys crate), so the test checks the class of wording, not the one line it was learnt from; the near misses check what
must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # cli-unknown-subcommand (fresh-93's public-vllm-trl-cli-vllm-serve-invalid-choice, trl#3139): vLLM's CLI
    # (entrypoints/cli/main.py: add_subparsers(required=False, dest="subparser")) of a release without `bench`;
    # argparse's output as Python 3.11 prints it for that parser
    (
        "cli-unknown-subcommand",
        "vllm: error: argument subparser: invalid choice: 'bench' (choose from 'chat', 'complete', 'serve')\n",
    ),
    # ... huggingface-cli (add_subparsers with no dest: argparse names it by its choices in braces)
    (
        "cli-unknown-subcommand",
        "usage: huggingface-cli <command> [<args>]\n"
        "huggingface-cli: error: argument {env,login,whoami,download,upload}: invalid choice: 'serve' "
        "(choose from 'env', 'login', 'whoami', 'download', 'upload')\n",
    ),
    # ... Python 3.12.8+'s unquoted choices, a TRL of another release
    (
        "cli-unknown-subcommand",
        "usage: trl [-h] {chat,dpo,env,grpo,kto,sft} ...\n"
        "trl: error: argument command: invalid choice: 'vllm-serve' (choose from chat, dpo, env, grpo, kto, sft)\n",
    ),
    # ... pip's own parser (pip/_internal/cli/main_parser.py: 'unknown command "x"', with a guess), as pip 24 prints it
    ("cli-unknown-subcommand", 'ERROR: unknown command "instal" - maybe you meant "install"\n'),
    # ... a typer CLI (hf): click's UsageError inside typer's rich box, as typer 0.29 prints it
    (
        "cli-unknown-subcommand",
        "Usage: hf [OPTIONS] COMMAND [ARGS]...\n"
        "Try 'hf --help' for help.\n"
        "╭─ Error ──────────────────────────────────────────────────────────────────────╮\n"
        "│ No such command 'serve'.                                                     │\n"
        "╰──────────────────────────────────────────────────────────────────────────────╯\n",
    ),
    # llamacpp-model-path-is-a-directory (fresh-94's public-llama-llamasharp-model-path-is-checkpoint-directory,
    # LLamaSharp#332): LLamaSharp's later LoadWeightsFailedException (SafeLlamaModelHandle.LoadFromFile), a folder
    # with a trailing separator
    (
        "llamacpp-model-path-is-a-directory",
        "Unhandled exception. LLama.Exceptions.LoadWeightsFailedException: Failed to load model "
        "'C:\\models\\Meta-Llama-3-8B-Instruct\\'\n"
        "   at LLama.Native.SafeLlamaModelHandle.LoadFromFile(String modelPath, LLamaModelParams lparams)\n"
        "   at LLama.LLamaWeights.LoadFromFile(IModelParams params)\n",
    ),
    # ... llama-cpp-python's LlamaModel (llama_cpp/_internals.py) given the Hugging Face folder, quiet mode
    (
        "llamacpp-model-path-is-a-directory",
        '  File "/app/.venv/lib/python3.11/site-packages/llama_cpp/_internals.py", line 56, in __init__\n'
        '    raise ValueError(f"Failed to load model from file: {path_model}")\n'
        "ValueError: Failed to load model from file: /models/Qwen2.5-7B-Instruct/\n",
    ),
    # binding-vendored-llama-cpp-submodule-missing (fresh-94's public-llama-cpp-rs-sys-build-llama-h-not-found-source-
    # download, llama-cpp-rs#1083): gcc's wording through the build script, for the other -sys crate
    (
        "binding-vendored-llama-cpp-submodule-missing",
        "   Compiling llama_cpp_sys v0.3.2\n"
        "error: failed to run custom build command for `llama_cpp_sys v0.3.2`\n"
        "Caused by:\n"
        "  process didn't exit successfully: `/src/target/release/build/llama_cpp_sys-1f0c/build-script-build` "
        "(exit status: 101)\n"
        "  --- stderr\n"
        "  ./thirdparty/llama.cpp/llama.h:1:10: fatal error: ggml.h: No such file or directory\n",
    ),
    # ... bindgen's clang wording with its wrapper.h location
    (
        "binding-vendored-llama-cpp-submodule-missing",
        "  --- stderr\n"
        "  wrapper.h:1:10: fatal error: 'llama.cpp/include/llama.h' file not found\n"
        "  thread 'main' panicked at llama-cpp-sys-2/build.rs:312:10:\n"
        '  Failed to generate bindings: ClangDiagnostic("wrapper.h:1:10: fatal error: '
        "'llama.cpp/include/llama.h' file not found\\n\")\n",
    ),
]

NEAR_MISSES = [
    # a flag's invalid choice stays cli-invalid-choice's (vLLM 0.32's --dtype), and a plain positional's too
    (
        "cli-unknown-subcommand",
        "api_server.py: error: argument --dtype: invalid choice: 'float17' (choose from 'auto', 'bfloat16', 'half')\n",
    ),
    ("cli-unknown-subcommand", "x: error: argument mode: invalid choice: 'c' (choose from 'a', 'b')\n"),
    # a llama.cpp CMake build missing ANOTHER library's header is not the vendored submodule
    (
        "binding-vendored-llama-cpp-submodule-missing",
        "/home/u/llama.cpp/ggml/src/ggml-vulkan/ggml-vulkan.cpp:35:14: fatal error: 'spirv/unified1/spirv.hpp' "
        "file not found\n",
    ),
    # ... nor llama.h missing in a plain C++ program's own build (no binding's build script)
    (
        "binding-vendored-llama-cpp-submodule-missing",
        "main.cpp:3:10: fatal error: llama.h: No such file or directory\ncompilation terminated.\n",
    ),
    # a .gguf FILE that LLamaSharp cannot load is not a directory
    (
        "llamacpp-model-path-is-a-directory",
        "LLama.Exceptions.LoadWeightsFailedException: Failed to load model 'C:\\models\\phi-3-mini-Q4_K_M.gguf'\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_flag_choice_stays_cli_invalid_choice():
    top = top_cause(run(NEAR_MISSES[0][1]))
    assert top is not None and top.id == "cli-invalid-choice"
