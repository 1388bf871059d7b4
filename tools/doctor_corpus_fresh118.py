"""The 118th fresh batch of doctor's corpus (batch "fresh-118", made here): THE TOOLS AROUND THE ENGINES that a
self-hoster runs while deploying a model, drawn at random, run for real on this machine (it reaches PyPI only).

Tools: the installed huggingface_hub's `hf` (.venv/bin/hf), `pip` (.venv/bin/pip --python into a fresh
--without-pip venv under /tmp/fresh118), `python -m venv`, `systemd-analyze verify`, `sha256sum -c`, `tar`, `unzip`,
`curl`, safetensors' python load, and gguf's `gguf-dump` (.venv/bin/gguf-dump). CONDITIONS holds 24 (tool, fault)
conditions, 6 of them healthy (1 in 4); each value is a concrete variant, written here before the draw was printed.

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2118, CONDITIONS, 14)
(r = random.Random(2118): condition = r.choice(list(CONDITIONS)), value = r.choice(its values), a condition drawn
before is drawn anew). Each case runs in a fresh /tmp/fresh118/<case id> directory; "unwritable" places are made
unwritable for root by dropping capabilities with setpriv (as fresh-116 did) or are under /proc. The case log is
`$ ` and the command line, its whole stdout+stderr (merged, in order), then `# exit: N`. A command is bounded at 120 s.
Ports 18440-18459 (18441: nothing listens there).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh118.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh118")
PY = str(REPO / ".venv" / "bin" / "python")
HF = str(REPO / ".venv" / "bin" / "hf")
PIP = str(REPO / ".venv" / "bin" / "pip")
GGUF_DUMP = str(REPO / ".venv" / "bin" / "gguf-dump")
DEAD_PORT = 18441
NOCAPS = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--inh-caps=-all", "--"]

CONDITIONS = {
    "hf: download --local-dir unwritable": ["under /proc", "a read-only directory (caps dropped)"],
    "hf: download --local-dir missing place": ["a path under a regular file", "a parent that does not exist"],
    "hf: repo id of a bad form": ["three slashes: org/name/extra", "double dots: org/..name"],
    "hf: offline with empty cache": [
        "HF_HUB_OFFLINE=1, fresh HF_HOME, Qwen/Qwen2.5-0.5B-Instruct config.json"
    ],
    "hf: --include matching nothing": ["--include '*.nothing'", "--include 'weights/*.gguf'"],
    "hf: healthy": ["hf env"],
    "pip: version that does not exist": ["six==99.0.0", "idna==0.0.1"],
    "pip: conflicting pin pair": ["idna==2.0 requests==2.32.3", "urllib3==3.0.0 requests==2.32.3"],
    "pip: index URL that does not answer": [f"--index-url http://127.0.0.1:{DEAD_PORT}/simple"],
    "pip: no network route": ["unshare -n (no interfaces up)"],
    "pip: healthy": ["six==1.16.0"],
    "venv: unwritable place": ["under /proc", "a read-only directory (caps dropped)"],
    "systemd-analyze: unit with one line wrong": [
        "ExecStart with a relative path",
        "Restart=sometimes",
        "Type=forked",
    ],
    "systemd-analyze: healthy": ["a correct llama-server unit"],
    "sha256sum: manifest with one file changed": ["one byte of model.safetensors flipped"],
    "sha256sum: healthy": ["all three files as written"],
    "tar: truncated archive": ["a .tar.gz cut at half", "a .tar cut at a third"],
    "tar: healthy": ["a whole .tar.gz"],
    "unzip: truncated archive": ["a .zip cut at half"],
    "curl: port nothing listens on": [f"http://127.0.0.1:{DEAD_PORT}/v1/models"],
    "safetensors: truncated file": ["cut at half", "cut inside the header"],
    "safetensors: healthy": ["a whole file"],
    "gguf-dump: non-GGUF file": ["a safetensors file", "a text file"],
    "gguf-dump: healthy": ["a tiny GGUF written with gguf's GGUFWriter"],
}


def draws():
    return draw_distinct_conditions(2118, CONDITIONS, 14)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id(condition: str, value: str) -> str:
    tool, _, fault = condition.partition(": ")
    return ("fresh118-" + slug(tool) + "-" + slug(fault) + "-" + slug(value))[:90].rstrip("-")


def run(argv: list[str], cwd: Path, env: dict | None = None, shown: str | None = None) -> str:
    p = subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=120,
        check=False,
    )
    out = p.stdout.decode("utf-8", "replace")
    return f"$ {shown or shlex.join(argv)}\n{out}{'' if out.endswith(chr(10)) or not out else chr(10)}# exit: {p.returncode}\n"


def write_safetensors(path: Path) -> None:
    import numpy as np
    from safetensors.numpy import save_file

    rng = np.random.default_rng(2118)
    save_file(
        {
            "embed.weight": rng.standard_normal((64, 32), dtype=np.float32),
            "lm_head.weight": np.ones((64, 32), "f4"),
        },
        str(path),
    )


def write_gguf(path: Path) -> None:
    import gguf
    import numpy as np

    w = gguf.GGUFWriter(str(path), "llama")
    w.add_name("fresh118-tiny")
    w.add_context_length(128)
    w.add_tensor("token_embd.weight", np.ones((16, 8), dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def cut(path: Path, frac: float | None = None, size: int | None = None) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: size if size is not None else int(len(data) * frac)])


UNIT = """[Unit]
Description=llama-server (fresh118)
After=network-online.target

[Service]
Type=simple
ExecStart={exec}
Restart=on-failure
RestartSec=5

[Install]
WantedBy=multi-user.target
"""


def make(condition: str, value: str, d: Path) -> str:
    tool = condition.split(":")[0]
    env = {"HF_HOME": str(d / "hf-home"), "NO_COLOR": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1"}
    if tool == "hf":
        repo, args, pre = "Qwen/Qwen2.5-0.5B-Instruct", [], []
        if "unwritable" in condition:
            if value.startswith("under /proc"):
                args = ["--local-dir", "/proc/fresh118-models/qwen"]
            else:
                ro = d / "models"
                ro.mkdir()
                ro.chmod(0o555)
                args, pre = ["--local-dir", str(ro / "qwen")], NOCAPS
            args = ["config.json", *args]
        elif "missing place" in condition:
            if value.startswith("a path under"):
                (d / "models").write_text("not a directory\n")
                args = ["config.json", "--local-dir", str(d / "models" / "qwen")]
            else:
                args = ["config.json", "--local-dir", "/nonexistent-volume/models/qwen"]
        elif "bad form" in condition:
            repo = "Qwen/Qwen2.5-0.5B-Instruct/extra" if "three" in value else "Qwen/..Qwen2.5-0.5B-Instruct"
            args = ["config.json"]
        elif "offline" in condition:
            env["HF_HUB_OFFLINE"] = "1"
            args = ["config.json"]
        elif "--include" in condition:
            args = ["--include", value.split("'")[1], "--local-dir", str(d / "qwen")]
        else:
            return run([HF, "env"], d, env, "hf env")
        return run([*pre, HF, "download", repo, *args], d, env, shlex.join(["hf", "download", repo, *args]))
    if tool == "pip":
        venv = d / "venv"
        subprocess.run([PY, "-m", "venv", "--without-pip", str(venv)], check=True)
        base = ["--python", str(venv / "bin" / "python"), "install", "--no-cache-dir"]
        pre, extra = [], []
        if "does not exist" in condition or "healthy" in condition:
            pkgs = [value]
        elif "conflicting" in condition:
            pkgs = value.split()
        elif "does not answer" in condition:
            pkgs, extra = (
                ["requests"],
                ["--index-url", f"http://127.0.0.1:{DEAD_PORT}/simple", "--retries", "1"],
            )
        else:
            pkgs, pre = ["requests"], ["unshare", "-n"]
        argv = [*pre, PIP, *base, *extra, *pkgs]
        return run(argv, d, None, shlex.join([*pre, "pip", *base, *extra, *pkgs]))
    if tool == "venv":
        if value.startswith("under /proc"):
            return run(
                [PY, "-m", "venv", "/proc/fresh118-venv"], d, None, "python3 -m venv /proc/fresh118-venv"
            )
        ro = d / "opt"
        ro.mkdir()
        ro.chmod(0o555)
        return run([*NOCAPS, PY, "-m", "venv", str(ro / "venv")], d, None, f"python3 -m venv {ro / 'venv'}")
    if tool == "systemd-analyze":
        text = UNIT.format(
            exec="/bin/sleep 3600"
        )  # a binary that exists, so only the one wrong line is wrong
        if "relative" in value:
            text = text.replace("ExecStart=/bin/sleep 3600", "ExecStart=sleep 3600")
        elif "Restart=" in value:
            text = text.replace("Restart=on-failure", "Restart=sometimes")
        elif "Type=" in value:
            text = text.replace("Type=simple", "Type=forked")
        unit = d / "llama-server.service"
        unit.write_text(text)
        return run(["systemd-analyze", "verify", str(unit)], d)
    if tool == "sha256sum":
        m = d / "model"
        m.mkdir()
        (m / "config.json").write_text('{"architectures": ["LlamaForCausalLM"], "hidden_size": 32}\n')
        (m / "tokenizer.json").write_text('{"version": "1.0", "model": {"type": "BPE"}}\n')
        write_safetensors(m / "model.safetensors")
        sums = subprocess.run(
            ["sha256sum", "config.json", "model.safetensors", "tokenizer.json"],
            cwd=m,
            capture_output=True,
            text=True,
        ).stdout
        (m / "SHA256SUMS").write_text(sums)
        if "changed" in condition:
            b = bytearray((m / "model.safetensors").read_bytes())
            b[len(b) // 2] ^= 0xFF
            (m / "model.safetensors").write_bytes(bytes(b))
        return run(["sha256sum", "-c", "SHA256SUMS"], m)
    if tool in ("tar", "unzip"):
        src = d / "qwen-tiny"
        src.mkdir()
        (src / "config.json").write_text('{"architectures": ["LlamaForCausalLM"]}\n')
        write_safetensors(src / "model.safetensors")
        (src / "notes.bin").write_bytes(os.urandom(200_000))
        (d / "out").mkdir()
        if tool == "unzip":
            arc = d / "qwen-tiny.zip"
            with zipfile.ZipFile(arc, "w", zipfile.ZIP_DEFLATED) as z:
                for p in sorted(src.iterdir()):
                    z.write(p, f"qwen-tiny/{p.name}")
            cut(arc, 0.5)
            return run(["unzip", "-o", arc.name, "-d", "out"], d)
        gz = ".tar.gz" in value
        arc = d / ("qwen-tiny.tar.gz" if gz else "qwen-tiny.tar")
        with tarfile.open(arc, "w:gz" if gz else "w") as t:
            t.add(src, "qwen-tiny")
        if "truncated" in condition:
            cut(arc, 0.5 if "half" in value else 1 / 3)
        return run(["tar", "xzf" if gz else "xf", arc.name, "-C", "out"], d)
    if tool == "curl":
        return run(["curl", "-sS", "--max-time", "10", value], d)
    if tool == "safetensors":
        f = d / "model.safetensors"
        write_safetensors(f)
        if value == "cut at half":
            cut(f, 0.5)
        elif value == "cut inside the header":
            cut(f, size=40)
        code = (
            "from safetensors.numpy import load_file; sd = load_file('model.safetensors'); "
            "print({k: tuple(v.shape) for k, v in sd.items()})"
        )
        return run([PY, "-c", code], d, None, shlex.join(["python3", "-c", code]))
    if tool == "gguf-dump":
        if value == "a safetensors file":
            f = d / "model.gguf"
            write_safetensors(f)
        elif value == "a text file":
            f = d / "model.gguf"
            f.write_text("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head></html>\n")
        else:
            f = d / "tiny.gguf"
            write_gguf(f)
        return run([GGUF_DUMP, f.name], d, None, shlex.join(["gguf-dump", f.name]))
    raise ValueError(condition)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} -> {case_id(c, v)}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
        return
    wanted = set(sys.argv[1:])
    for c, v in kept:
        cid = case_id(c, v)
        if wanted and cid not in wanted:
            continue
        d = WORK / cid
        if d.exists():
            subprocess.run(["chmod", "-R", "u+rwx", str(d)], check=False)
            shutil.rmtree(d)
        d.mkdir(parents=True)
        text = make(c, v, d)
        (OUT / f"{cid}.log").write_text(text)
        print(f"{cid}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
