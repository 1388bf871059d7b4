"""What the scored batch fresh-235 (llama-server's other API surfaces, 2nd round) taught after scoring, with the
neighbourhood of each miss's check in llama.cpp b11434's own source.

- llamacpp-endpoint-needs-flag: server.cpp's res_403 ('this feature is disabled', 'feature_disabled'), the handler of
  /tools without --tools (or MCP servers) and /cors-proxy without --ui-mcp-proxy.
- llamacpp-invalid-argument: server-tools.cpp's setup refusals of --tools / --tools-runtime values, logged by server.cpp
  as 'tools setup failed: ...'.
- llamacpp-tools-runtime-unavailable (new): the same setup's container that does not start, or a build without
  subprocess support.
- llamacpp-stream-session-not-found (new): GET /v1/stream of a conv_id with no live session; the handler's 404 words,
  and the 404 handler's rewritten 'File Not Found' body only beside a GET of /v1/stream (a hint).
Messages marked 'rendered' are the source's format string filled with a value; 'real' ones were printed by the real
llama-server 11434 here (after36l, /tmp/after36l).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

START = "$ llama-server -m /srv/models/m.gguf --port 8080 {flags}\n0.00.010.914 I srv  llama_server: initializing ...\n"
SETUP = "0.00.012.441 E srv  llama_server: tools setup failed: {msg}\n"
BODY_403 = '{"error":{"message":"this feature is disabled","type":"feature_disabled"}}\n'
BODY_404 = '{"error":{"message":"File Not Found","type":"not_found_error","code":404}}\n'

CASES = [
    # res_403 as the OpenAI Python client shows it (rendered from server.cpp's body)
    (
        "llamacpp-endpoint-needs-flag",
        "openai.PermissionDeniedError: Error code: 403 - {'error': {'message': 'this feature is disabled', "
        "'type': 'feature_disabled'}}\n",
    ),
    # ... curl's GET /tools on a server started without --tools
    (
        "llamacpp-endpoint-needs-flag",
        "$ curl -i http://127.0.0.1:8080/tools\nHTTP/1.1 403 Forbidden\n" + BODY_403,
    ),
    # server-tools.cpp's setup, podman with no image (rendered)
    (
        "llamacpp-invalid-argument",
        START.format(flags="--tools all --tools-runtime podman:")
        + SETUP.format(msg="--tools-runtime podman:<image> requires an image name"),
    ),
    # ... a --tools name the build lacks (real: --tools web_search)
    (
        "llamacpp-invalid-argument",
        START.format(flags="--tools web_search")
        + SETUP.format(
            msg='unknown tool "web_search". available tools: read_file, file_glob_search, grep_search, '
            "exec_shell_command, write_file, edit_file, get_info"
        ),
    ),
    # ... an ssh target and a runtime of no known form (rendered)
    (
        "llamacpp-invalid-argument",
        START.format(flags="--tools all --tools-runtime ssh:-oProxyCommand=x")
        + SETUP.format(msg="invalid ssh target: -oProxyCommand=x"),
    ),
    (
        "llamacpp-invalid-argument",
        START.format(flags="--tools all --tools-runtime lxc:box")
        + SETUP.format(msg="unknown tool runtime: lxc:box"),
    ),
    # the container that does not come up (real: docker present, no image pulled; podman not installed)
    (
        "llamacpp-tools-runtime-unavailable",
        START.format(flags="--tools get_info --tools-runtime docker:alpine")
        + SETUP.format(msg="timed out waiting for docker container to start (image: alpine)"),
    ),
    (
        "llamacpp-tools-runtime-unavailable",
        START.format(flags="--tools get_info --tools-runtime podman:alpine")
        + SETUP.format(msg="failed to spawn podman container for tools runtime (image: alpine)"),
    ),
    # server-stream.cpp's own 404 words, as a router's proxy or a later build may keep them (rendered)
    (
        "llamacpp-stream-session-not-found",
        '{"error":{"code":404,"message":"Stream not found or expired","type":"not_found_error"}}\n',
    ),
]

NEAR_MISSES = [
    # the 501 sibling names its own flag: still this family, never the tools routes' reading
    # (checked below); a 403 of another kind (the API key's) is not a switched-off route
    (
        "llamacpp-endpoint-needs-flag",
        '$ curl -i http://127.0.0.1:8080/v1/models\nHTTP/1.1 403 Forbidden\n{"error":{"message":"Forbidden",'
        '"type":"permission_error","code":403}}\n',
    ),
    # a tools setup failure that is the MCP servers', not a value of --tools-runtime
    (
        "llamacpp-invalid-argument",
        START.format(flags="--mcp-servers-config mcp.json")
        + "0.00.012.441 E srv  llama_server: MCP starting failed: failed to start MCP server 'fs'\n",
    ),
    # a well-formed runtime whose container will not start is not a bad argument
    (
        "llamacpp-invalid-argument",
        START.format(flags="--tools get_info --tools-runtime docker:alpine")
        + SETUP.format(msg="timed out waiting for docker container to start (image: alpine)"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_rewritten_404_beside_a_stream_get_is_the_session_hint():
    """The real log's form: the chat, then GET /v1/stream answered with the 404 handler's body: a guess, below 0.70."""
    log = (
        "# request: GET http://127.0.0.1:8080/v1/stream?conv_id=conv-42&from=17\nHTTP/1.1 404 Not Found\n"
        + BODY_404
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "llamacpp-stream-session-not-found" and top.confidence < 0.7


def test_rewritten_404_on_another_route_is_not_the_stream_session():
    """The same body for a wrong route (and a POST to /v1/streams/lookup) is no stream session's."""
    for request in (
        "GET http://127.0.0.1:8080/v1/chat/completion",
        "POST http://127.0.0.1:8080/v1/streams/lookup",
    ):
        top = top_cause(run(f"# request: {request}\nHTTP/1.1 404 Not Found\n" + BODY_404))
        assert top is None or top.id != "llamacpp-stream-session-not-found", (request, top and top.id)


def test_501_sibling_keeps_its_own_flag():
    """The 501 wording fills the flag from its own words, not from the 403's defaults."""
    log = (
        '{"error":{"code":501,"message":"This server does not support embeddings. Start it with `--embeddings`",'
        '"type":"not_supported_error"}}\n'
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "llamacpp-endpoint-needs-flag"
    assert "--embeddings" in top.cause and "--ui-mcp-proxy" not in top.cause


def test_router_without_subprocess_stays_the_routers():
    """The router's refusal of the same build is llamacpp-router-init-failed's, the tools setup's is the runtime's."""
    router = (
        "E srv  llama_server: failed to initialize router models: subprocess is not enabled on this build\n"
    )
    tools = SETUP.format(msg="subprocess is not enabled on this build")
    assert top_cause(run(router)).id == "llamacpp-router-init-failed"
    assert top_cause(run(tools)).id == "llamacpp-tools-runtime-unavailable"
