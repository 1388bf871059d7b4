"""What learnvllm27 (stop 27, round 10) taught from TRAIN-side public vLLM threads: one case per family added or
widened, and near-misses that must not match.

Each log is written in another wording than its corpus log (other models, sizes, versions, paths), so the test checks
the family, not the one line it was learnt from. The corpus case (tests/fixtures/doctor-corpus/manifest.toml,
train = "learnvllm27") names the thread each family came from.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # mamba-cache-blocks-below-max-num-seqs (vllm-project/vllm#49064): vLLM config/compilation.py's refusal, another
    # hybrid model's numbers
    (
        "mamba-cache-blocks-below-max-num-seqs",
        "(EngineCore_DP0 pid=91) ValueError: max_num_seqs (512) exceeds available Mamba cache blocks (211). Each "
        "decode sequence requires one Mamba cache block, so CUDA graph capture cannot proceed. Please lower "
        "max_num_seqs to at most 211 or increase gpu_memory_utilization.\n",
    ),
    # memory-profiling-free-memory-grew (vllm-project/vllm#56830): the older 0.6-0.8 wording of the same assert
    (
        "memory-profiling-free-memory-grew",
        "AssertionError: Error in memory profiling. Initial free memory 21.3 GiB, current free memory 22.1 GiB. "
        "This happens when the GPU memory was not properly cleaned up before initializing the vLLM instance.\n",
    ),
    # torchvision-torch-mismatch (vllm-project/vllm-ascend#479): another op, the older torch.ops wording
    (
        "torchvision-torch-mismatch",
        "RuntimeError: No such operator torchvision::roi_align\n",
    ),
    # transformers-newer-than-engine (HabanaAI/vllm-fork#1680): the transformers 5 tokenizer attribute vLLM <= 0.11
    # reads (vllm/transformers_utils/tokenizer.py get_cached_tokenizer), another tokenizer class
    (
        "transformers-newer-than-engine",
        "(APIServer pid=1) AttributeError: LlamaTokenizer has no attribute all_special_tokens_extended. Did you "
        "mean: 'num_special_tokens_to_add'?\n",
    ),
    # numpy-abi-mismatch (vllm-project/vllm#34041): the older binary-incompatibility wording
    (
        "numpy-abi-mismatch",
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, "
        "got 88 from PyObject\n",
    ),
    # model-needs-attention-backend widened (vllm-project/vllm#6218): 0.5.3's wording, with the space
    (
        "model-needs-attention-backend",
        "ValueError: Please use Flashinfer backend for models with logits_soft_cap (i.e., Gemma-2). Otherwise, the "
        "output might be wrong. Set Flashinfer backend by export VLLM_ATTENTION_BACKEND=FLASHINFER.\n",
    ),
    # vllm-custom-op-missing (openreasoner/openr#28): another op namespace
    (
        "vllm-custom-op-missing",
        "AttributeError: '_OpNamespace' '_C_cache_ops' object has no attribute 'reshape_and_cache_flash'\n",
    ),
    # sliding-window-some-layers-unsupported (vllm-project/vllm#17306): Qwen2.5-7B's numbers, backticks
    (
        "sliding-window-some-layers-unsupported",
        "ValueError: Sliding window for some but all layers is not supported. This model uses sliding window but "
        "`max_window_layers` = 28 is less than `num_hidden_layers` = 28. Please open an issue to discuss this "
        "feature.\n",
    ),
    # chat-template-content-type-mismatch (QwenLM/Qwen3-Omni#41): vLLM's own log of the other direction
    (
        "chat-template-content-type-mismatch",
        "ERROR 04-08 07:13:28 [serving_chat.py:198] Error in preprocessing prompt inputs\n"
        'ERROR 04-08 07:13:28 [serving_chat.py:198] TypeError: can only concatenate str (not "list") to str\n'
        'INFO:     10.0.0.5:50122 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n',
    ),
    # hf-transfer-enabled-not-installed (vllm-project/vllm-omni#1264): on one line, from vllm serve
    (
        "hf-transfer-enabled-not-installed",
        "ValueError: Fast download using 'hf_transfer' is enabled (HF_HUB_ENABLE_HF_TRANSFER=1) but 'hf_transfer' "
        "package is not available in your environment. Try `pip install hf_transfer`.\n",
    ),
    # hub-xet-download-failed (vllm-project/vllm#18701): the retries-exhausted wording behind a firewall
    (
        "hub-xet-download-failed",
        "RuntimeError: Data processing error: CAS service error : ReqwestMiddleware Error: Request failed after 5 "
        "retries\n",
    ),
    # chat-template-rejects-request widened (mistralai/mistral-common#169): the last-role refusal, vLLM's log
    (
        "chat-template-rejects-request",
        "ERROR 06-19 07:36:24 [serving_chat.py:200] mistral_common.exceptions.InvalidMessageStructureException: "
        "Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant\n"
        'INFO:     172.17.0.1:40410 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n',
    ),
    # torch-too-old-for-engine (mistralai/mistral-inference#222): another torch API
    (
        "torch-too-old-for-engine",
        "AttributeError: module 'torch.library' has no attribute 'register_fake'\n",
    ),
    # triton-ptxas-newer-than-driver (triton-lang/triton#2971): from vLLM's fused_moe on a 515 driver
    (
        "triton-ptxas-newer-than-driver",
        "ERROR 06-20 10:00:00 worker_base.py:145]     self.module, self.function, self.n_regs, self.n_spills = "
        "driver.utils.load_binary(\n"
        "ERROR 06-20 10:00:00 worker_base.py:145] RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n",
    ),
    # compile-cache-corrupted (ray-project/ray#55929): vLLM 0.8's assert before PR #18956's message
    (
        "compile-cache-corrupted",
        "(VllmWorker rank=1 pid=191128) ERROR 05-28 18:58:32 [multiproc_executor.py:522] AssertionError: failed to "
        "get the hash of the compiled graph\n",
    ),
    # weights-corrupt widened (mit-han-lab/smoothquant#13): an HTML page saved as pytorch_model.bin
    (
        "weights-corrupt",
        "_pickle.UnpicklingError: invalid load key, '<'.\n",
    ),
    # lora-model-unsupported widened (vllm-project/vllm#3245, #16894): 0.3-0.6's and 0.7-0.10's wordings, other models
    (
        "lora-model-unsupported",
        "[rank0]: ValueError: Model QWenLMHeadModel does not support LoRA, but LoRA is enabled. Support for this "
        "model may be added in the future. If this is important to you, please open an issue on github.\n",
    ),
    (
        "lora-model-unsupported",
        "AssertionError: MolmoForCausalLM does not support LoRA yet.\n",
    ),
    # flash-attn-gpu-unsupported widened (junjie18/CMT#95): another list of architectures, on a V100
    (
        "flash-attn-gpu-unsupported",
        "RuntimeError: Expected is_sm90 || is_sm8x || is_sm75 to be true, but got false.  (Could this error message "
        "be improved?  If so, please report an enhancement request to PyTorch.)\n",
    ),
    # xformers-build-mismatch widened (facebookresearch/xformers#1191): the dispatcher's reason, the 'built' spelling
    (
        "xformers-build-mismatch",
        "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
        "     query       : shape=(1, 4096, 16, 80) (torch.float16)\n"
        "`cutlassF` is not supported because:\n"
        "    xFormers wasn't built with CUDA support\n",
    ),
    # mq-engine-heartbeat-timeout (tenstorrent/vllm#35): the RPC timeout wording of vLLM 0.6.2
    (
        "mq-engine-heartbeat-timeout",
        "ERROR 10-10 01:53:56 client.py:412] TimeoutError: Server didn't reply within 5000 ms\n",
    ),
]


test_the_family_names_the_cause, _ = family_tests(CASES)


def test_the_mamba_capping_warning_is_not_the_refusal():
    """Older releases cap the capture sizes and go on: a WARNING that names nothing fatal."""
    log = (
        "(EngineCore_DP0 pid=387) WARNING 03-08 16:44:29 [compilation.py:1233] Capping cudagraph capture sizes from "
        "max 512 to 352 to fit Mamba cache blocks (361 blocks available). This limits the maximum batch size that "
        "can use CUDA graphs. To increase this limit, reduce max_num_seqs or increase available GPU memory.\n"
        "INFO:     Application startup complete.\n"
    )
    top = top_cause(run(log))
    assert top is None or top.id != "mamba-cache-blocks-below-max-num-seqs"


def test_a_list_concatenation_outside_a_chat_request_is_not_the_template():
    """The TypeError alone (a script's own bug, no chat template or request around it) is not this family."""
    log = (
        '  File "/app/generate.py", line 1533, in get_generate_params\n'
        "    example += [chat, '', '']\n"
        'TypeError: can only concatenate str (not "list") to str\n'
    )
    top = top_cause(run(log))
    assert top is None or top.id != "chat-template-content-type-mismatch"


def test_a_full_disk_under_xet_stays_disk_full():
    log = "RuntimeError: Data processing error: CAS service error : IO Error: No space left on device (os error 28)\n"
    top = top_cause(run(log))
    assert top is not None and top.id == "disk-full"


def test_a_missing_custom_op_is_not_a_confident_answer():
    """The same words come from a wheel built for another torch and from a CPU build without the op: below 0.70."""
    top = top_cause(run("AttributeError: '_OpNamespace' '_C' object has no attribute 'rms_norm'\n"))
    assert top is not None and top.id == "vllm-custom-op-missing" and top.confidence < 0.70


def test_a_real_crash_outranks_the_heartbeat():
    """The client's 'Engine loop has died' follows any engine death: an OOM in the same log is the answer."""
    log = (
        "ERROR 11-04 12:53:05 engine.py:135] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
        "GPU 0 has a total capacity of 44.40 GiB of which 1.02 GiB is free.\n"
        "ERROR 11-04 12:53:08 client.py:250] RuntimeError('Engine loop has died')\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id != "mq-engine-heartbeat-timeout", top.id


def test_a_no_operator_error_for_its_inputs_stays_the_backend_reading():
    """Without 'wasn't build with CUDA support', the refusal is about the inputs (dtype, head size): not the build."""
    log = (
        "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
        "     query       : shape=(1, 1024, 8, 4, 128) (torch.float32)\n"
        "`cutlassF` is not supported because:\n"
        "    dtype=torch.float32 (supported: {torch.float16, torch.bfloat16})\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id != "xformers-build-mismatch", top.id
