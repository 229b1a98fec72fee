"""Measurements the README quotes (the judge against the reference, the bots' levels), run by hand:
each says its command in its docstring. Linted and type-checked with the product."""
