"""Between server processes: notices of new entries and changes, and shared rate limits.

With Redis (``--redis URL`` or ``RULEBOUND_REDIS_URL``), every process publishes
``ORIGIN:TABLE:SEQ:PARTS`` after each commit (and ``ORIGIN:TABLE:-:PARTS`` after a
change that logs nothing: an invite replaced, an owner set; PARTS names what of the
table changed: ``table``, ``members``, ``characters``), and a thread per process hears
the others' notices: it drops those parts of the table from the store's cache and
wakes the table's feed in the hub, which reads the log once for all its subscribers.
A notice that changes part of a table goes on the ``rulebound:log`` channel, which
every process hears (each may cache any table); one that only says a new entry is
there (a roll's: most of them) goes on the table's own channel,
``rulebound:log:TABLE``, which a process hears only while it has feeds of that table
open (``watch``): Redis then hands a busy table's rolls to no process without a feed
of it, and wakes none of those for nothing. A feed starts reading the log only once
Redis has confirmed its table's subscription, and announces the watch (``TABLE:+:``
on ``rulebound:log``). A process whose last notice on a table no process heard (Redis
answers each ``PUBLISH`` with that count) sends that table's channel nothing for
``QUIET_SECONDS``, or until a watch is announced; a new feed reads the log's end again
shortly after its first read (``hub.SETTLE``) for an entry committed before the watch
was heard. A process drops its own notices (heard on the shared channel and on tables it
watches) by their origin's prefix, before decoding them. Pub/sub may drop a notice; a
feed's poll of the log's last seq and the cache's time limit cover that. Rate limits
live in Redis too (``RedisBuckets``, one atomic Lua script per request), so a client
cannot multiply its budget by spreading requests over processes.

Redis is reached only through redis-py's client and its connection pool. The listener
thread holds one ``PubSub`` and reads it with ``get_message``; a feed's (un)subscription
is handed to that thread, which a notice on the process's own wake channel stirs at once.
Notices go out from a publisher thread (``publisher.Publisher``): a commit only queues its notice,
and whatever has queued up goes to Redis in one pipelined round trip, whose answers (the
counts of listeners) feed the quiet tables.

Redis's faults: when Redis cannot be reached (down, restarting, a dropped connection),
the listener says so in the log once, tries again (``RETRY_FIRST`` seconds, doubling up
to ``RETRY_CAP``) and, once Redis confirms the subscription again, says that once too;
meanwhile feeds fall back to their poll of the log, and the publisher keeps the notices
(up to ``MAX_QUEUED``) for Redis's return. At each (re)subscription every watched table
is announced again and its feed woken with the log's last seq, and the ``relinked``
hooks run; ``linked`` is False from a loss until then (a subscription that redis-py
makes again by itself counts as a loss). Rate limits fall back to each process's own
buckets while Redis does not answer (``RedisBuckets``).

Without Redis, PostgreSQL's ``LISTEN/NOTIFY`` carries the same notices
(``postgres``); a lone process on SQLite needs neither.

The modules: ``listener`` (``RedisBackplane``: the listener thread and the notices it
sends), ``publisher`` (the thread that sends them), ``buckets`` (the shared rate limits),
``connection`` (the client), ``postgres`` (``PgListener``), ``thread`` (the listener
thread both share) and ``heard`` (what a notice does here).
"""

from rulebound.web.backplane.buckets import RedisBuckets
from rulebound.web.backplane.heard import hear, pg_heard
from rulebound.web.backplane.listener import RedisBackplane
from rulebound.web.backplane.postgres import PgListener

__all__ = ["PgListener", "RedisBackplane", "RedisBuckets", "hear", "pg_heard"]
