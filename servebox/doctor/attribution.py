"""Who raised it: a root exception no family explains, read from where it was raised.

Two structural readings, both below the confident line (an inference from a file path, never a proof):
- raised by an installed package that is not part of the engine's own stack (a plugin, a KV connector,
  a wrapper loaded into vLLM): that package's version does not fit this engine (engine_stack.json, harvested
  from vLLM's own Requires-Dist by tools/harvest_engine_stack.py);
- an internal-kind exception (an assertion, an index or key, a shape) raised in vLLM's own code under a path
  that belongs to one feature: that feature's defect, with the flag that turns it off (engine_features.toml,
  read from vLLM's source trees);
- a refusal (ValueError, NotImplementedError, or an internal kind worded as one) raised there: that feature
  does not support this setup, and its message names what it supports.
Families that explain the exception always win: ranking.py asks here only when none does.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from servebox.doctor.caller import REMOTE_CODE, engine_stack, stack_data
from servebox.doctor.signatures import knowledge_entries
from servebox.doctor.triage import Diagnosis, Evidence, RaisedException

THIRD_PARTY = "third-party-package-raised"
FEATURE = "engine-feature-defect"
REFUSED = "engine-feature-refused"
STRUCTURAL = (THIRD_PARTY, FEATURE, REFUSED)
INSTALLED = re.compile(r"(?:^|/)(?:site|dist)-packages/")
NOT_A_PACKAGE = ("<", "/", ".", "~")  # <frozen ...>, <string>, an absolute or relative path: a script


@dataclass(frozen=True)
class Feature:
    prefix: str
    feature: str
    off: str
    skip: frozenset[str] = frozenset()


@lru_cache(maxsize=1)
def one_file_stdlib() -> frozenset[str]:
    """Stdlib modules that are one .py file, never a folder (site, code, io, types ...): read from the engine's stdlib
    by tools/harvest_engine_stack.py (learn53a; learn52c's hand list was ten of them). A folder so named (pip --target
    into ./site) is a user's folder, not part of a copy of the stack."""
    return frozenset(stack_data()["one_file_stdlib"])


@lru_cache(maxsize=1)
def not_a_package_folder() -> frozenset[str]:
    """Folders that hold a user's modules rather than being a package of their own: the file names the plugin."""
    return one_file_stdlib() | {"lib"}


def _vllm_checkout(path: str) -> str | None:
    """A frame in a vLLM source checkout (/work/vllm-0.6.3/vllm/lora/x.py) as "vllm/lora/x.py": a vllm/ package
    in a directory named after vLLM, holding one of vLLM's modules; a directory named vllm inside another
    project (/VUA/src/vua/vllm/kv_connector_v1.py, lmcache/integration/vllm/) is not vLLM's."""
    modules, parts = set(stack_data()["vllm_modules"]), path.split("/")
    for i in range(1, len(parts) - 2):
        if (
            parts[i] == "vllm"
            and _norm(parts[i - 1]).startswith("vllm")
            and parts[i + 1].removesuffix(".py") in modules
        ):
            return "/".join(parts[i:])
    return None


def _norm(name: str) -> str:
    return name.lower().replace("-", "_")


@lru_cache(maxsize=1)
def _table() -> dict:
    """engine_features.toml, parsed once for the readers below."""
    return tomllib.loads(resources.files("servebox.doctor").joinpath("engine_features.toml").read_text())


@lru_cache(maxsize=1)
def features() -> tuple[
    tuple[Feature, ...], frozenset[str], re.Pattern[str], re.Pattern[str], tuple[str, ...]
]:
    """Feature rows, longest prefix first; the internal exception kinds; the shape wording of a RuntimeError;
    the wording of a refusal; vLLM's thin wrappers over kernels (skipped when reading the calling frame)."""
    data = _table()
    rows = [Feature(r["prefix"], r["feature"], r["off"], frozenset(r.get("skip", ()))) for r in data["row"]]
    rows.sort(key=lambda r: -len(r.prefix.split("{", 1)[0]))
    internal = data["internal"]
    types, shape = frozenset(internal["exception_types"]), re.compile(internal["runtime_message"])
    thin = tuple(internal["thin_wrappers"])
    return tuple(rows), types, shape, re.compile(internal["refusal_message"]), thin


def module_path(raised_in: str) -> tuple[str, bool]:
    """The frame's file as a package path ("vllm/lora/layers.py"), and whether it was an installed one."""
    path = raised_in.rsplit(":", 1)[0] if re.search(r":\d+$", raised_in) else raised_in
    if INSTALLED.search(path):
        return INSTALLED.split(path)[-1], True
    top = path.split("/", 1)[0].removesuffix(".py")
    if not path.startswith(NOT_A_PACKAGE) and "/" in path and top.isidentifier():
        return path, True  # triage already cut the path after site-packages/
    # a bare file name (`python convert-hf-to-gguf.py`) or a name no import could have is a script run directly
    return _vllm_checkout(path) or path, False


def _checkout_package(exc: RaisedException, path: str) -> str:
    """A package run from its source tree (/srv/VUA/src/vua/vllm/kv_connector_v1.py: "vua") counts as loaded into
    the engine only when vLLM's own code called it (a vLLM frame further out); a model's remote code does not."""
    # vLLM's own code called it, or the engine's web server ran it for a request (a plugin's route; learn54c)
    called = exc.served or any(module_path(f)[0].startswith("vllm/") for f in exc.engine_frames)
    if not called or REMOTE_CODE in path or module_path(exc.raised_in)[0].startswith("vllm/"):
        return ""
    parts = path.split("/")
    if "src" in parts[:-2]:
        return parts[parts.index("src") + 1]
    # a repository holding its package: /workspace/LMCache-Ascend/lmcache_ascend/v1/npu_connector.py
    named = [parts[i + 1] for i in range(len(parts) - 2) if parts[i] and _norm(parts[i]) == parts[i + 1]]
    if named:
        return named[0]
    if exc.engine_frames and module_path(exc.engine_frames[0])[0].startswith("vllm/plugins/"):
        return _plugin_module(parts)  # vLLM's plugin loader called it: a plugin's own file (learn46g)
    if exc.engine_frames and module_path(exc.engine_frames[0])[0].startswith("vllm/utils/import_utils.py"):
        return parts[-1].removesuffix(".py")  # import_plugin loaded a parser plugin's file by path (learn47g)
    # a copy of a library of the stack (/root/site/pydantic/..., a Python's own lib/python3.11/importlib/...); a folder
    # named like a one-file stdlib module (a pip --target folder "site", "code", "test") is no copy of it (learn52c)
    if len(parts) < 3 or _stack_folders().intersection(parts[:-1]):
        return ""
    return _plugin_module(parts)


@lru_cache(maxsize=1)
def _stack_folders() -> frozenset[str]:
    """Names a folder of a copy of the stack can have: its packages (a one-file stdlib module, site.py or code.py, is
    never a folder), without vLLM (read by _vllm_checkout)."""
    return frozenset(n for n in engine_stack() - {"vllm"} if n not in one_file_stdlib())


def _third_party(exc: RaisedException, path: str, installed: bool) -> Diagnosis | None:
    top = path.split("/", 1)[0].removesuffix(".py") if installed else _checkout_package(exc, path)
    if not top or top in engine_stack() or exc.classification == "resource":
        return None
    return _diagnosis(
        THIRD_PARTY, exc, package=top, exception=f"{exc.type}: {exc.message}", file=exc.raised_in
    )


def _feature(exc: RaisedException, path: str, frame: str) -> Diagnosis | None:
    rows, internal, shape, refusal, _ = features()
    short = exc.type.rsplit(".", 1)[-1]
    if not path.startswith("vllm/"):
        return None
    if short in refused_types() or (short in internal and refusal.search(exc.message)):
        return _refused(exc, path)
    if short not in internal and short not in core()["exception_types"]:
        return None
    if short == "RuntimeError" and not shape.search(exc.message):
        return None
    row, name = _row(rows, path)
    where = frame.rsplit("/", 1)[-1] + ("" if frame == exc.raised_in else f", raised in {exc.raised_in}")
    exception = f"{short}: {exc.message[:200]}"
    if row is None:
        return _core(exc, short, path, where, exception)
    feature, off = row.feature.replace("{name}", name), row.off.replace("{name}", name)
    return _diagnosis(FEATURE, exc, feature=feature, off=off, exception=exception, file=where)


@lru_cache(maxsize=1)
def core() -> dict:
    """engine_features.toml [core]: an invariant failing in vLLM's code under no feature's row."""
    data = _table()
    return {**data["core"], "unless": re.compile(data["core"]["unless_message"])}


def _core(exc: RaisedException, short: str, path: str, where: str, exception: str) -> Diagnosis | None:
    """The defect reading at [core]'s lower confidence, naming the module, for the kinds that are invariants."""
    rule = core()
    if short not in rule["exception_types"] or rule["unless"].search(exc.message):
        return None
    name = path.rsplit("/", 1)[-1].removesuffix(".py")
    feature, off = rule["feature"].replace("{name}", name), rule["off"]
    found = _diagnosis(FEATURE, exc, feature=feature, off=off, exception=exception, file=where)
    found.confidence = min(found.confidence, float(rule["confidence"]))
    return found


@lru_cache(maxsize=1)
def refused_types() -> frozenset[str]:
    """The kinds of exception a feature's code raises to refuse a setup (engine_features.toml [refused])."""
    data = _table()
    return frozenset(data["refused"]["exception_types"])


def _refused(exc: RaisedException, path: str) -> Diagnosis | None:
    row, name = _row(features()[0], path)
    if row is None:
        return None
    feature, off = row.feature.replace("{name}", name), row.off.replace("{name}", name)
    exception = f"{exc.type.rsplit('.', 1)[-1]}: {exc.message[:300]}"
    name = feature.removeprefix("the ")
    return _diagnosis(
        REFUSED, exc, feature=feature, feature_name=name, off=off, exception=exception, file=exc.raised_in
    )


def _row(rows: tuple[Feature, ...], path: str) -> tuple[Feature | None, str]:
    """The longest row whose prefix holds `path`, and the component its `{name}` stands for."""
    for row in rows:
        head, templated, _ = row.prefix.partition("{name}")
        if not path.startswith(head):
            continue
        if not templated:
            return row, ""
        name = path[len(head) :].split("/", 1)[0].removesuffix(".py")
        if name and name not in row.skip:
            return row, name
    return None, ""


@lru_cache(maxsize=1)
def readings() -> dict[str, dict]:
    """The readings' confidence, cause and fix as knowledge/readings.toml words them (role "reading"): the
    knowledge base's id list holds these answers too, so whoever names an expected answer can pick them."""
    return {e["id"]: e for e in knowledge_entries() if e["role"] == "reading"}


def _diagnosis(rule: str, exc: RaisedException, **values: str) -> Diagnosis:
    entry = readings()[rule]
    return Diagnosis(
        id=rule,
        category=exc.classification,
        role="cause",
        cause=entry["cause"].format_map(values),
        fix=entry["fix"].format_map(values),
        confidence=float(entry["confidence"]),
        occurrences=exc.occurrences,
        first_line=exc.line,
        evidence=[Evidence(line=exc.line, text=f"{exc.type}: {exc.message}"[:400])],
    )


def below_families(diagnoses: list[Diagnosis]) -> list[Diagnosis]:
    """Ranked diagnoses with each structural reading just above the bare exception it reads: below every
    family shown above that (a family that names the case keeps winning, even on a tie), its confidence no
    higher than theirs."""
    readings = [d for d in diagnoses if d.id in STRUCTURAL]
    rest = [d for d in diagnoses if d.id not in STRUCTURAL]
    at = next((i for i, d in enumerate(rest) if d.id == "uncaught-exception"), None)
    if not readings or at is None:
        return diagnoses
    return place_readings(readings, rest, at)


def place_readings(readings: list[Diagnosis], rest: list[Diagnosis], at: int) -> list[Diagnosis]:
    """`rest` with the readings inserted at `at`, each no more confident than any cause ranked above it: a
    structural reading (here, or llamacpp_attribution.py's) never outranks a family shown above it."""
    for d in readings:
        d.confidence = min([d.confidence, *(c.confidence for c in rest[:at] if c.role == "cause")])
    return [*rest[:at], *readings, *rest[at:]]


def attribute(exc: RaisedException) -> Diagnosis | None:
    """The structural reading of an unexplained root exception, or None when its place says nothing: a
    library of the engine's stack (torch, a stdlib module) that raised is read by the vLLM code that called it."""
    if not exc.raised_in:
        return None
    path, installed = module_path(exc.raised_in)
    if (
        found := _third_party(exc, path, installed)
        or _loaded_by(exc)
        or _supplied_class(exc, path)
        or _supplied_function(exc, path)
    ) is not None:
        return found
    if not path.startswith("vllm/"):  # the innermost vLLM frame that is not a thin wrapper over a kernel
        _, _, _, _, thin = features()
        calls = [f for f in exc.engine_frames if not module_path(f)[0].startswith(thin)]
        path = module_path(calls[0])[0] if calls else path
        frame = calls[0] if calls else exc.raised_in
        return _feature(exc, path, frame)
    return _feature(exc, path, exc.raised_in)


def _loaded_by(exc: RaisedException) -> Diagnosis | None:
    """A library of the stack raised, asked by code loaded into the engine (caller.loaded_caller: a plugin's register()
    calling torch.cuda on a CPU-only build): that code's, named by its own frame (learn47g). A resource it asked for
    counts too (learn53c: a general plugin's register() binding a fixed port, which vLLM runs in every process, fails in
    the second: its port, not the engine's); a resource family that explains the exception still wins (ranking.py)."""
    if not exc.loaded_by:
        return None
    path, installed = module_path(exc.loaded_by)
    top = path.split("/", 1)[0].removesuffix(".py") if installed else _checkout_package(exc, path)
    if not top or top in engine_stack():
        return None
    exception = f"{exc.type}: {exc.message} (raised in {exc.raised_in}, which it called)"
    return _diagnosis(THIRD_PARTY, exc, package=top, exception=exception, file=exc.loaded_by)


SIGNATURE_MISMATCH = re.compile(
    r"^(?P<cls>\w+)\.__init__\(\) (?:takes \d+ positional arguments? but \d+ (?:was|were) given|missing \d+ required"
    r"|got an unexpected keyword argument|takes from \d+ to \d+ positional)"
)


def _supplied_class(exc: RaisedException, path: str) -> Diagnosis | None:
    """A TypeError of a user-supplied class's own signature, raised at the vLLM call site that builds it
    (engine_features.toml [[constructs]]): that class's, with the signature vLLM calls it with (learn47g)."""
    m = SIGNATURE_MISMATCH.search(exc.message) if exc.type.rsplit(".", 1)[-1] == "TypeError" else None
    site = next((c for c in _table().get("constructs", ()) if path.startswith(c["prefix"])), None)
    if m is None or site is None or m["cls"] in site["own"]:
        return None
    file = (
        f"{m['cls']}.__init__ (your {site['what']}: vLLM calls it as {site['signature']} at {exc.raised_in})"
    )
    return _diagnosis(THIRD_PARTY, exc, package=m["cls"], exception=f"{exc.type}: {exc.message}", file=file)


CALL_MISMATCH = re.compile(
    r"^(?:(?P<cls>\w+)\.)?(?P<name>\w+)\(\) (?:takes \d+ positional arguments? but \d+ (?:was|were) given|missing \d+ required"
    r"|got an unexpected keyword argument|takes from \d+ to \d+ positional)"
)


def _supplied_function(exc: RaisedException, path: str) -> Diagnosis | None:
    """A TypeError of a user-supplied function's own signature, raised at the vLLM call site that calls it
    (engine_features.toml [[calls]]: a general plugin's register() vLLM calls with no arguments): Python raises an
    argument mismatch in the caller's frame, so the traceback ends in vLLM's file; the function's author's (learn50e).
    A method ('Cls.init_state() takes ...') counts only where the site lists it in `methods` (learn51d: an endpoint
    plugin's init_state / attach_router, which vLLM calls with fixed arguments)."""
    m = CALL_MISMATCH.search(exc.message) if exc.type.rsplit(".", 1)[-1] == "TypeError" else None
    site = next((c for c in _table().get("calls", ()) if path.startswith(c["prefix"])), None)
    if m is None or site is None or m["name"] in site["own"]:
        return None
    methods = site.get("methods", {})
    if m["cls"] and m["name"] not in methods:
        return None
    name = f"{m['cls']}.{m['name']}" if m["cls"] else m["name"]
    how = methods[m["name"]] if m["cls"] else site["signature"].replace("{name}", m["name"])
    file = f"{name} (your {site['what']}: vLLM calls it as {how} at {exc.raised_in})"
    return _diagnosis(
        THIRD_PARTY, exc, package=m["cls"] or m["name"], exception=f"{exc.type}: {exc.message}", file=file
    )


def _plugin_module(parts: list[str]) -> str:
    """The plugin's top module from its file's path, on a sys.path folder of its own (a pip --target or PYTHONPATH
    folder: /tmp/site/tiny_router.py -> "tiny_router"; /tmp/site/tiny_pkg/hooks.py -> "tiny_pkg")."""
    stem = parts[-1].removesuffix(".py")
    if stem != "__init__" and (
        len(parts) < 3 or not parts[-2].isidentifier() or parts[-2] in not_a_package_folder()
    ):
        return stem
    return parts[-2] if parts[-2].isidentifier() else stem
