"""What the measured batches fresh-388 and fresh-390 taught after scoring (learn46a), on wordings other than the
corpus logs'.

- cli-unrecognized-argument: servebox's own reading of a flag the pinned build refuses, pasted as the log: plan's
  'vLLM refuses the flag: TOKEN: vllm serve stops at once ('unrecognized arguments')' (servebox/check/flag_rules.py
  refused_flags, TOKEN may carry '=VALUE'; 'ambiguous option: ...' for a prefix of several) and check's finding
  'vLLM 0.32.0's `vllm serve` does not take FLAG: it stops at once ('unrecognized arguments', exit 2) ...'.
  Rendered from servebox 's own output (`servebox plan/check ... --max-model-length=4096 / --enable-p`).
- A systemd cause logged above a prompt that starts the engine BY HAND is not outlived by that run's server
  (engine-run-by-hand marker, unit_refused.run_by_hand_between): the unit is not the process that served.
- Checked, unchanged (close_causes.independent_warnings, learn43g): a unit-file line systemd ignored (or a helper socket
  it refused) beside a request the hand run's server refused ranks after the refusal, both below 0.70, as the corpus's
  two-things precedent labels it (fresh-390's two such cases adjudicated to it); a start refusal beside a refused
  socket keeps the engine's fault first (fresh-364).
"""

from __future__ import annotations

import pytest

from tests.doctor_text import family_tests, run, top_cause

PLAN_HEAD = (
    "$ servebox plan /srv/models/qwen2.5-7b-instruct --gpu l4-24gb {flags}\n"
    "/srv/models/qwen2.5-7b-instruct on l4-24gb (22.49 GiB) x TP 1 x PP 1, vLLM 0.32.0 (profile 0.32), utilization 0.9\n"
    "vLLM will log (per rank):\n"
    "  Model loading took 14.2487 GiB   [derived]\n"
    "assumption: non-torch memory 0.15 GiB assumed (pass --non-torch-gib to override)\n"
)

CHECK_HEAD = (
    "$ servebox check /srv/models/qwen2.5-7b-instruct --gpu l4-24gb {flags}\n"
    "/srv/models/qwen2.5-7b-instruct on l4-24gb with vllm-0.32: 1 error(s), 1 warning(s)\n"
)

VERIFY_MOUNT = (
    "$ systemd-analyze verify /etc/systemd/system/llama-server.service /etc/systemd/system/srv-gguf-store.mount\n"
    "srv-gguf-store.mount: Where= setting doesn't match unit name. Refusing.\n"
    "Unit srv-gguf-store.mount has a bad unit file setting.\n"
    "llama-server.service: Failed to create llama-server.service/start: Unit srv-gguf-store.mount has a bad unit file "
    "setting.\n"
    "# exit: 1\n"
)

LLAMA_SERVED = (
    "main: server is listening on http://127.0.0.1:8080 - starting the main loop\n"
    "srv  update_slots: all slots are idle\n"
    "request: POST /completion 127.0.0.1 200\n"
)

VLLM_UP = (
    "(APIServer pid=411) INFO 12-06 10:00:30 [entry.py:136] Supported tasks: ['generate']\n"
    "(APIServer pid=411) INFO 12-06 10:00:30 [entry.py:140] Starting vLLM server on http://127.0.0.1:8000\n"
    "INFO:     Started server process [411]\n"
    "INFO:     Waiting for application startup.\n"
    "INFO:     Application startup complete.\n"
    'INFO:     127.0.0.1:50100 - "GET /health HTTP/1.1" 200 OK\n'
)

GROUPS_WARNED = (
    "$ systemd-analyze verify /etc/systemd/system/vllm.service\n"
    "Accepting user/group name 'render,video', which does not match strict user/group name rules.\n"
    "# exit: 0\n"
)

SOCKET_SYMLINKS = (
    "$ systemd-analyze verify /etc/systemd/system/llm.service /etc/systemd/system/llm.socket\n"
    "llm.socket: Unit has symlinks set but none or more than one node in the file system. Refusing.\n"
    "Unit llm.socket has a bad unit file setting.\n"
    "# exit: 1\n"
)

MEMORY_HIGH = (
    "$ systemd-analyze verify /etc/systemd/system/vllm.service\n"
    "/etc/systemd/system/vllm.service:14: Invalid memory limit '150%', ignoring: Invalid argument\n"
    "# exit: 0\n"
)

TEMPERATURE_REFUSED = (
    'INFO:     127.0.0.1:50110 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
    '# request: POST http://127.0.0.1:8000/v1/chat/completions {"messages": [], "temperature": -1}\n'
    "HTTP/1.1 400 Bad Request\n"
    '{"error":{"message":"temperature must be non-negative, got -1.0. (parameter=temperature, value=-1.0)",'
    '"type":"BadRequestError","param":"temperature","code":400}}\n'
)

CASES = [
    # plan's line for a flag given with its value joined by '=' (servebox plan's own output, rendered)
    (
        "cli-unrecognized-argument",
        PLAN_HEAD.format(flags="--max-model-length=4096")
        + "vLLM refuses the flag: --max-model-length=4096: vllm serve stops at once ('unrecognized arguments')\n",
    ),
    # plan's line for a prefix of several options (argparse's ambiguous option, as flag_rules.refusal words it)
    (
        "cli-unrecognized-argument",
        PLAN_HEAD.format(flags="--enable-p")
        + "vLLM refuses the flag: --enable-p: vllm serve stops at once ('ambiguous option: --enable-p could match "
        "--enable-per-request-metrics, --enable-prefix-caching, --enable-prompt-embeds, "
        "--enable-prompt-tokens-details')\n",
    ),
    # check's finding for the same refusal (rule unknown-serve-flag)
    (
        "cli-unrecognized-argument",
        CHECK_HEAD.format(flags="--max-model-length 4096")
        + "error unknown-serve-flag: vLLM 0.32.0's `vllm serve` does not take --max-model-length: it stops at once "
        "('unrecognized arguments', exit 2) before loading anything\n"
        "        --max-model-length\n"
        "        fix: did you mean --max-model-len?\n",
    ),
    # a misnamed mount unit, then llama-server run by hand from the shell, serving: the unit still never starts
    (
        "mount-unit-name-not-escaped",
        VERIFY_MOUNT
        + "$ /opt/llama/bin/llama-server -m /srv/gguf-store/qwen.gguf --port 8080\n"
        + LLAMA_SERVED,
    ),
    # a comma group list, then vLLM's module entry point run by hand with an environment word, serving
    (
        "systemd-groups-comma-list",
        GROUPS_WARNED
        + "$ VLLM_NO_USAGE_STATS=1 python3 -m vllm.entrypoints.openai.api_server --model /srv/m --port 8000\n"
        + VLLM_UP
        + 'INFO:     127.0.0.1:50110 - "POST /v1/completions HTTP/1.1" 200 OK\n',
    ),
]

NEAR_MISSES = [
    # check's own note that it could not check the flags (no option list for the profile) is no refusal
    (
        "cli-unrecognized-argument",
        CHECK_HEAD.format(flags="--max-model-length 4096")
        + "info  serve-flags-unchecked: passed on to vLLM unchecked: no option list is recorded for profile custom\n"
        "        --max-model-length\n",
    ),
    # the mount refusal inside one journal where the service later came up and served, no run by hand: outlived
    (
        "mount-unit-name-not-escaped",
        "Dec 06 10:00:01 host systemd[1]: srv-gguf-store.mount: Where= setting doesn't match unit name. Refusing.\n"
        "Dec 06 10:05:02 host llama-server[900]: main: server is listening on http://127.0.0.1:8080\n"
        "Dec 06 10:05:02 host llama-server[900]: srv  update_slots: all slots are idle\n"
        "Dec 06 10:05:09 host llama-server[900]: request: POST /completion 127.0.0.1 200\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


@pytest.mark.parametrize("unit", [SOCKET_SYMLINKS, MEMORY_HIGH], ids=["socket-refused", "memoryhigh-ignored"])
def test_refused_request_over_a_unit_line_that_changed_nothing(unit):
    """The corpus's two-things precedent (fresh-331, fresh-358, fresh-365; fresh-390 adjudicated to it): a unit line
    systemd ignored, or a helper socket it refused, beside a request the hand run's server refused: the refusal
    first, neither confident (learn43g's close_causes.independent_warnings; both orders were confident wrong once)."""
    result = run(unit + "$ vllm serve /srv/m --port 8000\n" + VLLM_UP + TEMPERATURE_REFUSED)
    causes = [d for d in result.diagnoses if d.role == "cause"]
    assert [d.id for d in causes[:2]] == ["request-sampling-param-out-of-range", "systemd-bad-value"]
    assert causes[0].confidence < 0.7


def test_start_refusal_keeps_its_order_beside_a_refused_socket():
    """A request-category refusal met at start (the server never came up) is not a request refused by a live server:
    the figures' order stands (fresh-364's --enable-auto-tool-choice without --tool-call-parser)."""
    log = (
        SOCKET_SYMLINKS + "$ vllm serve /srv/m --enable-auto-tool-choice\n"
        "(APIServer pid=411) ERROR 12-06 10:00:03 [api_server.py:120] TypeError: Error: --enable-auto-tool-choice "
        "requires --tool-call-parser\n"
        "TypeError: Error: --enable-auto-tool-choice requires --tool-call-parser\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "tool-choice-needs-parser"
