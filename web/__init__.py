"""The table's web page: a Flask app factory over one running referee ``Service``.

    app = create_app(service)
    waitress.serve(app, host="0.0.0.0", port=8080, threads=32)
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from web.api import api


def create_app(service: Any, **settings: Any) -> Flask:
    app = Flask(__name__)
    app.config.update(SERVICE=service, **settings)
    app.register_blueprint(api)
    return app
