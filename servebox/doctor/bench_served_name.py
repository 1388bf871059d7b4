"""A benchmark that asks for a model name the server does not serve: bench's name on one side, the server's on the other.

learn48c (fresh-425's fresh425-vllm-04-bench-serve-model-folder-served-name-set, read as request-refused-no-reason
0.30): vllm bench serve puts its --served-model-name, else its --model, in every request's body (vLLM 0.32
benchmarks/serve.py main_async), and shows a refused request only by its reason phrase ('Error 0: Not Found'); vLLM
answers 404 to a model it does not serve, with the reason ('The model `X` does not exist.') in a body bench never
prints. The log can still show both names: bench's (knowledge/clients.toml bench-model-named: its command line or its
Namespace) and the server's (server-served-names-shown: --served-model-name or the non-default args' served_model_name;
else server-model-tag-shown: the model as `vllm serve` was given it, which is then its only name). With bench's 404s
(bench-requests-refused-404) and a name the server does not list, the names are the cause: model-name-not-served.
Where the server's names are not shown the 404s alone suggest it (the other 404s, a doubled /v1 or an --endpoint the
server does not route, have their own reading), below the confident figures.
"""

from __future__ import annotations

import re

from servebox.doctor.bench_context import first_lines
from servebox.doctor.results import Diagnosis
from servebox.doctor.texts import answer_text

REFUSED, BENCH, SERVED, TAG = (
    "bench-requests-refused-404",
    "bench-model-named",
    "server-served-names-shown",
    "server-model-tag-shown",
)
NOT_SERVED = "model-name-not-served"
# a 404 that another reading explains: /v1 twice, an endpoint the backend does not speak
OTHER_404 = ("client-base-url-v1-doubled", "vllm-bench-backend-endpoint-mismatch")
BENCH_SERVED = re.compile(r"""(?:\s--served-model-name[= ]|\bserved_model_name=)['"]?(?P<name>[^\s'",)]+)""")
SERVER_NAMES = re.compile(r"""\s--served-model-name[= ](?P<names>(?:['"]?[^\s'",)-][^\s'",)]*['"]?\s*)+)""")
LISTED = re.compile(r"'([^']+)'")
CAUSE = answer_text("bench_served_name", "cause")
FIX = answer_text("bench_served_name", "fix")
GUESS_CAUSE = answer_text("bench_served_name", "guess_cause")
GUESS_FIX = answer_text("bench_served_name", "guess_fix")
SURE, GUESS = 0.8, 0.5


def _sent(bench) -> tuple[str, str]:
    """The name bench's requests carry and the flag it came from: --served-model-name over --model."""
    for _, text in bench.evidence:
        if (m := BENCH_SERVED.search(text)) is not None and m.group("name") != "None":
            return m.group("name"), "--served-model-name"
    return bench.groups.get("bench_model", ""), "--model"


def _served(t) -> tuple[list[str], int]:
    """The names the server answers to, and the line that shows them; ([], 0) where the log does not show them."""
    if (hit := t.hits.get(SERVED)) is not None:
        if listed := hit.groups.get("served_list"):
            return LISTED.findall(listed), hit.first_line
        for n, text in hit.evidence:
            if (m := SERVER_NAMES.search(text)) is not None:
                return [w.strip("'\"") for w in m.group("names").split()], n
        return [hit.groups["served"]], hit.first_line
    if (hit := t.hits.get(TAG)) is not None and hit.groups.get("tag"):
        return [hit.groups["tag"]], hit.first_line
    return [], 0


def bench_name_not_served(t) -> Diagnosis | None:
    """model-name-not-served where vllm bench serve's requests were refused with 404 and the name they carry is not
    one the server serves (0.8), or the server's names are not shown and nothing else explains the 404s (0.5)."""
    refused, bench = t.hits.get(REFUSED), t.hits.get(BENCH)
    if refused is None or bench is None or any(i in t.hits for i in OTHER_404):
        return None
    sent, flag = _sent(bench)
    if not sent:
        return None
    names, names_at = _served(t)
    if sent in names:
        return None  # the names agree: the 404 is something else
    shown = ", ".join(f"'{n}'" for n in names)
    if names:
        text = CAUSE.format(
            sent=sent,
            flag=flag,
            at=bench.first_line,
            names=shown,
            names_at=names_at,
            refused=refused.first_line,
        )
        fix = FIX.format(first=names[0], tokenizer=sent if "/" in sent else "MODEL_FOLDER")
        sure = SURE
    elif "--endpoint" in " ".join(text for _, text in bench.evidence):
        return None  # an --endpoint of its own may be the path the server lacks: the 404s alone do not say
    else:
        text = GUESS_CAUSE.format(sent=sent, flag=flag, at=bench.first_line, refused=refused.first_line)
        fix, sure = GUESS_FIX, GUESS
    hits = (bench, t.hits.get(SERVED) or t.hits.get(TAG), refused)
    return Diagnosis(
        id=NOT_SERVED,
        category="requests",
        role="cause",
        cause=text,
        fix=fix,
        confidence=sure,
        occurrences=refused.count,
        first_line=refused.first_line,
        evidence=first_lines(*hits),
        fatal=False,
    )
