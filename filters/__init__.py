"""The declarative output filter engine and its strategy plugins."""
