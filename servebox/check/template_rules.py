"""Rules on the chat template: kwargs the engine passes, branches they reach, reasoning markers vs EOS."""

from __future__ import annotations

from servebox.check.context import Context, Finding, finding


def _bool_handled(var, value) -> bool:
    """A boolean reaches a branch when the template tests the variable for truth (`if x`,
    `x is not defined or x`) or compares it with either boolean (`x is false` has an else)."""
    return isinstance(value, bool) and (
        var.truthiness_tested or any(isinstance(b, bool) for b in var.branch_values)
    )


def rule_template(ctx: Context) -> list[Finding]:
    ct = ctx.ckpt.facts.chat_template
    if ct is None:
        return [
            finding(
                "chat-template",
                "warn",
                "no chat template: /v1/chat/completions will refuse requests",
                ["tokenizer_config.json chat_template absent"],
                "pass --chat-template FILE",
            )
        ]
    out = []
    for name, value in ctx.template_kwargs.items():
        var = ct.variable(name)
        if var is None:
            out.append(
                finding(
                    "template-kwarg-unread",
                    "warn",
                    f"the chat template never reads {name!r}: passing it changes nothing",
                    [f"{ct.source}: variables read: {', '.join(v.name for v in ct.variables) or 'none'}"],
                    f"drop {name} or use the template's own name",
                )
            )
        elif var.branch_values and value not in var.branch_values and not _bool_handled(var, value):
            out.append(
                finding(
                    "template-no-branch",
                    "warn",
                    f"{name}={value!r} has no branch in the template (it compares against {var.branch_values}): it matches no branch"
                    + (
                        f" (the template's own default, used when the kwarg is absent, is {var.default!r})"
                        if var.default_source
                        else ""
                    ),
                    [f"{ct.source} lines {var.lines[:6]}"],
                    f"use one of {var.branch_values}",
                )
            )
    if ct.reasoning is not None:
        if ct.reasoning_default_on:
            effort = ct.variable("reasoning_effort")
            detail = (
                f"; reasoning_effort defaults to {effort.default!r}"
                if effort and effort.default_source
                else ""
            )
            out.append(
                finding(
                    "reasoning-default-on",
                    "info",
                    f"the template turns reasoning on by default{detail}",
                    [f"{ct.source}"],
                    "set enable_thinking / reasoning_effort knowingly (--default-chat-template-kwargs) and pass --reasoning-parser",
                )
            )
        if not ct.reasoning.end_is_eos:
            out.append(
                finding(
                    "reasoning-end-not-eos",
                    "info",
                    f"{ct.reasoning.end} (id {ct.reasoning.end_token_id}) is not an EOS token: a model that "
                    "never closes its reasoning runs to max_tokens and returns empty content",
                    [f"EOS: {', '.join(ct.eos_tokens)}"],
                    "budget max_tokens; `servebox eval` measures how often reasoning never closes",
                )
            )
    return out
