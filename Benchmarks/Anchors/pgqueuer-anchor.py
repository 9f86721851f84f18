"""An anchor of the durable queue benchmark: enqueues N no-op jobs with PgQueuer 1.6.0 (an asyncio job queue on
PostgreSQL, from PyPI, here on its asyncpg driver), then drains them with PgQueuer's own consumer, and prints what it
measured as one line of JSON:

    {"anchor": "pgqueuer", "version": "1.6.0", "jobs": N, "enqueue_seconds": S1, "drain_seconds": S2}

Run it with the Python of the venv that Scripts/install-durable-anchors.sh makes:

    Benchmarks/.build/durable-venv/bin/python Benchmarks/Anchors/pgqueuer-anchor.py \\
        --url 'postgres://USER:PASSWORD@127.0.0.1:PORT/DB?sslmode=verify-full&sslrootcert=/path/ca.crt' \\
        --schema pgqueuer_anchor --jobs 20000 --workers 4 [--finished-rows M] [--batch-size B]

- The URL's TLS parameters (sslmode, sslrootcert, sslcert, sslkey) are turned into the SSLContext asyncpg is given,
  as libpq reads them: verify-full checks the chain against sslrootcert and the host name (or IP address).
- Setup, untimed: the schema --schema is dropped (CASCADE) if it exists and PgQueuer's tables, enum, indexes and
  NOTIFY trigger are installed into it anew (`Queries.install`, PgQueuer's `durable` durability: every table
  logged, its default). Every connection has that schema as its search_path, and PgQueuer's NOTIFY channel is
  named after it (`SCHEMA_ch_pgqueuer`), so runs in other schemas of the same database don't wake each other.
- --finished-rows M: PgQueuer deletes a finished job from its queue table (`pgqueuer`) and keeps only its log
  (`pgqueuer_log`), where every job leaves three rows: `queued` when enqueued, `picked` when dequeued, `successful`
  when done. So M finished jobs are 3M rows put into `pgqueuer_log` before the clock starts, with one INSERT …
  SELECT over generate_series, marked `aggregated` as PgQueuer's periodic aggregation into `pgqueuer_statistics`
  would have left them; the job id sequence is moved past M. The queue table itself stays empty.
- `enqueue_seconds`: N jobs (entrypoint `noop`, no payload, priority 0) inserted with `Queries.enqueue` given
  lists, the library's batch insert (one UNNEST statement that also writes the `queued` log rows), --enqueue-batch
  jobs a call (default 1000; 5,000 or all 20,000 in one call are no faster). One connection.
- Between the two, untimed: ANALYZE of `pgqueuer` and `pgqueuer_log`, so the planner knows the queue as autovacuum
  would have it in a steady state (without it a 100,000-job drain took twice as long: plans made for the empty new
  tables). The procrastinate anchor does the same.
- `drain_seconds`: from the start of the consumers until every job has been run and its completion written
  (deleted from `pgqueuer`, `successful` appended to `pgqueuer_log`). --workers W QueueManagers, each on a
  connection of its own opened before the clock starts (the set-up of PgQueuer's own tools/benchmark.py), each
  running `QueueManager.run(batch_size=B)`: a dequeue takes up to B jobs at once (FOR UPDATE SKIP LOCKED), all B
  run as concurrent tasks, and completions are written in batches. The handler is an async no-op that counts;
  when the count reaches N every QueueManager is told to shut down, and the time stops when all of them have
  returned, i.e. after their last completion batch is written. The anchor then checks that `pgqueuer` is empty
  and that N jobs were logged `successful` (beyond the --finished-rows ones).
- Tuned to PgQueuer's documented fast settings: the asyncpg driver (its docs measure it at about twice psycopg's
  throughput), the uvloop event loop (what its `pgq run` uses), and --batch-size default 200 instead of the
  library's 10. On the 2-core development machine, W=4, N=20,000: batch 10 → about 10,000 jobs/s, 50 to 500 →
  15,000 to 20,000 (within the noise of one-second runs); N=100,000: 100 → 20,600, 200 → 23,500, 500 → 21,200.
  No concurrency limit (max_concurrent_tasks unset), PgQueuer's `durable` tables, log aggregation every 30 s
  (its default).

Exit status 0 when all N jobs were enqueued and drained; 1 with the reason on stderr on setup errors (arguments,
the URL, the connection, TLS, the schema) and when the drain did not finish within --timeout seconds or did not
account for every job.
"""

import argparse
import asyncio
import json
import os
import re
import ssl
import sys
import time
import urllib.parse


ANCHOR = "pgqueuer"
DEFAULT_BATCH_SIZE = 200
ENTRYPOINT = "noop"


def fail(message):
    print(f"{ANCHOR}-anchor: error: {message}", file=sys.stderr)
    sys.exit(1)


try:
    import asyncpg
    import importlib.metadata
    import uvloop
    from pgqueuer import AsyncpgDriver, Queries, QueueManager
    from pgqueuer.domain.settings import db_settings
except ImportError as error:
    fail(f"{error}: run this script with the Python of the venv made by Scripts/install-durable-anchors.sh")


def parse_arguments():
    parser = argparse.ArgumentParser(description="Enqueues and drains N no-op jobs with PgQueuer on asyncpg.")
    parser.add_argument(
        "--url", required=True,
        help="postgres://USER:PASSWORD@HOST:PORT/DB[?sslmode=…&sslrootcert=…] (libpq's TLS parameters honoured)")
    parser.add_argument("--schema", required=True, help="schema to install PgQueuer into (dropped first if it exists)")
    parser.add_argument("--jobs", type=int, default=20000, help="jobs to enqueue and drain (default 20000)")
    parser.add_argument("--workers", type=int, default=4, help="QueueManagers, one connection each (default 4)")
    parser.add_argument(
        "--finished-rows", type=int, default=0,
        help="finished jobs in pgqueuer_log before the clock starts, three log rows each (default 0)")
    parser.add_argument(
        "--batch-size", type=int, default=DEFAULT_BATCH_SIZE,
        help=f"jobs one dequeue takes (QueueManager.run batch_size; default {DEFAULT_BATCH_SIZE})")
    parser.add_argument(
        "--enqueue-batch", type=int, default=1000, help="jobs one Queries.enqueue call inserts (default 1000)")
    parser.add_argument(
        "--timeout", type=float, default=600,
        help="seconds the drain may take before the anchor gives up (default 600)")
    arguments = parser.parse_args()
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", arguments.schema):
        fail(f"--schema {arguments.schema!r}: use lower-case letters, digits and _ "
             f"(at most 41, not starting with a digit)")
    for name in ("jobs", "workers", "batch_size", "enqueue_batch"):
        if getattr(arguments, name) < 1:
            fail(f"--{name.replace('_', '-')} must be at least 1")
    if arguments.finished_rows < 0:
        fail("--finished-rows must be 0 or more")
    if arguments.timeout <= 0:
        fail("--timeout must be positive")
    return arguments


def connection_options(url):
    """asyncpg's connect arguments for a libpq URL: the URL without its TLS parameters, and `ssl`, an SSLContext
    that does what libpq's sslmode, sslrootcert, sslcert and sslkey ask for (asyncpg reads some of them itself,
    but not always as libpq does; an explicit context leaves no doubt)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        fail("--url must start with postgres:// or postgresql://")
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    tls = {key: value for key, value in query if key in ("sslmode", "sslrootcert", "sslcert", "sslkey")}
    rest = [(key, value) for key, value in query if key not in tls]
    dsn = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(rest)))
    mode = tls.get("sslmode", "prefer")
    root = tls.get("sslrootcert")
    if mode == "disable":
        return dsn, False
    if mode in ("allow", "prefer"):
        return dsn, mode
    if mode not in ("require", "verify-ca", "verify-full"):
        fail(f"--url: unknown sslmode {mode!r}")
    try:
        if mode == "require" and not root:
            # libpq: encrypted, nothing verified (unless a root certificate is given, as below: then verify-ca).
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        elif root and root != "system":
            context = ssl.create_default_context(cafile=root)
        else:
            context = ssl.create_default_context()
        context.check_hostname = mode == "verify-full"
        if "sslcert" in tls:
            context.load_cert_chain(tls["sslcert"], tls.get("sslkey"))
    except (OSError, ssl.SSLError) as error:
        fail(f"--url: the TLS files cannot be read: {error}")
    return dsn, context


async def connect(dsn, tls, schema):
    try:
        return await asyncpg.connect(dsn, ssl=tls, server_settings={"search_path": schema}, timeout=30)
    except (OSError, asyncio.TimeoutError, ssl.SSLError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        fail(f"cannot connect to the server: {type(error).__name__}: {error}")


async def prepare(connection, queries, schema, finished):
    """Installs PgQueuer into a fresh schema, and puts the finished jobs into its log."""
    try:
        await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await queries.install()
        if finished:
            await connection.execute(
                f"""INSERT INTO {schema}.pgqueuer_log (job_id, status, priority, entrypoint, aggregated)
                    SELECT job_id, status::{schema}.pgqueuer_status, 0, '{ENTRYPOINT}', true
                    FROM generate_series(1, $1::bigint) AS job_id,
                         (VALUES ('queued'), ('picked'), ('successful')) AS states(status)""",
                finished)
            await connection.execute(f"SELECT setval(pg_get_serial_sequence('{schema}.pgqueuer', 'id'), $1)", finished)
    except asyncpg.PostgresError as error:
        fail(f"cannot install PgQueuer into schema {schema}: {error}")


async def enqueue(queries, jobs, batch):
    started = time.perf_counter()
    left = jobs
    while left:
        count = min(batch, left)
        await queries.enqueue([ENTRYPOINT] * count, [None] * count, [0] * count)
        left -= count
    return time.perf_counter() - started


async def drain(connections, jobs, batch_size, timeout):
    managers = [QueueManager(Queries(AsyncpgDriver(connection))) for connection in connections]
    done = 0

    def register(manager):
        @manager.entrypoint(ENTRYPOINT)
        async def noop(job):
            nonlocal done
            done += 1
            if done == jobs:
                for each in managers:
                    each.shutdown.set()

    for manager in managers:
        register(manager)

    started = time.perf_counter()
    runs = asyncio.gather(*(manager.run(batch_size=batch_size) for manager in managers))
    try:
        await asyncio.wait_for(runs, timeout)
    except asyncio.TimeoutError:
        fail(f"the drain did not finish within {timeout:g} s: {done} of {jobs} jobs ran")
    return time.perf_counter() - started, done


async def main():
    arguments = parse_arguments()
    schema = arguments.schema
    # PgQueuer reads its object names from the environment once (db_settings is cached): its tables go into the
    # schema, its NOTIFY channel (global to the database) is named after it.
    os.environ["PGQUEUER_SCHEMA"] = schema
    os.environ["PGQUEUER_CHANNEL"] = f"{schema}_ch_pgqueuer"
    db_settings.cache_clear()

    dsn, tls = connection_options(arguments.url)
    setup = await connect(dsn, tls, schema)
    queries = Queries(AsyncpgDriver(setup))
    await prepare(setup, queries, schema, arguments.finished_rows)

    enqueue_seconds = await enqueue(queries, arguments.jobs, arguments.enqueue_batch)
    # Statistics of the queue as it is now, as autovacuum would have them in a steady state.
    await setup.execute(f"ANALYZE {schema}.pgqueuer, {schema}.pgqueuer_log")

    consumers = [await connect(dsn, tls, schema) for _ in range(arguments.workers)]
    drain_seconds, ran = await drain(consumers, arguments.jobs, arguments.batch_size, arguments.timeout)
    for connection in consumers:
        await connection.close()

    left = await setup.fetchval(f"SELECT count(*) FROM {schema}.pgqueuer")
    logged = await setup.fetchval(f"SELECT count(*) FROM {schema}.pgqueuer_log WHERE status = 'successful'")
    await setup.close()
    if ran != arguments.jobs or left != 0 or logged != arguments.jobs + arguments.finished_rows:
        fail(f"the drain did not account for every job: {ran} ran, {left} left in pgqueuer, "
             f"{logged - arguments.finished_rows} logged successful, of {arguments.jobs}")

    print(json.dumps({
        "anchor": ANCHOR,
        "version": importlib.metadata.version("pgqueuer"),
        "jobs": arguments.jobs,
        "enqueue_seconds": round(enqueue_seconds, 6),
        "drain_seconds": round(drain_seconds, 6),
    }), flush=True)


if __name__ == "__main__":
    uvloop.run(main())
