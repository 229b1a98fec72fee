"""The ``pegs`` command, by group: the engine's and the games' commands and the daemon in
``main``, the builder's kit in ``kit``, the wiring tools in ``wiring``. It may use every other
part of the program; nothing imports it."""
