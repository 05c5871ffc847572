"""Built-in tooldeck plugins: executors, gates and sinks, one module or package each."""
