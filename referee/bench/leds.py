"""How long the LED side of a lift takes: rendering guidance into a 224-pixel frame.

    from referee.bench.leds import render_frame
    render_frame(500)   # {"name": "LEDs: render a 224-pixel frame", "runs": 500, "median_ms": ..., "p99_ms": ...}

A sensor event, the lift that lights destinations included, has 15 ms p99 of software on this
machine (docs/design.md, "Budgets"), while the strip itself takes ~6.7 ms to refresh 224
pixels; rendering should stay under 1 ms.
The case is an 8-sided board (224 holes), a dozen lit holes of every role, the seat to play
glowing, at a brightness and power cap that make the current limiter do its scaling.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from hardware.layout import default_layout
from hardware.leds import Renderer
from hardware.signals import ROLES


def render_frame(runs: int = 500) -> dict[str, Any]:
    """Time ``Renderer.render`` on the 8-sided default layout; milliseconds per frame."""
    if runs < 1:
        raise ValueError(f"runs must be at least 1, not {runs}")
    layout = default_layout(8)
    renderer = Renderer(layout, brightness=1.0, max_amps=0.5)  # 0.5 A: the cap scales every frame
    holes = layout.hole_names
    cases = []
    for shift in range(8):  # different holes each run, so nothing is cached by accident
        guidance = {holes[(shift * 29 + 7 * i) % len(holes)]: ROLES[i % len(ROLES)] for i in range(12)}
        cases.append((guidance, shift))
    timings = []
    for run in range(runs):
        guidance, turn = cases[run % len(cases)]
        start = time.perf_counter()
        renderer.render(guidance, turn)
        timings.append(time.perf_counter() - start)
    timings.sort()
    p99 = timings[min(len(timings) - 1, round(0.99 * (len(timings) - 1)))]
    return {
        "name": f"LEDs: render a {layout.pixels}-pixel frame",
        "runs": runs,
        "median_ms": round(statistics.median(timings) * 1000, 4),
        "p99_ms": round(p99 * 1000, 4),
    }


if __name__ == "__main__":
    print(render_frame())
