"""tools/corpus_tools.py's draws: the procedure every made-here batch's maker commits before its cases run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from corpus_tools import draw_distinct_conditions, draw_per_engine, pool_after  # noqa: E402

CONDITIONS = {f"c{i}": [f"v{i}a", f"v{i}b"] for i in range(5)}


def test_a_one_engine_draw_keeps_distinct_conditions_and_lists_the_redrawn():
    kept, redrawn = draw_distinct_conditions(7, CONDITIONS, 5)
    assert sorted(c for c, _ in kept) == sorted(CONDITIONS)
    assert all(v in CONDITIONS[c] for c, v in kept)
    assert all(
        reason == "condition drawn before" and any(c == k for k, _ in kept) for c, _, reason in redrawn
    )
    assert (kept, redrawn) == draw_distinct_conditions(7, CONDITIONS, 5)  # the seed fixes it


def test_a_draw_that_could_never_finish_is_refused_at_once():
    with pytest.raises(ValueError, match="need 6 conditions"):
        draw_distinct_conditions(7, CONDITIONS, 6)
    with pytest.raises(ValueError, match="distinct"):
        draw_per_engine(7, {"vllm": {"a": ["x"]}, "llama": {"b": ["y"]}}, 3)


SERVER = """
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def _reply(self, code, text):
        self.send_response(code); self.end_headers(); self.wfile.write(text.encode())
    def do_GET(self):
        self._reply(200, "key=" + self.headers["X-Key"] if self.headers.get("X-Key") else "ok")
    def do_DELETE(self):
        self._reply(204, "")
    def do_POST(self):
        n = int(self.headers["Content-Length"]); self.rfile.read(n)
        print("engine: refused a request", flush=True)
        self._reply(400, '{"error": "bad field"}')
    def log_message(self, *a):
        pass
print("engine: up", flush=True)
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_next_rounds_pool_drops_drawn_pairs_and_takes_new_classes_only_for_used_up_conditions():
    already = {("c0", "v0a"), ("c0", "v0b"), ("c1", "v1a")}
    merged, pool = pool_after(CONDITIONS, already, {"c0": ["v0c"]})
    assert merged["c0"] == ["v0a", "v0b", "v0c"] and pool["c0"] == ["v0c"]
    assert pool["c1"] == ["v1b"] and pool["c2"] == ["v2a", "v2b"]
    assert (
        pool_after(CONDITIONS, {("c0", "v0a"), ("c0", "v0b")})[1].get("c0") is None
    )  # used up, no new: left out
    with pytest.raises(ValueError, match="not used up"):
        pool_after(CONDITIONS, already, {"c1": ["v1c"]})
    with pytest.raises(ValueError, match="not new"):
        pool_after(CONDITIONS, already, {"c0": ["v0a"]})
    with pytest.raises(ValueError, match="not a condition"):
        pool_after(CONDITIONS, already, {"c9": ["x"]})


def test_serve_and_ask_writes_the_engine_lines_then_each_request_and_its_reply():
    """A real process and real HTTP: the log a maker commits is what a user would paste."""
    from corpus_tools import serve_and_ask

    port = _free_port()
    argv = [sys.executable, "-c", SERVER, str(port)]
    text = serve_and_ask(argv, port, [("/v1/x", {"a": 1}), ("/v1/models", None)], bound=30, after=0.2)
    assert text.startswith("engine: up\n")
    assert f'# request: POST http://127.0.0.1:{port}/v1/x {{"a": 1}}\nHTTP/1.1 400 Bad Request\n' in text
    assert f"# request: GET http://127.0.0.1:{port}/v1/models\nHTTP/1.1 200 OK\nok\n" in text
    assert "engine: refused a request" in text


def test_serve_and_ask_sends_another_method_and_headers_and_shows_them_as_a_user_pastes_them():
    """(method, path, body, headers) calls (fresh-235 carried its own copy for its API-key cases): the header reaches
    the engine and the request line shows it as curl's -H, quoted for a shell."""
    from corpus_tools import serve_and_ask

    port = _free_port()
    argv = [sys.executable, "-c", SERVER, str(port)]
    calls = [
        ("GET", "/v1/models", None, {"X-Key": "k 1"}),
        ("DELETE", "/slots/0", None, {}),
        ("/v1/x", {"a": 1}),
    ]
    text = serve_and_ask(argv, port, calls, bound=30, after=0.2)
    assert (
        f"# request: GET http://127.0.0.1:{port}/v1/models -H 'X-Key: k 1'\nHTTP/1.1 200 OK\nkey=k 1\n"
        in text
    )
    assert f"# request: DELETE http://127.0.0.1:{port}/slots/0\nHTTP/1.1 204 No Content\n" in text
    assert f'# request: POST http://127.0.0.1:{port}/v1/x {{"a": 1}}\nHTTP/1.1 400 Bad Request\n' in text


def test_serve_and_ask_sends_nothing_to_an_engine_that_exits_at_start():
    from corpus_tools import serve_and_ask

    argv = [sys.executable, "-c", "import sys; print('engine: bad flag'); sys.exit(2)"]
    text = serve_and_ask(argv, _free_port(), [("/v1/x", {"a": 1})], bound=30)
    assert text == "engine: bad flag\n"


def test_engine_env_keeps_the_engines_caches_under_the_makers_folder(tmp_path, monkeypatch):
    """One maker wrote into /root/.cache/vllm: a case's caches belong to its own folder, and a case's EXTRA wins."""
    from corpus_tools import engine_env

    monkeypatch.setenv("VLLM_CACHE_ROOT", "/root/.cache/vllm")
    env = engine_env(tmp_path, VLLM_CPU_KVCACHE_SPACE="2")
    assert env["VLLM_CACHE_ROOT"] == str(tmp_path / "vllm-cache")
    assert env["XDG_CACHE_HOME"].startswith(str(tmp_path))
    assert env["VLLM_CPU_KVCACHE_SPACE"] == "2" and env["VLLM_NO_USAGE_STATS"] == "1"


def test_gguf_edited_sets_and_removes_metadata_and_keeps_the_tensors(tmp_path):
    """A maker's GGUF whose metadata disagrees with its tensors, made by gguf-py's own copy (no hand-written writer)."""
    import gguf
    from corpus_tools import gguf_edited

    src = Path(__file__).parent / "fixtures" / "tiny-llama-q8_0.gguf"
    out = gguf_edited(
        src,
        tmp_path / "edited.gguf",
        {"llama.block_count": (gguf.GGUFValueType.UINT32, 7)},
        remove=("general.name",),
    )
    before, after = gguf.GGUFReader(str(src)), gguf.GGUFReader(str(out))
    assert after.fields["llama.block_count"].contents() == 7
    assert "general.name" not in after.fields and "general.name" in before.fields
    assert [t.name for t in after.tensors] == [t.name for t in before.tensors]
    assert after.tensors[0].data.tobytes() == before.tensors[0].data.tobytes()
