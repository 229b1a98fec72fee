"""The builder's kit, all from one layout: the drilling template, the schematic, the parts
lists, the boot configuration and ``pegs doctor``. It reads the hardware's layout, the
firmware files, the engine's holes and geometry and (the doctor only) the config; never the
running table."""
