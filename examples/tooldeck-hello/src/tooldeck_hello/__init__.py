"""tooldeck-hello: an example third-party tooldeck plugin (see ``tooldeck_hello.plugin``)."""

__version__ = "0.1.0"
