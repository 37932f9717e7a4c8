"""The virtual table: the app factory (``app.create_app``), its routes, pages and live feed.

Needs the ``web`` extra (``pip install 'rulebound[web]'``). Import the module you need:
this package imports nothing on its own, and its modules are internal (docs/library.md).
"""

__all__: list[str] = []
