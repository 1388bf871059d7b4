"""A render budget for untrusted chat templates, enforced inside jinja2's sandbox.

jinja2's sandbox stops a template from reaching Python internals, not from running forever: nested
`range` loops, `9**(9**9)` (folded at compile time), `center(1e9)`, `lipsum(300000)` or a doubling
string each took minutes. Here every loop step, call, operator, filter and emitted string is
charged to one budget (wall time, steps, characters); the template's syntax tree is rewritten so
that loops and output pass through the budget, and the dangerous operators are intercepted, which
also stops jinja2 from folding them at compile time. Exceeding the budget raises BudgetExceeded.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Iterable, Iterator
from typing import Any

from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_SECONDS = 2.0
MAX_STEPS = 1_000_000
MAX_CHARS = 1_000_000  # every string built or emitted, and the total output
MAX_INT_ARG = 100_000  # widths, counts and repeats passed to filters and methods
MAX_INT_BITS = 65_536
WIDE_FORMAT_RE = re.compile(r"%[-#0 +]*(\*|\d{5,})|%[-#0 +]*\d*\.(\*|\d{5,})|\{[^{}]*\d{5,}[^{}]*\}")
ITER, OUT, LITERAL = "servebox_budget_iter", "servebox_budget_out", "servebox_budget_literal"


class BudgetExceeded(Exception):
    """The template needed more time, steps or characters than any chat template does."""


class BudgetSandbox(ImmutableSandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.deadline = time.monotonic() + MAX_SECONDS
        self.steps = 0
        self.emitted = 0
        self.globals.pop("lipsum", None)
        self.globals.update({"range": self._range, ITER: self._iter, OUT: self._out, LITERAL: self._literal})
        self.filters = {name: self._guarded(f) for name, f in self.filters.items()}

    # ---- the budget ----
    def tick(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > MAX_STEPS:
            raise BudgetExceeded(f"more than {MAX_STEPS:,} steps")
        if time.monotonic() > self.deadline:
            raise BudgetExceeded(f"more than {MAX_SECONDS:g} s")

    def sized(self, value: Any) -> Any:
        if isinstance(value, str | list | tuple | dict) and len(value) > MAX_CHARS:
            raise BudgetExceeded(f"a value of {len(value):,} items (limit {MAX_CHARS:,})")
        return value

    def _check_args(self, args: Iterable[Any]) -> None:
        for arg in args:
            if isinstance(arg, int | float) and not isinstance(arg, bool) and abs(arg) > MAX_INT_ARG:
                raise BudgetExceeded(f"argument {arg!r:.20} is larger than {MAX_INT_ARG:,}")

    @staticmethod
    def _check_format(fmt: Any) -> None:
        if isinstance(fmt, str) and WIDE_FORMAT_RE.search(fmt):
            raise BudgetExceeded("a format width or precision of 5 digits or more")

    # ---- hooks jinja2 calls ----
    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        __self.tick()
        __self._check_args([*args, *kwargs.values()])
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, str) and getattr(__obj, "__name__", "") in ("format", "format_map"):
            __self._check_format(owner)
        return __self.sized(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        self.tick()
        if operator == "**" and _int(left) and _int(right) and right > 0 and abs(left) > 1:
            if left.bit_length() * right > MAX_INT_BITS:
                raise BudgetExceeded(f"{left} ** {right} has more than {MAX_INT_BITS:,} bits")
        if operator == "*":
            _check_repeat(left, right)
            _check_repeat(right, left)
            if _int(left) and _int(right) and left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise BudgetExceeded(f"a product of more than {MAX_INT_BITS:,} bits")
        if operator == "%":
            self._check_format(left)
        if operator == "+" and isinstance(left, str | list | tuple) and isinstance(right, str | list | tuple):
            if len(left) + len(right) > MAX_CHARS:
                raise BudgetExceeded(f"a concatenation longer than {MAX_CHARS:,}")
        return self.sized(super().call_binop(context, operator, left, right))

    def getattr(self, obj: Any, attribute: str) -> Any:
        self.tick()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        self.tick()
        return super().getitem(obj, argument)

    # ---- what the rewritten tree calls ----
    def _range(self, *args: int) -> Iterator[int]:
        self._check_args(args)
        return self._iter(range(*args))

    def _iter(self, iterable: Any) -> Iterator[Any]:
        for item in iterable:
            self.tick()
            yield item

    def _out(self, value: Any) -> Any:
        self.tick()
        self.emitted += len(str(value)) if isinstance(value, str) else 16
        if self.emitted > MAX_CHARS:
            raise BudgetExceeded(f"more than {MAX_CHARS:,} characters of output")
        return self.sized(value)

    def _literal(self, length: int) -> str:
        self._out("")
        self.emitted += length
        if self.emitted > MAX_CHARS:
            raise BudgetExceeded(f"more than {MAX_CHARS:,} characters of output")
        return ""

    def _guarded(self, func: Any) -> Any:
        @functools.wraps(func)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            self.tick()
            values = [a for a in args if not _is_context(a)]
            self._check_args([*values[1:], *kwargs.values()])  # the filtered value itself may be large
            if func.__name__ == "do_format" and values:
                self._check_format(values[0])
            return self.sized(func(*args, **kwargs))

        return guarded


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_context(value: Any) -> bool:
    return type(value).__name__ in ("Context", "EvalContext", "Environment", "BudgetSandbox")


def _check_repeat(seq: Any, times: Any) -> None:
    if isinstance(seq, str | list | tuple) and _int(times) and len(seq) * max(times, 0) > MAX_CHARS:
        raise BudgetExceeded(f"a repetition longer than {MAX_CHARS:,}")


def _call(name: str, arg: nodes.Expr, lineno: int) -> nodes.Call:
    call = nodes.Call(nodes.Name(name, "load"), [arg], [], None, None)
    return call.set_lineno(lineno)


def instrument(ast: nodes.Template) -> nodes.Template:
    """Route every loop and every emitted value of AST through the budget (AST is changed in place)."""
    for loop in list(ast.find_all(nodes.For)):
        loop.iter = _call(ITER, loop.iter, loop.lineno)
    for output in list(ast.find_all(nodes.Output)):
        literal = sum(len(n.data) for n in output.nodes if isinstance(n, nodes.TemplateData))
        output.nodes = [_call(LITERAL, nodes.Const(literal), output.lineno)] + [
            n if isinstance(n, nodes.TemplateData) else _call(OUT, n, output.lineno) for n in output.nodes
        ]  # literal text stays constant (jinja2 joins it at compile time); only its length is charged
    for concat in list(ast.find_all(nodes.Concat)):
        concat.nodes = [_call(OUT, n, concat.lineno) for n in concat.nodes]
    return ast


def render_bounded(text: str, **context: Any) -> str:
    """Compile and render TEXT in a fresh budgeted sandbox; the output is bounded too."""
    env = BudgetSandbox(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    template = env.from_string(instrument(env.parse(text)))
    return "".join(template.generate(**context))
