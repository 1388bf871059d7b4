"""What the first-contact misses of fresh-365 (llama-server b11434 with a deployment fault at once) taught, with each
check's neighbourhood in systemd 252 and llama.cpp b11434.

- systemd-unit-refused: unit.c unit_load's 'More than one %s dependencies specified but %sisolate set. Refusing.'
  (OnFailure=/OnFailureJobMode= and OnSuccess=/OnSuccessJobMode=); and unit_refused.py: a refused service with no
  systemd cause that explains it ranks first as a cause, above what the engine says run by hand below it.
- llamacpp-model-file-missing: a './' path under a unit file whose own WorkingDirectory= names the directory it was
  meant against is a missing file, not llamacpp-relative-model-path's other working directory (that stays where the
  manager's own words show the unit ran under systemd).
- ranking: a unit-file line systemd only ignored ranks after an engine fault of the same figure, whatever the lines'
  order (fresh-365's UMask=0o022 ignored beside a control vector never loaded).
Wordings are rendered from the source's format strings (marked), not the corpus logs' own lines.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

UNIT = "/etc/systemd/system/llama-server.service"


def unit_file(exec_start: str, extra: str = "", unit_extra: str = "") -> str:
    """A llama-server unit as `cat` shows it, with a WorkingDirectory= of its own."""
    return (
        f"$ cat {UNIT}\n[Unit]\nDescription=llama.cpp server\n{unit_extra}\n[Service]\nType=simple\nUser=llm\n"
        f"{extra}WorkingDirectory=/srv/llm\nExecStart={exec_start}\nRestart=on-failure\n\n"
        "[Install]\nWantedBy=multi-user.target\n"
    )


VERIFY = f"$ systemd-analyze verify --man=no {UNIT}\n"
START = "/usr/local/bin/llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --host 127.0.0.1 --port 8080"
SERVING = (
    "0.00.012.004 I srv    load_model: loading model '/srv/models/qwen2.5-0.5b-q8_0.gguf'\n"
    "0.00.040.221 I srv  llama_server: model loaded\n"
    "0.00.040.230 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
# llama-server's parser on an option it lacks (arg.cpp, rendered): a fatal engine refusal at 0.9
BAD_FLAG = f"$ cd /srv/llm\n$ {START} --n-gpu 1\nerror: invalid argument: --n-gpu\n"

CASES = [
    # rendered: OnSuccess=a.service b.service with OnSuccessJobMode=isolate, above the engine's fatal refusal by hand
    (
        "systemd-unit-refused",
        unit_file(
            START + " --n-gpu 1", unit_extra="OnSuccess=a.service b.service\nOnSuccessJobMode=isolate\n"
        )
        + VERIFY
        + "llama-server.service: More than one OnSuccess= dependencies specified but OnSuccessJobMode=isolate set. "
        "Refusing.\nUnit llama-server.service has a bad unit file setting.\n# exit: 1\n" + BAD_FLAG,
    ),
    # the manager's own words for a refused unit (no systemd cause read above it), then a request refused by hand
    (
        "systemd-unit-refused",
        unit_file(START)
        + "llama-server.service: Unit configuration has fatal error, unit will not be started.\n"
        + f"$ cd /srv/llm\n$ {START}\n{SERVING}"
        + "0.01.099.643 E srv    send_error: task id = 0, error: Prompt contains invalid tokens\n"
        + '# request: POST http://127.0.0.1:8080/completion {"prompt": [151937]}\nHTTP/1.1 400 Bad Request\n'
        + '{"error":{"code":400,"message":"Prompt contains invalid tokens","type":"invalid_request_error"}}\n',
    ),
    # rendered: -m ./models/qwen.gguf (the main model) under a unit whose WorkingDirectory= is /srv/llm, run by hand
    (
        "llamacpp-model-file-missing",
        unit_file("/usr/local/bin/llama-server -m ./models/qwen.gguf --port 8080")
        + "$ cd /srv/llm\n$ /usr/local/bin/llama-server -m ./models/qwen.gguf --port 8080\n"
        + "0.00.010.001 I srv    load_model: loading model './models/qwen.gguf'\n"
        + "0.00.010.120 E gguf_init_from_file: failed to open GGUF file './models/qwen.gguf' (No such file or directory)\n"
        + "0.00.010.130 E llama_model_load: error loading model: llama_model_loader: failed to load model from "
        "./models/qwen.gguf\n"
        + "0.00.010.140 E llama_model_load_from_file_impl: failed to load model\n"
        + "0.00.010.200 E srv  llama_server: exiting due to model loading error\n",
    ),
    # rendered: a MemoryMax= systemd ignores (0.8) above a control vector never loaded (0.8): the engine's fault first
    (
        "llamacpp-control-vector-unusable",
        unit_file(START + " --control-vector ./happy.gguf", extra="MemoryMax=nanG\n")
        + VERIFY
        + f"{UNIT}:7: Invalid memory limit 'nanG', ignoring: Invalid argument\n# exit: 0\n"
        + f"$ cd /srv/llm\n$ {START} --control-vector ./happy.gguf\n"
        + "0.00.015.935 E gguf_init_from_file: failed to open GGUF file './happy.gguf' (No such file or directory)\n"
        + "0.00.015.938 E cmn  common_contr: failed to load control vector file from ./happy.gguf\n"
        + "0.00.015.938 E cmn  common_contr: no valid control vector files passed\n"
        + SERVING,
    ),
]

NEAR_MISSES = [
    # the unit ran under systemd (the journal's own words): the './' path was looked up in a directory the shell's is
    # not, llamacpp-relative-model-path's reading, below confident; the missing file is no confident answer
    (
        "llamacpp-model-file-missing",
        "Dec 06 10:00:00 box systemd[1]: Started llama-server.service - llama.cpp server.\n"
        "Dec 06 10:00:01 box llama-server[812]: E gguf_init_from_file: failed to open GGUF file './models/qwen.gguf' "
        "(No such file or directory)\n"
        "Dec 06 10:00:01 box llama-server[812]: E llama_model_load: error loading model: llama_model_loader: failed "
        "to load model from ./models/qwen.gguf\n",
    ),
    # a refused helper unit (a .socket) does not stop the service: the engine's refusal is the cause
    (
        "systemd-unit-refused",
        unit_file(START + " --n-gpu 1")
        + "$ systemd-analyze verify --man=no /etc/systemd/system/llama-server.socket\n"
        + "llama-server.socket: Unit has no Listen setting (ListenStream=, ListenDatagram=, ListenFIFO=, ...). "
        "Refusing.\nUnit llama-server.socket has a bad unit file setting.\n" + BAD_FLAG,
    ),
    # OnFailureJobMode=isolate with ONE OnFailure= unit is accepted: nothing refused, the engine's refusal answers
    (
        "systemd-unit-refused",
        unit_file(START + " --n-gpu 1", unit_extra="OnFailure=rescue.target\nOnFailureJobMode=isolate\n")
        + VERIFY
        + "# exit: 0\n"
        + BAD_FLAG,
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
