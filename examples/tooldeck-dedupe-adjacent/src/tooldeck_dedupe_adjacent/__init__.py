"""Example tooldeck filter plugin: the dedupe_adjacent strategy type and its journalctl rule."""
