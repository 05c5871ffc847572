"""Example tooldeck executor plugin: read-only SQLite queries inside the path sandbox."""
