"""What the scored batch fresh-284 (a llama-server option with a request field, b11434) taught after scoring, with
the neighbourhood of each miss's check in b11434's tools/server source.

- request-field-wrong-type: server-context.cpp post_lora_adapters 'Request body must be an array' and server-schema.cpp's
  field 'lora' "Error: 'lora' must be an array of objects with 'id' and 'scale' fields" (older builds unquoted).
- slot-filename-not-bare (new): handle_slots_save / handle_slots_restore's fs_validate_filename, 'Invalid filename'.
- llamacpp-slot-id-invalid (new): post_slots' stoi and the slot tasks' get_slot_by_id, 'Invalid slot ID'.
- request-sampling-param-out-of-range: field_num's hard limit with float bounds ('0.000000 <= value <= 0.990000').
- request-prompt-empty: handle_embeddings_impl '"input" must not be empty', 'Input content cannot be empty'.
Messages are the source's format strings rendered with a value, as the reply body carries them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

START = (
    "$ llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --host 0.0.0.0 --port 8080 -np 2 --slot-save-path /srv/slots\n"
    "main: server is listening on http://0.0.0.0:8080\n"
)


def reply(path: str, body: str, message: str, code: int = 400) -> str:
    """A request as a user pastes it with the server's JSON refusal (format_error_response's shape)."""
    status = {400: "400 Bad Request", 500: "500 Internal Server Error"}[code]
    return (
        f"{START}# request: POST http://127.0.0.1:8080{path} {body}\nHTTP/1.1 {status}\n"
        f'{{"error":{{"code":{code},"message":"{message}","type":"invalid_request_error"}}}}\n'
    )


CASES = [
    # post_lora_adapters given a list's entry without the list, as the openai-less curl client shows it (rendered)
    (
        "request-field-wrong-type",
        reply("/lora-adapters", '{"id": 1, "scale": 1.0}', "Request body must be an array"),
    ),
    # the completion field 'lora' given one object (server-schema.cpp, rendered through handle_with_catch)
    (
        "request-field-wrong-type",
        reply(
            "/v1/chat/completions",
            '{"messages": [{"role": "user", "content": "hi"}], "lora": {"id": 0, "scale": 1}}',
            "Field 'lora': Error: 'lora' must be an array of objects with 'id' and 'scale' fields",
        ),
    ),
    # ... the older params_from_json_cmpl wording, unquoted, answered 500 by those builds
    (
        "request-field-wrong-type",
        reply(
            "/completion",
            '{"prompt": "hi", "lora": 0}',
            "Error: lora must be an array of objects with id and scale fields",
            500,
        ),
    ),
    # fs_validate_filename's other refusals: an absolute path on restore, a colon, a trailing dot (rendered)
    (
        "slot-filename-not-bare",
        reply("/slots/1?action=restore", '{"filename": "/srv/slots/chat.bin"}', "Invalid filename"),
    ),
    (
        "slot-filename-not-bare",
        reply("/slots/0?action=save", '{"filename": "c:chat.bin"}', "Invalid filename"),
    ),
    # the slot id: not a number, and past -np (post_slots' stoi, get_slot_by_id)
    (
        "llamacpp-slot-id-invalid",
        reply("/slots/first?action=save", '{"filename": "a.bin"}', "Invalid slot ID"),
    ),
    ("llamacpp-slot-id-invalid", reply("/slots/3?action=erase", "{}", "Invalid slot ID")),
    # field_num's hard limit on a float field (std::to_string's six decimals)
    (
        "request-sampling-param-out-of-range",
        reply(
            "/completion",
            '{"prompt": "hi", "adaptive_decay": 1.2}',
            "Field 'adaptive_decay': Value must be between 0.000000 <= value <= 0.990000, but got 1.200000",
        ),
    ),
    # handle_embeddings_impl's two empty inputs
    ("request-prompt-empty", reply("/v1/embeddings", '{"input": []}', '\\"input\\" must not be empty')),
    ("request-prompt-empty", reply("/embedding", '{"content": ""}', "Input content cannot be empty")),
]

NEAR_MISSES = [
    # 'Invalid filename' from something that is no slot request (a generic upload refusal): not the slot family
    (
        "slot-filename-not-bare",
        "# request: POST http://127.0.0.1:9000/upload\nHTTP/1.1 400 Bad Request\n"
        '{"error":{"code":400,"message":"Invalid filename","type":"invalid_request_error"}}\n',
    ),
    # a slot action the route does not know is the action's own refusal, not the slot id's
    ("llamacpp-slot-id-invalid", reply("/slots/0?action=load", '{"filename": "a.bin"}', "Invalid action")),
    # a restore of a file that is there but from another model is the state's, not the file name's
    (
        "slot-filename-not-bare",
        reply(
            "/slots/0?action=restore",
            '{"filename": "chat.bin"}',
            "Unable to restore slot: No available space in KV cache or invalid slot save file",
        ),
    ),
    # the json_value helper's warning for a lora entry's id of the wrong type drops it and answers 200: no refusal
    (
        "request-field-wrong-type",
        "W Wrong type supplied for parameter 'id', using default value: [json.exception.type_error.302] type must "
        'be number, but is string\n# request: POST http://127.0.0.1:8080/lora-adapters [{"id": "0"}]\n'
        'HTTP/1.1 200 OK\n{"success":true}\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
