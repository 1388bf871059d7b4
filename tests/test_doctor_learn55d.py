"""What the measured batch fresh-526 (llama-server, old ground, round 22) taught learn55d.

- llamacpp-logit-bias-token-out-of-vocab (knowledge/llama-server-checks.toml): a --logit-bias (-l, a preset's
  logit-bias) naming a token id the model's vocabulary lacks (negative, or at / above n_vocab). llama.cpp b11434 checks
  it only with backend sampling: llama_sampler_logit_bias_backend_set_input's 'GGML_ASSERT(lb.token >= 0 && lb.token <
  (int32_t) sctx->n_vocab)' aborts at the warm-up decode (--backend-sampling / -bs at start) or at the first request
  that asks "backend_sampling": true. Without it the CPU sampler skips the id without a word (fresh-403: healthy), and
  a request's own logit_bias ids outside the vocabulary are dropped by server-schema.cpp (healthy). fresh-526's draw 10
  (--logit-bias 5000+2 --backend-sampling) was read as llamacpp-feature-defect 0.52 at first contact.
The logs are written from runs of the real llama-server b11434 on the tiny GGUF made here (learn55d: --logit-bias
9000-1.5 -bs, -l -3+1 -bs, --logit-bias 9000+1 with a backend_sampling request; near misses 15+2 -bs and a request's
[[9000, 2.0]] with -bs, both answered 200), with other paths, ports and values; the other sampler asserts are
src/llama-sampler.cpp's own lines.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

FAMILY = "llamacpp-logit-bias-token-out-of-vocab"
SRC = "/home/ci/llama.cpp/src/llama-sampler.cpp"
ASSERT = f"{SRC}:3995: GGML_ASSERT(lb.token >= 0 && lb.token < (int32_t) sctx->n_vocab) failed\n"


def start(flags: str) -> str:
    """llama-server b11434's first lines as a user's terminal shows them."""
    return (
        f"$ llama-server -m /models/qwen2.5-0.5b-q8_0.gguf --host 0.0.0.0 --port 8088 {flags}\n"
        "0.00.001.204 I srv  llama_server: initializing ...\n"
        "0.00.002.311 I cmn  common_param: common_params_print_info: verbosity = 3 (adjust with the `-lv N` CLI arg)\n"
        "0.00.019.877 I srv    load_model: loading model '/models/qwen2.5-0.5b-q8_0.gguf'\n"
    )


def backtrace(*frames: str) -> str:
    """gdb's backtrace that ggml_print_backtrace prints after the assert, down to the frames given."""
    head = (
        "[Thread debugging using libthread_db enabled]\n"
        "#0  0x00007f0c1a2f1c17 in __GI___wait4 (pid=4120, stat_loc=0x0, options=0, usage=0x0) at wait4.c:30\n"
        "#1  0x000055d0a16f227b in ggml_print_backtrace ()\n#2  0x000055d0a16f23c8 in ggml_abort ()\n"
    )
    return head + "".join(f"#{i}  0x000055d0a14a06ad in {f} ()\n" for i, f in enumerate(frames, start=3))


SAMPLER_FRAMES = (
    "llama_sampler_logit_bias_backend_set_input(llama_sampler*)",
    "llama_sampler_chain_backend_set_input(llama_sampler*)",
    "llm_graph_input_sampling::set_input(llama_ubatch const*)",
    "llama_context::decode(llama_batch_ext const&)",
)
WARMUP = (
    *SAMPLER_FRAMES,
    "common_init_from_params(common_params&, bool)",
    "server_context_impl::load_model(common_params&)",
)
AT_START = (
    start("--logit-bias 151700-1.5 --backend-sampling")
    + ASSERT
    + backtrace(*WARMUP)
    + "Aborted (core dumped)\n"
)
NEGATIVE = start("-l -7+1 -bs") + ASSERT.replace("3995", "4011") + backtrace(*WARMUP) + "# exit status: 134\n"
SERVED = (
    "0.00.602.453 I srv    load_model: initializing, n_slots = 4, n_ctx_slot = 4096, kv_unified = 'true'\n"
    "0.00.603.793 I srv  llama_server: model loaded\n"
    "0.00.621.803 I srv  llama_server: listening on http://0.0.0.0:8088\n"
    "0.02.312.305 I slot get_availabl: id  3 | task -1 | selected slot by LRU, t_last = -1\n"
    "0.02.312.461 I slot launch_slot_: id  3 | task 0 | processing task, is_child = 0\n"
)
AT_REQUEST = (
    start("--logit-bias 200000+3")
    + SERVED
    + ASSERT
    + backtrace(*SAMPLER_FRAMES, "server_context_impl::update_slots()", "server_queue::start_loop(long)")
    + '$ curl -s localhost:8088/completion -d \'{"prompt": "hey", "n_predict": 16, "backend_sampling": true}\'\n'
    + "curl: (52) Empty reply from server\n"
)
# the assert's own line lost (a journal that kept only the backtrace): the frame suggests it, below the confident line
FRAME_ONLY = start("--logit-bias 151700-1.5 -bs") + backtrace(*WARMUP) + "Aborted (core dumped)\n"

ANSWERED = (
    '$ curl -s localhost:8088/completion -d \'{"prompt": "hey", "n_predict": 4}\'\n'
    '{"index":0,"content":"ir \\\\]\'self","stop":true,"tokens_predicted":4,"tokens_evaluated":1}\n'
)
IN_VOCAB = start("--logit-bias 15+2 --backend-sampling") + SERVED + ANSWERED
REQUEST_IDS_DROPPED = (
    start("--backend-sampling") + SERVED + ANSWERED.replace('"n_predict": 4', '"logit_bias": [[9000, 2.0]]')
)
SELECTED = (
    start("--samplers top_k -bs")
    + f"{SRC}:956: GGML_ASSERT(cur_p.selected >= 0 && cur_p.selected < (int32_t) cur_p.size) failed\n"
)
FILLER = start("--top-k 0 -bs") + f"{SRC}:3166: GGML_ASSERT(filler < sctx->n_vocab) failed\n"
VLLM_REQUEST = (
    '{"error":{"message":"token_id(s) [151700] in logit_bias contain out-of-vocab token ids. Vocabulary size: 151665",'
    '"type":"BadRequestError","param":null,"code":400}}\n'
)

test_names_the_cause, test_near_miss_not_confident = family_tests(
    [
        (FAMILY, AT_START),
        (FAMILY, NEGATIVE),
        (FAMILY, AT_REQUEST),
        ("request-logit-bias-out-of-vocab", VLLM_REQUEST),
    ],
    [
        (FAMILY, IN_VOCAB),
        (FAMILY, REQUEST_IDS_DROPPED),
        (FAMILY, SELECTED),
        (FAMILY, FILLER),
        (FAMILY, FRAME_ONLY),
    ],
)


def test_the_cause_names_the_flag_and_the_fix_the_vocabulary():
    top = top_cause(run(AT_START))
    assert top.id == FAMILY and top.confidence >= 0.8
    assert "--logit-bias" in top.cause and "backend sampling" in top.cause
    assert "n_vocab" in top.fix and "/tokenize" in top.fix


def test_it_outranks_the_generic_assert_and_the_feature_defect():
    ids = [d.id for d in run(AT_START).diagnoses]
    assert "llamacpp-feature-defect" not in ids and "llamacpp-assert" not in ids


def test_a_death_at_the_request_is_not_the_connection_reset():
    assert top_cause(run(AT_REQUEST)).id == FAMILY


def test_the_backtrace_frame_alone_is_a_guess():
    top = top_cause(run(FRAME_ONLY))
    assert top is not None and top.id == FAMILY and top.confidence < 0.7


def test_healthy_runs_have_no_cause():
    for log in (IN_VOCAB, REQUEST_IDS_DROPPED):
        assert top_cause(run(log)) is None, log


def test_another_sampler_assert_stays_generic():
    for log in (SELECTED, FILLER):
        top = top_cause(run(log))
        assert top is not None and top.id in ("llamacpp-feature-defect", "llamacpp-assert"), (
            top and top.id,
            log,
        )
