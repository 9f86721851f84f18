"""An anchor of the durable queue benchmark: enqueues N no-op jobs with procrastinate 3.10.0 (a job queue on
PostgreSQL, from PyPI, here on its asyncio psycopg 3 connector), then drains them with procrastinate's own worker, and
prints what it measured as one line of JSON:

    {"anchor": "procrastinate", "version": "3.10.0", "jobs": N, "enqueue_seconds": S1, "drain_seconds": S2}

Run it with the Python of the venv that Scripts/install-durable-anchors.sh makes:

    Benchmarks/.build/durable-venv/bin/python Benchmarks/Anchors/procrastinate-anchor.py \\
        --url 'postgres://USER:PASSWORD@127.0.0.1:PORT/DB?sslmode=verify-full&sslrootcert=/path/ca.crt' \\
        --schema procrastinate_anchor --jobs 20000 --workers 4 [--finished-rows M]

- The URL goes to psycopg as it is: libpq reads its TLS parameters (sslmode, sslrootcert, sslcert, sslkey) itself.
- Setup, untimed: the schema --schema is dropped (CASCADE) if it exists, created anew, and procrastinate's schema
  (`SchemaManager.apply_schema_async`: tables, enums, functions, triggers) applied in it. Every connection, the
  pool's and the worker's LISTEN connection, has that schema as its search_path (libpq `options`), which is how
  procrastinate is put into a schema other than public. Its NOTIFY channels are global to the database, so runs in
  two schemas at once would wake each other's workers (harmless: a wasted fetch).
- --finished-rows M: procrastinate keeps a finished job in `procrastinate_jobs` with status `succeeded` (the
  worker's default `delete_jobs="never"`, kept here), and its triggers record each job's `deferred`, `started`
  and `succeeded` events in `procrastinate_events`. So M finished jobs are M rows of `procrastinate_jobs` (status
  `succeeded`) and 3M rows of `procrastinate_events`, put in before the clock starts with one INSERT … SELECT over
  generate_series each (an insert with a status other than `todo` fires none of procrastinate's triggers).
- `enqueue_seconds`: N jobs of the task `noop` (no arguments, queue `default`) deferred with
  `Task.batch_defer_async`, the library's batch defer (one call of its SQL function procrastinate_defer_jobs_v1 for
  a whole batch), --enqueue-batch jobs a call (default 1000; 5,000 or 20,000 are no faster). One connection.
- Between the two, untimed: ANALYZE of `procrastinate_jobs` and `procrastinate_events`, so the planner knows the
  queue as autovacuum would have it in a steady state. Without it, procrastinate's fetch is planned for the empty
  new table and sorts every waiting job on each fetch, so the drain time grows with the square of N (20,000 jobs
  took 1.5 to 2 times as long, and 10,000 took 13 times as long as 2,000). The PgQueuer anchor does the same.
- `drain_seconds`: from the start of the worker (`Worker.run`: it registers itself, starts LISTEN, heartbeats and
  abort polling) until every job has been run and its completion written (status `succeeded`). One worker with
  `concurrency` --workers W: it fetches one job per query (procrastinate_fetch_job_v2, FOR UPDATE SKIP LOCKED) and
  runs up to W at once, each finished with its own query. The task is an async no-op that counts; when the count
  reaches N the worker is told to stop, and the time stops when `Worker.run` has returned, which it does after the
  running jobs have finished and been written. The anchor then checks that N jobs are `succeeded` (beyond the
  --finished-rows ones) and none is left `todo` or `doing`.
- Tuned: an async task with worker `concurrency` (procrastinate's documented way to run I/O-bound jobs in
  parallel), `listen_notify` on (its default: LISTEN/NOTIFY wakes the worker at once, polling only as a fallback),
  and, since the worker is bound by round trips and its own CPU (one fetch at a time, one query per completion),
  three settings that change no query procrastinate sends. Measured on the 2-core development machine, W=4,
  N=20,000, when it was otherwise idle:
  - the pool without psycopg_pool's check query on every checkout, which procrastinate's connector asks for, and
    each connection in autocommit, saving the BEGIN and COMMIT round trips around every query (procrastinate sends
    one statement at a time, each a whole unit; its multi-row work is in its SQL functions). --stock keeps
    procrastinate's pool as it makes it;
  - the uvloop event loop (in the venv as a PgQueuer dependency; procrastinate's CLI uses asyncio's own). --asyncio
    runs on asyncio's;
  - a psycopg pool of max(W, 4) connections (--pool-size; 4 is psycopg_pool's default size): at W=4, 6
    connections drained about 8 % slower and 10 about 15 % slower (more server processes only compete for the 2
    cores).
  --stock --asyncio (procrastinate as published) → about 1,150 jobs/s, --stock → 1,350, --asyncio → 1,850, the
  defaults → 2,050 to 2,100.

Exit status 0 when all N jobs were enqueued and drained; 1 with the reason on stderr on setup errors (arguments,
the URL, the connection, TLS, the schema) and when the drain did not finish within --timeout seconds or did not
account for every job.
"""

import argparse
import asyncio
import json
import logging
import re
import sys
import time


ANCHOR = "procrastinate"
TASK = "noop"


def fail(message):
    print(f"{ANCHOR}-anchor: error: {message}", file=sys.stderr)
    sys.exit(1)


try:
    import importlib.metadata
    import psycopg
    import psycopg_pool
    import procrastinate
    import uvloop
    from procrastinate.worker import Worker
except ImportError as error:
    fail(f"{error}: run this script with the Python of the venv made by Scripts/install-durable-anchors.sh")


def parse_arguments():
    parser = argparse.ArgumentParser(description="Enqueues and drains N no-op jobs with procrastinate on psycopg.")
    parser.add_argument(
        "--url", required=True,
        help="postgres://USER:PASSWORD@HOST:PORT/DB[?sslmode=…&sslrootcert=…] (a libpq URL, passed to psycopg)")
    parser.add_argument(
        "--schema", required=True, help="schema to install procrastinate into (dropped first if it exists)")
    parser.add_argument("--jobs", type=int, default=20000, help="jobs to enqueue and drain (default 20000)")
    parser.add_argument("--workers", type=int, default=4, help="the worker's concurrency (default 4)")
    parser.add_argument(
        "--finished-rows", type=int, default=0,
        help="succeeded jobs in procrastinate_jobs before the clock starts, with their events (default 0)")
    parser.add_argument(
        "--pool-size", type=int, default=0, help="connections in the psycopg pool (default: --workers, at least 4)")
    parser.add_argument(
        "--enqueue-batch", type=int, default=1000, help="jobs one batch_defer_async call defers (default 1000)")
    parser.add_argument(
        "--stock", action="store_true",
        help="the pool as procrastinate makes it: a check query on every checkout, every query in a transaction")
    parser.add_argument("--asyncio", action="store_true", help="run on asyncio's own event loop instead of uvloop")
    parser.add_argument(
        "--timeout", type=float, default=600,
        help="seconds the drain may take before the anchor gives up (default 600)")
    arguments = parser.parse_args()
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", arguments.schema):
        fail(f"--schema {arguments.schema!r}: use lower-case letters, digits and _ "
             f"(at most 63, not starting with a digit)")
    if not arguments.url.startswith(("postgres://", "postgresql://")):
        fail("--url must start with postgres:// or postgresql://")
    for name in ("jobs", "workers", "enqueue_batch"):
        if getattr(arguments, name) < 1:
            fail(f"--{name.replace('_', '-')} must be at least 1")
    if arguments.finished_rows < 0:
        fail("--finished-rows must be 0 or more")
    if arguments.pool_size < 0:
        fail("--pool-size must be 0 (the default: --workers, at least 4) or more")
    if arguments.timeout <= 0:
        fail("--timeout must be positive")
    arguments.pool_size = arguments.pool_size or max(arguments.workers, 4)
    return arguments


def lean_pool(**arguments):
    """procrastinate's pool without the check query it asks psycopg_pool to run on every checkout."""
    return psycopg_pool.AsyncConnectionPool(**{**arguments, "check": None})


async def autocommit(connection):
    """Every connection of the pool (and the worker's LISTEN connection) in autocommit: procrastinate sends one
    statement at a time, each a whole unit (its multi-row work is in its SQL functions), so without the BEGIN and
    COMMIT round trips around each it does the same."""
    await connection.set_autocommit(True)


async def prepare(url, options, schema):
    """Makes the schema anew (procrastinate's objects are then applied in it), and puts the finished jobs in."""
    try:
        async with await psycopg.AsyncConnection.connect(url, options=options, autocommit=True) as connection:
            await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await connection.execute(f"CREATE SCHEMA {schema}")
    except psycopg.Error as error:
        fail(f"cannot connect to the server or make schema {schema}: {error}")


async def add_finished(app, schema, finished):
    if not finished:
        return
    await app.connector.execute_query_async(
        f"""INSERT INTO {schema}.procrastinate_jobs (queue_name, task_name, status, attempts)
            SELECT 'default', '{TASK}', 'succeeded', 1 FROM generate_series(1, {finished})""")
    await app.connector.execute_query_async(
        f"""INSERT INTO {schema}.procrastinate_events (job_id, type)
            SELECT job_id, type::{schema}.procrastinate_job_event_type
            FROM generate_series(1, {finished}) AS job_id,
                 (VALUES ('deferred'), ('started'), ('succeeded')) AS events(type)""")


async def enqueue(task, jobs, batch):
    started = time.perf_counter()
    left = jobs
    while left:
        count = min(batch, left)
        await task.batch_defer_async(*({} for _ in range(count)))
        left -= count
    return time.perf_counter() - started


async def drain(app, jobs, concurrency, timeout, counter):
    worker = Worker(
        app=app, concurrency=concurrency, listen_notify=True, install_signal_handlers=False, name="anchor")
    counter["worker"] = worker
    started = time.perf_counter()
    try:
        await asyncio.wait_for(worker.run(), timeout)
    except asyncio.TimeoutError:
        fail(f"the drain did not finish within {timeout:g} s: {counter['done']} of {jobs} jobs ran")
    return time.perf_counter() - started


async def main(arguments):
    schema = arguments.schema
    options = f"-c search_path={schema}"
    await prepare(arguments.url, options, schema)

    # procrastinate warns of an App made in __main__, which matters only to workers in other processes.
    logging.getLogger("procrastinate.blueprints").addFilter(
        lambda record: getattr(record, "action", None) != "app_defined_in___main__")
    connector = procrastinate.PsycopgConnector(
        conninfo=arguments.url, kwargs={"options": options},
        min_size=arguments.pool_size, max_size=arguments.pool_size,
        **({} if arguments.stock else {"pool_factory": lean_pool, "configure": autocommit}))
    app = procrastinate.App(connector=connector)
    counter = {"done": 0, "worker": None}

    @app.task(name=TASK, queue="default")
    async def noop():
        counter["done"] += 1
        if counter["done"] == arguments.jobs:
            counter["worker"].stop()

    try:
        await app.open_async()
        await app.schema_manager.apply_schema_async()
        await add_finished(app, schema, arguments.finished_rows)
    except (psycopg.Error, procrastinate.exceptions.ProcrastinateException) as error:
        fail(f"cannot connect to the server or install procrastinate into schema {schema}: {error}")

    enqueue_seconds = await enqueue(noop, arguments.jobs, arguments.enqueue_batch)
    # Statistics of the queue as it is now, as autovacuum would have them in a steady state: without them the
    # planner takes the new tables for nearly empty and fetches each job by sorting every waiting one.
    await app.connector.execute_query_async(f"ANALYZE {schema}.procrastinate_jobs, {schema}.procrastinate_events")
    drain_seconds = await drain(app, arguments.jobs, arguments.workers, arguments.timeout, counter)

    rows = await app.connector.execute_query_all_async(
        f"SELECT status::text AS status, count(*) AS n FROM {schema}.procrastinate_jobs GROUP BY status")
    await app.close_async()
    statuses = {row["status"]: row["n"] for row in rows}
    succeeded = statuses.pop("succeeded", 0) - arguments.finished_rows
    if counter["done"] != arguments.jobs or succeeded != arguments.jobs or statuses:
        fail(f"the drain did not account for every job: {counter['done']} ran, {succeeded} succeeded, "
             f"others {statuses}, of {arguments.jobs}")

    print(json.dumps({
        "anchor": ANCHOR,
        "version": importlib.metadata.version("procrastinate"),
        "jobs": arguments.jobs,
        "enqueue_seconds": round(enqueue_seconds, 6),
        "drain_seconds": round(drain_seconds, 6),
    }), flush=True)


if __name__ == "__main__":
    arguments = parse_arguments()
    if arguments.asyncio:
        asyncio.run(main(arguments))
    else:
        uvloop.run(main(arguments))
