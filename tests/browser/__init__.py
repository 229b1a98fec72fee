"""What people see, in a real browser: Debian's chromium driven by Playwright against the real
daemon. The fixtures are ``conftest.py``'s (``browser``) and ``tests/conftest.py``'s
(``daemon``); the helpers ``pages.py``'s. Every test here is in the browser tier."""
