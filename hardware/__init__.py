"""The Pi side of the wires: board layout, sensors, LEDs and buttons."""
