"""What a chat template's analysis found, as data: kept apart from the analyser (checkpoint/template.py) so
that reading a Checkpoint does not import jinja2 (plan never looks at templates; a whole plan stays under 0.5 s)."""

# no `from __future__ import annotations`: pydantic builds its models faster from real annotations
from typing import Any

from pydantic import BaseModel


class TemplateVariable(BaseModel):
    name: str
    default: Any = None
    default_source: str | None = None  # how the default is set, e.g. "set if not defined" or "| default"
    branch_values: list[Any] = []
    truthiness_tested: bool = False  # `if x`, `x or ...`, `not x`: a true and a false branch
    lines: list[int] = []


class ReasoningMarkers(BaseModel):
    start: str
    end: str
    end_token_id: int | None
    end_is_eos: bool


class ChatTemplate(BaseModel):
    source: str
    chars: int
    variables: list[TemplateVariable]
    engine_variables: list[str]
    reasoning: ReasoningMarkers | None
    reasoning_default_on: bool | None
    eos_tokens: list[str]
    eos_token_ids: list[int]
    sample_render_ok: bool
    sample_render_error: str | None = None

    def variable(self, name: str) -> TemplateVariable | None:
        return next((v for v in self.variables if v.name == name), None)
