"""Teaching: hints that explain themselves, bots that fill a seat, the race measures, the
game review and self-play statistics. Pure like the engine, and importing only the engine."""
