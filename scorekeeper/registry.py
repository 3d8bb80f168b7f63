"""A list of callables that apps built on the core plug in (the core must not import them):
the game page's panels, explanations of revoked table links, deal limits. Each module that
offers one keeps a ``Registry`` and exposes its ``register``/``unregister``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """Registered items in the order they came; registering one again changes nothing."""

    def __init__(self) -> None:
        self._items: list[T] = []

    def register(self, item: T) -> T:
        """Add ``item`` (once); returns it, so that it serves as a decorator."""
        if item not in self._items:
            self._items.append(item)
        return item

    def unregister(self, item: T) -> None:
        if item in self._items:
            self._items.remove(item)

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._items))  # a copy: an item may unregister while we go
