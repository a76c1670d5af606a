"""The package version, at the bottom layer so that cache keys and rendered sources can
name it without importing the package ``__init__`` (which imports every layer)."""
__version__ = "0.1.0"
