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
"""

from __future__ import annotations

from servebox.doctor.results import Diagnosis, Evidence

LENGTHS, CONTEXT, SLOT, REFUSED = (
    "bench-prompt-lengths-shown",
    "server-context-length-shown",
    "slot-size-shown",
    "bench-requests-refused-400",
)
LONGER = "request-longer-than-context"
CAUSE = (
    "The benchmark's requests are longer than the server's context: each asks for {inp} prompt tokens plus {out} new "
    "ones, {total} in all (line {at}), and the server holds {ctx} tokens per request (line {ctx_at}), so the server "
    "refused them with HTTP 400 ('Bad Request', line {refused}; the body that says so is not printed by the benchmark); "
    "the server is fine."
)
FIX = (
    "Give the benchmark lengths that fit: --random-input-len plus --random-output-len (or --input-len / --output-len) "
    "at most {ctx}, e.g. --random-input-len {fit_in} --random-output-len {fit_out}; or serve with a larger context "
    "(vLLM --max-model-len, llama-server -c per --parallel slot) if the model and memory allow it."
)
SURE = 0.8


def _number(hit, group: str) -> int:
    value = hit.groups.get(group) if hit is not None else None
    return int(value) if value and value.isdigit() else 0


def bench_over_context(t) -> Diagnosis | None:
    """request-longer-than-context where a benchmark's requests were refused with 400 and its prompt plus output
    lengths (their lower ends: every request) exceed the context the server's log shows; None otherwise."""
    lengths, refused = t.hits.get(LENGTHS), t.hits.get(REFUSED)
    if lengths is None or refused is None:
        return None
    context = t.hits.get(CONTEXT) or t.hits.get(SLOT)
    ctx = _number(context, "ctx") or _number(context, "slot")
    inp, out = _number(lengths, "inp"), _number(lengths, "out")
    if not ctx or inp + out <= ctx:
        return None
    fit_out = min(out, ctx // 4)
    text = CAUSE.format(
        inp=inp,
        out=out,
        total=inp + out,
        at=lengths.first_line,
        ctx=ctx,
        ctx_at=context.first_line,
        refused=refused.first_line,
    )
    return Diagnosis(
        id=LONGER,
        category="requests",
        role="cause",
        cause=text,
        fix=FIX.format(ctx=ctx, fit_in=ctx - fit_out, fit_out=fit_out),
        confidence=SURE,
        occurrences=refused.count,
        first_line=refused.first_line,
        evidence=[
            Evidence(line=h.first_line, text=h.evidence[0][1])
            for h in (lengths, context, refused)
            if h.evidence
        ],
        fatal=False,
    )
