"""Chat template: which kwargs it reads, their defaults, the values it branches on, reasoning markers.

The digest's model thought forever because its template defaulted `reasoning_effort` to 'xhigh'
and had no branch for 'medium', and because `</think>` is not an EOS token. Both are visible in the
template's syntax tree. Templates are untrusted code: they are parsed with jinja2's sandboxed
environment, walked as an AST, and rendered (once, with a sample conversation) only inside
`ImmutableSandboxedEnvironment`. An attribute that reaches for Python internals is refused.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from jinja2 import TemplateSyntaxError, nodes
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from servebox.checkpoint.source import CheckpointSource
from servebox.checkpoint.template_budget import BudgetExceeded, render_bounded
from servebox.checkpoint.template_facts import ChatTemplate, ReasoningMarkers, TemplateVariable
from servebox.errors import InputError

MAX_TEMPLATE_CHARS = 256 * 1024  # the longest public chat templates are a few tens of KB
# Variables the serving engine itself supplies to every chat template (vLLM, transformers).
ENGINE_VARIABLES = {
    "messages",
    "tools",
    "add_generation_prompt",
    "bos_token",
    "eos_token",
    "pad_token",
    "unk_token",
    "documents",
    "raise_exception",
    "strftime_now",
    "tools_in_user_message",
    "date_string",
    "custom_tools",
    "builtin_tools",
    "continue_final_message",
    "add_vision_id",
    "range",
    "namespace",
    "loop",
    "true",
    "false",
    "none",
}
# (start, end) reasoning marker pairs used by public reasoning models.
REASONING_MARKERS = [
    ("<think>", "</think>"),
    ("<seed:think>", "</seed:think>"),
    ("[THINK]", "[/THINK]"),
    ("◁think▷", "◁/think▷"),
    ("<|begin_of_thought|>", "<|end_of_thought|>"),
    ("<|channel|>analysis", "<|end|>"),
]


def _const_values(node: nodes.Node) -> list[Any]:
    if isinstance(node, nodes.Const):
        return [node.value]
    if isinstance(node, nodes.List | nodes.Tuple):
        return [item.value for item in node.items if isinstance(item, nodes.Const)]
    return []


def _check_sandbox(ast: nodes.Template, source: str) -> None:
    """Refuse reads of `_` attributes: `x._y`, `x['_y']`, and `map(attribute='_y')`-style filter
    arguments (dotted paths included), before anything renders."""
    for node in ast.find_all((nodes.Getattr, nodes.Getitem, nodes.Filter, nodes.Test)):
        if isinstance(node, nodes.Filter | nodes.Test):
            paths = [
                k.value.value
                for k in node.kwargs
                if k.key == "attribute" and isinstance(k.value, nodes.Const)
            ]
            attr = next(
                (p for p in paths if isinstance(p, str) and any(x.startswith("_") for x in p.split("."))),
                None,
            )
        else:
            attr = node.attr if isinstance(node, nodes.Getattr) else getattr(node.arg, "value", None)
        if isinstance(attr, str) and any(part.startswith("_") for part in attr.split(".")):
            raise InputError(
                source,
                f"chat_template line {node.lineno}",
                f"reads attribute {attr!r}: an attempt to escape the jinja2 sandbox",
            )


def _analyse_variables(ast: nodes.Template) -> dict[str, TemplateVariable]:
    found: dict[str, TemplateVariable] = {}

    def var(name: str) -> TemplateVariable:
        return found.setdefault(name, TemplateVariable(name=name))

    def add_branch(name: str, values: list[Any]) -> None:
        entry = var(name)
        for value in values:
            if value not in entry.branch_values:
                entry.branch_values.append(value)

    for node in ast.find_all(nodes.Name):
        if node.ctx == "load":
            entry = var(node.name)
            if node.lineno not in entry.lines:
                entry.lines.append(node.lineno)
    for node in ast.find_all(nodes.Compare):
        operands = [node.expr] + [op.expr for op in node.ops]
        for left, op, right in zip(operands, node.ops, operands[1:], strict=False):
            if op.op in ("eq", "ne", "in", "notin"):
                if isinstance(left, nodes.Name):
                    add_branch(left.name, _const_values(right))
                elif isinstance(right, nodes.Name) and op.op in ("eq", "ne"):
                    add_branch(right.name, _const_values(left))
    for node in ast.find_all(nodes.Test):
        if isinstance(node.node, nodes.Name) and node.name in ("true", "false", "none"):
            add_branch(node.node.name, [{"true": True, "false": False, "none": None}[node.name]])
    for name in _truthiness_tested(ast):
        var(name).truthiness_tested = True
    for node in ast.find_all(nodes.Getitem):  # {'low': ..., 'high': ...}[reasoning_effort]
        if isinstance(node.arg, nodes.Name) and isinstance(node.node, nodes.Dict):
            add_branch(
                node.arg.name, [p.key.value for p in node.node.items if isinstance(p.key, nodes.Const)]
            )
    for node in ast.find_all(nodes.Filter):  # x | default('v')
        if node.name in ("default", "d") and isinstance(node.node, nodes.Name) and node.args:
            if isinstance(node.args[0], nodes.Const):
                entry = var(node.node.name)
                entry.default, entry.default_source = node.args[0].value, "| default(...)"
    for node in ast.find_all(nodes.Assign):
        if not isinstance(node.target, nodes.Name):
            continue
        name, value = node.target.name, node.node
        if (
            isinstance(value, nodes.CondExpr)
            and isinstance(value.test, nodes.Test)
            and value.test.name == "defined"
        ):
            fallback = value.expr2 if isinstance(value.expr1, nodes.Name) else value.expr1
            if isinstance(fallback, nodes.Const):
                entry = var(name)
                entry.default, entry.default_source = fallback.value, "x if x is defined else ..."
    for node in ast.find_all(nodes.If):  # {% if x is not defined %}{% set x = 'v' %}
        test = node.test.node if isinstance(node.test, nodes.Not) else None
        if isinstance(test, nodes.Test) and test.name == "defined" and isinstance(test.node, nodes.Name):
            for child in node.body:
                if (
                    isinstance(child, nodes.Assign)
                    and isinstance(child.target, nodes.Name)
                    and isinstance(child.node, nodes.Const)
                ):
                    if child.target.name == test.node.name:
                        entry = var(test.node.name)
                        entry.default, entry.default_source = child.node.value, "set if not defined"
    return found


def _truthiness_tested(ast: nodes.Template) -> set[str]:
    """Names used as a condition on their own: `if x`, `x or y`, `not x`, `a if x else b`."""
    conditions: list[nodes.Node] = []
    for node in ast.find_all((nodes.If, nodes.CondExpr)):
        conditions.append(node.test)
    for node in ast.find_all((nodes.And, nodes.Or)):
        conditions += [node.left, node.right]
    for node in ast.find_all(nodes.Not):
        conditions.append(node.node)
    return {c.name for c in conditions if isinstance(c, nodes.Name)}


def _undefined_means_on(ast: nodes.Template, name: str) -> bool:
    """`x is not defined or ...`: an absent X takes the branch."""
    for node in ast.find_all(nodes.Or):
        left = node.left
        if (
            isinstance(left, nodes.Not)
            and isinstance(left.node, nodes.Test)
            and left.node.name == "defined"
            and isinstance(left.node.node, nodes.Name)
            and left.node.node.name == name
        ):
            return True
    return False


def _token_ids(tokenizer_config: dict[str, Any]) -> dict[str, int]:
    decoder = tokenizer_config.get("added_tokens_decoder") or {}
    ids: dict[str, int] = {}
    for key, token in decoder.items():
        if isinstance(token, dict) and isinstance(token.get("content"), str) and str(key).isdigit():
            ids[token["content"]] = int(key)
    return ids


def _token_text(value: Any) -> str | None:
    if isinstance(value, dict):
        return value.get("content")
    return value if isinstance(value, str) else None


def template_text(
    source: CheckpointSource, tokenizer_config: dict[str, Any] | None
) -> tuple[str, str] | None:
    """The default chat template and where it came from, in the order transformers looks."""
    if source.has("chat_template.jinja"):
        return source.read_text("chat_template.jinja") or "", source.location("chat_template.jinja")
    if source.has("chat_template.json"):
        data = source.read_json("chat_template.json") or {}
        if isinstance(data.get("chat_template"), str):
            return data["chat_template"], source.location("chat_template.json")
    if tokenizer_config:
        raw = tokenizer_config.get("chat_template")
        where = source.location("tokenizer_config.json")
        if isinstance(raw, list):  # [{"name": "default", "template": ...}, ...]
            named = {t.get("name"): t.get("template") for t in raw if isinstance(t, dict)}
            raw = named.get("default") or next(iter(named.values()), None)
        if isinstance(raw, str):
            return raw, where
        if raw is not None:
            raise InputError(where, "chat_template", "must be a string or a list of named templates")
    return None


def _sample_render(text: str, tokenizer_config: dict[str, Any]) -> str | None:
    """Render TEXT once with a two-message conversation, inside the budgeted sandbox."""

    def raise_exception(message: str) -> None:
        raise ValueError(message)

    render_bounded(
        text,
        messages=[
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "What is 2+2?"},
        ],
        add_generation_prompt=True,
        bos_token=_token_text(tokenizer_config.get("bos_token")) or "",
        eos_token=_token_text(tokenizer_config.get("eos_token")) or "",
        raise_exception=raise_exception,
        strftime_now=lambda fmt: datetime(2026, 1, 1).strftime(fmt),
    )
    return None


def analyse_template(
    text: str, where: str, tokenizer_config: dict[str, Any] | None, generation_config: dict[str, Any] | None
) -> ChatTemplate:
    tokenizer_config = tokenizer_config or {}
    if len(text) > MAX_TEMPLATE_CHARS:
        raise InputError(
            where,
            "chat_template",
            f"{len(text):,} characters: longer than any real chat template ({MAX_TEMPLATE_CHARS:,})",
        )
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"]
    )
    try:
        ast = env.parse(text)
    except TemplateSyntaxError as exc:
        raise InputError(
            where, f"chat_template line {exc.lineno}", f"template syntax error: {exc.message}"
        ) from None
    except RecursionError:
        raise InputError(where, "chat_template", "template syntax nested too deep") from None
    _check_sandbox(ast, where)
    found = _analyse_variables(ast)
    kwargs = sorted(
        (v for n, v in found.items() if n not in ENGINE_VARIABLES and v.lines), key=lambda v: v.name
    )
    # Loop variables and names the template sets itself are not inputs.
    assigned = {n.name for n in ast.find_all(nodes.Name) if n.ctx in ("store", "param")}
    kwargs = [v for v in kwargs if v.name not in assigned or v.default_source]

    ids = _token_ids(tokenizer_config)
    eos_ids: list[int] = []
    gen_eos = (generation_config or {}).get("eos_token_id")
    eos_ids += gen_eos if isinstance(gen_eos, list) else ([gen_eos] if isinstance(gen_eos, int) else [])
    eos_text = _token_text(tokenizer_config.get("eos_token"))
    if eos_text in ids and ids[eos_text] not in eos_ids:
        eos_ids.append(ids[eos_text])
    by_id = {v: k for k, v in ids.items()}
    eos_tokens = [by_id.get(i, str(i)) for i in eos_ids] or ([eos_text] if eos_text else [])

    constants = " ".join(str(n.value) for n in ast.find_all(nodes.Const) if isinstance(n.value, str))
    constants += " ".join(n.data for n in ast.find_all(nodes.TemplateData))
    reasoning = None
    for (
        start,
        end,
    ) in REASONING_MARKERS:  # the template itself must write both (a vocabulary may hold them unused)
        if start in constants and end in constants:
            end_id = ids.get(end)
            reasoning = ReasoningMarkers(
                start=start, end=end, end_token_id=end_id, end_is_eos=(end_id in eos_ids) or end in eos_tokens
            )
            break
    reasoning_default_on = None
    if reasoning is not None:
        thinking = found.get("enable_thinking") or found.get("thinking")
        if thinking is not None and thinking.default_source:
            reasoning_default_on = bool(thinking.default)
        elif thinking is not None:
            # `x is false` checks leave an undefined x as "on"; a plain truthiness test leaves it off,
            # unless it is guarded by `x is not defined or x` (then undefined is on as well).
            reasoning_default_on = (
                False in thinking.branch_values and True not in thinking.branch_values
            ) or _undefined_means_on(ast, thinking.name)
        else:
            reasoning_default_on = True  # markers but no switch: the model always reasons
    try:
        error = _sample_render(text, tokenizer_config)
    except BudgetExceeded as exc:
        raise InputError(
            where, "chat_template", f"rendering a two-message conversation exceeded the budget: {exc}"
        ) from None
    except RecursionError:
        raise InputError(where, "chat_template", "rendering recursed too deep") from None
    except SecurityError as exc:
        raise InputError(
            where, "chat_template", f"tried to escape the jinja2 sandbox while rendering: {exc}"
        ) from None
    except Exception as exc:  # the template's own raise_exception, undefined filters, etc.
        error = f"{type(exc).__name__}: {exc}"
    return ChatTemplate(
        source=where,
        chars=len(text),
        variables=kwargs,
        engine_variables=sorted(
            n for n in found if n in ENGINE_VARIABLES and n not in ("true", "false", "none")
        ),
        reasoning=reasoning,
        reasoning_default_on=reasoning_default_on,
        eos_tokens=eos_tokens,
        eos_token_ids=eos_ids,
        sample_render_ok=error is None,
        sample_render_error=error,
    )
