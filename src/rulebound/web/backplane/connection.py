"""Reaching Redis: one client per process, its timeouts and retries, and its errors."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from redis import Redis

CLIENT_OPTIONS: dict[str, float] = {
    "socket_connect_timeout": 1.0,
    "socket_timeout": 2.0,
    "protocol": 2,
}
"""The client's options unless the URL sets them: timeouts by which a Redis that does not
answer holds a request (its rate limit) a second or two, not redis-py's default five; and
RESP2, whose pub/sub messages cost the listener a third less than RESP3's pushes."""


def connect(url: str) -> Redis:
    """A redis-py client for ``url``: one retry without delay on a broken connection (a
    pooled one Redis closed), none on a timeout (a Redis that does not answer holds a
    request once, not twice), and ``CLIENT_OPTIONS``' timeouts unless the URL sets others."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    retry = Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))
    return redis.Redis.from_url(url, retry=retry, **CLIENT_OPTIONS)


def where(client: Redis) -> str:
    """``HOST:PORT`` (or the socket's path) of the Redis a client talks to, for the log:
    never its credentials."""
    kwargs = client.get_connection_kwargs()
    if kwargs.get("path"):
        return str(kwargs["path"])
    return f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}"


def redis_errors() -> tuple[type[Exception], ...]:
    import redis

    return (redis.RedisError, OSError)
