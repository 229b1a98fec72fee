"""The sensor-scanning microcontroller and the serial link to it."""
