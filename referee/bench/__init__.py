"""``pegs bench``: every benchmark the project ships, measured the same way (``common``)
and run in order by ``run``. It may import the table, the page, the engine, the coach and
the hardware; nothing imports it but the command."""
