"""The sixty-fourth fresh batch of doctor's corpus (batch "fresh-64"): LLAMA-SERVER'S ROUTER MODE, where one server
holds several models (--models-dir, --models-preset, --models-max, --models-autoload / --no-models-autoload, requests
naming a model by "model"), as a homelab user replacing llama-swap with it sets it up, on the real llama-server,
DRAWN AT RANDOM by a procedure fixed before any case ran (earlier made-here batches ran llama-server with one model).

What was read to design it: llama-server's own --help (--models-dir, --models-preset, --models-max,
--models-autoload), the strings of its binary (preset keys load-on-startup and stop-timeout, the /models/load and
/models/unload endpoints) and public preset files (INI: `version = 1`, a `[*]` section for every model, one
`[NAME]` section per model, keys = long option names without `--`, e.g. `model = PATH`, `ctx-size = 512`). One probe
that is not a case (a --models-dir with alpha.gguf and sub/beta.gguf) showed how models are named: a file by its stem,
a subdirectory by the directory's name.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2064):
  14 cases, each drawn in turn: condition = r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]).
  A draw whose condition was drawn before is drawn anew (both, same r). 16 conditions (14 distinct conditions are
  needed for 14 cases); healthy values are part of the conditions (about 1 in 4 draws).
  The models dir (per case, /tmp/fresh64-run/CASE/models) holds copies of tests/engine/make_tiny_gguf.py's loadable
  GGUF named alpha.gguf, beta.gguf, gamma.gguf unless a value says otherwise; broken files are made by the value.
  A "split pair" is that GGUF written by make_tiny_gguf.py through gguf's GGUFWriter with split_max_tensors=12
  (tiny-00001-of-00002.gguf, tiny-00002-of-00002.gguf), then one part removed.
  Each case: llama-server --port P -c 512 (-c reaches each model's instance: the router passes its own args on) and
  the value's router flags, run from the case directory (so relative paths resolve there), waited for until /health
  answers or it exits (60 s), then the case's requests in order (chat = POST /v1/chat/completions
  {"model": NAME, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}; listing = GET /models or
  GET /v1/models; load/unload = POST /models/load or /models/unload {"model": NAME}), each with a 90 s bound, then
  SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole log (stdout and stderr together,
  which holds the model instances' lines the router relays), then `# client:` and, for each request, its method and
  path, the response's status line and first 400 bytes. Environment: the maker's, without LLAMA_* variables, plus
  tools/doctor-corpus.py's ENV.
Usage (from the repository root; ports 19100-19101 of this batch's range 19100-19199):
  DOCTOR_CORPUS_GGUF=LOADABLE.gguf DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh64.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19100, "/tmp/fresh64/tiny-f32.gguf")
TMP = Path("/tmp/fresh64-run")

# each condition's values, fixed before the draw
CONDITIONS = {
    "models dir, healthy": [  # healthy
        "--models-dir with alpha, beta, gamma; chat to alpha",
        "--models-dir with alpha, beta, gamma; chat to alpha, then to beta",
        "--models-dir with alpha and a subdirectory delta/ holding model.gguf; chat to delta",
    ],
    "broken file in the models dir": [
        "an empty broken.gguf; chat to broken",
        "broken.gguf a copy cut to half its bytes; chat to broken",
        "broken.gguf a text file (not GGUF); chat to broken",
        "broken.gguf a copy cut to half its bytes; chat to alpha (healthy)",
    ],
    "split pair with a part missing": [
        "tiny-00001-of-00002.gguf only (part 2 removed); chat to the listed split model",
        "a subdirectory tiny/ with tiny-00001-of-00002.gguf only; chat to tiny",
        "tiny-00002-of-00002.gguf only (part 1 removed); chat to the listed split model",
    ],
    "model not in the list": [
        'chat naming "gpt-4o-mini"',
        'chat naming "alpha.gguf" (the file name)',
        "chat with no model field",
        'chat naming "Alpha" (case differs)',
    ],
    "--models-max exceeded": [
        "--models-max 1; chat to alpha, then beta, then alpha",
        "--models-max 2; chat to alpha, beta, gamma, then GET /models",
        "--models-max 1; POST /models/load alpha, POST /models/load beta, GET /models",
    ],
    "--no-models-autoload": [
        "--no-models-autoload; chat to alpha (never loaded)",
        "--no-models-autoload; POST /models/load alpha, wait, chat to alpha (healthy)",
        "LLAMA_ARG_MODELS_AUTOLOAD=0 in the environment; chat to alpha",
    ],
    "listing and unload": [
        "chat to alpha, GET /models, GET /v1/models, POST /models/unload alpha, GET /models (healthy)",
        "POST /models/unload alpha (never loaded)",
        "POST /models/unload zeta (not in the list)",
    ],
    "preset key or value wrong": [
        "a [alpha] section with `gpu-layerz = 99` (a key llama-server does not know)",
        "a [alpha] section with `ctx-size = big` (a bad value)",
        "a [*] section with `flash-attn = maybe` (a bad value)",
        "a [alpha] section with `load-on-startup = yes please`",
    ],
    "preset structure broken": [
        "the [alpha] section twice, with different ctx-size",
        "an unclosed section header `[alpha` ",
        "a line with no `=` inside [alpha]",
        "the preset file path does not exist",
    ],
    "preset names a missing file": [
        "[omega] model = omega.gguf (absent); chat to omega",
        "[omega] model = a directory; chat to omega",
        "[omega] model = omega.gguf (absent) with load-on-startup = true; chat to alpha",
    ],
    "preset per-model args that conflict": [
        "[alpha] sets both `model` and `hf-repo`",
        "[alpha] sets `port = 19101`",
        "[alpha] sets `ctx-size = 512` and `c = 4096`",
        "[alpha] sets `models-dir = models` (a router flag)",
    ],
    "preset, healthy": [  # healthy
        "--models-preset with [*] ctx-size = 512 and [alpha], [beta] sections; chat to beta",
        "--models-preset and --models-dir naming the same file (the cache model hidden); chat to alpha",
        "--models-preset with [alpha] load-on-startup = true and stop-timeout = 5; chat to alpha",
    ],
    "load-on-startup on a bad model": [
        "[broken] model = a copy cut to half its bytes, load-on-startup = true; chat to alpha",
        "[broken] model = an empty file, load-on-startup = true; chat to broken",
    ],
    "--models-dir path wrong": [
        "--models-dir a missing directory",
        "--models-dir an empty directory; chat to alpha",
        "--models-dir a regular file",
    ],
    "model names in the dir": [
        "alpha.gguf and a subdirectory alpha/ holding model.gguf; chat to alpha",
        "a file named 'my model.gguf' (a space); chat to 'my model'",
        "ALPHA.GGUF (upper-case extension) only; chat to ALPHA",
    ],
    "mmproj beside a model": [
        "a subdirectory delta/ with model.gguf and mmproj-delta.gguf (the text GGUF as the projector); chat to delta",
        "a top-level mmproj-alpha.gguf beside alpha.gguf; chat to mmproj-alpha",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 14 kept draws (condition, value), and every draw made anew with its reason."""
    return draw_distinct_conditions(2064, CONDITIONS, 14)


def client(port: int, method: str, path: str, body: dict | None) -> str:
    """One request's lines: METHOD PATH (and the model named), the status line, the body's first 400 bytes."""
    what = f"{method} {path}" + (f" {body.get('model', '(no model field)')!r}" if body is not None else "")
    try:
        r = httpx.request(method, f"http://127.0.0.1:{port}{path}", json=body, timeout=90)
        text = r.content[:400].decode("utf-8", "replace")
        return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}\n{type(exc).__name__}: {exc}\n"


def serve_router(h, argv: list[str], port: int, env: dict, cwd: Path, requests: list) -> str:
    """Start ARGV in CWD with exactly ENV; once /health answers, REQUESTS in order ((method, path, body) or a
    number of seconds to wait); then SIGTERM its group. Whole log + `# client:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answers, deadline = [], time.monotonic() + 60
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    time.sleep(1)
                    for req in requests:
                        if isinstance(req, (int, float)):
                            time.sleep(req)
                        else:
                            answers.append(client(port, *req))
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answers:
            text += ("" if text.endswith("\n") or not text else "\n") + "# client:\n" + "".join(answers)
        return text


def chat(model: str | None) -> tuple[str, str, dict]:
    body = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    return ("POST", "/v1/chat/completions", body if model is None else {"model": model, **body})


def split_gguf(tiny: Path, out: Path) -> list[Path]:
    """make_tiny_gguf.py's GGUF written as a split pair OUT-0000N-of-00002.gguf."""
    import functools

    import gguf

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))
    import make_tiny_gguf

    writer = gguf.GGUFWriter
    make_tiny_gguf.gguf.GGUFWriter = functools.partial(writer, split_max_tensors=12)
    try:
        make_tiny_gguf.main(tiny / "tokenizer.json", out)
    finally:
        make_tiny_gguf.gguf.GGUFWriter = writer
    return sorted(out.parent.glob(out.stem + "-0000*-of-*.gguf"))


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the comment)."""
    port = int(h.LLAMA_PORT)
    base = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **h.ENV}
    gguf = Path(os.environ["DOCTOR_CORPUS_GGUF"])

    def case_dir(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def models(d: Path, *names: str) -> Path:
        """D/models holding a copy of the loadable GGUF per NAME (a path under models/)."""
        m = d / "models"
        m.mkdir(exist_ok=True)
        for name in names:
            (m / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(gguf, m / name)
        return m

    def half(path: Path) -> Path:
        data = gguf.read_bytes()
        path.write_bytes(data[: len(data) // 2])
        return path

    def preset(d: Path, text: str) -> Path:
        p = d / "models.ini"
        p.write_text(text)
        return p

    def router(d: Path, flags: list[str], requests: list, env: dict | None = None) -> str:
        argv = [h.LLAMA, "--port", str(port), "-c", "512", *flags]
        return serve_router(h, argv, port, base if env is None else env, d, requests)

    def d1_preset_missing_file_on_startup() -> str:
        d = case_dir("preset-missing-file-startup")
        m = models(d, "alpha.gguf")
        ini = preset(
            d,
            f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\n\n"
            f"[omega]\nmodel = {m / 'omega.gguf'}\nload-on-startup = true\n",
        )
        return router(d, ["--models-preset", str(ini)], [3, chat("alpha")])

    def d2_split_part_missing_subdir() -> str:
        d = case_dir("split-part-missing-subdir")
        m = models(d, "alpha.gguf")
        (m / "tiny").mkdir()
        parts = split_gguf(tiny, m / "tiny" / "tiny.gguf")
        parts[1].unlink()
        return router(d, ["--models-dir", str(m)], [("GET", "/models", None), chat("tiny")])

    def d3_mmproj_named_file() -> str:
        d = case_dir("mmproj-named-file")
        m = models(d, "alpha.gguf", "mmproj-alpha.gguf")
        return router(d, ["--models-dir", str(m)], [("GET", "/models", None), chat("mmproj-alpha")])

    def d4_name_with_space() -> str:
        d = case_dir("name-with-space")
        m = models(d, "alpha.gguf", "my model.gguf")
        return router(d, ["--models-dir", str(m)], [chat("my model")])

    def d5_truncated_in_dir() -> str:
        d = case_dir("truncated-in-dir")
        m = models(d, "alpha.gguf")
        half(m / "broken.gguf")
        return router(d, ["--models-dir", str(m)], [chat("broken")])

    def d6_unload_never_loaded() -> str:
        d = case_dir("unload-never-loaded")
        m = models(d, "alpha.gguf", "beta.gguf", "gamma.gguf")
        return router(d, ["--models-dir", str(m)], [("POST", "/models/unload", {"model": "alpha"})])

    def d7_preset_healthy() -> str:
        d = case_dir("preset-healthy")
        m = models(d, "alpha.gguf", "beta.gguf")
        ini = preset(
            d,
            f"version = 1\n\n[*]\nctx-size = 512\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\n\n"
            f"[beta]\nmodel = {m / 'beta.gguf'}\n",
        )
        return router(d, ["--models-preset", str(ini)], [chat("beta")])

    def d8_models_max_one() -> str:
        d = case_dir("models-max-one")
        m = models(d, "alpha.gguf", "beta.gguf", "gamma.gguf")
        flags = ["--models-dir", str(m), "--models-max", "1"]
        return router(d, flags, [chat("alpha"), chat("beta"), chat("alpha")])

    def d9_preset_model_and_hf_repo() -> str:
        d = case_dir("preset-model-and-hf-repo")
        m = models(d, "alpha.gguf")
        ini = preset(
            d,
            f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\nhf-repo = ggml-org/gemma-3-1b-it-GGUF\n",
        )
        return router(d, ["--models-preset", str(ini)], [chat("alpha")])

    def d10_preset_path_missing() -> str:
        d = case_dir("preset-path-missing")
        models(d, "alpha.gguf")
        return router(d, ["--models-preset", str(d / "models.ini")], [chat("alpha")])

    def d11_models_dir_empty() -> str:
        d = case_dir("models-dir-empty")
        (d / "models").mkdir()
        return router(d, ["--models-dir", str(d / "models")], [chat("alpha")])

    def d12_no_autoload_load_then_chat() -> str:
        d = case_dir("no-autoload-load-then-chat")
        m = models(d, "alpha.gguf", "beta.gguf", "gamma.gguf")
        flags = ["--models-dir", str(m), "--no-models-autoload"]
        return router(d, flags, [("POST", "/models/load", {"model": "alpha"}), 5, chat("alpha")])

    def d13_preset_bad_ctx_size() -> str:
        d = case_dir("preset-bad-ctx-size")
        m = models(d, "alpha.gguf")
        ini = preset(d, f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\nctx-size = big\n")
        return router(d, ["--models-preset", str(ini)], [chat("alpha")])

    def d14_startup_truncated() -> str:
        d = case_dir("startup-truncated")
        m = models(d, "alpha.gguf")
        half(m / "broken.gguf")
        ini = preset(
            d,
            f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\n\n"
            f"[broken]\nmodel = {m / 'broken.gguf'}\nload-on-startup = true\n",
        )
        return router(d, ["--models-preset", str(ini)], [3, chat("alpha")])

    return {
        "fresh64-llama-preset-missing-file-load-on-startup": d1_preset_missing_file_on_startup,
        "fresh64-llama-router-split-part-missing-subdir": d2_split_part_missing_subdir,
        "fresh64-llama-router-mmproj-named-model": d3_mmproj_named_file,
        "fresh64-llama-router-model-name-with-space": d4_name_with_space,
        "fresh64-llama-router-truncated-gguf-in-dir": d5_truncated_in_dir,
        "fresh64-llama-router-unload-never-loaded": d6_unload_never_loaded,
        "fresh64-llama-preset-two-models-healthy": d7_preset_healthy,
        "fresh64-llama-router-models-max-one-swap": d8_models_max_one,
        "fresh64-llama-preset-model-and-hf-repo": d9_preset_model_and_hf_repo,
        "fresh64-llama-preset-file-missing": d10_preset_path_missing,
        "fresh64-llama-router-models-dir-empty": d11_models_dir_empty,
        "fresh64-llama-router-no-autoload-load-then-chat": d12_no_autoload_load_then_chat,
        "fresh64-llama-preset-ctx-size-not-a-number": d13_preset_bad_ctx_size,
        "fresh64-llama-preset-truncated-load-on-startup": d14_startup_truncated,
    }


def main() -> None:
    # its makers take no vLLM bound (llama-server only)
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh64/tiny")


if __name__ == "__main__":
    main()
