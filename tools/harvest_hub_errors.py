"""Take what fetching and opening a checkpoint prints (hub, transformers, safetensors, gguf) into a catalogue.

Why: benchmarks/doctor_coverage_hub_errors.py measures how much of this vocabulary doctor can name; it
must run offline, so the messages are produced once, here, by the real libraries in .venv-vllm (and the
gguf wheel, which vLLM loads through its GGUF plugin), and committed as facts about their output.
Most entries are EXECUTED, not copied: huggingface_hub's hf_raise_for_status on httpx responses of each
status and X-Error-Code the hub sends; file_download's offline/connection errors; transformers'
cached_file, AutoConfig and requires_backends on the hub errors, on broken model folders here, and on
each missing tokenizer backend; safetensors' safe_open and gguf's GGUFReader on broken files written to
a temp dir. The few raised only on paths this cannot reach are taken as written in the source (kind
'literal', with file and line; f-string fields filled with stand-ins).
The same broken safetensors files are also opened by an older safetensors wheel (0.4.5, what older vLLM
installs print: the Rust enum's names, e.g. 'HeaderTooLarge', 'MetadataIncompleteBuffer').
Wheels: `pip download gguf --no-deps -d /tmp/gguf-wheel`, `pip download safetensors==0.4.5 --no-deps
--only-binary=:all: -d /tmp/st045` (not committed).
Run: .venv-vllm/bin/python tools/harvest_hub_errors.py benchmarks/data/hub_errors.json [--gguf-wheel W]
"""

from __future__ import annotations

import argparse
import ast
import json
import struct
import sys
import tempfile
import warnings
from importlib import metadata
from pathlib import Path

REPO = "meta-llama/Llama-3.1-8B-Instruct"
URL = f"https://huggingface.co/{REPO}/resolve/main/config.json"
API_URL = f"https://huggingface.co/api/models/{REPO}/revision/main"
# (name, status, headers, url) for hf_raise_for_status: the X-Error-Code/-Message values the hub sends
HTTP_CASES = [
    ("repo-not-found-401", 401, {"X-Error-Code": "RepoNotFound"}, URL),
    ("repo-not-found-404", 404, {"X-Error-Code": "RepoNotFound"}, URL),
    ("repo-401-api", 401, {}, API_URL),
    ("gated-401", 401, {"X-Error-Code": "GatedRepo"}, URL),
    ("gated-403", 403, {"X-Error-Code": "GatedRepo"}, URL),
    ("revision-not-found", 404, {"X-Error-Code": "RevisionNotFound"}, URL),
    ("entry-not-found", 404, {"X-Error-Code": "EntryNotFound"}, URL),
    ("disabled", 403, {"X-Error-Message": "Access to this resource is disabled."}, URL),
    ("bad-token-401", 401, {"X-Error-Message": "Invalid credentials in Authorization header"}, URL),
    ("forbidden-403", 403, {"X-Error-Message": "Please enable access to public gated repositories"}, URL),
    ("bad-request-400", 400, {}, URL),
    ("not-found-404", 404, {}, URL),
    ("rate-limit-429", 429, {}, URL),
    ("range-416", 416, {}, URL),
    ("server-500", 500, {}, URL),
    ("bad-gateway-502", 502, {}, URL),
    ("unavailable-503", 503, {}, URL),
    ("gateway-timeout-504", 504, {}, URL),
]
# tokenizer backends transformers checks with requires_backends before building a tokenizer
BACKENDS = ["sentencepiece", "protobuf", "tokenizers", "tiktoken", "mistral_common", "jinja"]
# literal messages (raise sites this script cannot reach offline): (package file, a needle in the message)
LITERALS = [
    ("transformers/modeling_utils.py", "does not appear to have a file named"),
    ("transformers/tokenization_utils_tokenizers.py", "Couldn't instantiate the backend tokenizer"),
    ("transformers/tokenization_utils_base.py", "Can't load tokenizer for"),
    ("transformers/utils/hub.py", "is not a local folder or a valid repository name"),
    ("huggingface_hub/utils/_http.py", "offline mode is enabled"),
    ("huggingface_hub/file_download.py", "Not enough free disk space"),
    ("huggingface_hub/constants.py", "HF_HUB_ENABLE_HF_TRANSFER"),
    ("huggingface_hub/utils/_xet.py", "Xet headers have not been correctly set"),
]
FILL = {
    "pretrained_model_name_or_path": REPO,
    "path_or_repo": REPO,
    "cls.__name__": "LlamaTokenizerFast",
    "_add_variant(WEIGHTS_NAME, variant)": "pytorch_model.bin",
    "_add_variant(SAFE_WEIGHTS_NAME, variant)": "model.safetensors",
    "_add_variant(SAFE_WEIGHTS_INDEX_NAME, variant)": "model.safetensors.index.json",
    "TF2_WEIGHTS_NAME": "tf_model.h5",
    "TF_WEIGHTS_NAME": "model.ckpt",
    "variant": "fp16",
    "FLAX_WEIGHTS_NAME": "flax_model.msgpack",
    "request.url": URL,
    "expected_size / 1000000.0": "4976.70",
    "target_dir": "/root/.cache/huggingface/hub",
    "target_dir_free / 1000000.0": "1024.00",
}


def qualname(exc: BaseException) -> str:
    """The exception's name as a traceback prints it (module-qualified unless builtin)."""
    t = type(exc)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def entry(lib: str, name: str, exc: BaseException, source: str, code=None) -> dict:
    return {"lib": lib, "name": name, "code": code, "type": qualname(exc), "message": str(exc),
            "kind": "executed", "source": source}  # fmt: skip


def run(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - we want whatever the library raises
        return e
    return None


def hub_http() -> tuple[list[dict], dict]:
    import httpx2
    from huggingface_hub.utils import hf_raise_for_status

    out, excs = [], {}
    for name, status, headers, url in HTTP_CASES:
        headers = {"X-Request-Id": "Root=1-6750a1b2-0c1d2e3f4a5b6c7d8e9f0a1b", **headers}
        resp = httpx2.Response(status, headers=headers, request=httpx2.Request("GET", url))
        e = run(lambda r=resp: hf_raise_for_status(r))
        excs[name] = e
        out.append(entry("huggingface_hub", name, e, "utils/_http.py hf_raise_for_status", status))
    return out, excs


def hub_local(excs: dict) -> list[dict]:
    import httpx2
    from huggingface_hub import file_download as fd
    from huggingface_hub.errors import FileMetadataError

    conn = httpx2.ConnectError("[Errno -3] Temporary failure in name resolution")
    cases = [
        ("local-files-only", lambda: fd._raise_on_head_call_error(conn, False, True)),
        ("connection-error", lambda: fd._raise_on_head_call_error(conn, False, False)),
        (
            "metadata-error",
            lambda: fd._raise_on_head_call_error(
                FileMetadataError(
                    "Distant resource does not have an ETag, we won't be able to reliably ensure reproducibility."
                ),
                False,
                False,
            ),
        ),  # fmt: skip
        ("force-download-failed", lambda: fd._raise_on_head_call_error(conn, True, False)),
    ]
    out = []
    for name, fn in cases:
        e = run(fn)
        excs[name] = e
        out.append(entry("huggingface_hub", name, e, "file_download.py _raise_on_head_call_error"))
    return out


def hub_uncached(tmp: Path) -> list[dict]:
    """The real offline paths on an empty cache: what HF_HUB_OFFLINE=1 (or local_files_only) prints."""
    from huggingface_hub import hf_hub_download, snapshot_download
    from transformers.utils.hub import cached_file

    cache = str(tmp / "empty-cache")
    cases = [
        (
            "uncached-snapshot",
            "huggingface_hub",
            lambda: snapshot_download(REPO, cache_dir=cache, local_files_only=True),
            "_snapshot_download.py snapshot_download",
        ),  # fmt: skip
        (
            "uncached-file",
            "huggingface_hub",
            lambda: hf_hub_download(REPO, "config.json", cache_dir=cache, local_files_only=True),
            "file_download.py hf_hub_download",
        ),  # fmt: skip
        (
            "uncached-cached_file",
            "transformers",
            lambda: cached_file(REPO, "config.json", cache_dir=cache, local_files_only=True),
            "utils/hub.py cached_files",
        ),  # fmt: skip
    ]
    out = []
    for name, lib, fn, src in cases:
        e = run(fn)
        if e is not None:
            out.append(entry(lib, name, e, src))
    return out


def transformers_hub(excs: dict) -> list[dict]:
    """cached_file (what AutoConfig/AutoTokenizer call) wrapping each hub error in its OSError."""
    import transformers.utils.hub as th

    out, real = [], th.hf_hub_download
    for name, hub_exc in excs.items():
        if hub_exc is None:
            continue

        def fake(*_a, _e=hub_exc, **_k):
            raise _e

        th.hf_hub_download = fake
        e = run(lambda: th.cached_file(REPO, "config.json"))
        if e is not None and str(e) != str(hub_exc):
            out.append(entry("transformers", f"cached_file/{name}", e, "utils/hub.py cached_files"))
    th.hf_hub_download = real
    return out


def transformers_local(tmp: Path) -> list[dict]:
    """AutoConfig / AutoTokenizer / cached_file on model folders broken the ways a copy breaks."""
    from transformers import AutoConfig, AutoTokenizer
    from transformers.utils.hub import cached_file

    def folder(name: str, config: dict | None) -> str:
        d = tmp / name
        d.mkdir()
        if config is not None:
            (d / "config.json").write_text(json.dumps(config))
        return str(d)

    cases = [
        ("no-config", lambda: AutoConfig.from_pretrained(folder("empty", None)), "configuration_utils.py"),
        (
            "no-model-type",
            lambda: AutoConfig.from_pretrained(folder("nomt", {"hidden_size": 8})),
            "auto/configuration_auto.py",
        ),  # fmt: skip
        (
            "unknown-model-type",
            lambda: AutoConfig.from_pretrained(folder("unk", {"model_type": "qwen9_moe"})),
            "auto/configuration_auto.py",
        ),  # fmt: skip
        (
            "remote-code",
            lambda: AutoConfig.from_pretrained(
                folder(
                    "rc",
                    {"model_type": "custom", "auto_map": {"AutoConfig": "configuration_custom.CustomConfig"}},
                ),
                trust_remote_code=False,
            ),
            "dynamic_module_utils.py resolve_trust_remote_code",
        ),  # fmt: skip
        (
            "missing-file",
            lambda: cached_file(folder("nofile", {"model_type": "llama"}), "generation_config.json"),
            "utils/hub.py cached_files",
        ),  # fmt: skip
        (
            "no-tokenizer",
            lambda: AutoTokenizer.from_pretrained(folder("notok", {"model_type": "llama"})),
            "tokenization_utils_base.py",
        ),  # fmt: skip
        ("bad-path", lambda: AutoConfig.from_pretrained("/models/does-not-exist/llama"), "utils/hub.py"),
    ]
    out = []
    for name, fn, src in cases:
        e = run(fn)
        if e is not None:
            out.append(entry("transformers", name, e, src))
    for e in out:  # the temp dir stands for a model folder
        e["message"] = e["message"].replace(str(tmp), "/models")
    return out


def transformers_backends() -> list[dict]:
    from transformers.utils import import_utils as iu

    out = []
    for b in BACKENDS:
        if b not in iu.BACKENDS_MAPPING:
            continue
        _avail, msg = iu.BACKENDS_MAPPING[b]
        iu.BACKENDS_MAPPING[b] = (lambda: False, msg)
        e = run(lambda b=b: iu.requires_backends(type("LlamaTokenizer", (), {}), [b]))
        out.append(
            entry("transformers", f"backend-missing/{b}", e, "utils/import_utils.py requires_backends")
        )
    return out


GOOD = json.dumps({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}).encode()
SAFETENSORS = {
    "header-too-small": b"\x01\x02",
    "header-too-large": struct.pack("<Q", 1 << 40) + b"{}",
    "invalid-header-start": struct.pack("<Q", 4) + b"abcd",
    "invalid-header-utf8": struct.pack("<Q", 4) + b"{\xff\xfe}",
    "invalid-header-json": struct.pack("<Q", 8) + b"{'a': 1}",
    "metadata-incomplete-buffer": struct.pack("<Q", 400) + b"{}",
    "not-fully-covered": struct.pack("<Q", len(GOOD)) + GOOD + b"\x00" * 8,
    "invalid-dtype": struct.pack("<Q", len(GOOD)) + GOOD.replace(b"F32", b"Q99") + b"\x00" * 16,
    "git-lfs-pointer": b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 4976698672\n",
    "html-page": b"<!DOCTYPE html>\n<html><head><title>Hugging Face</title></head></html>\n",
}
# run in a child on an older wheel's extension: what users of an older vLLM (safetensors < 0.6) see
OLD_CHILD = """import json, sys
from safetensors import safe_open
out = {}
for name, path in json.loads(sys.argv[1]).items():
    try:
        safe_open(path, "numpy").keys()
    except Exception as e:
        t = type(e)
        out[name] = [f"{t.__module__}.{t.__qualname__}", str(e)]
print(json.dumps(out))
"""


def safetensors_files(tmp: Path) -> list[dict]:
    from safetensors import safe_open

    out = []
    for name, data in SAFETENSORS.items():
        p = tmp / f"{name}.safetensors"
        p.write_bytes(data)
        e = run(lambda p=p: safe_open(str(p), "numpy").keys())
        if e is not None:
            out.append(entry("safetensors", name, e, "safe_open (the Rust crate's SafeTensorError via PyO3)"))
    return out


def safetensors_old(tmp: Path, wheel: Path) -> list[dict]:
    """The same files opened by an older safetensors (its errors printed as the Rust enum's Debug names)."""
    import subprocess
    import zipfile

    site = tmp / "old-safetensors"
    zipfile.ZipFile(wheel).extractall(site)
    paths = {name: str(tmp / f"{name}.safetensors") for name in SAFETENSORS}
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}
    res = subprocess.run([sys.executable, "-c", OLD_CHILD, json.dumps(paths)], capture_output=True, text=True,
                         env=env, check=True)  # fmt: skip
    version = wheel.name.split("-")[1]
    return [{"lib": f"safetensors-{version}", "name": name, "code": None, "type": t, "message": msg,
             "kind": "executed", "source": f"safe_open of safetensors {version} (the wheel, in a child)"}
            for name, (t, msg) in json.loads(res.stdout).items()]  # fmt: skip


def gguf_files(tmp: Path) -> list[dict]:
    from gguf import GGUFReader

    hdr = b"GGUF" + struct.pack("<I", 3)
    files = {
        "bad-magic": b"GGML" + struct.pack("<I", 3) + b"\x00" * 16,
        "git-lfs-pointer": b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 4976698672\n",
        "version-1": b"GGUF" + struct.pack("<I", 1) + b"\x00" * 16,
        "version-big": b"GGUF" + struct.pack("<I", 1 << 24) + b"\x00" * 16,
        "truncated": hdr + struct.pack("<QQ", 1, 5) + b"\x00" * 4,
        "empty": b"",
    }
    out = []
    for name, data in files.items():
        p = tmp / f"{name}.gguf"
        p.write_bytes(data)
        e = run(lambda p=p: GGUFReader(str(p)))
        if e is not None:
            out.append(entry("gguf", name, e, "gguf_reader.py GGUFReader"))
    return out


def render(node) -> str:
    """A message expression's text with f-string fields filled by stand-ins."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(render(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        src = ast.unparse(node.value)
        return FILL.get(src, "{" + src + "}")
    if isinstance(node, ast.BinOp):
        return render(node.left) + render(node.right)
    return ""


def printed_type(node: ast.Call) -> str:
    """The name a traceback (or warnings' 'file:line: Category: msg') prints for this raise or warn."""
    func = ast.unparse(node.func)
    if func == "warnings.warn":
        return ast.unparse(node.args[1]) if len(node.args) > 1 else "UserWarning"
    if func in dir(__builtins__) or func in {"OSError", "ValueError", "ImportError", "EnvironmentError"}:
        return "OSError" if func == "EnvironmentError" else func
    return f"huggingface_hub.errors.{func}"


def literals(site: Path) -> list[dict]:
    out = []
    for rel, needle in LITERALS:
        tree = ast.parse((site / rel).read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            if not (isinstance(node.func, ast.Name) or ast.unparse(node.func) == "warnings.warn"):
                continue
            text = render(node.args[0])
            if needle in text and not any(o["message"] == text.strip() for o in out):
                lib = rel.split("/")[0]
                out.append({"lib": lib, "name": f"{needle[:40]}@{node.lineno}", "code": None,
                            "type": printed_type(node), "message": text.strip(), "kind": "literal",
                            "source": f"{rel}:{node.lineno}"})  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--gguf-wheel", default=next(iter(Path("/tmp/gguf-wheel").glob("gguf-*.whl")), None))
    ap.add_argument("--old-safetensors-wheel", type=Path,
                    default=next(iter(Path("/tmp/st045").glob("safetensors-*.whl")), None))  # fmt: skip
    a = ap.parse_args(argv)
    if a.gguf_wheel:
        sys.path.insert(0, str(a.gguf_wheel))  # a pure-Python wheel imports from the zip
    warnings.simplefilter("ignore")
    import huggingface_hub

    site = Path(huggingface_hub.__file__).parents[1]
    entries, excs = hub_http()
    entries += hub_local(excs)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        entries += hub_uncached(tmp)
        entries += transformers_hub(excs) + transformers_local(tmp) + transformers_backends()
        entries += safetensors_files(tmp) + gguf_files(tmp)
        if a.old_safetensors_wheel:
            entries += safetensors_old(tmp, a.old_safetensors_wheel)
    entries += literals(site)
    versions = {
        p: metadata.version(p) for p in ("huggingface_hub", "transformers", "safetensors", "tokenizers")
    }
    versions["gguf"] = Path(str(a.gguf_wheel)).name if a.gguf_wheel else "absent"
    if a.old_safetensors_wheel:
        versions["safetensors (older)"] = a.old_safetensors_wheel.name
    doc = {
        "about": "What fetching and opening a checkpoint prints, for benchmarks/doctor_coverage_hub_errors.py;"
        " made by tools/harvest_hub_errors.py (executed against the real libraries, kind 'executed').",
        "sources": versions,
        "formats": {
            "traceback": "the last line(s) of a Python traceback: traceback.format_exception_only's"
            " '<module.QualName>: <message>' (what `vllm serve` prints when config or tokenizer loading fails)",
            "vllm-engine-core": "vLLM 0.32 v1/engine/core.py run_engine_core's logger.exception('EngineCore"
            " failed to start.') with the traceback, each line prefixed '(EngineCore pid=N) ' by vLLM's"
            " process-output prefixing (weights load there: safetensors, gguf)",
            "llama.cpp": "not printed: llama-server reads GGUF in C and fetches with its own downloader"
            " (its vocabulary is benchmarks/data/llama_messages.json)",
        },
        "entries": entries,
    }
    with open(a.out, "w") as f:
        f.write(json.dumps({k: v for k, v in doc.items() if k != "entries"})[:-1] + ', "entries": [\n')
        f.write(",\n".join(json.dumps(e) for e in entries) + "\n]}\n")
    print(f"{len(entries)} entries -> {a.out}; {versions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
