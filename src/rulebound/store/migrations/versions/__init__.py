"""One module per schema revision, in Alembic's order: internal."""

__all__: list[str] = []
