"""What the scored batches fresh-239 (vLLM's reasoning / tool parsers, 3rd round) and fresh-241 (vLLM's KV cache,
memory and scheduler settings) taught after scoring, with the neighbourhood of each miss's check in vLLM 0.32's source.

- mcp-tool-server-unreachable (new): entrypoints/mcp/tool_server.py add_tool_server opens f"http://{url}/sse" for each
  --tool-server HOST:PORT with the mcp SDK's SSE client; a URL with a scheme, nothing listening, or a server that is
  not MCP over SSE stops the API server. Counted only with the traceback through the tool server's set-up.
- kv-events-endpoint-invalid (new): distributed/kv_events.py ZmqEventPublisher binds / connects the --kv-events-config
  endpoint as given; pyzmq refuses one without its transport (or with another), counted through kv_events.py.
- kv-transfer-role-invalid (widened): KVTransferConfig.kv_role / ECTransferConfig.ec_role are Literals, so pydantic's
  literal_error with the roles as choices is this family's, not the generic cli-invalid-choice.
- example-connector-short-prompt-hit (new): example_connector.py looks a prompt up by one block less than it stored
  for a prompt one token longer than a multiple of the block size and claims minus one block; the worker then
  indexes out of range.
- request-field-wrong-type (widened): generate/base/protocol.py validate_cache_salt's 'must be a non-empty string'.
- reasoning-parser-tokens-missing (widened): parser/response_template.py, a response_template without the field one
  hf flag needs.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

TOOL_TB = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/mcp/tool_server.py", line 242, in init_tool_server\n'
    "    await mcp_server.add_tool_server(tool_server)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/mcp/tool_server.py", line 116, in add_tool_server\n'
    "    initialize_response, list_tools_response = await list_server_and_tools(url)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/mcp/client/sse.py", line 70, in sse_client\n'
)
CORE = "(EngineCore_DP0 pid=311) ERROR 12-05 10:00:01 [core.py:1510] "
KV_EVENTS_TB = (
    f"{CORE}Traceback (most recent call last):\n"
    f'{CORE}  File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/kv_events.py", line 461, in _bind\n'
    f"{CORE}    sock.bind(endpoint)\n"
)
REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
PARSER_TB = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/parser/parser_manager.py", line 197, in _compose_parser\n'
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/parser/response_template.py", line 157, in '
    "validate_tokenizer_response_template\n"
)
WORKER = "(Worker pid=967) ERROR 12-05 15:12:52 [multiproc_executor.py:1063] "

CASES = [
    # nothing listens at the --tool-server address: httpx's ConnectError (rendered)
    ("mcp-tool-server-unreachable", TOOL_TB + "httpx.ConnectError: All connection attempts failed\n"),
    # ... the same under an anyio TaskGroup's ExceptionGroup (the mcp SDK's older SSE client)
    (
        "mcp-tool-server-unreachable",
        "  + Exception Group Traceback (most recent call last):\n"
        '  |   File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/mcp/tool_server.py", line 116, in '
        "add_tool_server\n"
        "  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n"
        "  +-+---------------- 1 ----------------\n"
        "    | Traceback (most recent call last):\n"
        "    | httpx.ConnectError: [Errno 111] Connection refused\n",
    ),
    # a web page that is not an event stream at /sse (httpx-sse's SSEError; rendered)
    (
        "mcp-tool-server-unreachable",
        TOOL_TB + "httpx_sse._exceptions.SSEError: Expected response header Content-Type to contain "
        "'text/event-stream', got 'text/html; charset=utf-8'\n",
    ),
    # a proxy in front answering 502 (raise_for_status's wording; rendered)
    (
        "mcp-tool-server-unreachable",
        TOOL_TB
        + "httpx.HTTPStatusError: Server error '502 Bad Gateway' for url 'http://10.0.0.7:8001/sse'\n",
    ),
    # --kv-events-config endpoint with another scheme (pyzmq's EPROTONOSUPPORT; rendered)
    (
        "kv-events-endpoint-invalid",
        KV_EVENTS_TB + f"{CORE}zmq.error.ZMQError: Protocol not supported (addr='http://*:5557')\n",
    ),
    # ... with data parallelism, offset_endpoint_port's own refusal (rendered)
    ("kv-events-endpoint-invalid", f"{CORE}ValueError: Invalid endpoint: must contain 'inproc' or 'tcp'\n"),
    # --ec-transfer-config's role, the same Literal (rendered by pydantic)
    (
        "kv-transfer-role-invalid",
        "vllm serve: error: argument --ec-transfer-config: 1 validation error for ECTransferConfig\nec_role\n"
        "  Input should be 'ec_producer', 'ec_both' or 'ec_consumer' [type=literal_error, input_value='both', "
        "input_type=str]\n",
    ),
    # the Python API: KVTransferConfig(kv_role=...) in a script (rendered by pydantic)
    (
        "kv-transfer-role-invalid",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for KVTransferConfig\nkv_role\n"
        "  Input should be 'kv_producer', 'kv_both' or 'kv_consumer' [type=literal_error, input_value='consumer', "
        "input_type=str]\n",
    ),
    # the engine's dump beside the sample connector's hit: a 17-token prompt extending a stored 16-token one on a GPU's
    # 16-token blocks (rendered from example_connector.py's arithmetic)
    (
        "example-connector-short-prompt-hit",
        "(EngineCore pid=14895) INFO 12-05 15:12:52 [example_connector.py:292] External Cache Hit!\n"
        "(EngineCore pid=14895) ERROR 12-05 15:12:52 [dump_input.py:79] Dumping scheduler output for model execution: "
        "SchedulerOutput(scheduled_new_reqs=[NewRequestData(req_id=cmpl-1,prompt_token_ids_len=17,block_ids=([1, 2],),"
        "num_computed_tokens=-16,lora_request=None)], num_scheduled_tokens={cmpl-1: 33})\n"
        f"{WORKER}IndexError: index out of range in self\n",
    ),
    # an empty cache_salt on the chat route: the same check, the same words (rendered); learn49d: with no body showing
    # another JSON type the words prove no type complaint, and the validator's own family answers (fresh-435)
    (
        "request-cache-salt-invalid",
        "# request: POST http://127.0.0.1:8000/v1/chat/completions {...}\nHTTP/1.1 400 Bad Request\n"
        + REPLY.format(
            msg="Parameter 'cache_salt' must be a non-empty string if provided. (parameter=cache_salt)",
            param='"cache_salt"',
        ),
    ),
    # the hf parser's template without the field a flag needs (rendered)
    (
        "reasoning-parser-tokens-missing",
        PARSER_TB + "TypeError: --tool-call-parser hf requires a response_template with a tool_calls field\n",
    ),
    (
        "reasoning-parser-tokens-missing",
        PARSER_TB + "TypeError: --reasoning-parser hf requires a response_template with a thinking field\n",
    ),
]

NEAR_MISSES = [
    # an httpx DNS failure fetching a model is no tool server's
    (
        "mcp-tool-server-unreachable",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/huggingface_hub/file_download.py", line 1010, in '
        "hf_hub_download\n"
        "httpx.ConnectError: [Errno -2] Name or service not known\n",
    ),
    # a --tool-server URL on the start-up line of a start that died before the tool server was opened
    (
        "mcp-tool-server-unreachable",
        "(APIServer pid=7) INFO 12-05 15:04:01 [api_utils.py:286] non-default args: {'tool_server': "
        "'https://mcp.example.com:8001', 'model': 'm'}\n"
        "(EngineCore_DP0 pid=9) ERROR 12-05 15:04:30 [core.py:1510] torch.OutOfMemoryError: CUDA out of memory. "
        "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.57 GiB of which 1.06 GiB is free.\n",
    ),
    # a zmq refusal of vLLM's own sockets, not the KV-events publisher's
    (
        "kv-events-endpoint-invalid",
        f"{CORE}Traceback (most recent call last):\n"
        f'{CORE}  File "/opt/venv/lib/python3.12/site-packages/vllm/utils/network_utils.py", line 230, in '
        "make_zmq_socket\n"
        f"{CORE}zmq.error.ZMQError: Invalid argument (addr='ipc:///tmp/dir/that/is/far/too/long/for/a/socket')\n",
    ),
    # the publisher's port taken by another engine: a port clash, not a malformed endpoint
    (
        "kv-events-endpoint-invalid",
        KV_EVENTS_TB + f"{CORE}zmq.error.ZMQError: Address already in use (addr='tcp://*:5557')\n",
    ),
    # an embedding fed an out-of-vocabulary id without the sample connector
    ("example-connector-short-prompt-hit", f"{WORKER}IndexError: index out of range in self\n"),
    # cache_salt's other check: a string of the right type, too long or with a forbidden character
    (
        "request-field-wrong-type",
        REPLY.format(
            msg="Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\\\\\\\\', "
            "or NUL. (parameter=cache_salt)",
            param='"cache_salt"',
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_other_literal_fields_of_the_kv_configs_stay_generic():
    """Only the role's choices name kv-transfer-role-invalid: kv_load_failure_policy's literal error is a plain invalid
    choice of a field of the flag's JSON."""
    assert_named(
        "cli-invalid-choice",
        "vllm serve: error: argument --kv-transfer-config: 1 validation error for KVTransferConfig\n"
        "kv_load_failure_policy\n"
        "  Input should be 'recompute' or 'fail' [type=literal_error, input_value='retry', input_type=str]\n",
    )


def test_hf_parser_in_company_is_two_incompatible_options():
    """fresh-239's hf parser beside another parser (adjudicated): two flags' values refused together at start."""
    assert_named(
        "options-incompatible",
        PARSER_TB + "TypeError: The hf parser cannot be combined with other reasoning or tool call parsers\n",
    )
