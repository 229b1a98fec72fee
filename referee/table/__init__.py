"""The daemon that runs one table: threads, disk and hardware around the pure engine.

``referee`` is the engine and imports nothing from here; this package is the composition
root that wires sensors, the engine, the store, the LEDs and the web page together. The
builder's kit, the benches and the command live beside it (``referee.kit``,
``referee.bench``, ``referee.cli``) and it imports none of them.
"""
