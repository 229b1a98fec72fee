"""The table's web page: a Flask app factory, routes and live updates."""
