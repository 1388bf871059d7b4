"""A benchmark whose requests are longer than the server's context: the lengths on one side, the context on the other.

learn40e (fresh-290's fresh290-client-vllm-bench-random-input-1024-max-model-len-512): vllm bench serve shows only the
reason phrase of a refused request ('Error 0: Bad Request'), and vLLM's access log only the status, so no line says why
every request was refused. The log does show both numbers that do: the benchmark's prompt and output lengths
(knowledge/clients.toml bench-prompt-lengths-shown: its 'Sampling input_len from [LOW, HIGH] and output_len from
[LOW, HIGH]' line or its command line) and the server's context (server-context-length-shown: vLLM's --max-model-len,
its non-default args, its engine line; slot-size-shown: llama-server's n_ctx_slot). A request of prompt + max_tokens
above the context is refused with 400 by both engines (vLLM's 'This model's maximum context length is N tokens',
llama-server's 'the request exceeds the available context size'), so with the benchmark's 400s in the log
(bench-requests-refused-400) the lengths name the cause: request-longer-than-context.

learn48d (fresh-422's fresh422-client-vllm-bench-random-256-out-512-max-model-len-512): vLLM 0.32 does not refuse
every such request: where the prompt alone fits, it cuts max_tokens to the context left (max_model_len - prompt), answers
200, and bench counts each request successful. Its result table then shows the cut by its own figures: 'Total generated
tokens' is the sum of each request's output tokens (benchmarks/serve.py calculate_metrics: output_len from the
response's usage or its text re-tokenized), below 'Successful requests' x the output length asked. So with no 400 in the
log, lengths above the context and fewer tokens generated than asked name the same cause, the requests cut (their
figures describe a lighter load than asked). Before its run bench also probes the server's /tokenize to align its
prompts and, refused, only warns 'WARNING: /tokenize unavailable, skipping alignment.' (serve.py): that 404 is bench's own
optional probe, not a request the user sent, so it is no refusal to report (probe_aside).
"""

from __future__ import annotations

from servebox.doctor.results import Diagnosis, Evidence
from servebox.doctor.texts import answer_text

LENGTHS, CONTEXT, SLOT, REFUSED = (
    "bench-prompt-lengths-shown",
    "server-context-length-shown",
    "slot-size-shown",
    "bench-requests-refused-400",
)
LONGER = "request-longer-than-context"
CAUSE = answer_text("bench_context", "cause")
FIX = answer_text("bench_context", "fix")
CUT_CAUSE = answer_text("bench_context", "cut_cause")
SURE = 0.8
SUCCEEDED, GENERATED, PROBE = (
    "bench-successful-requests-shown",
    "bench-generated-tokens-shown",
    "bench-tokenize-probe",
)
PROBED_PATHS = ("/tokenize", "/detokenize")


def first_lines(*hits) -> list[Evidence]:
    """Each matched entry's first line, the evidence a benchmark reading shows (entries that did not match left out);
    shared by bench_context, bench_served_name and bench_too_early."""
    return [Evidence(line=h.first_line, text=h.evidence[0][1]) for h in hits if h is not None and h.evidence]


def _longer(text: str, ctx: int, out: int, occurrences: int, at: int, hits: tuple) -> Diagnosis:
    """request-longer-than-context, not fatal: the server kept serving (it refused or cut each request)."""
    fit_out = min(out, ctx // 4)
    return Diagnosis(
        id=LONGER,
        category="requests",
        role="cause",
        cause=text,
        fix=FIX.format(ctx=ctx, fit_in=ctx - fit_out, fit_out=fit_out),
        confidence=SURE,
        occurrences=occurrences,
        first_line=at,
        evidence=first_lines(*hits),
        fatal=False,
    )


def _number(hit, group: str) -> int:
    value = hit.groups.get(group) if hit is not None else None
    return int(value) if value and value.isdigit() else 0


def bench_over_context(t) -> Diagnosis | None:
    """request-longer-than-context where a benchmark's requests were refused with 400 and its prompt plus output
    lengths (their lower ends: every request) exceed the context the server's log shows; None otherwise."""
    lengths, refused = t.hits.get(LENGTHS), t.hits.get(REFUSED)
    if lengths is None:
        return None
    context = t.hits.get(CONTEXT) or t.hits.get(SLOT)
    ctx = _number(context, "ctx") or _number(context, "slot")
    inp, out = _number(lengths, "inp"), _number(lengths, "out")
    if not ctx or inp + out <= ctx:
        return None
    if refused is None:
        return _cut(t, lengths, context, inp, out, ctx)
    text = CAUSE.format(
        inp=inp,
        out=out,
        total=inp + out,
        at=lengths.first_line,
        ctx=ctx,
        ctx_at=context.first_line,
        refused=refused.first_line,
    )
    return _longer(text, ctx, out, refused.count, refused.first_line, (lengths, context, refused))


def _cut(t, lengths, context, inp: int, out: int, ctx: int) -> Diagnosis | None:
    """request-longer-than-context where nothing was refused but bench's totals show fewer tokens generated than its
    successful requests asked for: vLLM cut each answer at the context's end."""
    ok_hit, gen_hit = t.hits.get(SUCCEEDED), t.hits.get(GENERATED)
    ok, gen = _number(ok_hit, "ok"), _number(gen_hit, "gen")
    if not ok or gen >= ok * out:
        return None
    text = CUT_CAUSE.format(
        inp=inp, out=out, total=inp + out, at=lengths.first_line, ctx=ctx, ctx_at=context.first_line,
        ok=ok, gen=gen, gen_at=gen_hit.first_line, asked=ok * out,
    )  # fmt: skip
    return _longer(text, ctx, out, ok, gen_hit.first_line, (lengths, context, gen_hit))


def probe_aside(t, diagnoses: list[Diagnosis]) -> None:
    """Drop a refusal whose every line is bench's own /tokenize or /detokenize probe, where bench said it skipped
    alignment: an optional probe the server does not offer, not a request the user's run needed."""
    if PROBE not in t.hits:
        return
    probe_only = [
        d
        for d in diagnoses
        if d.id.startswith("request-refused")
        and d.evidence
        and all(any(f"POST {path} " in e.text for path in PROBED_PATHS) for e in d.evidence)
    ]
    for d in probe_only:
        diagnoses.remove(d)
