"""What the measured batches fresh-523, fresh-525 and fresh-527 taught learn55f.

- remote-code-config-class-requires-absent-key (fresh-523 draw 9, new: there): a checkpoint's own configuration class
  (configuration_*.py named by auto_map, run with --trust-remote-code) reads a key config.json lacks, with no default:
  KeyError (kwargs.pop / kwargs[...]) or AttributeError ("'XConfig' object has no attribute 'k'") raised in the copy
  under transformers_modules/, which vLLM 0.32's repo_utils.with_retry logs first as "Error parsing config for PATH:
  'k', retrying 1 of 2". The opposite (a key config.json has, refused) stays remote-code-config-class-rejects-config-keys;
  a KeyError in vLLM's own config code is not the checkpoint's.
- tokenizer-config-padding-side-invalid (fresh-525 draw 1, new: there): transformers' PreTrainedTokenizerBase.__init__
  refuses a padding_side (or truncation_side) other than 'right' / 'left' ("Padding side should be selected between
  'right' and 'left', current value: middle").
- blocking_unit_line.py (fresh-527 draw 9, and fresh-358 draw 10, a known miss since learn43g): an IPAddressAllow=
  line systemd ignored beside IPAddressDeny=any (nothing gets through under the unit), or a ReadWritePaths= ignored
  beside ProtectSystem=strict, comes before the hand run's refused request; an ignored line that changes nothing
  (MemoryMax=120%) still comes after it (stop 47).
The logs are written here from vLLM 0.32's, transformers 5's and systemd 252's own wordings, with other values than the
batches'.
"""

from __future__ import annotations

from tests.doctor_text import answer_ids, run, top_cause

ABSENT = "remote-code-config-class-requires-absent-key"
REJECTS = "remote-code-config-class-rejects-config-keys"
PADDING = "tokenizer-config-padding-side-invalid"
CONFIDENT = 0.7

VLLM_HEAD = (
    "(APIServer pid=4410) INFO 03-02 10:01:12 [api_utils.py:286] non-default args: {{'model_tag': '{model}',"
    " 'trust_remote_code': True, 'max_model_len': 4096}}\n"
)
CONFIG_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/srv/venv/bin/vllm", line 10, in <module>\n'
    "    sys.exit(main())\n"
    '  File "/srv/venv/lib/python3.12/site-packages/vllm/transformers_utils/config.py", line 399, in parse\n'
    "    config = AutoConfig.from_pretrained(\n"
    '  File "/srv/venv/lib/python3.12/site-packages/transformers/configuration_utils.py", line 946, in from_dict\n'
    "    config = cls(**config_dict)\n"
)


def remote_config_log(key: str, frame_file: str, source: str, exc: str, model: str = "/models/glm-9b") -> str:
    """A vLLM 0.32 start whose config parse failed in `frame_file` with `exc`, its retry lines first."""
    return (
        VLLM_HEAD.format(model=model)
        + f"(APIServer pid=4410) ERROR 03-02 10:01:13 [repo_utils.py:126] Error parsing config for {model}: "
        f"'{key}', retrying 1 of 2\n"
        f"(APIServer pid=4410) ERROR 03-02 10:01:15 [repo_utils.py:124] Error parsing config for {model}: '{key}'\n"
        + CONFIG_FRAMES
        + f'  File "{frame_file}", line 31, in __init__\n'
        + f"    {source}\n"
        + f"{exc}\n"
    )


MODULES = (
    "/home/ops/.cache/huggingface/modules/transformers_modules/glm-9b/5d1c0e9f77aa2b31/configuration_glm.py"
)
POPS = remote_config_log(
    "seq_length", MODULES, 'self.seq_length = kwargs["seq_length"]', "KeyError: 'seq_length'"
)
ATTR = remote_config_log(
    "padded_vocab_size",
    MODULES,
    "self.vocab_size = self.padded_vocab_size",
    "AttributeError: 'ChatGLMConfig' object has no attribute 'padded_vocab_size'",
)
# a script of transformers 4.x (no vLLM retry lines; 4.x's folder names the repo and revision)
SCRIPT = (
    "Traceback (most recent call last):\n"
    '  File "/home/ops/load.py", line 4, in <module>\n'
    '    cfg = AutoConfig.from_pretrained("THUDM/chatglm3-6b", trust_remote_code=True)\n'
    '  File "/usr/lib/python3/site-packages/transformers/configuration_utils.py", line 771, in from_dict\n'
    "    config = cls(**config_dict)\n"
    '  File "/root/.cache/huggingface/modules/transformers_modules/THUDM/chatglm3-6b/a5ba5501/'
    'configuration_chatglm.py", line 40, in __init__\n'
    '    self.rope_ratio = kwargs.pop("rope_ratio")\n'
    "KeyError: 'rope_ratio'\n"
)
# near miss: a KeyError in vLLM's own config code, not the checkpoint's
VLLM_OWN = remote_config_log(
    "rope_type",
    "/srv/venv/lib/python3.12/site-packages/vllm/transformers_utils/config.py",
    'rope_type = rope_parameters["rope_type"]',
    "KeyError: 'rope_type'",
)
# near miss: the sibling, a key config.json HAS that the class refuses
REFUSED_KEY = (
    VLLM_HEAD.format(model="/models/glm-9b")
    + "(APIServer pid=4410) ERROR 03-02 10:01:15 [repo_utils.py:124] Error parsing config for /models/glm-9b: "
    "GlmConfig.__init__() got an unexpected keyword argument 'torch_dtype'\n"
)


def test_a_key_the_remote_config_pops_is_named_with_its_fix():
    top = top_cause(run(POPS))
    assert top.id == ABSENT and top.confidence >= CONFIDENT, [
        (d.id, d.confidence) for d in run(POPS).diagnoses
    ]
    assert "'seq_length'" in top.cause and "configuration_glm.py" in top.cause
    assert '"seq_length"' in top.fix and "config.json" in top.fix


def test_an_attribute_the_remote_config_reads_is_the_same_family():
    top = top_cause(run(ATTR))
    assert top.id == ABSENT and "'padded_vocab_size'" in top.cause


def test_a_transformers_4_script_without_vllm_lines():
    top = top_cause(run(SCRIPT))
    assert top.id == ABSENT and "rope_ratio" in top.fix


def test_a_keyerror_in_vllms_own_config_code_is_not_the_checkpoints():
    assert ABSENT not in answer_ids(VLLM_OWN)


def test_a_key_the_class_refuses_stays_the_sibling():
    ids = answer_ids(REFUSED_KEY)
    assert ids[0] == REJECTS and ABSENT not in ids


TOKENIZER_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/srv/venv/lib/python3.12/site-packages/vllm/tokenizers/hf.py", line 181, in from_pretrained\n'
    "    tokenizer = AutoTokenizer.from_pretrained(\n"
    '  File "/srv/venv/lib/python3.12/site-packages/transformers/tokenization_utils_base.py", line 1055, in __init__\n'
    "    raise ValueError(\n"
)


def test_padding_side_refused_names_the_file_and_the_field():
    log = (
        TOKENIZER_FRAMES
        + "ValueError: Padding side should be selected between 'right' and 'left', current value: Left\n"
    )
    top = top_cause(run(log))
    assert top.id == PADDING and top.confidence >= CONFIDENT
    assert "tokenizer_config.json" in top.cause and '"padding_side": "Left"' in top.cause
    assert '"left" or "right"' in top.fix and "delete the key" in top.fix


def test_truncation_side_refused_by_a_converter_names_truncation_side():
    log = (
        "$ python convert_hf_to_gguf.py /models/tiny --outfile tiny.gguf\n"
        "INFO:hf-to-gguf:Loading model: tiny\n"
        "ValueError: Truncation side should be selected between 'right' and 'left', current value: None\n"
    )
    top = top_cause(run(log))
    assert top.id == PADDING and '"truncation_side": "None"' in top.cause


def test_a_tokenizer_repr_with_its_sides_is_healthy():
    log = (
        "LlamaTokenizerFast(name_or_path='/models/tiny', vocab_size=32000, padding_side='left', "
        "truncation_side='left', special_tokens={'bos_token': '<s>'})\n"
    )
    assert PADDING not in answer_ids(log)


def test_a_special_token_of_the_wrong_type_stays_its_own_family():
    log = (
        TOKENIZER_FRAMES
        + "TypeError: Special token eos_token has to be either str or AddedToken but got: <class 'int'>\n"
    )
    assert answer_ids(log)[0] == "tokenizer-config-field-wrong-type"


def unit(sandbox: str) -> str:
    """A vllm.service shown with cat, with the sandbox lines under test."""
    return (
        "$ cat /etc/systemd/system/vllm.service\n[Service]\nUser=vllm\n"
        + sandbox
        + "ExecStart=/opt/vllm/bin/vllm serve /opt/models/qwen --port 8000\n"
    )


def verify(message: str) -> str:
    return (
        "$ systemd-analyze verify /etc/systemd/system/vllm.service\n"
        f"/etc/systemd/system/vllm.service:5: {message}\n# exit: 0\n"
    )


HAND_RUN = (
    "$ /opt/vllm/bin/vllm serve /opt/models/qwen --port 8000\n"
    "(APIServer pid=900) INFO 03-02 11:00:01 [entry.py:136] Supported tasks: ['generate']\n"
    "(APIServer pid=900) INFO 03-02 11:00:01 [entry.py:140] Starting vLLM server on http://0.0.0.0:8000\n"
    "INFO:     Application startup complete.\n"
    'INFO:     127.0.0.1:40112 - "POST /v1/completions HTTP/1.1" 400 Bad Request\n'
    "HTTP/1.1 400 Bad Request\n"
    '{"error":{"message":"top_p must be in (0, 1], got 2.0. (parameter=top_p, value=2.0)","type":"BadRequestError",'
    '"param":"top_p","code":400}}\n'
)
ALLOW_IGNORED = "Address prefix is invalid, ignoring assignment: 10.0.0.0/8;127.0.0.0/8"


def test_an_ignored_allow_list_beside_deny_any_comes_before_the_hand_runs_refusal():
    log = (
        unit("IPAddressDeny=any\nIPAddressAllow=10.0.0.0/8;127.0.0.0/8\n") + verify(ALLOW_IGNORED) + HAND_RUN
    )
    causes = [d for d in run(log).diagnoses if d.role == "cause"]
    assert [d.id for d in causes[:2]] == ["systemd-bad-value", "request-sampling-param-out-of-range"], causes
    assert causes[0].confidence >= causes[1].confidence and causes[0].confidence < CONFIDENT


def test_securitys_verdict_alone_says_nothing_gets_through():
    security = (
        "$ systemd-analyze security --offline=yes /etc/systemd/system/vllm.service\n"
        "✓ IPAddressDeny=                                              Service blocks all IP address ranges\n"
    )
    log = verify(ALLOW_IGNORED) + security + HAND_RUN
    assert answer_ids(log)[0] == "systemd-bad-value"


def test_a_valid_allow_line_beside_the_ignored_one_keeps_the_refusal_first():
    log = (
        unit("IPAddressDeny=any\nIPAddressAllow=127.0.0.1\nIPAddressAllow=10.0.0.0/8;127.0.0.0/8\n")
        + verify(ALLOW_IGNORED)
        + HAND_RUN
    )
    assert answer_ids(log)[0] == "request-sampling-param-out-of-range"


def test_an_ignored_read_write_path_under_protect_system_strict_comes_first():
    log = (
        unit("ProtectSystem=strict\nReadWritePaths=~/.cache/huggingface\n")
        + verify("ReadWritePaths= path is not absolute, ignoring: ~/.cache/huggingface")
        + HAND_RUN
    )
    assert answer_ids(log)[0] == "systemd-bad-value"


def test_an_ignored_line_that_changes_nothing_stays_after_the_refusal():
    log = (
        unit("MemoryMax=120%\n")
        + verify("Invalid memory limit '120%', ignoring: Numerical result out of range")
        + HAND_RUN
    )
    ids = answer_ids(log)
    assert ids[0] == "request-sampling-param-out-of-range", ids


def test_an_older_systemds_wording_of_the_ignored_prefix():
    log = (
        unit("IPAddressDeny=any\nIPAddressAllow=127.0.0.1:8000\n")
        + verify("Failed to parse IP address prefix, ignoring assignment: 127.0.0.1:8000")
        + HAND_RUN
    )
    assert answer_ids(log)[0] == "systemd-bad-value"
