"""What after31b learnt in stop 31 after scoring fresh-122 (vLLM's offline Python API in a user's script): a keyword the
callee lacks is read by WHERE THE CALL CAME FROM (servebox/doctor/caller.py). Called straight from the script the user
ran, it is that script's misspelt or absent argument (cli-unrecognized-argument for LLM()/EngineArgs, the new
sampling-params-unknown-keyword for SamplingParams); called by a plugin or a framework's own modules, it stays
vllm-internal-module-moved (a caller built for another vLLM release). And what it learnt from fresh-121 (tools around
the engines): each class of situation from the program's own wording (git, curl, ldd, json.tool/jq, bash's glued SIGXFSZ
job line, Python's shadowing hint, tokenizers' loader), tested on another real wording and a near miss.
"""

from __future__ import annotations

from servebox.doctor.caller import script_called
from tests.doctor_text import family_tests, run, top_cause

SITE = "/opt/venv/lib/python3.11/site-packages"


def _traceback(*files: str, error: str) -> str:
    frames = "".join(f'  File "{f}", line {n + 10}, in f{n}\n    call()\n' for n, f in enumerate(files))
    return f"Traceback (most recent call last):\n{frames}{error}\n"


# the user's own script building AsyncEngineArgs directly (vllm/engine/arg_utils.py's dataclass refuses the keyword)
SCRIPT_ASYNC = _traceback(
    "/home/me/serve.py",
    error="TypeError: AsyncEngineArgs.__init__() got an unexpected keyword argument 'max_num_seq'",
)
# the same refusal where LLaMA-Factory's installed module called vLLM: a framework built for another vLLM
PLUGIN = _traceback(
    f"{SITE}/llamafactory/cli.py",
    f"{SITE}/llamafactory/chat/vllm_engine.py",
    f"{SITE}/vllm/engine/arg_utils.py",
    error="TypeError: AsyncEngineArgs.__init__() got an unexpected keyword argument 'limit_mm_per_prompt'",
)
# a framework run from its source checkout: the caller is the framework's module, not the file the run started in
CHECKOUT = _traceback(
    "/home/me/LLaMA-Factory/src/webui.py",
    "/home/me/LLaMA-Factory/src/llamafactory/chat/vllm_engine.py",
    error="TypeError: Unexpected keyword argument 'use_beam_search'",
)

CASES = [
    ("cli-unrecognized-argument", SCRIPT_ASYNC),
    # vLLM < 0.6's SamplingParams (a plain class) from the user's script, through vLLM's own frame
    (
        "sampling-params-unknown-keyword",
        _traceback(
            "/home/me/run.py",
            f"{SITE}/vllm/sampling_params.py",
            error="TypeError: SamplingParams.__init__() got an unexpected keyword argument 'max_new_tokens'",
        ),
    ),
    # msgspec's own wording (0.6+), raised in C: the script's frame is the innermost one
    (
        "sampling-params-unknown-keyword",
        _traceback("/home/me/run.py", error="TypeError: Unexpected keyword argument 'best_of'"),
    ),
    ("vllm-internal-module-moved", PLUGIN),
    ("vllm-internal-module-moved", CHECKOUT),
    # git's builtin/clone.c, push.c (the ref the remote or the checkout lacks)
    (
        "git-ref-not-found",
        "$ git clone --branch v0.99.0 https://github.com/vllm-project/vllm\nfatal: Remote branch v0.99.0 "
        "not found in upstream origin\n",
    ),
    ("git-ref-not-found", "$ git push origin main\nerror: src refspec main does not match any\n"),
    # push.c on a detached HEAD (pull.c's wording is fresh-121's)
    (
        "git-pull-detached-head",
        "fatal: You are not currently on a branch.\nTo push the history leading to the current "
        "(detached HEAD)\nstate now, use\n\n    git push origin HEAD:<name-of-remote-branch>\n",
    ),
    # bash glues the command onto the SIGXFSZ job line (fresh-121's cp); dd's, measured here (`bash -c 'ulimit -f 16; dd'`)
    (
        "systemd-resource-limit-signal",
        "bash: 23912 File size limit exceededdd if=/dev/zero of=/tmp/big.bin bs=1M count=1 2> /dev/null\n",
    ),
    # older curl (OpenSSL backend) and a --cert that cannot be loaded
    (
        "ssl-file-missing",
        "curl: (77) error setting certificate verify locations:\n  CAfile: /etc/ssl/ca.pem\n  CApath: none\n",
    ),
    (
        "ssl-file-missing",
        "curl: (58) could not load PEM client certificate from client.pem, OpenSSL error error:80000002:"
        "system library::No such file or directory, (no key found, wrong pass phrase, or wrong file format?)\n",
    ),
    # ldd's trace of a CUDA runtime the loader cannot find
    (
        "shared-library-missing",
        "$ ldd llama-server\n\tlinux-vdso.so.1 (0x00007ffd)\n\tlibcudart.so.12 => not found\n",
    ),
    # jq 1.7 on a hand-edited config
    (
        "config-json-invalid",
        "$ jq . config.json\njq: parse error: Invalid numeric literal at line 2, column 10\n",
    ),
    # Python 3.13's own shadowing hint (Objects/moduleobject.c), and requests shadowed by a local requests.py
    (
        "engine-package-shadowed-by-source-tree",
        "AttributeError: module 'json' has no attribute 'loads' (consider renaming "
        "'/home/me/json.py' since it has the same name as the standard library module named 'json' and prevents importing "
        "that standard library module)\n",
    ),
    ("engine-package-shadowed-by-source-tree", "AttributeError: module 'requests' has no attribute 'get'\n"),
    # tokenizers' loader called directly on an empty tokenizer.json
    (
        "tokenizer-corrupt",
        "$ python -c \"from tokenizers import Tokenizer; Tokenizer.from_file('tokenizer.json')\"\n"
        "Exception: EOF while parsing a value at line 1 column 0\n",
    ),
    # a wrong-typed SamplingParams field reaching vLLM's own check (sampling_params.py)
    (
        "request-field-wrong-type",
        _traceback(
            "/home/me/run.py",
            f"{SITE}/vllm/sampling_params.py",
            error="TypeError: '>' not supported between instances of 'str' and 'float'",
        ),
    ),
]

NEAR_MISSES = [
    # the refusal quoted alone (a thread's title, no traceback): who called cannot be told, so it is no typo verdict
    ("sampling-params-unknown-keyword", "TypeError: Unexpected keyword argument 'use_beam_search'\n"),
    (
        "cli-unrecognized-argument",
        "TypeError: EngineArgs.__init__() got an unexpected keyword argument 'x'\n",
    ),
    ("cli-unrecognized-argument", PLUGIN),
    ("sampling-params-unknown-keyword", CHECKOUT),
    # `git add` of a missing file: the index's pathspec, no ref
    ("git-ref-not-found", "$ git add notes.txt\nfatal: pathspec 'notes.txt' did not match any files\n"),
    # git status on a detached HEAD is no failure
    (
        "git-pull-detached-head",
        "$ git status\nHEAD detached at 1a2b3c4\nnothing to commit, working tree clean\n",
    ),
    # an upload limit's refusal worded like the signal (no job's PID, no 'signal: ')
    ("systemd-resource-limit-signal", "Error: File size limit exceeded (max 10 MB)\n"),
    # a certificate that loaded and failed verification
    ("ssl-file-missing", "curl: (60) SSL certificate problem: self-signed certificate\n"),
    # an HTTP body that is not JSON, with no json.tool or jq run
    (
        "config-json-invalid",
        "requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n",
    ),
    # an attribute only some builds have (PyYAML without LibYAML)
    ("engine-package-shadowed-by-source-tree", "AttributeError: module 'yaml' has no attribute 'CLoader'\n"),
    # serde's wording from a program that is not the tokenizer's loader
    ("tokenizer-corrupt", "Exception: expected value at line 1 column 1\n"),
    # a TypeError raised elsewhere in vLLM is not a SamplingParams field
    (
        "request-field-wrong-type",
        _traceback(
            "/home/me/run.py",
            f"{SITE}/vllm/entrypoints/llm.py",
            error="TypeError: '>' not supported between instances of 'str' and 'float'",
        ),
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_caller_is_the_innermost_frame_outside_the_engines_stack():
    """vLLM's frames, the stdlib's and the engine's declared packages are skipped; an installed plugin is the caller."""
    assert script_called(["/tmp/x/script.py", "/tmp/x/script.py", f"{SITE}/vllm/entrypoints/llm.py"])
    assert script_called(
        ["/tmp/x/script.py", "/usr/lib/python3.11/functools.py", f"{SITE}/torch/nn/modules.py"]
    )
    assert not script_called([f"{SITE}/llamafactory/cli.py", f"{SITE}/vllm/engine/arg_utils.py"])
    assert not script_called(
        ["/usr/local/bin/llamafactory-cli", f"{SITE}/llamafactory/cli.py", f"{SITE}/vllm/x.py"]
    )
    assert not script_called([])
    # `python -c` is the user's own code; vLLM's own console script calling only vLLM is a mixed install, not a typo
    assert script_called(["<string>", f"{SITE}/vllm/entrypoints/llm.py"])
    assert not script_called(
        ["/opt/venv/bin/vllm", f"{SITE}/vllm/entrypoints/cli/main.py", f"{SITE}/vllm/x.py"]
    )
    assert not script_called(["<frozen runpy>", f"{SITE}/vllm/x.py"])


def test_the_script_reading_names_the_keyword():
    top = top_cause(run(SCRIPT_ASYNC))
    assert "max_num_seq" in top.cause and top.confidence >= 0.7


def test_ldd_lists_a_found_library_as_no_failure():
    """ldd's 'lib => /path' is a resolved dependency: only '=> not found' is the loader's miss."""
    top = top_cause(
        run("$ ldd llama-server\n\tlibcudart.so.12 => /usr/local/cuda/lib64/libcudart.so.12 (0x7f)\n")
    )
    assert top is None or top.id != "shared-library-missing", top and top.id
