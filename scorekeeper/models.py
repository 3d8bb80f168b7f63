"""Score-keeping models (none yet)."""
