"""A phone as the real daemon sees it: its own source address, its cookies, its CSRF token.

    phone = HttpPhone(port=8080, address="127.0.0.2")
    status, reply = phone.call("GET", "/api/me")

Over a real socket (``http.client``), so the server reads the address the phone comes from;
the loopback's other addresses (127.0.0.2, ...) stand for other devices.
"""

from __future__ import annotations

import http.client
import json
from http.cookies import SimpleCookie
from typing import Any


class HttpPhone:
    """A browser on its own address: keeps its cookies as a browser does (a cookie set to
    expire is dropped), sends the CSRF token it was given."""

    def __init__(self, port: int, address: str, host: str | None = None) -> None:
        self.port, self.address = port, address
        self.host = host or f"127.0.0.1:{port}"
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The status and the answer: JSON decoded, any other body as text."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(self.address, 0))
        headers = {"Host": self.host, "X-CSRF-Token": self.csrf}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            for line in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(line).items():
                    if morsel.value and morsel["max-age"] != "0":
                        self.cookies[name] = morsel.value
                    else:
                        self.cookies.pop(name, None)
            text = response.read().decode()
            is_json = response.headers.get("Content-Type", "").startswith("application/json")
            return response.status, json.loads(text or "null") if is_json else text
        finally:
            connection.close()
