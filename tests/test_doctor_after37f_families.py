"""What the scored batch fresh-249 (multimodal content parts to a text-only model on vLLM 0.32) taught after scoring,
with the neighbourhood of its miss's refusal in vLLM 0.32's own source.

- model-not-multimodal: config/model.py get_multimodal_config's 'The model is not multimodal.', which renderers/
  chat_utils.py parse_image_embeds / parse_audio_embeds / parse_video_embeds call before their own --enable-mm-embeds
  check: an embeds part to a text-only model is refused with these words whatever the flag.
- request-input-needs-server-flag keeps the '--enable-mm-embeds' / '--enable-prompt-embeds' refusals (a multimodal
  model started without the flag; prompt_embeds to any model): the near misses below.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
ACCESS = 'INFO:     127.0.0.1:50412 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'

CASES = [
    # parse_audio_embeds on a text-only model (the same get_multimodal_config call): the API server's error log line
    (
        "model-not-multimodal",
        "(APIServer pid=4242) ERROR 12-05 10:00:00 [serving.py:300] Error in preprocessing prompt inputs\n"
        "(APIServer pid=4242) ERROR 12-05 10:00:00 [serving.py:300] Traceback (most recent call last):\n"
        '(APIServer pid=4242) ERROR 12-05 10:00:00 [serving.py:300]   File "/opt/venv/lib/python3.12/site-packages/'
        'vllm/config/model.py", line 1808, in get_multimodal_config\n'
        "(APIServer pid=4242) ERROR 12-05 10:00:00 [serving.py:300] ValueError: The model is not multimodal.\n"
        + ACCESS,
    ),
    # parse_video_embeds through the Python API (LLM.chat with a video_embeds part; rendered)
    (
        "model-not-multimodal",
        "Traceback (most recent call last):\n"
        '  File "/home/me/run.py", line 12, in <module>\n'
        "    outs = llm.chat(messages)\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/renderers/chat_utils.py", line 1194, in '
        "parse_video_embeds\n"
        "    mm_config = self.model_config.get_multimodal_config()\n"
        "ValueError: The model is not multimodal.\n",
    ),
    # the sibling the batch's other 9 cases drew (multimodal/registry.py create_processor, a served model name)
    (
        "model-not-multimodal",
        "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(msg="meta-llama/Llama-3.2-1B-Instruct is not a multimodal model", param="null"),
    ),
]

NEAR_MISSES = [
    # a multimodal model started without --enable-mm-embeds: the flag's refusal, not a text-only model (rendered from
    # parse_image_embeds' VLLMValidationError with its parameter)
    (
        "model-not-multimodal",
        "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(
            msg="You must set `--enable-mm-embeds` to input `image_embeds` (parameter=image_embeds)",
            param='"image_embeds"',
        ),
    ),
    # prompt_embeds without --enable-prompt-embeds (fresh-249's other miss, adjudicated by the lead)
    (
        "model-not-multimodal",
        "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(
            msg="You must set `--enable-prompt-embeds` to input `prompt_embeds` (parameter=prompt_embeds)",
            param='"prompt_embeds"',
        ),
    ),
    # processing/context.py get_mm_config's RuntimeError: only a multimodal model's own processor reaches it (a
    # processor bug, not a request to a text-only model), so the family does not take it
    (
        "model-not-multimodal",
        "(EngineCore_DP0 pid=77) RuntimeError: Not a multimodal model\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_mm_embeds_flag_refusal_names_the_flag():
    """A multimodal model without --enable-mm-embeds stays request-input-needs-server-flag (its fix: the flag)."""
    assert_named(
        "request-input-needs-server-flag",
        "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(
            msg="You must set `--enable-mm-embeds` to input `audio_embeds` (parameter=audio_embeds)",
            param='"audio_embeds"',
        ),
    )


def test_prompt_embeds_flag_refusal_names_the_flag():
    """fresh-249's prompt_embeds case, in another wording (the period of renderers/base.py's form)."""
    assert_named(
        "request-input-needs-server-flag",
        "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(msg="You must set `--enable-prompt-embeds` to input `prompt_embeds`.", param="null"),
    )
