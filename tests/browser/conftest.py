"""Chromium for the browser tests: one per module (``browser``), beside the real daemon of
``tests/conftest.py`` (``daemon``, started with the table PIN for each test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.browser.pages import ARGS, CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: scripts/ensure-test-tools.sh installs it")
    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()
