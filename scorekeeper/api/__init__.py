"""Scorekeeper's REST API (``/api/v1/``).

Conventions, also stated in the OpenAPI description:

* ``{club}``, ``{game}``, ``{season}`` in paths are numeric ids; ``{number}`` is a deal's
  number in its game (1, 2, 3, ...). Paths end with a slash.
* Visibility: whatever belongs to a club is visible only to the club's members. A caller
  who is logged in but not a member gets 404 for it, exactly as if it did not exist; an
  anonymous caller gets 401 for everything except a season's standings when its club
  publishes its results. Ids of things the caller cannot see, given in a request body,
  are refused with 400 naming the field, with the same message as for ids that do not exist.
* Every error, DRF's own included, has one shape (see :mod:`scorekeeper.api.errors`).
"""
