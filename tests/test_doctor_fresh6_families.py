"""fresh-6's two confident-wrong families (issue 12), from the tools' own texts: systemd's exec step
("Failed at step EXEC spawning PATH: Permission denied", src/core/exec-invoke.c) and llama-swap's process
start ("unable to start process: start() failed: exec: ...", with a ${macro} that was never substituted).
Synthetic lines with other paths and names than the corpus logs; the negatives pin what each must not claim."""

from __future__ import annotations

import io

from servebox.doctor.triage import triage_stream


def top(text: str) -> str:
    result = triage_stream(io.BytesIO(text.encode()), "synthetic.log")
    ids = [d.id for d in result.diagnoses if d.role in ("cause", "symptom")]
    return ids[0] if ids else "none"


def test_exec_permission_denied_is_not_a_missing_program():
    line = "Dec 03 09:00:00 box systemd[1]: vllm.service: Failed at step EXEC spawning /home/ana/venv/bin/python: Permission denied"
    assert top(line) == "systemd-exec-permission-denied"


def test_exec_of_a_missing_program_stays_the_generic_exec_failure():
    line = "Dec 03 09:00:00 box systemd[1]: vllm.service: Failed at step EXEC spawning /opt/venv/bin/python: No such file or directory"
    assert top(line) == "systemd-exec-failed"


def test_an_unexpanded_llama_swap_macro_is_named_as_such():
    line = 'time=09:00 level=ERROR msg="unable to start process: start() failed: exec: \\"${qwen-server}\\": executable file not found in $PATH"'
    assert top(line.replace('\\"', '"')) == "router-macro-not-expanded"


def test_a_plain_program_not_on_path_stays_the_container_family():
    line = 'OCI runtime exec failed: exec: "llama-server": executable file not found in $PATH: unknown'
    assert top(line) == "container-command-not-on-path"
