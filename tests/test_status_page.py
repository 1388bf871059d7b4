"""The status page and a death under a stream, against a real llama-server (tools/llama-cpp.sh) serving
the tiny GGUF behind the router, with API keys on:

1. SIGKILL the engine mid-stream: the client gets an error event in OpenAI's shape and no [DONE]; the
   supervisor records the incident and restarts the engine. Whether llama-server wrote its last token
   before the kill is the machine's choice (a loaded one may let 1,500 tokens out before the test's
   SIGKILL lands), so the test asserts what holds either way: a finish reason with [DONE] and an "ok"
   record, or else an error event, no [DONE] and a record that is not "ok".
2. In a real headless Chromium: log in with the key, see the model row (state, uptime, restarts, the last
   incident), the engine's log, a chat completion appearing with its tokens/s, and a stop button that stops
   the engine (then start brings it back). The screenshot is kept under out/screenshots/.
Marked `engine`; skipped, saying why, where llama-server or Chromium is absent."""

from __future__ import annotations

import json
import os
import signal

import httpx
import pytest

from tests.browser import browser, save_screenshot  # noqa: F401 (the fixture)
from tests.conftest import llama_server
from tests.engine import harness
from tests.engine.harness import Router, llama_spec, read_stream, stream_verdict, supervised

pytestmark = pytest.mark.engine
KEY = {"Authorization": "Bearer page-key"}
NAME = "tiny-gguf"


@pytest.fixture(scope="module")
def served(tiny_gguf, tmp_path_factory):
    """The real llama-server managed by a Supervisor, behind a router with a key (shared by both tests)."""
    binary = llama_server()
    if binary is None:
        pytest.skip("llama-server not built (run tools/llama-cpp.sh, or set SERVEBOX_LLAMA_SERVER)")
    spec = llama_spec(binary, tiny_gguf, {"ctx-size": 2048, "threads": 2, "metrics": True}, NAME)
    state = tmp_path_factory.mktemp("page-state")
    with supervised(spec, state, poll_s=0.5, window_s=5, backoff_s=0.5) as sup:
        with Router(sup, keys=["page-key"]) as router:
            yield sup, router


def wait_for(predicate, timeout_s: float = 60, step_s: float = 0.3):
    """Poll until true; the page redraws its tables every 2 s, so a stale element (an exception) counts
    as not yet. Bounds are doubled: a loaded machine draws late, never wrong."""
    return harness.wait_for(predicate, 2 * timeout_s, step_s)


def body(max_tokens: int, stream: bool = True) -> dict:
    return {
        "model": NAME,
        "messages": [{"role": "user", "content": "count to a thousand"}],
        "max_tokens": max_tokens,
        "ignore_eos": True,
        "stream": stream,
    }


def test_engine_killed_under_a_stream_gives_an_error_event_and_no_done(served):
    sup, router = served
    st = sup.engines[NAME]
    first_pid = st.process.pid

    def kill_at_first(events: list[str]) -> None:
        if len(events) == 1:
            os.killpg(first_pid, signal.SIGKILL)  # the engine dies under the stream

    url = f"{router.url}/v1/chat/completions"
    status, events = read_stream(url, body(1500), headers=KEY, on_event=kill_at_first, timeout_s=120)
    assert status == 200, events
    verdict = stream_verdict(events)  # finished with [DONE], or an error event and no [DONE]: never both
    record = wait_for(lambda: finished_record(router.url), 30)
    if verdict == "error":
        error = json.loads(events[-1])["error"]
        assert error["code"] == "engine_died" and error["type"] == "server_error" and error["message"]
        assert record["outcome"] == "engine died", record
    else:  # the last token was out before the kill landed: a whole answer, honestly relayed
        assert record["outcome"] == "ok", record
    assert wait_for(lambda: st.process.pid != first_pid and st.verdict.state == "idle", 90), sup.incidents()
    assert sup.incidents()[-1]["state"] == "dead"


def finished_record(url: str) -> dict | None:
    """The newest request's record once the router has finished it."""
    got = httpx.get(f"{url}/servebox/requests", headers=KEY).json()["requests"][0]
    return got if got["outcome"] != "in flight" else None


def test_status_page_in_a_real_browser(served, browser):  # noqa: F811 (the fixture)
    from selenium.webdriver.common.by import By

    sup, router = served
    st = sup.engines[NAME]
    assert wait_for(lambda: st.verdict.state == "idle", 90)
    browser.get(f"{router.url}/ui")
    browser.find_element(By.ID, "key").send_keys("page-key")
    browser.find_element(By.ID, "login").click()

    def cell(css: str) -> str:
        return browser.find_element(By.CSS_SELECTOR, f"#model-{NAME} {css}").text

    assert wait_for(lambda: cell(".state .badge") == "idle", 30), browser.page_source[:2000]
    r = httpx.post(f"{router.url}/v1/chat/completions", json=body(48), headers=KEY, timeout=60)
    # streamed: the router asked llama-server for usage and kept it from this client, who did not ask
    assert r.status_code == 200 and r.text.rstrip().endswith("data: [DONE]") and '"usage"' not in r.text

    def newest(css: str) -> str:
        rows = browser.find_elements(By.CSS_SELECTOR, "#requests tbody tr")
        return rows[0].find_element(By.CSS_SELECTOR, css).text if rows else ""

    # the page redraws every 2 s: until it has, its newest row may still be the previous test's request (CI saw
    # '11 → 1500' there), so wait for this request's row, then read its rate
    assert wait_for(lambda: "→ 48" in newest(".tokens"), 30), newest(".tokens")
    shown = wait_for(lambda: newest(".tps") not in ("", "—") and newest(".tps"), 20)
    assert shown and float(shown) > 0
    assert wait_for(lambda: cell(".restarts") == str(len(st.restarts)), 10)
    if sup.incidents():  # after the previous test's kill: its incident and the doctor's reading
        assert wait_for(lambda: "dead" in cell(".incident"), 10)
    assert wait_for(lambda: "listening on http" in browser.find_element(By.ID, "log").text, 20)
    assert wait_for(lambda: cell(".uptime") not in ("", "—"), 10)
    path = save_screenshot(browser, "status-page")
    assert path.stat().st_size > 10_000

    def press(action: str, done) -> str:
        """Click ACTION's button once, then wait until DONE holds. The page redraws its table every 2 s:
        on a loaded machine the button found may be replaced (stale) before the click lands, so finding
        and clicking is retried until one click lands, never after (a second stop or start racing the
        first is another test). "" when done, else what was seen (for the failure message)."""
        seen: list[str] = []

        def click() -> bool:
            try:
                button = browser.find_element(
                    By.CSS_SELECTOR, f'button[data-action="{action}"][data-model="{NAME}"]'
                )
                if not button.is_enabled():
                    seen.append("disabled")
                    return False
                button.click()
                return True
            except Exception as exc:  # noqa: BLE001 - stale or intercepted: not clicked, try again
                seen.append(type(exc).__name__)
                return False

        if not wait_for(click, 60, 0.2):
            return f"{action}: no click landed: {seen[-6:]}; {st.verdict}"
        if wait_for(done, 90):
            return ""
        page = browser.execute_script("return document.body.innerText.slice(-400)")
        return (
            f"{action}: clicked after {seen[-6:]}; {st.verdict}; alive={st.process.alive()}; page: {page!r}"
        )

    # the badge turns "stopped" as the stop begins; the process is gone once its grace period ends
    failed = press("stop", lambda: cell(".state .badge") == "stopped" and not st.process.alive())
    assert not failed, failed
    refused = httpx.post(f"{router.url}/v1/chat/completions", json=body(4, stream=False), headers=KEY)
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "engine_stopped"
    save_screenshot(browser, "status-page-stopped")
    failed = press("start", lambda: cell(".state .badge") == "idle")
    assert not failed, failed
    r = httpx.post(f"{router.url}/v1/chat/completions", json=body(4, stream=False), headers=KEY, timeout=60)
    assert r.status_code == 200, (r.text, st.verdict)

    # unload frees the engine until the next request, which loads it again and waits for it
    failed = press("unload", lambda: cell(".state .badge") == "stopped" and not st.process.alive())
    assert not failed, failed
    r = httpx.post(f"{router.url}/v1/chat/completions", json=body(4, stream=False), headers=KEY, timeout=120)
    assert r.status_code == 200 and st.process.alive()
