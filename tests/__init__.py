"""The tests, a package: every helper is imported one way, ``from tests.<helper> import ...``.

Helpers live in modules not named ``test_*`` (``positions``, ``simulated``, ``real_daemon``,
``table_hands``, ...); fixtures in ``conftest.py`` (``tests/browser/conftest.py`` for Chromium).
A test module imports from no other test module.
"""
