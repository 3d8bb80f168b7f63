"""The games the engine knows, one module each."""
