"""Views of results: text for the terminal, JSON for machines, HTML for the table."""

__all__: list[str] = []
