"""The Discord app, generic over the game contract: over HTTP interactions or the gateway.

``signature`` checks each request before anything reads it; ``interactions`` answers
PING, the commands (``commands`` builds their definitions from each game's roll fields)
and the follow-up buttons, through the same ``TableService`` as the web table; ``links``
keeps which channel plays at which table and which member a Discord user is;
``register`` sends the command definitions to Discord; ``gateway`` delivers interactions
from a bot's connection to the same answers. See docs/discord.md.
"""

__all__: list[str] = []
