"""What after35a learnt from fresh-200's and fresh-196's misses, after scoring.

- llamacpp-arg-file-unreadable: every argument llama.cpp's common/arg.cpp reads while handling it (read_file /
  std::ifstream) opens a folder without complaint and then throws libstdc++'s basic_filebuf::underflow ('... error
  reading the file: Is a directory'), under the flag's or the LLAMA_ARG_* variable's form. The folder-taking options'
  (--media-path, --slot-save-path) 'not a directory: PATH' stays llamacpp-invalid-argument's, as the corpus labels it
  (fresh-5's llama-slot-save-path-missing). Wordings below are
  llama-server 11434.0.0's own output (.llama-cpp/bin/llama-server run on a folder / a missing path), except the
  pre-GCC-9 ': iostream error' form, rendered from libstdc++'s __throw_ios_failure without an errno. Refusals of the
  VALUE (a bad number, an unknown choice, JSON that does not parse) stay llamacpp-invalid-argument's.
- model-not-multimodal (hint, 0.50): a request refused with HTTP 400 and no reason, on a vLLM whose 'Resolved
  architecture:' is a text-only ...ForCausalLM, under a command line setting limit_mm_per_prompt (vllm#23402's
  Intern-S1 folder that held Qwen3MoeForCausalLM weights). Without the 400 or without limit_mm_per_prompt it does not
  answer. The architecture is named in the cause, not required (test_doctor_bounds: every start prints that line),
  so a VL model's reasonless 400 gets the hint too, never confidently.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

SERVE = "$ llama-server -m /srv/models/qwen3-8b.gguf --port 8080 {}\n"
USAGE = "\nusage:\n--grammar-file FNAME                    file to read grammar from\n\nto show complete usage, run with -h\n"
API = "(APIServer pid=7) INFO 03-04 05:06:07 [{}] {}\n"
NON_DEFAULT = API.format(
    "api_utils.py:286", "non-default args: {'model': '/models/vl', 'limit_mm_per_prompt': {'image': 2}}"
)
REFUSED = API.format("", 'INFO:     127.0.0.1:50412 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request')


def arch(name: str) -> str:
    return API.format("model.py:733", f"Resolved architecture: {name}")


CASES = [
    (
        "llamacpp-arg-file-unreadable",
        SERVE.format("--grammar-file /etc/llama/grammars")
        + 'error while handling argument "--grammar-file": basic_filebuf::underflow error reading the file: Is a'
        " directory\n" + USAGE,
    ),
    (
        "llamacpp-arg-file-unreadable",
        'error while handling environment variable "LLAMA_ARG_CHAT_TEMPLATE_FILE": basic_filebuf::underflow error'
        " reading the file: Is a directory\n",
    ),
    (
        "llamacpp-arg-file-unreadable",
        'error while handling argument "--webui-config-file": basic_filebuf::underflow error reading the file: Is a'
        " directory\n",
    ),
    (
        "llamacpp-arg-file-unreadable",
        'error while handling argument "-f": basic_filebuf::underflow error reading the file: iostream error\n',
    ),
    (
        "llamacpp-arg-file-unreadable",
        "error while handling argument \"--api-key-file\": error: failed to open file '/etc/llama/keys'\n",
    ),
    ("model-not-multimodal", NON_DEFAULT + arch("Qwen3MoeForCausalLM") + REFUSED),
    (
        "model-not-multimodal",
        "$ vllm serve /models/intern --limit-mm-per-prompt.image 4\n"
        + arch("LlamaForCausalLM")
        + 'INFO:     10.0.0.5:41022 - "POST /v1/completions HTTP/1.1" 400 Bad Request\n',
    ),
]

NEAR_MISSES = [
    # refusals of the value, not of a file: llama-server 11434.0.0's own wordings
    ("llamacpp-arg-file-unreadable", 'error while handling argument "-c": stoi\n'),
    (
        "llamacpp-arg-file-unreadable",
        'error while handling argument "--reasoning-format": Unknown reasoning format: zzz\n',
    ),
    # never confident without the refusal's own words, whatever the architecture
    ("model-not-multimodal", NON_DEFAULT + arch("Qwen2_5_VLForConditionalGeneration") + REFUSED),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_value_refusals_stay_invalid_argument():
    # (after35h: the folder options' 'not a directory: PATH' moved to llamacpp-arg-file-unreadable, a wrong path and
    # not a value's syntax: tests/test_doctor_after35h_families.py)
    assert_named("llamacpp-invalid-argument", 'error while handling argument "-c": stoi\n')
    # (after36a: JSON that does not parse, here a path given to a flag that takes inline JSON, is cli-invalid-json's,
    # as fresh-223's maker picked for -j: tests/test_doctor_after36a_families.py; never the file family's)
    assert_named(
        "cli-invalid-json",
        'error while handling argument "--chat-template-kwargs": [json.exception.parse_error.101] parse error at'
        " line 1, column 1: syntax error while parsing value - invalid literal; last read: '/'\n",
    )


def test_a_bare_is_a_directory_stays_path_is_directory():
    assert_named(
        "path-is-directory", "IsADirectoryError: [Errno 21] Is a directory: '/srv/models/Qwen3-8B-GGUF'\n"
    )


def test_folder_reading_is_confident_and_hides_path_is_directory():
    result = run(
        'error while handling argument "--chat-template-file": basic_filebuf::underflow error reading the'
        " file: Is a directory\n"
    )
    assert [d.id for d in result.diagnoses if d.role == "cause"] == ["llamacpp-arg-file-unreadable"]
    assert result.diagnoses[0].confidence >= 0.7


def test_architecture_reading_is_a_hint_only():
    top = top_cause(run(NON_DEFAULT + arch("Qwen2ForCausalLM") + REFUSED))
    assert top.id == "model-not-multimodal" and top.confidence < 0.7
    assert "limit_mm_per_prompt" in top.cause


def test_no_refusal_no_answer():
    """vllm-limit-mm-on-text-model: vLLM 0.32 takes limit_mm_per_prompt on a text model silently and serves."""
    result = run(NON_DEFAULT + arch("LlamaForCausalLM"))
    assert all(d.id != "model-not-multimodal" for d in result.diagnoses)


def test_without_limit_mm_the_400_stays_unexplained():
    result = run(arch("Qwen3MoeForCausalLM") + REFUSED)
    assert all(d.id != "model-not-multimodal" for d in result.diagnoses)
