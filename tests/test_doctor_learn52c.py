"""What fresh-484 (code that is not vLLM's, run by vLLM, round 7) taught, learn52c.

- attribution.py: a user's own module on a sys.path folder of its own whose name is a one-file stdlib module's (a
  `pip install --target site` folder: /tmp/run/site/tiny_tally.py) was read as "a copy of the stdlib" (site.py), so a
  plugin's own raise (a stat logger's record() KeyError in AsyncLLM's output_handler) answered the bare exception. A
  folder named like a one-file stdlib module is no copy of it; the package is then named by its own module.
- engine_features.toml [[constructs]] for FastAPI's / Starlette's build_middleware_stack (`cls(app, ...)`): a
  --middleware class whose __init__ does not take `app` raises its TypeError in applications.py's frame.
- stat-logger-plugin-lacks-abstract-method: StatLoggerBase (v1/metrics/loggers.py) is an ABC (abstract __init__,
  record, log_engine_initialized); a plugin class leaving one out is refused by Python when the API server builds it.
Messages are the sources' format strings rendered with other values than the corpus logs' (marked so).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

VLLM = "/opt/venv/lib/python3.12/site-packages/vllm"
OUTPUT_HANDLER = (
    "$ PYTHONPATH={folder} vllm serve m\n"
    "(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906] AsyncLLM output_handler failed.\n"
    "(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906] Traceback (most recent call last):\n"
    f'(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906]   File "{VLLM}/v1/engine/async_llm.py", line 899, '
    "in output_handler\n"
    "(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906]     logger_ref[0].record(\n"
    f'(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906]   File "{VLLM}/v1/metrics/loggers.py", line 457, '
    "in record\n"
    "(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906]     self.per_engine_stat_loggers[engine_idx].record(\n"
    '(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906]   File "{folder}/{module}", line 31, in record\n'
    "(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906]     self.by_reason[reason] += 1\n"
    "(APIServer pid=7) ERROR 05-02 10:00:03 [async_llm.py:906] {exception}\n"
)
APPLY = (  # a logits processor's apply() in the engine core (v1/sample/logits_processor/state.py calls it)
    "Traceback (most recent call last):\n"
    f'  File "{VLLM}/v1/engine/core.py", line 380, in step\n    model_output = self.execute_model_with_error_logging(\n'
    f'  File "{VLLM}/v1/sample/sampler.py", line 88, in forward\n    logits = processor.apply(logits)\n'
    '  File "{folder}/{module}", line 12, in apply\n    logits[:, self.ids] = float("-inf")\n'
    "{exception}\n"
)
BUILD_APP = (
    "$ vllm serve m --middleware {option}\nTraceback (most recent call last):\n"
    f'  File "{VLLM}/entrypoints/launchers/app.py", line 55, in build_app\n'
    '  File "/opt/venv/lib/python3.12/site-packages/{framework}/applications.py", line 1065, in build_middleware_stack\n'
    "    app = cls(app, *args, **kwargs)\n"
    "TypeError: {message}\n"
)
ABSTRACT = (
    "$ vllm serve m\nTraceback (most recent call last):\n"
    f'  File "{VLLM}/v1/metrics/loggers.py", line 1410, in __init__\n'
    "    global_stat_logger = PerEngineStatLoggerAdapter(\n"
    f'  File "{VLLM}/v1/metrics/loggers.py", line 443, in __init__\n'
    "    self.per_engine_stat_loggers[engine_index] = per_engine_stat_logger_factory(\n"
    "TypeError: {message}\n"
)

CASES = [
    # the pip --target folder named site (one-file stdlib module site.py), code (code.py), and an ordinary one
    (
        "third-party-package-raised",
        OUTPUT_HANDLER.format(folder="/srv/run/site", module="acme_tally.py", exception="KeyError: 'abort'"),
    ),
    (
        "third-party-package-raised",
        OUTPUT_HANDLER.format(
            folder="/home/ana/code",
            module="otel_stats.py",
            exception="TypeError: 'NoneType' object is not iterable",
        ),
    ),
    (
        "third-party-package-raised",
        APPLY.format(
            folder="/opt/plugins/site",
            module="ban_words/processor.py",
            exception="IndexError: index 50000 is out of bounds for dimension 1 with size 32000",
        ),
    ),
    (
        "third-party-package-raised",
        BUILD_APP.format(
            option="acme_mw.Timing",
            framework="fastapi",
            message="Timing.__init__() takes 1 positional argument but 2 were given",
        ),
    ),
    (
        "third-party-package-raised",
        BUILD_APP.format(
            option="acme_mw.RateLimit",
            framework="starlette",
            message="RateLimit.__init__() missing 1 required positional argument: 'limit'",
        ),
    ),
    (
        "stat-logger-plugin-lacks-abstract-method",
        ABSTRACT.format(
            message="Can't instantiate abstract class OtelLogger with abstract method log_engine_initialized"
        ),
    ),
    (
        "stat-logger-plugin-lacks-abstract-method",
        ABSTRACT.format(
            message="Can't instantiate abstract class OtelLogger with abstract methods log_engine_initialized, record"
        ),
    ),
    (  # Python 3.12+'s wording
        "stat-logger-plugin-lacks-abstract-method",
        ABSTRACT.format(
            message="Can't instantiate abstract class OtelLogger without an implementation for abstract method 'record'"
        ),
    ),
]


def _called(vllm_file: str, user_file: str, exception: str) -> str:
    """A traceback whose innermost frame is the user's file, called by `vllm_file` (other plugin kinds and folders)."""
    return (
        "Traceback (most recent call last):\n"
        f'  File "{VLLM}/{vllm_file}", line 210, in run\n    result = hook(request)\n'
        f'  File "{user_file}", line 7, in hook\n    value = items[3]\n{exception}\n'
    )


# main read these as vLLM's own serving code's defect, a reasoning parser's refusal, and a bare exception
CASES += [
    (
        "third-party-package-raised",
        _called(
            "entrypoints/openai/chat_completion/serving.py",
            "/home/u/code/my_tool_parser.py",
            "IndexError: list index out of range",
        ),
    ),
    (
        "third-party-package-raised",
        _called(
            "reasoning/abs_reasoning_parsers.py",
            "/tmp/w/site/think_parser.py",
            "ValueError: substring not found",
        ),
    ),
    (
        "third-party-package-raised",
        _called("v1/sample/logits_processor/state.py", "/data/io/ban.py", "KeyError: 3"),
    ),
]

NEAR_MISSES = [
    # another ABC's missing method (a LogitsProcessor's apply): not a stat logger's
    (
        "stat-logger-plugin-lacks-abstract-method",
        ABSTRACT.format(
            message="Can't instantiate abstract class BanTokens with abstract methods apply, is_argmax_invariant"
        ),
    ),
    # a copy of a library of the stack (pydantic under a folder of its own) stays the library's
    (
        "third-party-package-raised",
        OUTPUT_HANDLER.format(folder="/root/site/pydantic", module="main.py", exception="KeyError: 'abort'"),
    ),
    # vLLM's own middleware at the same site is vLLM's
    (
        "third-party-package-raised",
        BUILD_APP.format(
            option="acme_mw.Timing",
            framework="fastapi",
            message="CORSMiddleware.__init__() got an unexpected keyword argument 'allow_origin'",
        ),
    ),
    # a healthy server whose plugin folder is named site: nothing to name
    (
        "third-party-package-raised",
        "$ PYTHONPATH=/srv/run/site vllm serve m\nINFO:     Application startup complete.\n"
        'INFO:     127.0.0.1:51000 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_site_folder_names_the_module_not_site():
    log = OUTPUT_HANDLER.format(folder="/srv/run/site", module="acme_tally.py", exception="KeyError: 'abort'")
    top = top_cause(run(log))
    assert "acme_tally" in top.cause and "package site" not in top.cause and top.confidence < 0.70


def test_middleware_names_how_it_is_built():
    log = BUILD_APP.format(
        option="acme_mw.Timing",
        framework="fastapi",
        message="Timing.__init__() takes 1 positional argument but 2 were given",
    )
    top = top_cause(run(log))
    assert "__init__(self, app" in top.cause and "middleware" in top.cause


def test_abstract_names_class_and_method():
    log = ABSTRACT.format(message="Can't instantiate abstract class OtelLogger with abstract method record")
    top = top_cause(run(log))
    assert top.id == "stat-logger-plugin-lacks-abstract-method"
    assert "OtelLogger" in top.cause and "record" in top.cause and "record(self" in top.fix
