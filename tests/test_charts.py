"""The HTML charts in a real headless Chromium (tests/browser.py): every chart has its axis titles with
units and numeric tick values, every point its value; a plan that does not fit says so in red and
draws the region below one request; bench draws p50-p99 bands and the user's SLO lines, the engine's
gauges, and `bench --compare A B` both runs. Screenshots are kept under out/screenshots/."""

from __future__ import annotations

import json
import re

from tests.browser import browser, save_screenshot  # noqa: F401  (the fixture)
from tests.conftest import CHECKPOINTS
from tests.replay_server import ReplayServer

LLAMA = CHECKPOINTS / "llama-3.1-8b-instruct"
NUMBER = re.compile(r"^-?[\d,]+(\.\d+)?$")


def texts(driver, css: str) -> list[str]:
    return [e.text for e in driver.find_elements("css selector", css)]


def open_page(driver, path, name: str) -> None:
    driver.get(path.as_uri())
    height = driver.execute_script("return document.body.scrollHeight")
    driver.set_window_size(1000, min(height + 140, 6000))
    save_screenshot(driver, name)


def assert_charts_readable(driver, svgs: int) -> None:
    assert len(driver.find_elements("css selector", "svg")) >= svgs
    for svg in driver.find_elements("css selector", "svg:has(.ylabel)"):
        ticks = [e.text for e in svg.find_elements("css selector", ".ytick")]
        assert len(ticks) >= 3 and all(NUMBER.match(t) for t in ticks), ticks
        assert (
            svg.find_element("css selector", ".ylabel").text
            and svg.find_element("css selector", ".xlabel").text
        )
        assert svg.find_elements("css selector", ".xtick")


def test_plan_charts_fit_and_not_fit(run_cli, browser, tmp_path):  # noqa: F811
    fit, nofit = tmp_path / "fit.html", tmp_path / "nofit.html"
    assert run_cli("plan", LLAMA, "--gpu", "h100-80gb", "--max-model-len", "8192", "--html", fit).code == 0
    r = run_cli("plan", LLAMA, "--gpu-memory-gib", "16", "--max-model-len", "131072", "--html", nofit)
    assert r.code == 1
    open_page(browser, fit, "plan-fits")
    assert_charts_readable(browser, 2)
    assert browser.find_element("css selector", ".verdict.fits").text.startswith("fits: max_model_len 8,192")
    assert "concurrent requests (KV cache)" in texts(browser, ".ylabel")
    assert "8k (max_model_len)" in texts(browser, ".xtick") and "53.2" in texts(browser, ".value")
    assert "GiB per rank (GPU total 79.19 GiB)" in texts(browser, ".xlabel")
    open_page(browser, nofit, "plan-does-not-fit")
    assert browser.find_element("css selector", ".verdict.nofit").text.startswith(
        "does NOT fit at max_model_len 131,072"
    )
    assert "below 1 request: does not fit" in texts(browser, ".shade")
    assert any("more than requested: does not fit" in t for t in texts(browser, "svg text"))


def test_bench_charts_sweep_rate_and_compare(run_cli, browser, tmp_path):  # noqa: F811
    sweep_html, rate_html, cmp_html = tmp_path / "sweep.html", tmp_path / "rate.html", tmp_path / "cmp.html"
    with ReplayServer(token_delay_s=0.002) as server:
        a = run_cli(
            "bench",
            server.url,
            "--model",
            "m",
            "--sweep",
            "4",
            "--num-prompts",
            "8",
            "--random-output-len",
            "8",
            "--slo-ttft-ms",
            "50",
            "--slo-tpot-ms",
            "5",
            "--html",
            sweep_html,
            "--json",
        )
        (tmp_path / "a.json").write_text(a.out)
        b = run_cli(
            "bench",
            server.url,
            "--model",
            "m",
            "--sweep",
            "4",
            "--num-prompts",
            "8",
            "--random-output-len",
            "16",
            "--json",
        )
        (tmp_path / "b.json").write_text(b.out)
        rated = run_cli(
            "bench",
            server.url,
            "--model",
            "m",
            "--request-rate",
            "20",
            "--num-prompts",
            "8",
            "--random-output-len",
            "8",
            "--html",
            rate_html,
        )
    assert a.code == b.code == rated.code == 0
    assert (
        run_cli("bench", "--compare", tmp_path / "a.json", tmp_path / "b.json", "--html", cmp_html).code == 0
    )

    open_page(browser, sweep_html, "bench-sweep")
    assert_charts_readable(browser, 5)
    assert {"TTFT (ms)", "TPOT (ms)", "output tokens/s", "requests"} <= set(texts(browser, ".ylabel"))
    assert "concurrency (requests in flight)" in texts(browser, ".xlabel")
    assert {"SLO TTFT 50 ms", "SLO TPOT 5 ms"} <= set(texts(browser, ".ref"))
    assert browser.find_elements("css selector", "polygon")  # the p50-p99 bands
    assert any("band: p50 to p99" in t for t in texts(browser, ".legend"))
    levels = [lv["concurrency"] for lv in json.loads((tmp_path / "a.json").read_text())["levels"]]
    assert [t for t in texts(browser, ".xtick")][: len(levels)] == [str(c) for c in levels]

    open_page(browser, rate_html, "bench-rate")
    assert_charts_readable(browser, 4)
    assert "20 req/s" in texts(browser, ".xtick") and "Poisson arrival rate (requests/s)" in texts(
        browser, ".xlabel"
    )

    open_page(browser, cmp_html, "bench-compare")
    assert_charts_readable(browser, 5)
    legend = " ".join(texts(browser, ".legend"))
    assert "a.json: TTFT p50" in legend and "b.json: TTFT p50" in legend
    assert browser.find_elements("css selector", "polyline[stroke-dasharray]")  # B drawn dashed


def test_plan_compare_marks_the_plan_that_does_not_fit(run_cli, browser, tmp_path):  # noqa: F811
    """`plan --compare A.json B.json --html F`: two saved plans, both curves on one chart with units and values,
    the figures side by side, and the configuration that does not fit named and coloured red."""
    a, b, page = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "compare.html"
    ra = run_cli("plan", LLAMA, "--gpu", "h100-80gb", "--max-model-len", "8192", "--json")
    rb = run_cli("plan", LLAMA, "--gpu-memory-gib", "16", "--max-model-len", "131072", "--json")
    assert (ra.code, rb.code) == (0, 1)
    a.write_text(ra.out)
    b.write_text(rb.out)
    r = run_cli("plan", "--compare", a, b, "--html", page)
    assert r.code == 1 and page.is_file()  # one of the two will not work
    open_page(browser, page, "plan-compare")
    assert_charts_readable(browser, 3)
    legend = texts(browser, ".legend")
    assert any(t.startswith("A: h100-80gb, util 0.9, 8,192 tokens") and "NOT" not in t for t in legend), (
        legend
    )
    assert any(t.startswith("B: ") and t.endswith("(does NOT fit)") for t in legend), legend
    assert "concurrent requests (KV cache)" in texts(browser, ".ylabel")
    assert "context length per request (tokens)" in texts(browser, ".xlabel")
    assert "53.2" in texts(browser, ".value")  # A's 8k point carries its value
    heads = texts(browser, "table.compare th.nofit")
    assert heads == ["B: llama-3.1-8b-instruct on custom x TP 1, util 0.9, 131,072 tokens (does NOT fit)"]
    red = browser.find_elements("css selector", "table.compare td.nofit")
    assert red and all(c.value_of_css_property("color") == "rgba(170, 17, 17, 1)" for c in red)
    assert "does NOT fit" in [c.text for c in red]
    verdicts = browser.find_elements("css selector", ".verdict")
    assert [v.get_attribute("class").split()[-1] for v in verdicts] == ["fits", "nofit"]


def test_plan_compare_bad_input_is_one_line(run_cli, tmp_path):
    good = tmp_path / "a.json"
    good.write_text(run_cli("plan", LLAMA, "--gpu", "h100-80gb", "--max-model-len", "8192", "--json").out)
    bad = tmp_path / "b.json"
    bad.write_text(json.dumps({"model": 3}))
    r = run_cli("plan", "--compare", good, bad)
    assert r.code == 2 and "b.json: model:" in r.err and len(r.err.strip().splitlines()) == 1
    r = run_cli("plan", "--compare", good, tmp_path / "missing.json")
    assert r.code == 2 and "missing.json" in r.err and "cannot read" in r.err
    r = run_cli("plan", LLAMA, "--compare", good, good, "--max-model-len", "8192")
    assert r.code == 2 and "--compare" in r.err and "--max-model-len" in r.err
