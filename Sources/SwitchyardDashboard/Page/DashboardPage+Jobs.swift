#if Dashboard
    extension DashboardPage {
        /// The part of the page's script that renders a source's running and waiting jobs (with the further pages
        /// of them that `show more` fetches from `jobs.json`, fetched again after updates so they stay current), its
        /// failures and its workers, through the row and cell helpers of ``scriptTables``.
        static let scriptJobs = #"""
            function jobName(cell, job) {
                fill(cell, job.name + "\n" + job.cancelRequested, () => [
                    job.name, job.cancelRequested ? element("span", { class: "badge cancelling" }, "cancelling") : null,
                ]);
            }

            function priority(cell, job) {
                const escalated = job.effectivePriority !== job.priority;
                if (cell.classList.contains("escalated") !== escalated) cell.classList.toggle("escalated", escalated);
                setText(cell, escalated ? job.priority + " → " + job.effectivePriority : job.priority);
                setAttribute(cell, "title", escalated ? "escalated: a job of higher priority waits on it" : null);
            }

            function progress(cell, job) {
                if (!cell.bar) {
                    cell.bar = element("progress", { class: "job-progress" });
                    cell.units = element("span", { class: "units" });
                    cell.append(cell.bar, cell.units);
                }
                const total = Number(job.totalUnits) || 0;
                const done = Number(job.completedUnits) || 0;
                if (total > 0) {
                    setAttribute(cell.bar, "max", total);
                    setAttribute(cell.bar, "value", Math.min(done, total));
                    setText(cell.units, count(done) + " / " + count(total));
                } else {
                    setAttribute(cell.bar, "max", null);
                    setAttribute(cell.bar, "value", null);
                    setText(cell.units, done > 0 ? count(done) : "");
                }
                const label = total > 0 ? count(done) + " of " + count(total) + " units" : "progress unknown";
                setAttribute(cell.bar, "aria-label", "progress of " + job.name + ": " + label);
            }

            function reasons(cell, job) {
                const list = job.reasons || [];
                fill(cell, JSON.stringify(list), () => list.map(reasonElement));
            }

            // A reason: its text, with each job it waits on (`dependencies`) as a link to that job's graph, in place
            // where the text names the job (quoted or not), else after the text; then the usage of a full limit
            // (`domain running/width`) unless the text says it.
            function reasonElement(reason) {
                const span = element("span", { class: "reason", "data-kind": reason.kind });
                let rest = String(reason.text);
                const unnamed = [];
                for (const each of reason.kind === "dependencies" ? reason.jobs || [] : []) {
                    const link = button("job-link", each.name, {
                        "data-job": each.id, "aria-label": each.name + ": show its graph",
                    });
                    let at = each.name ? rest.indexOf('"' + each.name + '"') : -1;
                    let length = each.name.length + 2;
                    if (at < 0 && each.name) {
                        at = rest.indexOf(each.name);
                        length = each.name.length;
                    }
                    if (at < 0) {
                        unnamed.push(link);
                    } else {
                        span.append(rest.slice(0, at), link);
                        rest = rest.slice(at + length);
                    }
                }
                span.append(rest);
                unnamed.forEach((link, index) => span.append(index === 0 ? ": " : ", ", link));
                const hasUsage = reason.domain !== null && reason.domain !== undefined && reason.width !== null
                    && reason.width !== undefined;
                const known = hasUsage && reason.running !== null && reason.running !== undefined;
                if (hasUsage && !(known && String(reason.text).includes(reason.running + "/" + reason.width))) {
                    const running = known ? count(reason.running) : "?";
                    const usage = reason.domain + " " + running + "/" + count(reason.width);
                    span.append(" ", element("span", { class: "usage" }, usage));
                }
                return span;
            }

            function jobActions(cell, job, context) {
                const cancel = context.can("cancelJob") && !job.cancelRequested;
                fill(cell, [job.id, job.name, cancel].join("\n"), () => [
                    button("show-graph", "graph", { "data-job": job.id, "aria-label": "graph of " + job.name }),
                    cancel ? button("cancel-job danger", "cancel", {
                        "data-job": job.id, "data-name": job.name, "aria-label": "cancel " + job.name,
                    }) : null,
                ]);
            }

            function renderJobs(view, source, list, context) {
                const running = list === "running";
                const durable = source.kind === "durable";
                const columns = [
                    column("Job", "name", jobName),
                    column("Queue", "queue", (cell, job) => setText(cell, job.queue)),
                ];
                if (running) {
                    columns.push(
                        column("Priority", "priority", priority),
                        column("Elapsed", "num elapsed", (cell, job) => {
                            setText(cell, duration(job.elapsed ?? job.age));
                        }),
                        numberColumn("Attempts", "attempts"),
                        column("Progress", "progress", progress));
                    if (durable) {
                        columns.push(column("Worker", "worker", (cell, job) => setText(cell, job.worker || "—")));
                    }
                } else {
                    columns.push(
                        column("State", "state", (cell, job) => setText(cell, job.state)),
                        column("Priority", "priority", priority),
                        column("Waiting for", "num age", (cell, job) => setText(cell, duration(job.age))),
                        numberColumn("Attempts", "attempts"),
                        column("Why it waits", "reasons", reasons));
                }
                columns.push(column("Actions", "actions", jobActions));
                setColumns(view, columns);
                let jobs = (running ? source.running : source.waiting) || [];
                const extra = state.more.get(moreKey(source.id, list));
                if (extra && extra.jobs.length > 0) {
                    const listed = new Set(jobs.map((job) => job.id));
                    jobs = jobs.concat(extra.jobs.filter((job) => !listed.has(job.id)));
                }
                syncRows(view, jobs, (job) => job.id, (row, job) => {
                    setRow(row, "job " + list + (job.cancelRequested ? " cancel-requested" : ""), { job: job.id });
                }, context);
                const total = Math.max((running ? source.runningTotal : source.waitingTotal) || 0, jobs.length);
                let summary = jobs.length === 0
                    ? (running ? "No job is running." : "No job is waiting.")
                    : "showing " + count(jobs.length) + " of " + count(total);
                if (extra && extra.error) summary += " · more could not be loaded: " + extra.error;
                setText(view.summary, summary);
                const left = total - jobs.length;
                const canAsk = left > 0 && (!extra || extra.limit < mostExtraJobs);
                view.more.hidden = !canAsk;
                if (canAsk) {
                    const next = Math.min(pageSize, left);
                    setText(view.more, "show " + count(next) + " more " + list + (next === 1 ? " job" : " jobs"));
                }
            }

            function moreKey(source, list) {
                return source + "\n" + list;
            }

            function showMore(source, list) {
                const key = moreKey(source, list);
                const extra = state.more.get(key)
                    || { source, list, limit: 0, jobs: [], loading: false, loadedAt: 0, error: null };
                extra.limit = Math.min(extra.limit + pageSize, mostExtraJobs);
                state.more.set(key, extra);
                loadMore(extra);
            }

            // Fetches the jobs after the snapshot's list again after each update, so the extra rows stay current.
            function refreshMore() {
                for (const extra of state.more.values()) {
                    if (Date.now() - extra.loadedAt >= refreshEvery) loadMore(extra);
                }
            }

            async function loadMore(extra) {
                if (extra.loading || !state.snapshot) return;
                const source = state.snapshot.sources.find((each) => each.id === extra.source);
                if (!source) return;
                extra.loading = true;
                extra.loadedAt = Date.now();
                const offset = ((extra.list === "running" ? source.running : source.waiting) || []).length;
                const address = basePath + "jobs.json?"
                    + query({ source: extra.source, list: extra.list, offset, limit: extra.limit });
                try {
                    const response = await fetch(address, { cache: "no-store" });
                    const body = await response.json().catch(() => null);
                    if (!response.ok || !body) throw new Error((body && body.error) || "HTTP " + response.status);
                    extra.jobs = body.jobs || [];
                    extra.error = null;
                } catch (error) {
                    extra.error = error.message;
                } finally {
                    extra.loading = false;
                }
                if (state.snapshot) render(state.snapshot);
            }

            function renderFailures(view, source, context) {
                const failures = source.failures || [];
                const retry = context.can("retryJob");
                const columns = [
                    column("Job", "name", (cell, failure) => setText(cell, failure.name)),
                    column("Queue", "queue", (cell, failure) => setText(cell, failure.queue)),
                    column("State", "state", (cell, failure) => setText(cell, failure.state)),
                    numberColumn("Attempts", "attempts"),
                    column("Error", "error", (cell, failure) => {
                        fill(cell, failure.error, () => [element("code", {}, failure.error)]);
                    }),
                    column("Finished", "finished", (cell, failure) => fill(cell, failure.finishedAt, () => [
                        element("time", { datetime: failure.finishedAt }, moment(failure.finishedAt)),
                    ])),
                ];
                if (retry) columns.push(column("Actions", "actions", retryAction));
                setColumns(view, columns);
                syncRows(view, failures, (failure) => failure.id, (row, failure) => {
                    setRow(row, "failure", { job: failure.id });
                }, context);
                setText(view.summary, failures.length === 0 ? "No job has failed." : "the latest, newest first");
            }

            function retryAction(cell, failure) {
                fill(cell, failure.id + "\n" + failure.name, () => [
                    button("retry-job", "retry", {
                        "data-job": failure.id, "data-name": failure.name, "aria-label": "retry " + failure.name,
                    }),
                ]);
            }

            function renderWorkers(view, source) {
                const workers = source.workers || [];
                setColumns(view, [
                    column("Worker", "name", (cell, worker) => setText(cell, worker.name)),
                    column("Host", "host", (cell, worker) => setText(cell, worker.host)),
                    column("PID", "num", (cell, worker) => setText(cell, String(worker.pid))),
                    column("Jobs", "num", (cell, worker) => {
                        setText(cell, count(worker.running) + " of " + count(worker.concurrency));
                    }),
                    column("Status", "alive", (cell, worker) => setText(cell, worker.alive ? "alive" : "gone")),
                    column("Last seen", "num", (cell, worker) => {
                        setText(cell, duration(worker.secondsSinceSeen) + " ago");
                    }),
                ]);
                const keyOf = (worker) => worker.name + "\n" + worker.host + "\n" + worker.pid;
                syncRows(view, workers, keyOf, (row, worker) => {
                    setRow(row, worker.alive ? "worker" : "worker gone", { worker: worker.name });
                });
                setText(view.summary, workers.length === 0 ? "No worker is registered." : "");
                view.summary.hidden = workers.length !== 0;
            }
            """#
    }
#endif
