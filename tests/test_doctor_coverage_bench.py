"""benchmarks/doctor_coverage_vllm.py's harvester, on a small source written here (no .venv-vllm, no
network): every message form it claims to render is rendered, a sample is wrapped as vLLM prints it,
and the classifier tells a family's wording from the generic fallback.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from servebox.doctor.signatures import load_signatures
from tests.conftest import load_script

BENCH = Path(__file__).parent.parent / "benchmarks" / "doctor_coverage_vllm.py"


def load():
    return load_script("benchmarks/doctor_coverage_vllm.py")


SOURCE = textwrap.dedent(
    """
    def check(tp_size, model, n):
        if tp_size > 2:
            raise ValueError(f"Tensor parallel size {tp_size} is too large for {model}")
        if n:
            raise RuntimeError("Got %d blocks" % n)
        if model:
            raise NotImplementedError("Model {} is not ready".format(model))
        msg = "first part, "
        msg += f"then {n} more"
        raise ValueError(msg)

    def log(x):
        logger.error("Failed to load %s", x)
        raise ValueError("The quantization method %s is deprecated", x)
    """
)


def test_every_message_form_is_rendered(tmp_path: Path) -> None:
    bench = load()
    src = tmp_path / "mod.py"
    src.write_text(SOURCE)
    msgs = bench.harvest_file(src, "config/mod.py", {})
    texts = [m.text for m in msgs]
    assert texts[0].startswith("Tensor parallel size ") and "{" not in texts[0]
    assert texts[1].startswith("Got ") and "%d" not in texts[1]
    assert texts[2].startswith("Model ") and "{}" not in texts[2]
    assert texts[3].startswith("first part, then ")
    assert msgs[4].kind == "log" and msgs[4].type == "ERROR" and "%s" not in texts[4]
    assert texts[5].startswith("('The quantization method %s")  # several arguments print as a tuple
    assert all(m.rendered for m in msgs[:4])


def test_samples_are_wrapped_and_classified(tmp_path: Path) -> None:
    bench = load()
    sigs = {s.id: s for s in load_signatures()}
    named = bench.Message(
        "config/x.py", 1, "raise", "ValueError", "f", "VLLM_PORT 'tcp://1.2.3.4:80' appears to be a URI", True
    )
    plain = bench.Message("v1/x.py", 1, "raise", "ValueError", "f", "some internal invariant broke", True)
    assert bench.sample(named).startswith("(APIServer pid=")
    assert 'File "/opt/venv/lib/python3.12/site-packages/vllm/v1/x.py", line 1' in bench.sample(plain)
    bench.classify(named, sigs)
    bench.classify(plain, sigs)
    assert (named.verdict, plain.verdict, plain.top) == ("specific", "generic", "uncaught-exception")


def test_without_the_vllm_source_it_skips(monkeypatch, capsys) -> None:
    bench = load()
    monkeypatch.setattr(bench, "find_vllm", lambda: None)
    monkeypatch.setattr(sys, "argv", ["doctor_coverage_vllm.py"])
    assert bench.main() == 0
    assert capsys.readouterr().out.startswith("skipped:")
