"""What stop 23's unseen batches taught after they were scored (fresh-17 on the H200, fresh-18/18b/19/19b public):
each family on lines other than the corpus excerpts, and the readings it must not take."""

from __future__ import annotations

import io

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream
from tests.doctor_text import run, top_cause

ARCH = "ValueError: Cannot find model module. 'Qwen9ForCausalLM' is not a registered model in the Transformers library (only relevant if the model is meant to be in Transformers) and 'AutoModel' is not present in the model config's 'auto_map' (relevant if the model is custom)."


def top(text: str):
    return top_cause(run(text))


def test_transformers_wording_without_the_flag_is_an_architecture_this_vllm_lacks():
    # after28c (stop 28): the same line also follows a custom model whose auto_map lacks AutoModel (fresh-56's
    # MiniMind), so the reading that names both (upgrade for a published model) answers it, below confident
    d = top(ARCH + "\n")
    assert d.id == "custom-model-auto-map-lacks-automodel" and "Qwen9ForCausalLM" in d.cause
    assert d.confidence < CONFIDENT and "upgrade the engine" in d.fix


def test_transformers_wording_with_the_flag_is_the_flag():
    args = "(APIServer pid=7) INFO 12-03 10:00:00 [utils.py:253] non-default args: {'model': '/m', 'model_impl': 'transformers'}\n"
    assert top(args + ARCH + "\n").id == "transformers-impl-unavailable"


def test_automodel_refusal_counts_only_after_vllms_own_fallback_line():
    refusal = "ERROR 03-13 03:20:24 engine.py:400] Unrecognized configuration class <class 'transformers.models.x.configuration_x.XConfig'> for this kind of AutoModel: AutoModel.\n"
    fell_back = "XForCausalLM has no vLLM implementation, falling back to Transformers implementation. Some features may not be supported.\n"
    d = top(fell_back + refusal)
    assert d.id == "unknown-architecture" and d.confidence < CONFIDENT
    assert "unknown-architecture" not in {d.id for d in triage_stream(io.StringIO(refusal), "t").diagnoses}


def test_fa_version_refusal_explains_the_bare_assertion_after_it():
    d = top(
        "ERROR 02-17 20:51:49 flash_attn.py:152] Cannot use FA version 2 is not supported due to FA2 is only supported on devices with compute capability >= 8\n"
        "ERROR 02-17 20:51:49 core.py:210] EngineCore hit an exception: Traceback (most recent call last):\n"
        'ERROR 02-17 20:51:49 core.py:210]   File "/x/vllm/v1/attention/backends/flash_attn.py", line 156, in __init__\n'
        "ERROR 02-17 20:51:49 core.py:210]     assert is_fa_version_supported(self.fa_version)\n"
        "ERROR 02-17 20:51:49 core.py:210] AssertionError\n"
    )
    assert d.id == "flash-attn-gpu-unsupported" and "compute capability >= 8" in d.cause


def test_an_app_spawning_a_missing_engine_binary():
    assert top("Error: spawn llama-server ENOENT\n").id == "engine-binary-missing"
    assert (
        top("failed to spawn /opt/bin/llama-server: no such file or directory\n").id
        == "engine-binary-missing"
    )


def test_go_resolver_failure_names_the_host_and_the_resolver():
    d = top(
        'Error: Get "https://huggingface.co/api/models": dial tcp: lookup huggingface.co on 127.0.0.53:53: server misbehaving\n'
    )
    assert d.id == "machine-dns-lookup-failed" and "huggingface.co" in d.cause and "127.0.0.53:53" in d.cause
    d = top("dial tcp: lookup registry.example: no such host\n")
    assert d.id == "machine-dns-lookup-failed" and "the machine's resolver" in d.cause


def test_pip_with_no_such_release_and_a_source_tree_shadowing_vllm():
    d = top(
        "ERROR: Could not find a version that satisfies the requirement vllm==9.9.9 (from versions: 0.1.0)\n"
    )
    assert d.id == "pip-version-not-found" and "vllm==9.9.9" in d.cause
    d = top("ImportError: cannot import name '_C' from 'vllm' (/home/u/src/vllm/vllm/__init__.py)\n")
    assert d.id == "engine-package-shadowed-by-source-tree"


def test_unlicensed_vgpu_and_an_invalid_kernel_image():
    assert top("RuntimeError: CUDA error: cudaErrorDeviceNotLicensed\n").id == "vgpu-not-licensed"
    d = top("HIP error: device kernel image is invalid\n")
    assert d.id == "gpu-kernel-image-invalid" and d.confidence < CONFIDENT and "HIP" in d.cause


def test_unquoted_json_keys_name_both_readings():
    d = top(
        "main.py serve: error: argument --hf-overrides: Value {max_position_embeddings: 65536} cannot be converted to <function loads at 0x7f>.\n"
    )
    # after34t (s34): argparse's echo alone is the value as typed (cli-invalid-json); the quotes-stripped reading needs
    # a shell or unit in the log
    assert (
        d.id == "cli-invalid-json" and "max_position_embeddings" in d.cause and "double-quoted keys" in d.fix
    )


def test_vllm_serve_given_again_after_an_image_whose_entrypoint_is_vllm_serve():
    d = top("vllm: error: unrecognized arguments: serve /models/Qwen3-8B --port 8000\n")
    assert d.id == "vllm-image-entrypoint-given-command"
    # a flag typo is not the image's entrypoint
    assert (
        top("vllm: error: unrecognized arguments: --max-model-lenn 512\n").id == "cli-unrecognized-argument"
    )


def test_a_source_tree_import_is_not_read_as_a_plugin_for_another_release():
    r = run(
        "ImportError: cannot import name 'cuda_utils' from partially initialized module 'vllm' (most likely due to a circular import)\n"
        "ImportError: cannot import name 'activation_ops' from 'vllm'\n"
    )
    assert [d.id for d in r.diagnoses if d.role == "cause"] == ["engine-package-shadowed-by-source-tree"]


def test_a_missing_symbol_outside_a_python_extension_is_only_a_hint():
    d = top(
        "/usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9: undefined symbol: cudnnGraphFoo, version libcudnn_graph.so.9\n"
    )
    assert d.id == "extension-abi-mismatch" and d.confidence < CONFIDENT and "mixed" in d.cause
    d = top(
        "ImportError: /v/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c10\n"
    )
    assert d.confidence >= CONFIDENT and "torch" in d.cause


def test_an_orderly_stop_is_said_as_a_note_not_as_no_known_signature():
    r = run(
        "(APIServer pid=6) WARNING 12-03 17:04:28 [system_utils.py:299] Found ulimit of 20000 and failed to automatically increase\n"
        "(EngineCore pid=8) INFO 12-03 17:06:05 [core.py:1313] [shutdown] EngineCore: trigger received signal=SIGTERM\n"
        "(EngineCore pid=8) INFO 12-03 17:06:05 [core.py:1441] [shutdown] EngineCore: aborting in-flight requests count=1\n"
    )
    assert r.verdict == "no failure" and not r.fatal and top_cause(r) is None
    assert [d.id for d in r.diagnoses] == ["shutdown-requested"] and r.diagnoses[0].role == "note"


def test_vllm_026_request_refusals_by_their_own_wordings():
    d = top(
        '{"error":{"message":"max_tokens=8192 cannot be greater than max_model_len=max_total_tokens=4096. Please request fewer output tokens."}}\n'
    )
    assert d.id == "request-longer-than-context" and not d.fatal
    d = top('{"error":{"message":"n must be at least 1, got 0.","type":"BadRequestError"}}\n')
    assert d.id == "request-sampling-param-out-of-range" and "got 0" in d.cause


def test_an_incident_after_an_asked_for_stop_says_note_not_symptom():
    from servebox.serve.incidents import cause_of, diagnose, summary  # noqa: PLC0415

    d = diagnose(
        "m",
        "(EngineCore pid=8) INFO 12-03 17:06:05 [core.py:1313] [shutdown] EngineCore: trigger received signal=SIGTERM",
    )
    assert cause_of(d) is None and summary(d).startswith("no known cause; note: An orderly stop")


def test_an_environment_line_with_a_quote_left_open_is_bad_quoting():
    d = top('/etc/systemd/system/vllm.service:12: Invalid syntax, ignoring: "HF_HOME=/srv/hf\n')
    assert d.id == "systemd-bad-quoting"
    # balanced quotes in an invalid setting stay a bad value
    assert (
        top('/etc/systemd/system/vllm.service:12: Invalid syntax, ignoring: "A=1" B\n').id
        == "systemd-bad-value"
    )


def test_binding_an_address_the_machine_lacks_and_the_same_errno_on_connect():
    d = top("Error: listen tcp 10.9.9.9:8080: bind: cannot assign requested address\n")
    assert d.id == "bind-address-not-on-machine"
    r = run(
        "urllib3.exceptions.NewConnectionError: Failed to establish a new connection: [Errno 99] Cannot assign requested address\n"
    )
    assert "bind-address-not-on-machine" not in {d.id for d in r.diagnoses}


def test_an_unknown_logging_level_is_vllm_logging_level_only_under_vllms_logger():
    tb = "  File \"/v/vllm/logger.py\", line 277, in _configure_vllm_root_logger\nValueError: Unknown level: 'VERBOSE'\n"
    d = top(tb)
    assert d.id == "vllm-env-invalid-choice" and "VLLM_LOGGING_LEVEL" in d.cause and "?" not in d.fix
    assert "vllm-env-invalid-choice" not in {
        d.id for d in run("ValueError: Unknown level: 'LOUD'\n").diagnoses
    }
