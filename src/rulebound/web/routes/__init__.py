"""The table's HTTP routes: the JSON API (``api``, its models in ``models``), the pages
(``pages``, ``characters``) and the fairness pages and API (``fairness``), each a router
the app includes."""

__all__: list[str] = []
