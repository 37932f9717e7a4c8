"""The store's Alembic migrations (``store.migrate`` runs them): internal."""

__all__: list[str] = []
