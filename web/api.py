"""The HTTP contract for scripts and tests (DESIGN.md): ``GET /api/state`` and, with a
simulated board, ``POST /api/sim/events``; also health, done, undo and game records."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from referee.game import GameError
from referee.store import StoreError

api = Blueprint("api", __name__, url_prefix="/api")


def service() -> Any:
    return current_app.config["SERVICE"]


@api.get("/state")
def state() -> Response:
    return jsonify(service().state())


@api.get("/health")
def health() -> Response:
    return jsonify(service().health())


@api.post("/sim/events")
def sim_events() -> Response:
    body = _json_body()
    if set(body) != {"events"}:
        return _error(400, "send {\"events\": [\"lift S0:1\", \"place T0:8\", \"done\"]}")
    return jsonify(service().sim_events(body["events"]))


@api.post("/done")
def done() -> Response:
    return jsonify(service().press_done())


@api.post("/undo")
def undo() -> Response:
    return jsonify(service().undo())


@api.get("/games")
def games() -> Response:
    return jsonify([game.__dict__ for game in service().store.games()])


@api.get("/games/<int:game_id>/record")
def record(game_id: int) -> Response:
    try:
        text = service().store.export(game_id)
    except StoreError as error:
        return _error(404, str(error))
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"})  # fmt: skip


def _json_body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    return body


class BadRequest(ValueError):
    pass


@api.errorhandler(ValueError)
def bad_request(error: ValueError) -> Response:
    return _error(400, str(error))


@api.errorhandler(GameError)
def refused(error: GameError) -> Response:
    return _error(409, str(error))


@api.errorhandler(PermissionError)
def forbidden(error: PermissionError) -> Response:
    return _error(403, str(error))


@api.errorhandler(StoreError)
def store_failed(error: StoreError) -> Response:
    return _error(503, str(error))


@api.errorhandler(HTTPException)
def http_error(error: HTTPException) -> Response:
    return _error(error.code or 500, error.description or error.name)


def _error(status: int, message: str) -> Response:
    response = jsonify({"error": message})
    response.status_code = status
    return response
