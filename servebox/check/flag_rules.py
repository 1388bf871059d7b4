"""Flags the engine build itself does not know.

Why: check passes the serve flags it does not model on to vLLM. One that vLLM does not know (a misspelt
--max-model-length) makes the real `vllm serve` stop at once ('unrecognized arguments', or 'ambiguous option' for a
prefix of two), while check said nothing and planned for the defaults. The build's option strings are data
(engines/vllm/profiles/<file> named by the profile's `serve_options`, written by tools/vllm_serve_options.py from the
real parser); a profile without such a list cannot be checked, and the finding says so.
"""

from __future__ import annotations

import difflib

from servebox.check.context import Context, EngineRules, Finding
from servebox.engines.vllm.serve_options import DEFAULT, base_name, is_flag, refusal, serve_options


def rule_unknown_flags(ctx: Context, rest: list[str]) -> list[Finding]:
    """Each flag the build's parser refuses, the modeled ones too (ctx.flags.written); without a list, the flags
    servebox does not model are said to go unchecked."""
    flags = [t for t in rest if is_flag(t)]
    listed = ctx.engine.data.get("serve_options")
    if not listed:
        return [_unchecked(ctx.engine, flags)] if flags else []
    options, source = serve_options(listed)
    out = []
    for token, said in _refused(ctx.flags.written or flags, options):
        near = difflib.get_close_matches(
            base_name(token), sorted(o for o in options if o.startswith("--")), n=3, cutoff=0.75
        )
        out.append(
            Finding(
                rule="unknown-serve-flag",
                severity="error",
                message=f"vLLM {ctx.engine.version}'s `vllm serve` does not take {token.split('=', 1)[0]}: it "
                f"stops at once ('{said}', exit 2) before loading anything",
                evidence=[token, f"the build's options: {source}"],
                fix=f"did you mean {' or '.join(near)}?"
                if near
                else "see `vllm serve --help=all` for its flags",
            )
        )
    return out


def _unchecked(engine: EngineRules, flags: list[str]) -> Finding:
    return Finding(
        rule="serve-flags-unchecked",
        severity="info",
        message=f"passed on to vLLM unchecked: no option list is recorded for profile {engine.name}",
        evidence=flags,
        fix=None,
    )


def options_file(engine_profile: str | None, vllm_version: str | None) -> str | None:
    """The option list `plan` reads flags against: the engine profile's, or the release's (vllm.toml
    [serve_options]; the newest build's without --vllm-version); None where none is recorded."""
    if engine_profile:
        from servebox.check.context import load_engine_rules

        return load_engine_rules(engine_profile).data.get("serve_options")
    from servebox.engines.vllm.profile import vllm_toml

    return DEFAULT if vllm_version is None else vllm_toml()["serve_options"].get(vllm_version)


def unchecked_flags(written: list[str], listed: str | None, engine: str) -> list[str]:
    """The flags written, where no recorded list can check them (the release has none): said, not passed over."""
    flags = [t for t in written if is_flag(t)]
    return [f"{', '.join(flags)}: no option list is recorded for {engine}"] if flags and not listed else []


def refused_flags(rest: list[str], listed: str | None) -> list[str]:
    """One line per leftover flag the build's `vllm serve` refuses (none when no list is recorded)."""
    if not listed:
        return []
    return [
        f"{t}: vllm serve stops at once ('{said}')" for t, said in _refused(rest, serve_options(listed)[0])
    ]


def _refused(tokens: list[str], options: frozenset[str]) -> list[tuple[str, str]]:
    """Each flag among `tokens` the build's parser refuses, with what it says (check's findings, plan's lines)."""
    return [(t, said) for t in tokens if is_flag(t) and (said := refusal(t, options)) is not None]
