"""What the template render budget costs on real chat templates: the budgeted sandbox
(servebox/checkpoint/template_budget.py, compile included) against jinja2's plain
ImmutableSandboxedEnvironment rendering the same template with the same two-message conversation,
in the same process. Prints each template's best-of times and the ratio; and what a hostile
template costs now (it is stopped by the budget). Run: python benchmarks/template_budget_overhead.py
"""

from __future__ import annotations

import time
from pathlib import Path

from jinja2.sandbox import ImmutableSandboxedEnvironment
from timing import best_of

from servebox.checkpoint.template_budget import BudgetExceeded, render_bounded

TEMPLATES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "templates"
CONTEXT = {
    "messages": [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "What is 2+2?"},
    ],
    "add_generation_prompt": True,
    "bos_token": "<s>",
    "eos_token": "</s>",
}


def plain(text: str) -> str:
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"]
    )
    return env.from_string(text).render(**CONTEXT)


def main() -> None:
    print(f"{'template':32} {'plain sandbox':>14} {'budgeted':>10} {'ratio':>7}")
    for path in sorted(TEMPLATES.glob("*.jinja")):
        text = path.read_text()
        try:
            want = plain(text)
        except Exception:  # noqa: BLE001 - the hostile fixture is refused by both
            continue
        assert render_bounded(text, **CONTEXT) == want, f"{path.name}: budgeted output differs"
        base = best_of(lambda t=text: plain(t), repeats=20)
        budget = best_of(lambda t=text: render_bounded(t, **CONTEXT), repeats=20)
        print(f"{path.name:32} {base * 1e3:12.2f}ms {budget * 1e3:8.2f}ms {budget / base:6.2f}x")
    hostile = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    start = time.perf_counter()
    try:
        render_bounded(hostile, **CONTEXT)
    except BudgetExceeded as exc:
        print(f"nested range(100000) loops: stopped after {time.perf_counter() - start:.2f} s ({exc})")


if __name__ == "__main__":
    main()
