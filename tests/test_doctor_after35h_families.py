"""Families after35h widened in stop 35 after scoring the unseen batch fresh-211 (llama-server chat templates and file
arguments, a second round): one rule for the paths llama.cpp's arguments name. Each is tested on another real wording
of the class (rendered from llama.cpp 11434's own format strings, as said per row) with a near miss that must not be
read the same way.

- llama.cpp's 'error: failed to open file' of ANY file argument (common/arg.cpp read_file: --chat-template-file and its
  LLAMA_ARG_CHAT_TEMPLATE_FILE form included) cannot tell a missing file from one the service user may not read: it is
  llamacpp-arg-file-unreadable's, not chat-template-not-found's (which keeps vLLM's 'doesn't exist' wordings).
- the folder options' 'not a directory: PATH' (arg.cpp --slot-save-path, --media-path: fs_is_directory) names a path
  that is not an existing folder: the argument's path, not its syntax.
- common/ngram-cache.cpp common_ngram_cache_load asserts on what it reads of a -lcs/-lcd lookup cache (a folder, a
  truncated file); common/speculative.cpp logs 'failed to open static|dynamic lookup cache' for one that does not open.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

FAMILY = "llamacpp-arg-file-unreadable"

LCS_ASSERT = (
    "$ llama-server -m /srv/models/q.gguf --spec-type ngram-cache -lcs /srv/cache/static.bin\n"
    "/build/llama.cpp/common/ngram-cache.cpp:241: GGML_ASSERT(ntokens > 0) failed\n"
    "#2  0x000055 in ggml_abort ()\n"
)

CASES = [
    # arg.cpp read_file under --chat-template-file, a template the service user may not read (fresh-211's wording on
    # another path)
    (
        FAMILY,
        "error while handling argument \"--chat-template-file\": error: failed to open file '/etc/llama/t.jinja'\n",
    ),
    # the same through its variable (common/arg.cpp 'error while handling environment variable "%s": %s')
    (
        FAMILY,
        'error while handling environment variable "LLAMA_ARG_CHAT_TEMPLATE_FILE": error: failed to open file '
        "'/opt/tpl/qwen.jinja'\n",
    ),
    # sibling: --system-prompt-file / -f through the same read_file
    (FAMILY, "error while handling argument \"-f\": error: failed to open file 'prompts/long.txt'\n"),
    # arg.cpp --media-path: throw std::invalid_argument("not a directory: " + value), rendered
    (FAMILY, 'error while handling argument "--media-path": not a directory: /srv/media\n'),
    # the same refusal of --slot-save-path given a file
    (FAMILY, 'error while handling argument "--slot-save-path": not a directory: /var/lib/llama/slots.bin\n'),
    # ngram-cache.cpp common_ngram_cache_load, a truncated static cache (GGML_ASSERT(ntokens > 0)), -lcs on the line
    (FAMILY, LCS_ASSERT),
    # its loop's read assert, the long flag form
    (
        FAMILY,
        "$ llama-server -m m.gguf --spec-type ngram-cache --lookup-cache-dynamic /tmp/dyn\n"
        "common/ngram-cache.cpp:250: GGML_ASSERT(hashmap_file.read(countc, sizeof(int32_t))) failed\n",
    ),
    # speculative.cpp's catch of a cache that does not open: SPC_ERR then GGML_ABORT, rendered
    (
        FAMILY,
        "$ llama-server -m m.gguf --spec-type ngram-cache -lcs /srv/none.bin\n"
        "E spec   failed to open static lookup cache: /srv/none.bin\n"
        "/build/common/speculative.cpp:2153: Couldn't read static lookup cache\n",
    ),
]

NEAR_MISSES = [
    # a value of the wrong form is the argument's syntax, not a path
    (FAMILY, 'error while handling argument "--ctx-size": stoi\n'),
    # vLLM's template path that does not exist stays chat-template-not-found's (not a llama.cpp file argument)
    (
        FAMILY,
        "vllm.exceptions.VLLMValidationError: The supplied chat template string (/srv/t.jinja) appears path-like, but "
        "doesn't exist! Tried: /srv/t.jinja\n",
    ),
    # an ngram-cache.cpp assert with no lookup-cache argument or loader in view (the merge's count > 0) is not a file's
    (FAMILY, "common/ngram-cache.cpp:268: GGML_ASSERT(count > 0) failed\n"),
    # the router's --models-dir that is not a folder has its own family
    (
        FAMILY,
        "E srv llama_server: failed to initialize router models: error: '/srv/llm/gguf' does not exist or is not a "
        "directory\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_vllm_template_path_stays_chat_template_not_found():
    """The narrowing moved llama.cpp's wordings only: vLLM's own 'doesn't exist' keeps its family."""
    from tests.doctor_text import assert_named

    assert_named(
        "chat-template-not-found", "FileNotFoundError: the supplied chat template path doesn't exist\n"
    )
