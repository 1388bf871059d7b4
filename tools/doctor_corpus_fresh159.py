"""The 159th fresh batch of doctor's corpus (batch "fresh-159", made here): LLAMA-SERVER'S ROUTER MODE, a SECOND
round after fresh-64: one llama-server 11434.0.0 (.llama-cpp/bin/llama-server) holding several models as a homelab
user replacing llama-swap sets it up, DRAWN AT RANDOM from conditions fresh-64 did not have.

What was read to design it: the router's source in the sdist (tools/server/server-models.cpp: load_models, add_model's
alias checks, load()'s models_max and port checks, router_validate_model, the /models, /models/load, /models/unload
and DELETE /models routes and their refusals; common/preset.cpp: load_from_ini, load_from_models_dir's scan of files,
subdirectories, shards, mmproj-* and draft (mtp-/dspark-/dflash-) companions; common/arg.h's preset-only keys
load-on-startup / stop-timeout / dedup-cache-models). Of earlier makers that touched this dimension, only their draw
lists: tools/doctor_corpus_fresh64.py's CONDITIONS and its 14 drawn keys (the whole CONDITIONS list is excluded here,
drawn or not), fresh-7's llama-router-models-dir-missing, fresh-14's llama-models-preset-section-unclosed, fresh-101's
FLAGS lines --models-dir/--models-preset/--models-max/--models-autoload (fresh-148 drew none of them), fresh-138's
llama-models-preset (another model's preset). None of their values is among CONDITIONS below.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2159, CONDITIONS, 14), i.e.
r = random.Random(2159); condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before
is drawn anew. 16 conditions; healthy values are part of them (marked "(healthy)" where the source says it serves).
Models: copies of tests/engine/make_tiny_gguf.py's loadable F32 GGUF (/tmp/fresh159/tiny-f32.gguf) named as the value
says; a split pair is that GGUF written through gguf's GGUFWriter with split_max_tensors=12.
Each case: llama-server --port 19541 -c 512 and the value's router flags, run from /tmp/fresh159/run/CASE (the case's
models dir and preset there), waited for until /health answers or it exits (120 s), then the case's requests in order
(chat = POST /v1/chat/completions {"model": NAME, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8};
each with a 90 s bound), then SIGTERM to its process group (its model instances are in it), SIGKILL after 30 s. Case
log = the server's whole stdout+stderr (which holds the instances' lines the router relays), then for each request a
`# request: METHOD PATH BODY` line, the status line and the body's first 400 bytes. Environment: the maker's without
LLAMA_* variables, plus tools/doctor-corpus.py's ENV. The instances' ports are picked by the OS (the router binds port 0;
no flag sets them).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh159.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, stop_group, use_ports  # tools/ is on sys.path

PORT = 19541
use_ports(19540, "/tmp/fresh159/tiny-f32.gguf")
REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh159")
TMP = WORK / "run"

# each condition's values, fixed before the draw; none is a value of fresh-64's CONDITIONS
CONDITIONS = {
    "symlinks in the models dir": [
        "alpha.gguf a symlink to a GGUF outside the dir; chat to alpha (healthy)",
        "a dangling symlink lost.gguf (its target deleted) beside alpha.gguf; chat to lost",
        "a symlinked subdirectory linked/ -> a folder holding model.gguf; chat to linked (healthy)",
    ],
    "non-GGUF files in the dir": [
        "only alpha.gguf.part (an interrupted download of the loadable GGUF); chat to alpha",
        "alpha.bin (the loadable GGUF with another extension) only; chat to alpha",
        "README.md beside alpha.gguf; GET /v1/models, chat to README",
    ],
    "nested folders": [
        "models/team/alpha/model.gguf (two levels deep); chat to alpha",
        "a subdirectory beta/ holding two GGUFs q4.gguf and q8.gguf; chat to beta",
        "an empty subdirectory empty/ beside alpha.gguf; chat to empty",
        "a directory named beta.gguf holding model.gguf; chat to beta",
    ],
    "split GGUF with both parts": [
        "a subdirectory tiny/ with both parts; chat to tiny (healthy)",
        "both parts at the top level; GET /models, chat to tiny-00002-of-00002",
    ],
    "draft or projector companions": [
        "a subdirectory delta/ with model.gguf and mtp-delta.gguf (the text GGUF as a draft); chat to delta",
        "a subdirectory delta/ holding only mmproj-delta.gguf; chat to delta",
    ],
    "preset aliases and tags": [
        "--models-dir with alpha, beta and a preset [alpha] alias = beta",
        "a preset [alpha] alias = fast and [beta] alias = fast",
        "a preset [alpha] alias = fast,chat and tags = small; chat to fast (healthy)",
    ],
    "preset-only keys wrong": [
        "a preset [alpha] stop-timeout = 5s; chat to alpha, POST /models/unload alpha",
        "a preset [alpha] and [beta] both load-on-startup = true with --models-max 1",
        "a preset [*] load-on-startup = true over alpha, beta, gamma with --models-max 2",
    ],
    "per-model argument the instance refuses": [
        "a preset [alpha] cache-type-k = q9_0; chat to alpha",
        "a preset [alpha] n-gpu-layers = lots; chat to alpha",
        "a preset [alpha] chat-template-file = a missing file; chat to alpha",
    ],
    "preset flag keys": [
        "a preset [alpha] jinja = maybe; chat to alpha",
        "a preset [alpha] mmap = off; chat to alpha (healthy)",
    ],
    "preset section names": [
        "a preset section [alpha:q4_k_m]; chat to alpha:q4_k_m",
        "a preset section [my model] (a space); chat to 'my model'",
        "a preset [alpha] model = beta.gguf with alpha.gguf, beta.gguf in --models-dir; chat to alpha",
    ],
    "load/unload routes": [
        "POST /models/load alpha, wait, POST /models/load alpha again",
        "POST /models/load with no model field",
        "DELETE /models?model=alpha (a models-dir model)",
    ],
    "requests naming a model, other routes": [
        "POST /v1/embeddings naming alpha (instances without --embeddings)",
        "POST /v1/chat/completions?autoload=false naming alpha never loaded",
        'POST /v1/chat/completions with "model": 7 (a number)',
    ],
    "--models-max edge values": [
        "--models-max 0; chats to alpha, beta, gamma, GET /models",
        "--models-max -1; chat to alpha",
    ],
    "model that cannot load, new kinds": [
        "a preset [alpha] ctx-size = 100000000 (a KV cache past memory); chat to alpha",
        "tests/fixtures/tiny-llama-q8_0.gguf (no vocabulary) as novocab.gguf; chat to novocab",
    ],
    "router flags and environment": [
        "LLAMA_ARG_MODELS_DIR in the environment, no flag; chat to alpha",
        "--models-dir with -m alpha.gguf too; chat to beta",
        "--models-dir a path with a space ('my models'); chat to alpha (healthy)",
    ],
    "names colliding across sources": [
        "alpha.gguf in --models-dir and a preset [alpha] ctx-size = 256; chat to alpha (healthy)",
        "Alpha.gguf and alpha.gguf, two files; GET /models, chat to Alpha",
    ],
}


def draws():
    """The 14 kept draws (condition, value); and every draw made anew with its reason."""
    return draw_distinct_conditions(2159, CONDITIONS, 14)


def client(method: str, path: str, body: dict | None) -> str:
    """One request as a user would paste it: `# request:` line, the status line, the body's first 400 bytes."""
    import httpx

    shown = "" if body is None else " " + json.dumps(body)
    what = f"# request: {method} {path}{shown}\n"
    try:
        r = httpx.request(method, f"http://127.0.0.1:{PORT}{path}", json=body, timeout=90)
        text = r.content[:400].decode("utf-8", "replace")
        return f"{what}HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}{type(exc).__name__}: {exc}\n"


def serve_router(h, argv: list[str], env: dict, cwd: Path, requests: list) -> str:
    """ARGV in CWD with ENV; once /health answers, REQUESTS in order ((method, path, body) or seconds to wait); then
    SIGTERM its process group (the instances too). The whole log, then the requests and replies."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answers, deadline = [], time.monotonic() + 120
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(PORT, time.monotonic() + 2):
                    time.sleep(1)
                    for req in requests:
                        if isinstance(req, (int, float)):
                            time.sleep(req)
                        else:
                            answers.append(client(*req))
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answers:
            text += ("" if text.endswith("\n") or not text else "\n") + "".join(answers)
        return text


def chat(model, path: str = "/v1/chat/completions") -> tuple[str, str, dict]:
    return (
        "POST",
        path,
        {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
    )


def split_gguf(tiny: Path, out: Path) -> list[Path]:
    """make_tiny_gguf.py's GGUF written as a split pair OUT-0000N-of-00002.gguf (split_max_tensors=12)."""
    import functools

    import gguf

    sys.path.insert(0, str(REPO / "tests" / "engine"))
    import make_tiny_gguf

    writer = gguf.GGUFWriter
    make_tiny_gguf.gguf.GGUFWriter = functools.partial(writer, split_max_tensors=12)
    try:
        make_tiny_gguf.main(tiny / "tokenizer.json", out)
    finally:
        make_tiny_gguf.gguf.GGUFWriter = writer
    return sorted(out.parent.glob(out.stem + "-0000*-of-*.gguf"))


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order (the draw's number in the name's comment)."""
    base = {**{k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}, **h.ENV}
    gguf = Path(os.environ["DOCTOR_CORPUS_GGUF"])

    def case_dir(name: str) -> Path:
        d = TMP / name
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        return d

    def models(d: Path, *names: str) -> Path:
        m = d / "models"
        m.mkdir(exist_ok=True)
        for name in names:
            (m / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(gguf, m / name)
        return m

    def preset(d: Path, text: str) -> Path:
        p = d / "models.ini"
        p.write_text(text)
        return p

    def router(d: Path, flags: list[str], requests: list) -> str:
        argv = [LLAMA, "--port", str(PORT), "-c", "512", *flags]
        return serve_router(h, argv, base, d, requests)

    def delete_models_dir_model() -> str:  # draw 1
        d = case_dir("delete-models-dir-model")
        m = models(d, "alpha.gguf", "beta.gguf")
        return router(d, ["--models-dir", str(m)], [("DELETE", "/models?model=alpha", None)])

    def readme_in_dir() -> str:  # draw 2
        d = case_dir("readme-in-dir")
        m = models(d, "alpha.gguf")
        (m / "README.md").write_text("# my models\nalpha: the tiny one\n")
        return router(d, ["--models-dir", str(m)], [("GET", "/v1/models", None), chat("README")])

    def section_tag_lowercase() -> str:  # draw 3
        d = case_dir("section-tag-lowercase")
        m = models(d, "alpha.gguf")
        ini = preset(d, f"version = 1\n\n[alpha:q4_k_m]\nmodel = {m / 'alpha.gguf'}\n")
        return router(d, ["--models-preset", str(ini)], [chat("alpha:q4_k_m")])

    def split_top_level() -> str:  # draw 4
        d = case_dir("split-top-level")
        (d / "models").mkdir()
        split_gguf(tiny, d / "models" / "tiny.gguf")
        m = d / "models"
        return router(d, ["--models-dir", str(m)], [("GET", "/models", None), chat("tiny-00002-of-00002")])

    def mmproj_only_subdir() -> str:  # draw 5
        d = case_dir("mmproj-only-subdir")
        m = models(d, "alpha.gguf", "delta/mmproj-delta.gguf")
        return router(d, ["--models-dir", str(m)], [chat("delta")])

    def preset_mmap_off() -> str:  # draw 6
        d = case_dir("preset-mmap-off")
        m = models(d, "alpha.gguf")
        ini = preset(d, f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\nmmap = off\n")
        return router(d, ["--models-preset", str(ini)], [chat("alpha")])

    def empty_subdir() -> str:  # draw 7
        d = case_dir("empty-subdir")
        m = models(d, "alpha.gguf")
        (m / "empty").mkdir()
        return router(d, ["--models-dir", str(m)], [chat("empty")])

    def models_max_negative() -> str:  # draw 8
        d = case_dir("models-max-negative")
        m = models(d, "alpha.gguf", "beta.gguf")
        return router(d, ["--models-dir", str(m), "--models-max", "-1"], [chat("alpha")])

    def dir_and_preset_merge() -> str:  # draw 9
        d = case_dir("dir-and-preset-merge")
        m = models(d, "alpha.gguf")
        ini = preset(d, "version = 1\n\n[alpha]\nctx-size = 256\n")
        return router(d, ["--models-dir", str(m), "--models-preset", str(ini)], [chat("alpha")])

    def models_dir_with_m() -> str:  # draw 10
        d = case_dir("models-dir-with-m")
        m = models(d, "alpha.gguf", "beta.gguf")
        return router(d, ["--models-dir", str(m), "-m", str(m / "alpha.gguf")], [chat("beta")])

    def chat_template_file_missing() -> str:  # draw 11
        d = case_dir("chat-template-file-missing")
        m = models(d, "alpha.gguf")
        ini = preset(
            d,
            f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\n"
            f"chat-template-file = {d / 'templates' / 'chatml.jinja'}\n",
        )
        return router(d, ["--models-preset", str(ini)], [chat("alpha")])

    def alias_twice() -> str:  # draw 12
        d = case_dir("alias-twice")
        m = models(d, "alpha.gguf", "beta.gguf")
        ini = preset(
            d,
            f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\nalias = fast\n\n"
            f"[beta]\nmodel = {m / 'beta.gguf'}\nalias = fast\n",
        )
        return router(d, ["--models-preset", str(ini)], [chat("fast")])

    def embeddings_request() -> str:  # draw 13
        d = case_dir("embeddings-request")
        m = models(d, "alpha.gguf")
        body = {"model": "alpha", "input": "hello"}
        return router(d, ["--models-dir", str(m)], [("POST", "/v1/embeddings", body)])

    def startup_over_max() -> str:  # draw 14
        d = case_dir("startup-over-max")
        m = models(d, "alpha.gguf", "beta.gguf")
        ini = preset(
            d,
            f"version = 1\n\n[alpha]\nmodel = {m / 'alpha.gguf'}\nload-on-startup = true\n\n"
            f"[beta]\nmodel = {m / 'beta.gguf'}\nload-on-startup = true\n",
        )
        return router(d, ["--models-preset", str(ini), "--models-max", "1"], [chat("alpha")])

    cases = [
        ("delete-models-dir-model", delete_models_dir_model),
        ("readme-in-models-dir", readme_in_dir),
        ("preset-section-tag-lowercase", section_tag_lowercase),
        ("split-parts-top-level", split_top_level),
        ("mmproj-only-subdir", mmproj_only_subdir),
        ("preset-mmap-off", preset_mmap_off),
        ("empty-subdir", empty_subdir),
        ("models-max-negative", models_max_negative),
        ("dir-and-preset-merge", dir_and_preset_merge),
        ("models-dir-with-m", models_dir_with_m),
        ("preset-chat-template-file-missing", chat_template_file_missing),
        ("preset-alias-twice", alias_twice),
        ("embeddings-request", embeddings_request),
        ("startup-over-models-max", startup_over_max),
    ]
    return {f"fresh159-llama-router-{name}": make for name, make in cases}


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), str(WORK / "tiny"))


if __name__ == "__main__":
    main()
