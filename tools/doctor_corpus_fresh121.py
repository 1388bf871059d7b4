"""The 121st fresh batch of doctor's corpus (batch "fresh-121", made here): MORE TOOLS AROUND THE ENGINES, none of
batch fresh-118's (tool, fault) pairs, drawn at random and run for real on this machine (no network).

Tools: git on a local model repository (git-lfs is not installed here), `python -c 'import X'` (.venv, 3.11), `ldd`,
`cp` (under `ulimit -f`, into a small tmpfs mounted under /tmp/fresh121 and unmounted after), a dangling symlink given
to transformers' AutoConfig, `jq`, `python -m json.tool`, PyYAML on a llama-swap-style config, `openssl verify` and
`curl --cacert` with a missing CA file, tokenizers' Tokenizer.from_file, transformers' AutoConfig (the last three in
.venv-vllm, which has tokenizers and transformers). CONDITIONS holds 24 (tool, fault) conditions, 6 of them healthy
(1 in 4); each value is a concrete variant, written here before the draw was printed.

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2121, CONDITIONS, 14)
(r = random.Random(2121)). Each case runs in a fresh /tmp/fresh121/caseNN directory (NN its draw number: a neutral name, so no path in a log names its fault); the case log is `$ ` and the
command line, its whole stdout+stderr (merged, in order), then `# exit: N`. A command is bounded at 120 s.
Ports 18460-18479 (18461: openssl s_server for the curl case).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh121.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh121")
PY = str(REPO / ".venv" / "bin" / "python")
PYV = str(REPO / ".venv-vllm" / "bin" / "python")
SITE = REPO / ".venv" / "lib" / "python3.11" / "site-packages"
PORT = 18461

CONDITIONS = {
    "git: checkout of a ref that does not exist": ["git checkout v2.0 (only v1.0 is tagged)"],
    "git: pull on a detached HEAD": ["git pull after git checkout HEAD~1"],
    "git-lfs: pointer files never fetched": [
        "git lfs pull with git-lfs not installed",
        "tokenizer.json an LFS pointer",
    ],
    "git: healthy": ["git log --oneline on the model repo"],
    "import: module missing": ["import flash_attn", "import vllm"],
    "import: local file shadowing a package": ["a local yaml.py", "a local tokenizers.py"],
    "import: syntax error in a local module": ["serve_config.py missing a colon"],
    "import: package built for another Python": [
        "fastops/_C.cpython-312-x86_64-linux-gnu.so under Python 3.11"
    ],
    "import: healthy": ["import yaml"],
    "ldd: dependency missing": ["numpy's _multiarray_umath .so copied without numpy.libs/libscipy_openblas"],
    "ldd: healthy": ["numpy's _multiarray_umath .so in place"],
    "cp: under ulimit -f": ["ulimit -f 256 (KB blocks), a 2 MB checkpoint"],
    "cp: into a full small filesystem": ["a 512 KB tmpfs, a 2 MB checkpoint"],
    "cp: healthy": ["a 2 MB checkpoint into a 8 MB tmpfs"],
    "symlink: dangling model path": ["AutoConfig.from_pretrained on a symlink to a removed directory"],
    "jq: broken config.json": ["a trailing comma", "cut at half"],
    "json.tool: broken config.json": ["single-quoted keys", "cut at half"],
    "yaml: broken llama-swap config": ["a tab in the indentation", "an unclosed double quote"],
    "yaml: healthy": ["a valid llama-swap config"],
    "openssl: missing CA file": ["openssl verify -CAfile missing-ca.pem server.pem"],
    "curl: --cacert missing CA file": [f"curl --cacert missing-ca.pem https://127.0.0.1:{PORT}/"],
    "tokenizers: truncated tokenizer.json": ["cut at half", "cut at 100 bytes"],
    "tokenizers: healthy": ["a whole tokenizer.json"],
    "transformers: config.json with a wrong type": [
        'num_hidden_layers = "24" (a string)',
        "hidden_size = 896.5",
    ],
}


def draws():
    return draw_distinct_conditions(2121, CONDITIONS, 14)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id(condition: str, value: str) -> str:
    tool, _, fault = condition.partition(": ")
    return ("fresh121-" + slug(tool) + "-" + slug(fault) + "-" + slug(value))[:90].rstrip("-")


def sh(script: str, cwd: Path, shown: str, env: dict | None = None) -> str:
    """Run bash -c SCRIPT; the log shows `$ SHOWN`."""
    p = subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=120,
        check=False,
    )
    out = p.stdout.decode("utf-8", "replace")
    nl = "" if out.endswith("\n") or not out else "\n"
    return f"$ {shown}\n{out}{nl}# exit: {p.returncode}\n"


def quiet(script: str, cwd: Path) -> None:
    subprocess.run(
        ["bash", "-c", script], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


CONFIG = {
    "architectures": ["Qwen2ForCausalLM"],
    "model_type": "qwen2",
    "hidden_size": 896,
    "intermediate_size": 4864,
    "num_attention_heads": 14,
    "num_hidden_layers": 24,
    "num_key_value_heads": 2,
    "max_position_embeddings": 32768,
    "vocab_size": 151936,
    "torch_dtype": "bfloat16",
}

SWAP_OK = """models:
  "qwen2.5-0.5b":
    cmd: |
      llama-server --port ${PORT} -m /models/qwen2.5-0.5b-instruct-q4_k_m.gguf -c 4096
    ttl: 300
  "llama-3.2-1b":
    cmd: llama-server --port ${PORT} -m /models/llama-3.2-1b-instruct-q4_k_m.gguf
healthCheckTimeout: 120
"""

POINTER = (
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:4b3cf6f2d1e0b7a5c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6\n"
    "size 7031645\n"
)


def model_repo(d: Path, lfs_tokenizer: bool = False) -> Path:
    repo = d / "qwen2.5-0.5b"
    repo.mkdir()
    (repo / "config.json").write_text(json.dumps(CONFIG, indent=2) + "\n")
    (repo / ".gitattributes").write_text(
        "*.safetensors filter=lfs diff=lfs merge=lfs -text\ntokenizer.json filter=lfs diff=lfs merge=lfs -text\n"
    )
    (repo / "model.safetensors").write_text(POINTER)
    (repo / "tokenizer.json").write_text(POINTER if lfs_tokenizer else tokenizer_json())
    quiet(
        "git init -q -b main && git -c user.name=m -c user.email=m@x add -A && "
        "git -c user.name=m -c user.email=m@x commit -q -m 'initial upload' && git tag v1.0 && "
        "echo '# Qwen2.5-0.5B' > README.md && git add README.md && "
        "git -c user.name=m -c user.email=m@x commit -q -m 'Update README.md'",
        repo,
    )
    return repo


def tokenizer_json() -> str:
    code = (
        "from tokenizers import Tokenizer, models, pre_tokenizers;"
        "v={w:i for i,w in enumerate(['[UNK]','the','model','serves','tokens','on','a','gpu','llama','qwen'])};"
        "t=Tokenizer(models.WordLevel(v, unk_token='[UNK]'));t.pre_tokenizer=pre_tokenizers.Whitespace();"
        "print(t.to_str(pretty=True))"
    )
    return subprocess.run([PYV, "-c", code], check=True, stdout=subprocess.PIPE, text=True).stdout


def make(condition: str, value: str, d: Path) -> str:
    tool = condition.split(":")[0]
    if tool in ("git", "git-lfs"):
        repo = model_repo(d, lfs_tokenizer="tokenizer.json" in value)
        if "does not exist" in condition:
            return sh("git checkout v2.0", repo, "git checkout v2.0")
        if "detached" in condition:
            quiet("git checkout -q HEAD~1", repo)
            return sh("git pull", repo, "git pull")
        if "healthy" in condition:
            return sh("git log --oneline", repo, "git log --oneline")
        if value.startswith("git lfs pull"):
            return sh("git lfs pull", repo, "git lfs pull")
        code = "from tokenizers import Tokenizer; t = Tokenizer.from_file('tokenizer.json'); print(t.get_vocab_size())"
        return sh(f'{PYV} -c "{code}"', repo, f'python -c "{code}"')
    if tool == "import":
        if "missing" in condition:
            mod = value.split()[-1]
            return sh(f"{PY} -c 'import {mod}'", d, f"python -c 'import {mod}'")
        if "shadowing" in condition:
            if "yaml" in value:
                (d / "yaml.py").write_text("# my notes on the llama-swap config\nmodels = ['qwen2.5-0.5b']\n")
                code = "import yaml; print(yaml.safe_load(open('config.yaml')))"
                (d / "config.yaml").write_text(SWAP_OK)
                return sh(f'{PY} -c "{code}"', d, f'python -c "{code}"')
            (d / "tokenizers.py").write_text("# scratch: count tokens\nimport sys\n")
            code = "from tokenizers import Tokenizer; print(Tokenizer)"
            return sh(f'{PYV} -c "{code}"', d, f'python -c "{code}"')
        if "syntax" in condition:
            (d / "serve_config.py").write_text(
                "MODEL = '/models/qwen2.5-0.5b'\nPORT = 18460\n\ndef engine_args()\n    return ['--model', MODEL, '--port', str(PORT)]\n"
            )
            code = "import serve_config; print(serve_config.engine_args())"
            return sh(f'{PY} -c "{code}"', d, f'python -c "{code}"')
        if "another Python" in condition:
            pkg = d / "fastops"
            pkg.mkdir()
            (pkg / "__init__.py").write_text("from . import _C\n\n__version__ = '0.4.1'\n")
            src = next((SITE / "yaml").glob("_yaml.cpython-311-*.so"), None) or next(
                SITE.rglob("*.cpython-311-x86_64-linux-gnu.so")
            )
            shutil.copy(src, pkg / "_C.cpython-312-x86_64-linux-gnu.so")
            return sh(f"{PY} -c 'import fastops'", d, "python -c 'import fastops'")
        return sh(
            f"{PY} -c 'import yaml; print(yaml.__version__)'",
            d,
            "python -c 'import yaml; print(yaml.__version__)'",
        )
    if tool == "ldd":
        so = next((SITE / "numpy" / "_core").glob("_multiarray_umath.cpython-311-*.so"))
        if "healthy" in condition:
            return sh(f"ldd {so}", d, f"ldd {so}")
        core = d / "site-packages" / "numpy" / "_core"
        core.mkdir(parents=True)
        shutil.copy(so, core / so.name)
        libs = d / "site-packages" / "numpy.libs"
        libs.mkdir()
        for lib in (SITE / "numpy.libs").iterdir():
            if "openblas" not in lib.name:
                shutil.copy(lib, libs / lib.name)
        return sh(f"ldd {core / so.name}", d, f"ldd {core / so.name}")
    if tool == "cp":
        quiet("head -c 2097152 /dev/urandom > model-00001-of-00001.safetensors", d)
        if "ulimit" in condition:
            return sh(
                "ulimit -f 256; cp model-00001-of-00001.safetensors dest.safetensors; exit $?",
                d,
                "ulimit -f 256; cp model-00001-of-00001.safetensors dest.safetensors; exit $?",
            )
        mnt = d / "mnt"
        mnt.mkdir()
        size = "8m" if "healthy" in condition else "512k"
        quiet(f"mount -t tmpfs -o size={size} tmpfs {mnt}", d)
        try:
            return sh(
                f"cp model-00001-of-00001.safetensors {mnt}/ && ls -l {mnt}",
                d,
                f"cp model-00001-of-00001.safetensors {mnt}/ && ls -l {mnt}",
            )
        finally:
            quiet(f"umount {mnt}", d)
    if tool == "symlink":
        real = d / "qwen2.5-0.5b-v1"
        real.mkdir()
        (real / "config.json").write_text(json.dumps(CONFIG))
        (d / "model").symlink_to(real)
        shutil.rmtree(real)
        code = f"from transformers import AutoConfig; print(AutoConfig.from_pretrained('{d / 'model'}'))"
        return sh(
            f'{PYV} -c "{code}"', d, f'python -c "{code}"', {"HF_HUB_OFFLINE": "1", "HF_HOME": str(d / "hf")}
        )
    if tool in ("jq", "json.tool"):
        text = json.dumps(CONFIG, indent=2)
        if "trailing comma" in value:
            text = text.replace('"bfloat16"', '"bfloat16",')
        elif "single" in value:
            text = text.replace('"', "'")
        else:
            text = text[: len(text) // 2]
        (d / "config.json").write_text(text + "\n")
        if tool == "jq":
            return sh("jq .num_hidden_layers config.json", d, "jq .num_hidden_layers config.json")
        return sh(f"{PY} -m json.tool config.json", d, "python -m json.tool config.json")
    if tool == "yaml":
        text = SWAP_OK
        if "tab" in value:
            text = text.replace("    ttl: 300", "\tttl: 300")
        elif "unclosed" in value:
            text = text.replace('"llama-3.2-1b":', '"llama-3.2-1b:')
        (d / "config.yaml").write_text(text)
        code = "import yaml; c = yaml.safe_load(open('config.yaml')); print(sorted(c['models']))"
        return sh(f'{PY} -c "{code}"', d, f'python -c "{code}"')
    if tool in ("openssl", "curl"):
        quiet(
            "openssl req -x509 -newkey rsa:2048 -nodes -keyout server.key -out server.pem -days 30 "
            "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1",
            d,
        )
        if tool == "openssl":
            return sh(
                "openssl verify -CAfile missing-ca.pem server.pem",
                d,
                "openssl verify -CAfile missing-ca.pem server.pem",
            )
        srv = subprocess.Popen(
            [
                "openssl",
                "s_server",
                "-quiet",
                "-accept",
                str(PORT),
                "-cert",
                "server.pem",
                "-key",
                "server.key",
                "-www",
            ],
            cwd=d,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(1.5)
            cmd = f"curl -sS --cacert missing-ca.pem https://127.0.0.1:{PORT}/"
            return sh(cmd, d, cmd)
        finally:
            srv.terminate()
            srv.wait()
    if tool == "tokenizers":
        text = tokenizer_json()
        if "half" in value:
            text = text[: len(text) // 2]
        elif "100" in value:
            text = text[:100]
        (d / "tokenizer.json").write_text(text)
        code = "from tokenizers import Tokenizer; t = Tokenizer.from_file('tokenizer.json'); print(t.get_vocab_size())"
        return sh(f'{PYV} -c "{code}"', d, f'python -c "{code}"')
    if tool == "transformers":
        cfg = dict(CONFIG)
        if "string" in value:
            cfg["num_hidden_layers"] = "24"
        else:
            cfg["hidden_size"] = 896.5
        m = d / "qwen2.5-0.5b"
        m.mkdir()
        (m / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        code = "from transformers import AutoConfig; c = AutoConfig.from_pretrained('./qwen2.5-0.5b'); print(c.num_hidden_layers, c.hidden_size)"
        return sh(
            f'{PYV} -c "{code}"', d, f'python -c "{code}"', {"HF_HUB_OFFLINE": "1", "HF_HOME": str(d / "hf")}
        )
    raise ValueError(condition)


def main(argv: list[str]) -> int:
    kept, redrawn = draws()
    if "--draws" in argv:
        for i, (c, v) in enumerate(kept, 1):
            print(f"{i:2} {c} | {v} | {case_id(c, v)}")
        for c, v, why in redrawn:
            print(f"   redrawn: {c} | {v} ({why})")
        return 0
    want = set(argv)
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(c, v)
        if want and cid not in want:
            continue
        d = WORK / f"case{i:02}"  # a neutral name: the case id would put the fault into the log's paths
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        log = make(c, v, d)
        (OUT / f"{cid}.log").write_text(log)
        print(f"== {cid}\n{log}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
