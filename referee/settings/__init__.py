"""The table's settings: the config file (``pegs.toml``) and the hardware backends it names.
Both the running table and the kit's doctor read them, so they belong to neither."""
