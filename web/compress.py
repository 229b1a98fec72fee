"""The page's own text (HTML, scripts, styles) goes gzipped to a browser that takes it: a phone
on the table's Wi-Fi loads about a third of the bytes. The API's answers and the live stream are
left as they are (small, or a stream), and so is anything but a whole 200 answer.

    compress(app)
"""

from __future__ import annotations

import functools
import gzip

from flask import Flask, Response, request

COMPRESSED = frozenset({"text/html", "text/css", "text/javascript", "application/javascript"})
SMALLEST = 1024  # bytes: below this gzip saves less than its own header costs


def compress(app: Flask) -> None:
    @app.after_request
    def gzipped(response: Response) -> Response:
        response.vary.add("Accept-Encoding")  # the same URL answers in two encodings
        if (
            response.status_code != 200
            or response.mimetype not in COMPRESSED
            or "Content-Encoding" in response.headers
            or "gzip" not in request.headers.get("Accept-Encoding", "")
        ):
            return response
        response.direct_passthrough = False  # a static file is read here, once, instead
        body = response.get_data()
        if len(body) < SMALLEST:
            return response
        response.set_data(_gzip(body))
        response.headers["Content-Encoding"] = "gzip"
        etag, weak = response.get_etag()
        if etag and not weak:
            response.set_etag(etag, weak=True)  # another representation of the same file
        return response


@functools.lru_cache(maxsize=32)
def _gzip(body: bytes) -> bytes:
    """The scripts and styles are the same bytes each time: compressed once."""
    return gzip.compress(body, compresslevel=6, mtime=0)
