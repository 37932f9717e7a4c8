"""Trust: the tamper-evident log chain, the export format and its verifier.

``chain`` (canonical entry hashing) depends on the core only, so the store can
seal entries with it; ``export`` names the export format; ``verify`` checks an
export and needs the rulesets (to replay cards). Import the module you need:
this package imports nothing on its own.
"""

__all__: list[str] = []
