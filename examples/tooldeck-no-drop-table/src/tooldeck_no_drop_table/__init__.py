"""Example tooldeck gate plugin: deny calls whose parameters contain DROP TABLE."""
