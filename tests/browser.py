"""A real headless Chromium for tests that look at a page: Debian's chromium driven by its chromedriver
through selenium. Tests that need it take the `browser` fixture and skip, saying why, where it is absent.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ARTEFACTS = Path(__file__).resolve().parent.parent / "out" / "screenshots"


def _chrome_options(profile: str):
    from selenium.webdriver.chrome.options import Options

    opts = Options()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    # no network here: keep Chromium from calling home (refused connections, lookups at every start)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
    ):
        opts.add_argument(flag)
    return opts


@pytest.fixture
def browser() -> Iterator[object]:
    """A selenium WebDriver on headless Chromium; quit (and its profile removed) after the test."""
    driver_path = shutil.which("chromedriver")
    if not (driver_path and shutil.which("chromium")):
        pytest.skip("no chromium/chromedriver (bash tools/browser.sh installs them): browser test skipped")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed: browser test skipped")
    profile = tempfile.mkdtemp(prefix="servebox-chromium-")
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=_chrome_options(profile))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def save_screenshot(driver, name: str) -> Path:
    """Keep a screenshot as a test artefact under out/screenshots/ (git-ignored) and return its path."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTEFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path
