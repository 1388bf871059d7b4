"""fresh-298: an unseen made-here batch: SERVEBOX'S OWN DEPLOY STEP REFUSING OR WARNING.

`servebox render SPEC --out DIR [--check]`, `servebox check SOURCE ...` and `servebox plan SOURCE ...` run for real on
this machine (systemd 252's systemd-analyze for --check) with one thing a user gets wrong in the spec, the checkpoint or
the flags.

What was read to design it (product code, not doctor's): README.md's deploy part, docs/spec.md (every key),
servebox/cli/render.py, cli/check.py, cli/check_llamacpp.py, cli/options.py, cli/plan.py's refusals,
servebox/deploy/render.py (write_output, _previous_output, _refuse_foreign_files: a non-empty --out without servebox's
manifest, a symlink, a file), deploy/spec.py (its refusals: unknown GPU, duplicate name, llama.cpp without binary,
nodes), deploy/spec_values.py (control characters, absolute paths, systemd prefixes, listen parsing, flag values).
Nothing of servebox/doctor/ was read.
Earlier makers checked (manifest headers and `how` lines, grep -n 'servebox render\\|servebox check\\|servebox plan'):
render of two models on one engine port, render of an unclosed TOML string, render of a duplicate model name, check of
bf16 on a V100, plan with --max-model-len above the checkpoint's positions, plan with a misspelt GPU name, fresh-23's
systemd-analyze verify of a hand-edited unit (Enviroment=), fresh-81 / fresh-289's `servebox up` spec key unknown /
wrong type. None of those values is a value here: the spec-key conditions below are render's, on other keys and types.

CONDITIONS were written from the sources above before anything ran. Procedure (fixed and committed with `--draws`
before any case ran): corpus_tools.draw_distinct_conditions(2298, CONDITIONS, 11): r = random.Random(2298),
condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is drawn anew.
Base: a case folder /tmp/fresh298/run/ID; the base spec is [host] name = "gpu1", gpus = ["l4-24gb"]; [router]
listen = "127.0.0.1:8080"; one [[models]] "qwen" engine vllm, checkpoint = the bundled fixture
tests/fixtures/checkpoints/qwen2.5-7b-instruct (absolute), port 8001, venv = /work/main/.venv-vllm, flags
max-model-len = 8192 (llama.cpp values: binary = .llama-cpp/bin/llama-server, checkpoint = corpus_tools.tiny_gguf's
GGUF); then the value's change. check / plan run on the bundled fixtures (absolute paths). No ports are bound: nothing
is served.
Log = `$ cat spec.toml` and the spec where the value is a spec (as a user pastes it), setup commands the user ran
(`$ ls ...`), then `$ servebox ...` and servebox's whole console (stdout + stderr merged in the order written),
`# exit: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh298.py [--draws | ID ...]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = {
    "render: a spec key misspelt": [
        "[[models]] chekpoint = ... (the required key misspelt)",
        "[router] api_key = ['sk-1'] (singular)",
        "[models.toolchain] cuda-home = '/usr/local/cuda' (hyphen for underscore)",
    ],
    "render: a spec value of the wrong type": [
        "port = 8001.0 (a float)",
        "ttl_s = '300' (a string)",
        "[host] gpus = 'l4-24gb' (a string, not a list)",
    ],
    "render: --out names something servebox did not write": [
        "--out ~/deploy already holding the user's own notes.txt and a units/ folder",
        "--out the spec file itself",
        "--out a symlink to an empty directory",
    ],
    "a model path that does not exist": [
        "render: checkpoint = /models/qwen2.5-7b-instruct (absent on this machine)",
        "check /models/qwen2.5-7b-instruct --gpu l4-24gb (absent)",
        "plan ./qwen2.5-7b (a relative path, absent) --gpu l4-24gb",
    ],
    "render: a hostile value in the spec": [
        "env HF_TOKEN = a multi-line string (a newline inside the value)",
        "checkpoint = '/srv/my models/qwen 7b' (a path with spaces)",
        "binary = '+/usr/local/bin/llama-server' (systemd's root prefix)",
    ],
    "check / plan: a flag the engine profile does not know": [
        "check qwen --gpu l4-24gb --max-model-length 8192 (misspelt)",
        "plan qwen --gpu l4-24gb --gpu-memory-utilisation 0.9 (British spelling)",
        "check qwen --gpu l4-24gb --engine-profile vllm-0.33 (a profile that does not exist)",
    ],
    "check: a context that does not fit the GPU named": [
        "check llama-3.1-8b-instruct --gpu l4-24gb --max-model-len 131072",
        "check qwen2.5-7b-instruct --gpu t4-16gb --max-model-len 32768",
    ],
    "a GGUF given vLLM's flags or verbs": [
        "check tiny.gguf --gpu l4-24gb --tensor-parallel-size 2 --gpu-memory-utilization 0.9",
        "plan tiny.gguf --gpu l4-24gb",
        "render: engine = 'vllm' with checkpoint = the tiny GGUF",
    ],
    "render --check: systemd-analyze finds a problem in the rendered units": [
        "llama.cpp binary = /opt/llama.cpp/build/bin/llama-server (absent) with --check",
        "vLLM venv = /opt/venvs/vllm-0.32 (absent) with --check",
    ],
    "render: a [router] value out of range or unknown": [
        "listen = 'localhost' (no port)",
        "log_level = 'warning' (llama-swap says warn)",
        "health_check_timeout_s = 10 (below 15)",
    ],
    "render: GPU names and indexes": [
        "[host] gpus = ['L4'] (not a catalog name)",
        "model gpus = [0, 1] on a host with gpus = ['l4-24gb'] (one device)",
    ],
    "healthy with advice (expected none unless servebox refuses)": [
        "render --check of a clean llama.cpp spec (systemd-analyze security exposure printed)",
        "check qwen2.5-7b-instruct --gpu h100-80gb --max-model-len 8192",
    ],
    "plan / check: weights or quantization that do not fit the card": [
        "plan llama-3.1-70b-instruct --gpu l4-24gb (weights larger than the card)",
        "check qwen2.5-7b-instruct-awq --gpu v100-32gb --quantization gptq (method of another build)",
    ],
    "render: the spec file itself": [
        "a spec written as YAML and saved as spec.yaml",
        "the spec path is a directory",
        "the spec saved as UTF-16 by an editor",
    ],
    "render: a model section incomplete or inconsistent": [
        "a llama.cpp model without binary",
        "nodes = ['gpu2'] naming no [[hosts]] entry",
    ],
}


def draws():
    return draw_distinct_conditions(2298, CONDITIONS, 11)


# ---- case makers (added after the draw was committed, before any case ran) ----

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh298")
RUN = WORK / "run"
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")
FIX = REPO / "tests" / "fixtures" / "checkpoints"
QWEN = str(FIX / "qwen2.5-7b-instruct")
LLAMA_SERVER = str((REPO / ".llama-cpp" / "bin" / "llama-server").resolve())
VENV = str((REPO / ".venv-vllm").resolve())


def gguf() -> str:
    from corpus_tools import tiny_gguf

    return str(tiny_gguf(WORK))


def vllm_spec(
    host: str = 'gpus = ["l4-24gb"]', router: str = "", model: str = "", checkpoint: str = QWEN
) -> str:
    return (
        f'[host]\nname = "gpu1"\n{host}\n\n[router]\nlisten = "127.0.0.1:8080"\n{router}\n'
        f'[[models]]\nname = "qwen"\nengine = "vllm"\ncheckpoint = "{checkpoint}"\nport = 8001\n'
        f'venv = "{VENV}"\n{model}[models.flags]\nmax-model-len = 8192\n'
    )


def llama_spec(binary: bool = True) -> str:
    line = f'binary = "{LLAMA_SERVER}"\n' if binary else ""
    return (
        '[host]\nname = "gpu1"\ngpus = ["l4-24gb"]\n\n[router]\nlisten = "127.0.0.1:8080"\n\n'
        f'[[models]]\nname = "tiny"\nengine = "llama.cpp"\ncheckpoint = "{gguf()}"\nport = 8002\n{line}'
        "[models.flags]\nctx-size = 4096\nn-gpu-layers = 99\n"
    )


def run(case: Path, argv: list[str]) -> str:
    shown = " ".join(a if a and " " not in a else repr(a) for a in argv)
    proc = subprocess.run(
        [SERVEBOX, *argv[1:]],
        cwd=case,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"},
    )
    return f"$ {shown}\n{proc.stdout.rstrip()}\n# exit: {proc.returncode}\n"


def shell(case: Path, command: str) -> str:
    proc = subprocess.run(
        command, shell=True, cwd=case, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return f"$ {command}\n{proc.stdout.rstrip()}\n"


def spec_case(case: Path, text: str, argv: list[str], name: str = "spec.toml", pre: str = "") -> str:
    (case / name).write_text(text)
    return f"$ cat {name}\n{text.rstrip()}\n{pre}" + run(case, argv)


def render(name: str = "spec.toml", *more: str) -> list[str]:
    return ["servebox", "render", name, "--out", "out", *more]


def make(n: int, case: Path) -> str:
    if n == 1:
        return spec_case(case, vllm_spec(router="health_check_timeout_s = 10\n"), render())
    if n == 2:
        where = case / "my models" / "qwen 7b"
        shutil.copytree(QWEN, where)
        return spec_case(case, vllm_spec(checkpoint=str(where)), render())
    if n == 3:
        return run(case, ["servebox", "check", "/models/qwen2.5-7b-instruct", "--gpu", "l4-24gb"])
    if n == 4:
        return spec_case(case, llama_spec(binary=False), render())
    if n == 5:
        return spec_case(case, llama_spec(), render("spec.toml", "--check"))
    if n == 6:
        text = (
            "host:\n  name: gpu1\n  gpus: [l4-24gb]\nrouter:\n  listen: 127.0.0.1:8080\nmodels:\n"
            f"  - name: qwen\n    engine: vllm\n    checkpoint: {QWEN}\n    port: 8001\n    venv: {VENV}\n"
            "    flags:\n      max-model-len: 8192\n"
        )
        return spec_case(case, text, render("spec.yaml"), name="spec.yaml")
    if n == 7:
        return spec_case(case, vllm_spec(model="gpus = [0, 1]\n"), render())
    if n == 8:
        return run(case, ["servebox", "check", QWEN, "--gpu", "t4-16gb", "--max-model-len", "32768"])
    if n == 9:
        awq = str(FIX / "qwen2.5-7b-instruct-awq")
        return run(case, ["servebox", "check", awq, "--gpu", "v100-32gb", "--quantization", "gptq"])
    if n == 10:
        (case / "out" / "units").mkdir(parents=True)
        (case / "out" / "notes.txt").write_text("ports: qwen 8001, router 8080\nask ops before enabling\n")
        (case / "out" / "units" / "servebox-qwen.service.bak").write_text("[Unit]\nDescription=old qwen\n")
        pre = shell(case, "ls -R out")
        return spec_case(case, vllm_spec(), render(), pre=pre)
    if n == 11:
        return spec_case(case, vllm_spec(host='gpus = "l4-24gb"'), render())
    raise ValueError(n)


def case_id(n: int) -> str:
    condition, value = draws()[0][n - 1]
    words = re.sub(r"[^a-z0-9]+", "-", value.split(" (")[0].lower()).strip("-").split("-")
    while len("-".join(words)) > 44:
        words.pop()
    return f"fresh298-servebox-{n:02d}-" + "-".join(words)


def main() -> None:
    wanted = [int(a) for a in sys.argv[1:]] or list(range(1, 12))
    for n in wanted:
        case = RUN / f"d{n}"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir(parents=True)
        text = make(n, case)
        (OUT / f"{case_id(n)}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id(n)}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        main()
