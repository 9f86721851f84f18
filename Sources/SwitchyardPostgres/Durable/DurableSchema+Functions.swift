#if Postgres
    extension DurableSchema {
        /// The functions of version 1: each transition is one round trip, and every transition of a running job is
        /// fenced by its attempt (`WHERE id = … AND attempt = … AND state = 'running'`).
        ///
        /// - `enqueue`: inserts jobs (one or thousands) with their dependency edges, escalates the priority of the
        ///   unfinished jobs they wait on, and notifies the workers.
        /// - `claim`: leases up to `p_limit` available jobs, highest effective priority first; a queue with a width is
        ///   claimed under its `queues` row's lock, counting its running jobs, so the width holds across processes.
        /// - `finish`: records outcomes (succeeded, failed and retried or not, cancelled, released) of the attempts
        ///   named, and settles their dependents.
        /// - `renew`: extends the leases of one worker's attempts, stores their progress, and answers which were
        ///   asked to cancel (an attempt missing from the answer lost its lease).
        /// - `rescue`: retries (or fails) the jobs whose lease expired.
        /// - `cancel`: cancels jobs not started and asks running ones to stop (NOTIFY on the cancel channel).
        /// - `settle`: releases, cancels or fails the dependents of finished jobs by edge policy, transitively.
        static func functions(_ s: String, channel: String) -> [String] {
            let jobs = literal(jobsChannel(channel))
            let cancels = literal(cancelChannel(channel))
            return [settle(s, jobs), enqueue(s, jobs), take(s), claim(s), finish(s, jobs), renew(s), rescue(s, jobs)]
                + [cancel(s, cancels)]
        }

        private static func settle(_ s: String, _ channel: String) -> String {
            """
            CREATE FUNCTION \(s).settle(p_done bigint[], p_failed bigint[], p_cancelled bigint[])
            RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
                next_failed bigint[];
                next_cancelled bigint[];
                released integer;
            BEGIN
                LOOP
                    WITH c AS (
                        UPDATE \(s).jobs j SET
                            state = CASE WHEN e.policy = 0 THEN 'cancelled' ELSE 'failed' END,
                            error = CASE WHEN e.policy = 0
                                THEN 'cancelled: dependency ' || e.parent || ' ' || p.state
                                ELSE 'dependency ' || e.parent || ' ' || p.state || ': ' || coalesce(p.error, '') END,
                            finished_at = clock_timestamp()
                        FROM \(s).edges e JOIN \(s).jobs p ON p.id = e.parent
                        WHERE e.child = j.id AND e.policy IN (0, 1) AND j.state = 'waiting'
                            AND (e.parent = ANY(p_failed) OR e.parent = ANY(p_cancelled))
                        RETURNING j.id, j.state)
                    SELECT coalesce(array_agg(id) FILTER (WHERE state = 'failed'), '{}'),
                        coalesce(array_agg(id) FILTER (WHERE state = 'cancelled'), '{}')
                    INTO next_failed, next_cancelled FROM c;
                    WITH r AS (
                        SELECT e.child, count(*)::integer AS n FROM \(s).edges e
                        WHERE e.parent = ANY(p_done)
                            OR (e.policy = 2 AND (e.parent = ANY(p_failed) OR e.parent = ANY(p_cancelled)))
                        GROUP BY e.child),
                    u AS (
                        UPDATE \(s).jobs j SET pending = j.pending - r.n,
                            state = CASE WHEN j.pending - r.n <= 0 THEN 'available' ELSE 'waiting' END
                        FROM r WHERE j.id = r.child AND j.state = 'waiting'
                        RETURNING j.state)
                    SELECT count(*) FILTER (WHERE state = 'available') INTO released FROM u;
                    IF released > 0 THEN PERFORM pg_notify(\(channel), ''); END IF;
                    EXIT WHEN cardinality(next_failed) = 0 AND cardinality(next_cancelled) = 0;
                    p_done := '{}';
                    p_failed := next_failed;
                    p_cancelled := next_cancelled;
                END LOOP;
            END $$
            """
        }

        private static func enqueue(_ s: String, _ channel: String) -> String {
            """
            CREATE FUNCTION \(s).enqueue(
                p_kind text, p_queue text, p_priority smallint, p_inputs text[], p_input_from bigint,
                p_max_attempts integer, p_backoff_ms bigint, p_backoff_max_ms bigint, p_timeout_ms bigint,
                p_run_at timestamptz, p_unique_keys text[], p_parents bigint[], p_policies smallint[])
            RETURNS TABLE (job_id bigint, created boolean) LANGUAGE plpgsql AS $$
            DECLARE
                pending_count integer := 0;
                initial_state text := 'available';
                initial_error text;
                missing bigint;
                blocker record;
                new_ids bigint[];
                new_keys text[];
                held_ids bigint[];
                held_keys text[];
                lifted bigint[];
            BEGIN
                IF cardinality(p_parents) > 0 THEN
                    -- Locked (in id order) so that none finishes, or is pruned, between this count and the edges'
                    -- insert; a missing one is looked for after the lock.
                    PERFORM 1 FROM \(s).jobs WHERE id = ANY(p_parents) ORDER BY id FOR UPDATE;
                    SELECT x.id INTO missing FROM unnest(p_parents) AS x(id)
                        WHERE NOT EXISTS (SELECT 1 FROM \(s).jobs j WHERE j.id = x.id) LIMIT 1;
                    IF missing IS NOT NULL THEN
                        RAISE EXCEPTION 'no job % to depend on (never enqueued, or pruned)', missing
                            USING ERRCODE = 'foreign_key_violation';
                    END IF;
                    SELECT count(*) INTO pending_count FROM \(s).jobs
                        WHERE id = ANY(p_parents) AND state IN ('waiting', 'available', 'running');
                    SELECT j.id, j.state, j.error, x.policy INTO blocker
                        FROM unnest(p_parents, p_policies) AS x(id, policy) JOIN \(s).jobs j ON j.id = x.id
                        WHERE j.state IN ('failed', 'cancelled') AND x.policy IN (0, 1)
                        ORDER BY x.policy, j.id LIMIT 1;
                    IF FOUND THEN
                        initial_state := CASE WHEN blocker.policy = 0 THEN 'cancelled' ELSE 'failed' END;
                        initial_error := CASE WHEN blocker.policy = 0
                            THEN 'cancelled: dependency ' || blocker.id || ' ' || blocker.state
                            ELSE 'dependency ' || blocker.id || ' ' || blocker.state || ': '
                                || coalesce(blocker.error, '') END;
                    ELSIF pending_count > 0 THEN
                        initial_state := 'waiting';
                    END IF;
                END IF;
                -- A key held by an unfinished job returns that job: ON CONFLICT … DO UPDATE (a no-op update) both
                -- locks it and returns its id atomically, where DO NOTHING would leave a holder that finishes
                -- meanwhile unfound. A key repeated in one call is inserted once.
                WITH src AS (
                    SELECT x.input, x.key, x.ord
                    FROM unnest(p_inputs, p_unique_keys) WITH ORDINALITY AS x(input, key, ord)),
                firsts AS (
                    SELECT input, key, ord FROM src WHERE key = ''
                    UNION ALL
                    SELECT * FROM (SELECT DISTINCT ON (key) input, key, ord FROM src WHERE key <> ''
                        ORDER BY key, ord) k),
                inserted AS (
                    INSERT INTO \(s).jobs (kind, queue, state, priority, effective_priority, input, input_from, error,
                        max_attempts, backoff_ms, backoff_max_ms, timeout_ms, run_at, pending, unique_key, finished_at)
                    SELECT p_kind, p_queue, initial_state, p_priority, p_priority, nullif(x.input, '')::jsonb,
                        p_input_from, initial_error, p_max_attempts, p_backoff_ms, p_backoff_max_ms, p_timeout_ms,
                        coalesce(p_run_at, now()), pending_count, nullif(x.key, ''),
                        CASE WHEN initial_state IN ('cancelled', 'failed') THEN clock_timestamp() END
                    FROM firsts x
                    ORDER BY x.ord
                    ON CONFLICT (unique_key)
                        WHERE unique_key IS NOT NULL AND state IN ('waiting', 'available', 'running')
                        DO UPDATE SET unique_key = EXCLUDED.unique_key
                    RETURNING id, unique_key, xmax = 0 AS is_new)
                SELECT coalesce(array_agg(id ORDER BY id) FILTER (WHERE is_new), '{}'),
                    coalesce(array_agg(unique_key ORDER BY id) FILTER (WHERE is_new), '{}'),
                    coalesce(array_agg(id) FILTER (WHERE NOT is_new), '{}'),
                    coalesce(array_agg(unique_key) FILTER (WHERE NOT is_new), '{}')
                    INTO new_ids, new_keys, held_ids, held_keys FROM inserted;
                IF cardinality(p_parents) > 0 AND cardinality(new_ids) > 0 THEN
                    INSERT INTO \(s).edges (parent, child, policy)
                        SELECT p.id, c.id, p.policy
                        FROM unnest(p_parents, p_policies) AS p(id, policy) CROSS JOIN unnest(new_ids) AS c(id)
                        ON CONFLICT DO NOTHING;
                    UPDATE \(s).jobs SET has_dependents = true WHERE id = ANY(p_parents) AND NOT has_dependents;
                    IF initial_state = 'waiting' THEN
                        WITH RECURSIVE up(id) AS (
                            SELECT unnest(p_parents)
                            UNION
                            SELECT e.parent FROM \(s).edges e JOIN up ON e.child = up.id
                                JOIN \(s).jobs w ON w.id = up.id AND w.state = 'waiting')
                        SELECT coalesce(array_agg(id), '{}') INTO lifted FROM up;
                        PERFORM 1 FROM \(s).jobs WHERE id = ANY(lifted) AND effective_priority < p_priority
                            AND state IN ('waiting', 'available') ORDER BY id FOR UPDATE;
                        UPDATE \(s).jobs SET effective_priority = p_priority
                        WHERE id = ANY(lifted) AND effective_priority < p_priority
                            AND state IN ('waiting', 'available');
                    END IF;
                END IF;
                IF initial_state = 'available' AND cardinality(new_ids) > 0 AND coalesce(p_run_at, now()) <= now() THEN
                    PERFORM pg_notify(\(channel), p_queue);
                END IF;
                RETURN QUERY
                WITH x AS (
                    SELECT k.key, k.ord, row_number() OVER (PARTITION BY k.key = '' ORDER BY k.ord) AS n,
                        min(k.ord) OVER (PARTITION BY k.key) AS first
                    FROM unnest(p_unique_keys) WITH ORDINALITY AS k(key, ord)),
                made AS (
                    SELECT m.id, m.key, row_number() OVER (PARTITION BY m.key IS NULL ORDER BY m.id) AS n
                    FROM unnest(new_ids, new_keys) AS m(id, key)),
                held AS (SELECT h.id, h.key FROM unnest(held_ids, held_keys) AS h(id, key))
                SELECT coalesce(a.id, b.id, e.id), (a.id IS NOT NULL OR (b.id IS NOT NULL AND x.ord = x.first))
                FROM x
                LEFT JOIN made a ON x.key = '' AND a.key IS NULL AND a.n = x.n
                LEFT JOIN made b ON x.key <> '' AND b.key = x.key
                LEFT JOIN held e ON x.key <> '' AND e.key = x.key
                ORDER BY x.ord;
            END $$
            """
        }

        private static func take(_ s: String) -> String {
            """
            CREATE FUNCTION \(s).take(
                p_worker bigint, p_kinds text[], p_queues text[], p_limit integer, p_lease_ms bigint)
            RETURNS TABLE (job_id bigint, job_kind text, job_queue text, job_attempt integer, job_failures integer,
                job_input text, job_timeout_ms bigint, job_priority smallint)
            LANGUAGE sql
            -- Walk jobs_claim in its order and stop at the limit, whatever the (always stale) statistics of a
            -- queue table make the planner estimate.
            SET enable_bitmapscan = off SET enable_sort = off
            AS $$
                WITH c AS (
                    SELECT id FROM \(s).jobs
                    WHERE state = 'available' AND run_at <= now() AND queue = ANY(p_queues) AND kind = ANY(p_kinds)
                    ORDER BY effective_priority DESC, run_at, id
                    LIMIT p_limit
                    FOR UPDATE SKIP LOCKED)
                UPDATE \(s).jobs j SET state = 'running', attempt = j.attempt + 1, worker = p_worker,
                    lease_until = now() + p_lease_ms * interval '1 millisecond', started_at = clock_timestamp(),
                    progress_completed = 0, progress_total = 0
                FROM c WHERE j.id = c.id
                RETURNING j.id, j.kind, j.queue, j.attempt, j.failures,
                    coalesce(j.input, (SELECT p.output FROM \(s).jobs p WHERE p.id = j.input_from))::text,
                    j.timeout_ms, j.effective_priority
            $$
            """
        }

        private static func claim(_ s: String) -> String {
            """
            CREATE FUNCTION \(s).claim(
                p_worker bigint, p_kinds text[], p_queues text[], p_limit integer, p_lease_ms bigint)
            RETURNS TABLE (job_id bigint, job_kind text, job_queue text, job_attempt integer, job_failures integer,
                job_input text, job_timeout_ms bigint, job_priority smallint)
            LANGUAGE plpgsql AS $$
            DECLARE
                q record;
                remaining integer := p_limit;
                running_count integer;
                free integer;
                claimed integer;
                limited text[];
            BEGIN
                SELECT coalesce(array_agg(name), '{}') INTO limited FROM \(s).queues
                    WHERE width IS NOT NULL AND name = ANY(p_queues);
                FOR q IN SELECT name, width FROM \(s).queues WHERE name = ANY(limited) ORDER BY name LOOP
                    EXIT WHEN remaining <= 0;
                    CONTINUE WHEN NOT EXISTS (SELECT 1 FROM \(s).jobs j WHERE j.state = 'available'
                        AND j.queue = q.name AND j.run_at <= now() AND j.kind = ANY(p_kinds));
                    PERFORM 1 FROM \(s).queues WHERE name = q.name FOR UPDATE;
                    SELECT count(*) INTO running_count FROM \(s).jobs j WHERE j.state = 'running' AND j.queue = q.name;
                    free := least(remaining, q.width - running_count);
                    CONTINUE WHEN free <= 0;
                    RETURN QUERY SELECT * FROM \(s).take(p_worker, p_kinds, ARRAY[q.name], free, p_lease_ms);
                    GET DIAGNOSTICS claimed = ROW_COUNT;
                    remaining := remaining - claimed;
                END LOOP;
                IF remaining > 0 THEN
                    RETURN QUERY SELECT * FROM \(s).take(p_worker, p_kinds,
                        ARRAY(SELECT unnest(p_queues) EXCEPT SELECT unnest(limited)), remaining, p_lease_ms);
                END IF;
            END $$
            """
        }

        private static func finish(_ s: String, _ channel: String) -> String {
            // Outcomes: 0 succeeded, 1 failed (retried while attempts remain), 2 failed for good, 3 cancelled,
            // 4 released (back to available, not counted as a failure). A job asked to cancel ends cancelled unless
            // it succeeded.
            let retry = "(v.outcome = 1 AND NOT j.cancel_requested AND j.failures + 1 < j.max_attempts)"
            let release = "(v.outcome = 4 AND NOT j.cancel_requested)"
            return """
                CREATE FUNCTION \(s).finish(
                    p_ids bigint[], p_attempts integer[], p_outcomes smallint[], p_outputs text[], p_errors text[])
                RETURNS TABLE (job_id bigint, job_state text) LANGUAGE plpgsql
                -- A row held by another transaction (an enqueue with dependencies, open until its caller commits)
                -- fails the batch after 5 s, and the worker writes it again later, rather than waiting unbounded.
                SET lock_timeout = '5s'
                AS $$
                DECLARE
                    ids bigint[];
                    states text[];
                    parents bigint[];
                BEGIN
                    WITH v AS (
                        SELECT * FROM unnest(p_ids, p_attempts, p_outcomes, p_outputs, p_errors)
                            AS v(id, attempt, outcome, output, error)),
                    changed AS (
                        UPDATE \(s).jobs j SET
                            state = CASE WHEN v.outcome = 0 THEN 'succeeded'
                                WHEN \(retry) OR \(release) THEN 'available'
                                WHEN j.cancel_requested OR v.outcome IN (3, 4) THEN 'cancelled'
                                ELSE 'failed' END,
                            failures = j.failures + CASE WHEN v.outcome IN (1, 2) THEN 1 ELSE 0 END,
                            output = CASE WHEN v.outcome = 0 THEN nullif(v.output, '')::jsonb END,
                            error = CASE WHEN v.outcome = 0 THEN NULL WHEN \(release) THEN j.error
                                ELSE coalesce(nullif(v.error, ''), 'cancelled') END,
                            run_at = CASE WHEN \(retry) THEN now()
                                + least(j.backoff_ms * power(2, least(j.failures, 40)), j.backoff_max_ms)
                                    * (0.5 + random() / 2) * interval '1 millisecond'
                                ELSE j.run_at END,
                            worker = NULL, lease_until = NULL,
                            finished_at = CASE WHEN v.outcome <> 0 AND (\(retry) OR \(release)) THEN NULL
                                ELSE clock_timestamp() END
                        FROM v
                        WHERE j.id = v.id AND j.attempt = v.attempt AND j.state = 'running'
                        RETURNING j.id, j.state, j.has_dependents)
                    SELECT coalesce(array_agg(id), '{}'), coalesce(array_agg(state), '{}'),
                        coalesce(array_agg(id) FILTER (WHERE has_dependents), '{}')
                        INTO ids, states, parents FROM changed;
                    IF cardinality(parents) > 0 THEN
                        PERFORM \(s).settle(
                            ARRAY(SELECT i FROM unnest(ids, states) AS x(i, t) WHERE t = 'succeeded' AND i = ANY(parents)),
                            ARRAY(SELECT i FROM unnest(ids, states) AS x(i, t) WHERE t = 'failed' AND i = ANY(parents)),
                            ARRAY(SELECT i FROM unnest(ids, states) AS x(i, t) WHERE t = 'cancelled' AND i = ANY(parents)));
                    END IF;
                    IF 'available' = ANY(states) THEN PERFORM pg_notify(\(channel), ''); END IF;
                    RETURN QUERY SELECT * FROM unnest(ids, states);
                END $$
                """
        }

        private static func renew(_ s: String) -> String {
            """
            CREATE FUNCTION \(s).renew(p_worker bigint, p_ids bigint[], p_attempts integer[], p_completed bigint[],
                p_total bigint[], p_lease_ms bigint)
            RETURNS TABLE (job_id bigint, job_attempt integer, cancel boolean) LANGUAGE plpgsql AS $$
            DECLARE
                locked bigint[];
            BEGIN
                UPDATE \(s).workers SET seen_at = now() WHERE id = p_worker;
                -- A row another transaction holds (an enqueue with dependencies on it, open until its caller
                -- commits) is skipped, not waited for: it is answered as kept, and renewed next time.
                SELECT coalesce(array_agg(id), '{}') INTO locked FROM (
                    SELECT id FROM \(s).jobs WHERE id = ANY(p_ids) ORDER BY id FOR UPDATE SKIP LOCKED) x;
                RETURN QUERY
                UPDATE \(s).jobs j SET lease_until = now() + p_lease_ms * interval '1 millisecond',
                    progress_completed = v.completed, progress_total = v.total
                FROM unnest(p_ids, p_attempts, p_completed, p_total) AS v(id, attempt, completed, total)
                WHERE j.id = v.id AND j.id = ANY(locked) AND j.attempt = v.attempt AND j.state = 'running'
                RETURNING j.id, j.attempt, j.cancel_requested;
                RETURN QUERY
                SELECT v.id, v.attempt, false FROM unnest(p_ids, p_attempts) AS v(id, attempt)
                WHERE NOT (v.id = ANY(locked));
            END $$
            """
        }

        private static func rescue(_ s: String, _ channel: String) -> String {
            let retry = "(NOT j.cancel_requested AND j.failures + 1 < j.max_attempts)"
            return """
                CREATE FUNCTION \(s).rescue()
                RETURNS TABLE (job_id bigint, job_state text) LANGUAGE plpgsql AS $$
                DECLARE
                    ids bigint[];
                    states text[];
                BEGIN
                    WITH expired AS (
                        SELECT id FROM \(s).jobs WHERE state = 'running' AND lease_until < now()
                        FOR UPDATE SKIP LOCKED),
                    changed AS (
                        UPDATE \(s).jobs j SET
                            state = CASE WHEN \(retry) THEN 'available'
                                WHEN j.cancel_requested THEN 'cancelled' ELSE 'failed' END,
                            failures = j.failures + 1,
                            error = 'lease expired: worker ' || coalesce(
                                (SELECT w.name || ' (' || w.host || ', pid ' || w.pid || ')'
                                    FROM \(s).workers w WHERE w.id = j.worker),
                                j.worker::text, '?') || ' stopped renewing it',
                            run_at = CASE WHEN \(retry) THEN now() ELSE j.run_at END,
                            worker = NULL, lease_until = NULL,
                            finished_at = CASE WHEN \(retry) THEN NULL ELSE clock_timestamp() END
                        FROM expired e WHERE j.id = e.id
                        RETURNING j.id, j.state)
                    SELECT coalesce(array_agg(id), '{}'), coalesce(array_agg(state), '{}')
                        INTO ids, states FROM changed;
                    PERFORM \(s).settle('{}',
                        ARRAY(SELECT i FROM unnest(ids, states) AS x(i, t) WHERE t = 'failed'),
                        ARRAY(SELECT i FROM unnest(ids, states) AS x(i, t) WHERE t = 'cancelled'));
                    IF 'available' = ANY(states) THEN PERFORM pg_notify(\(channel), ''); END IF;
                    RETURN QUERY SELECT * FROM unnest(ids, states);
                END $$
                """
        }

        private static func cancel(_ s: String, _ channel: String) -> String {
            """
            CREATE FUNCTION \(s).cancel(p_ids bigint[])
            RETURNS TABLE (job_id bigint, job_state text) LANGUAGE plpgsql AS $$
            DECLARE
                cancelled bigint[];
                requested bigint[];
            BEGIN
                -- One statement: a job that changes state meanwhile (a running one written back as available) is
                -- seen as it is when its row is locked.
                WITH c AS (
                    UPDATE \(s).jobs SET
                        state = CASE WHEN state = 'running' THEN state ELSE 'cancelled' END,
                        cancel_requested = cancel_requested OR state = 'running',
                        error = CASE WHEN state = 'running' THEN error ELSE 'cancelled' END,
                        finished_at = CASE WHEN state = 'running' THEN finished_at ELSE clock_timestamp() END
                    WHERE id = ANY(p_ids) AND state IN ('waiting', 'available', 'running')
                    RETURNING id, state)
                SELECT coalesce(array_agg(id) FILTER (WHERE state = 'cancelled'), '{}'),
                    coalesce(array_agg(id) FILTER (WHERE state = 'running'), '{}')
                    INTO cancelled, requested FROM c;
                PERFORM pg_notify(\(channel), x::text) FROM unnest(requested) AS x;
                PERFORM \(s).settle('{}', '{}', cancelled);
                RETURN QUERY SELECT j.id, j.state FROM \(s).jobs j WHERE j.id = ANY(p_ids);
            END $$
            """
        }
    }
#endif
