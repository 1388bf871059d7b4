"""What the scored batches fresh-406 (llama-server r14), fresh-411 (paste forms r3) and fresh-412 (what the client
saw) taught after scoring (learn47d), on wordings other than the corpus logs'.

- working-directory-deleted (widened): llama-server b11434's common/arg.cpp checks --slot-save-path and --media-path
  with fs_is_directory and throws std::invalid_argument("not a directory: " + value); a RELATIVE folder refused where
  the log shows the folder removed is the deleted working directory's, an absolute one stays the flag's.
- client-base-url-v1-doubled (widened): curl -v's request line ('> GET /v1/v1/models HTTP/2') and a URL with the route
  after /v1/v1, beside a 404 ('< HTTP/2 404', '< HTTP/1.1 404 Not Found').
- `journalctl -o json` pastes (unwrap.journal_line): systemd's '{ "KEY" : "value", ... }' spacing and the compact
  form, a MESSAGE journald kept as a list of bytes, read as journalctl -o short-iso prints the record.
- the client's side of fresh-412 in other clients' words: the openai SDK's 'Error code: 4xx - {...}' bodies, curl's
  'curl: (7) Failed to connect', httpx's ConnectError / ReadTimeout / HTTPStatusError.
Lines marked 'rendered' are the source's format strings with other values; the rest are as the programs print them.
"""

from __future__ import annotations

import json

from servebox.doctor.unwrap import journal_line, unwrap
from tests.doctor_text import family_tests


def cwd_gone(flag: str, value: str, removal: str = "rm -rf /srv/app") -> str:
    """A shell transcript: cd into a folder, the folder removed, then llama-server with a folder flag (arg.cpp's
    'error while handling argument' as b11434 prints it, rendered with another flag and value)."""
    return (
        "$ cd /srv/app\n"
        f"$ {removal}\n"
        f"$ llama-server -m /models/qwen2.5-0.5b-q8_0.gguf --port 8080 {flag} {value}\n"
        f'error while handling argument "{flag}": not a directory: {value}\n\n'
        "usage:\n"
        f"{flag} PATH                   path\n\n\n"
        "to show complete usage, run with -h\n"
    )


def journal_json(records: list[tuple[str, str | list[int]]], compact: bool = False) -> str:
    """`journalctl -u llama.service -o json` lines: (identifier, MESSAGE) per record, systemd's own as 'systemd'."""
    out = ["$ journalctl -u llama.service -o json"]
    for n, (ident, message) in enumerate(records):
        pid = "1" if ident == "systemd" else "4242"
        record = {
            "__REALTIME_TIMESTAMP": str(1796589536202596 + n),
            "_HOSTNAME": "gpubox",
            "SYSLOG_IDENTIFIER": ident,
            "_PID": pid,
            "_SYSTEMD_UNIT": "init.scope" if ident == "systemd" else "llama.service",
            "MESSAGE": message,
        }
        if compact:
            out.append(json.dumps(record, separators=(",", ":")))
        else:
            out.append(
                "{ " + ", ".join(f"{json.dumps(k)} : {json.dumps(v)}" for k, v in record.items()) + " }"
            )
    return "\n".join(out) + "\n"


def openai_error(exc: str, body: str) -> str:
    """The openai SDK's status error as a script's traceback ends (its _make_status_error_from_response)."""
    return (
        "$ python client.py\nTraceback (most recent call last):\n"
        '  File "/home/u/client.py", line 6, in <module>\n'
        "    resp = client.chat.completions.create(\n"
        '  File "/home/u/.venv/lib/python3.12/site-packages/openai/_base_client.py", line 1047, in request\n'
        "    raise self._make_status_error_from_response(err.response) from None\n"
        f"openai.{exc}: {body}\n"
    )


USAGE_CTK = "-ctk,  --cache-type-k TYPE              KV cache data type for K"

CASES = [
    # --media-path relative, the folder removed by rm -rf (rendered: arg.cpp's second fs_is_directory check)
    ("working-directory-deleted", cwd_gone("--media-path", "media")),
    # --slot-save-path ./slots after rmdir of the working folder (rendered)
    ("working-directory-deleted", cwd_gone("--slot-save-path", "./kv/slots", "rmdir /srv/app")),
    # curl -v over HTTP/2 against vLLM: '> GET /v1/v1/models HTTP/2', '< HTTP/2 404', FastAPI's body
    (
        "client-base-url-v1-doubled",
        "$ curl -v http://localhost:8000/v1/v1/models\n*   Trying 127.0.0.1:8000...\n"
        "* Connected to localhost (127.0.0.1) port 8000\n> GET /v1/v1/models HTTP/2\n> Host: localhost:8000\n>\n"
        '< HTTP/2 404\n< content-type: application/json\n<\n{"detail":"Not Found"}\n',
    ),
    # curl -v, HTTP/1.1, a completion against vLLM (its 404 body), the URL on curl's command line with the route
    (
        "client-base-url-v1-doubled",
        '$ curl -v -X POST http://gpu:8000/v1/v1/completions -d \'{"prompt": "hi"}\'\n'
        "> POST /v1/v1/completions HTTP/1.1\n> Host: gpu:8000\n>\n< HTTP/1.1 404 Not Found\n"
        '< server: uvicorn\n<\n{"detail":"Not Found"}\n',
    ),
    # httpx's raise_for_status (httpx/_models.py: "Client error '{status}' for url '{url}'")
    (
        "client-base-url-v1-doubled",
        "Traceback (most recent call last):\n"
        '  File "/home/u/chat.py", line 9, in <module>\n    r.raise_for_status()\n'
        "httpx.HTTPStatusError: Client error '404 Not Found' for url 'http://127.0.0.1:8080/v1/v1/chat/completions'\n"
        "For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/404\n",
    ),
    # a llama-server argument refusal pasted as journalctl -o json, systemd's spacing, a MESSAGE as bytes (journald
    # keeps a line with a control byte so: here an ANSI colour around the message)
    (
        "llamacpp-invalid-argument",
        journal_json(
            [
                ("systemd", "Started llama.service - llama-server."),
                (
                    "llama-server",
                    list(b'\x1b[31merror while handling argument "-ctv": Unsupported cache type: q3\x1b[0m'),
                ),
                ("llama-server", "usage:"),
                ("llama-server", USAGE_CTK),
                ("systemd", "llama.service: Main process exited, code=exited, status=1/FAILURE"),
                ("systemd", "llama.service: Failed with result 'exit-code'."),
            ]
        ),
    ),
    # ... the compact form (newer journalctl) of a vLLM refusal of an unknown flag (argparse's wording)
    (
        "cli-unrecognized-argument",
        journal_json(
            [
                ("systemd", "Started vllm.service - vLLM."),
                ("vllm", "usage: vllm serve [model_tag] [options]"),
                ("vllm", "vllm serve: error: unrecognized arguments: --max-model-length 4096"),
                ("systemd", "vllm.service: Main process exited, code=exited, status=2/INVALIDARGUMENT"),
            ],
            compact=True,
        ),
    ),
    # the openai SDK's 400 with vLLM's error body as a dict (vLLM's SamplingParams check, rendered)
    (
        "request-sampling-param-out-of-range",
        openai_error(
            "BadRequestError",
            "Error code: 400 - {'object': 'error', 'message': 'top_p must be in (0, 1], got 1.5.', "
            "'type': 'BadRequestError', 'param': None, 'code': 400}",
        ),
    ),
    # ... the context check's older wording inside the SDK's 'Error code: 400 - {...}'
    (
        "request-longer-than-context",
        openai_error(
            "BadRequestError",
            "Error code: 400 - {'error': {'message': \"This model's maximum context length is 2048 tokens. However, "
            "you requested 2300 tokens (2200 in the messages, 100 in the completion). Please reduce the length of the "
            "messages or completion.\", 'type': 'BadRequestError', 'param': None, 'code': 400}}",
        ),
    ),
    # httpx's read timeout (The read operation timed out: ssl / anyio's wording)
    (
        "client-read-timeout",
        "Traceback (most recent call last):\n"
        '  File "/app/run.py", line 5, in <module>\n'
        '    r = httpx.post("http://localhost:8000/v1/completions", json=body, timeout=5)\n'
        "httpx.ReadTimeout: The read operation timed out\n",
    ),
]

NEAR_MISSES = [
    # an ABSOLUTE --slot-save-path that is not there, with a removal shown: the flag's folder, not the working one
    ("working-directory-deleted", cwd_gone("--slot-save-path", "/srv/slots", "rm -r /srv/slots")),
    # a relative folder refused with no removal shown: a folder never made
    (
        "working-directory-deleted",
        "$ llama-server -m /models/a.gguf --slot-save-path slots\n"
        'error while handling argument "--slot-save-path": not a directory: slots\n',
    ),
    # curl -v's 404 for a model the server does not serve, /v1 once: not the base URL's
    (
        "client-base-url-v1-doubled",
        '$ curl -v http://localhost:8000/v1/chat/completions -d \'{"model": "llama"}\'\n'
        "> POST /v1/chat/completions HTTP/1.1\n< HTTP/1.1 404 Not Found\n"
        '{"error":{"message":"The model `llama` does not exist.","type":"NotFoundError","code":404}}\n',
    ),
    # /v1/v1 in curl's request line, but the server routed it (a proxy that strips one /v1): no 404, nothing wrong
    (
        "client-base-url-v1-doubled",
        "$ curl -v http://proxy:4000/v1/v1/models\n> GET /v1/v1/models HTTP/1.1\n< HTTP/1.1 200 OK\n"
        '{"object":"list","data":[]}\n',
    ),
    # a healthy journal pasted as JSON: no refusal
    (
        "llamacpp-invalid-argument",
        journal_json(
            [
                ("systemd", "Started llama.service - llama-server."),
                ("llama-server", "main: server is listening"),
            ]
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_journal_json_record_reads_as_short_iso():
    """A record becomes 'STAMP HOST IDENT[PID]: MESSAGE' (journalctl -o short-iso), systemd's spacing accepted."""
    line = journal_json([("systemd", "llama.service: Failed with result 'exit-code'.")]).splitlines()[1]
    out = unwrap((line + "\n").encode()).decode()
    assert (
        out == "2026-12-06T20:38:56+0000 gpubox systemd[1]: llama.service: Failed with result 'exit-code'.\n"
    )


def test_journal_json_message_bytes_and_no_stamp():
    """MESSAGE as a list of bytes is decoded; without a time stamp or ident the MESSAGE alone is kept."""
    assert journal_line({"MESSAGE": list(b"plain \xe2\x9c\x93")}) == "plain \u2713"
    assert journal_line({"MESSAGE": "x", "_COMM": "llama-server"}) == "x"
    rec = {"MESSAGE": "y", "__REALTIME_TIMESTAMP": "0", "_SYSTEMD_UNIT": "vllm.service"}
    assert journal_line(rec) == "1970-01-01T00:00:00+0000 localhost vllm: y"
