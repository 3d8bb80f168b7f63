"""Tournaments in the REST API (``/api/v1/``): same conventions as :mod:`scorekeeper.api`."""
