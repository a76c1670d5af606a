"""Native runtime headers included by generated code; shipped as transpile.runtime."""
