"""The live feed: each table's new entries pushed to every open stream (``hub``)."""

__all__: list[str] = []
