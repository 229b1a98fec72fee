"""Who may do what at the table, and the refusal every check raises.

- Reading the game is open to everyone at the table.
- Setup (new game, seat links) and undo need the table PIN (``POST /api/login``). Wrong
  PINs are limited for the guessers, never for the owner (``web.pin.check_pin``): a client
  that guesses wrong five times in a row waits half a minute (only that client); devices
  that have never logged in here share a brake of 30 wrong PINs, then one every 90 s; a
  device that has logged in before (its ``pegs_device`` cookie) is never braked by the
  others.
- A log-in lasts ``LOGIN_DAYS`` and outlives restarts of the daemon: its id is kept in
  ``data_dir/logins.json`` (0600, written atomically; ``web.logins``). Logging out revokes
  it on the server, so a copied cookie loses it too; a changed PIN revokes every log-in and
  forgets every known device (``web.admin`` holds this request's log-in and device).
- A phone joins a seat by its link or QR code (``/join/<seat>/<token>``); the token is an
  HMAC of the game and the seat, so a link works for one seat of one game only
  (``web.seats``). In digital card mode a phone sees only its own hand.
- From outside the home network (the config's ``[web] home``; never the tailnet) the seat
  link is the only key: a request opens the link, or comes from a session that joined a
  seat of the game now played; the owner's rights never hold there, whatever PIN or cookie
  it sends (``web.home``, checked in ``web.admin.is_admin``, ``need_admin``, ``log_in`` and
  ``web.pin.check_pin``, and the app's gate in ``web.create_app``).
- Every state-changing request must be JSON (browsers cannot send that cross-site without
  a CORS preflight, which we never grant), an ``Origin`` header must be this host, and a
  request that relies on the session cookie must carry the session's ``X-CSRF-Token``
  (``web.csrf``). Cookies are ``SameSite=Strict`` and ``HttpOnly``.
"""

from __future__ import annotations


class Forbidden(PermissionError):
    """The request lacks the right PIN, seat or CSRF token: a 403 with one sentence."""
