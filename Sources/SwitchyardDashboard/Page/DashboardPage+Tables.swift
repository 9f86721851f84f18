#if Dashboard
    extension DashboardPage {
        /// The part of the page's script that renders each source: a `section.source` per source, kept across
        /// updates, with its queues and limits (the job lists, failures and workers are ``scriptJobs``'). Rows are
        /// kept by key (`data-job`, `data-queue`) and each cell is rewritten only when what it shows changed, so an
        /// update of tables of hundreds of rows touches only the cells that moved (elapsed times, counts, progress).
        static let scriptTables = #"""
            function renderSources(snapshot) {
                const seen = new Set();
                let previous = null;
                for (const source of snapshot.sources) {
                    let view = state.views.get(source.id);
                    if (!view) {
                        view = createSourceView(source);
                        state.views.set(source.id, view);
                    }
                    updateSourceView(view, source, snapshot);
                    seen.add(source.id);
                    const next = previous ? previous.nextSibling : sourcesBox.firstChild;
                    if (next !== view.section) sourcesBox.insertBefore(view.section, next);
                    previous = view.section;
                }
                for (const [id, view] of state.views) {
                    if (!seen.has(id)) {
                        view.section.remove();
                        state.views.delete(id);
                    }
                }
            }

            function createSourceView(source) {
                const prefix = "source-" + source.id.replace(/[^A-Za-z0-9_-]/g, "_");
                const title = element("h2", { id: prefix + "-heading" });
                const kind = element("span", { class: "source-kind" });
                const error = element("p", { class: "source-error", hidden: true });
                const section = element(
                    "section", { class: "source", "data-source": source.id, "aria-labelledby": title.id },
                    element("div", { class: "source-heading" }, title, kind), error);
                const view = {
                    section, title, kind, error,
                    queues: part(prefix, "queues", "Queues", "queues"),
                    limitsHeading: element("h3", { id: prefix + "-limits" }, "Shared limits"),
                    limits: element("ul", { class: "limits", "aria-labelledby": prefix + "-limits" }),
                    running: part(prefix, "running", "Running", "running"),
                    waiting: part(prefix, "waiting", "Waiting", "waiting"),
                    failures: part(prefix, "failures", "Recent failures", "failures"),
                    workers: part(prefix, "workers", "Workers", "workers"),
                };
                view.limitsPart = element("div", { class: "part part-limits" }, view.limitsHeading, view.limits);
                section.append(
                    view.queues.box, view.limitsPart, view.running.box, view.waiting.box, view.failures.box,
                    view.workers.box);
                return view;
            }

            // A titled table with a summary line (counts, or what an empty table means) and, for job lists, a button
            // that shows more.
            function part(prefix, key, title, tableClass) {
                const heading = element("h3", { id: prefix + "-" + key }, title);
                const summary = element("p", { class: "summary" });
                const thead = element("thead");
                const tbody = element("tbody");
                const table = element("table", { class: tableClass, "aria-labelledby": heading.id }, thead, tbody);
                const scroller = element("div", { class: "scroll", "data-label": heading.id }, table);
                const more = key === "running" || key === "waiting"
                    ? button("more", "show more", { "data-list": key, hidden: true })
                    : null;
                const box = element("div", { class: "part part-" + key }, heading, summary, scroller, more);
                return {
                    box, heading, summary, table, thead, tbody, more, columns: [], columnsKey: null, rows: new Map(),
                };
            }

            // A column: its header, the class of its cells, and how a cell shows an item (writing only what changed).
            function column(title, className, show) {
                return { title, className, show };
            }

            function setColumns(view, columns) {
                const key = columns.map((each) => each.title).join("\n");
                if (view.columnsKey === key) return;
                view.columnsKey = key;
                view.columns = columns;
                const row = element("tr");
                for (const each of columns) {
                    row.append(element("th", { scope: "col", class: each.className }, each.title));
                }
                view.thead.replaceChildren(row);
                view.tbody.replaceChildren();
                view.rows = new Map();
            }

            // Brings the table's rows to `items`, in order, reusing the row of each key: the rows of keys no longer
            // listed are removed first, so a list that only lost its first items moves no row.
            function syncRows(view, items, keyOf, decorate, context) {
                const wanted = new Map();
                for (const item of items) {
                    const key = keyOf(item);
                    if (!wanted.has(key)) wanted.set(key, item);
                }
                for (const [key, row] of view.rows) if (!wanted.has(key)) row.remove();
                const fresh = new Map();
                let cursor = view.tbody.firstChild;
                for (const [key, item] of wanted) {
                    let row = view.rows.get(key);
                    if (!row) {
                        row = element("tr");
                        for (const each of view.columns) row.append(element("td", { class: each.className }));
                    }
                    decorate(row, item);
                    view.columns.forEach((each, index) => each.show(row.cells[index], item, context));
                    fresh.set(key, row);
                    if (row === cursor) {
                        cursor = cursor.nextSibling;
                    } else {
                        view.tbody.insertBefore(row, cursor);
                    }
                }
                view.rows = fresh;
                view.table.hidden = fresh.size === 0;
            }

            function setRow(row, className, data) {
                if (row.className !== className) row.className = className;
                for (const [name, value] of Object.entries(data)) setAttribute(row, "data-" + name, value);
            }

            function updateSourceView(view, source, snapshot) {
                const context = {
                    source,
                    can: (action) => actionsUsable(snapshot) && (source.actions || []).includes(action),
                };
                setText(view.title, source.id);
                setText(view.kind, source.kind === "durable" ? "durable queue (PostgreSQL)" : "in-process work queues");
                view.error.hidden = !source.error;
                if (source.error) setText(view.error, "This source cannot be read: " + source.error);
                for (const box of [view.queues.box, view.running.box, view.waiting.box, view.failures.box]) {
                    box.hidden = Boolean(source.error);
                }
                view.workers.box.hidden = Boolean(source.error) || source.kind !== "durable";
                renderQueues(view.queues, source, context);
                renderLimits(view, source);
                renderJobs(view.running, source, "running", context);
                renderJobs(view.waiting, source, "waiting", context);
                renderFailures(view.failures, source, context);
                if (source.kind === "durable") renderWorkers(view.workers, source);
            }

            function numberColumn(title, key) {
                return column(title, "num", (cell, item) => setText(cell, count(item[key])));
            }

            function renderQueues(view, source, context) {
                const queues = source.queues || [];
                const withUnits = queues.some((queue) => queue.totalUnits !== null && queue.totalUnits !== undefined);
                const withActions = ["suspendQueue", "resumeQueue", "cancelQueue"].some(context.can);
                const columns = [
                    column("Queue", "name", (cell, queue) => fill(cell, queue.name + "\n" + queue.suspended, () => [
                        queue.name, queue.suspended ? element("span", { class: "badge suspended" }, "suspended") : null,
                    ])),
                    column("Width", "width", (cell, queue) => fill(cell, queue.width + "\n" + queue.limit, () => [
                        queue.width === null || queue.width === undefined ? "unlimited" : count(queue.width),
                        queue.limit ? element("span", { class: "limit" }, "limit " + queue.limit) : null,
                    ])),
                    numberColumn("Waiting", "waiting"),
                    numberColumn("Ready", "ready"),
                    numberColumn("Running", "running"),
                    numberColumn("Succeeded", "succeeded"),
                    numberColumn("Failed", "failed"),
                    numberColumn("Cancelled", "cancelled"),
                    column("Throughput", "num", (cell, queue) => setText(cell, rate(queue.throughput))),
                    column("Recent throughput", "history", (cell, queue) => sparkline(cell, queue)),
                ];
                if (withUnits) columns.push(column("Units done", "units-cell", queueUnits));
                if (withActions) columns.push(column("Actions", "actions", queueActions));
                setColumns(view, columns);
                syncRows(view, queues, (queue) => queue.name, (row, queue) => {
                    setRow(row, queue.suspended ? "queue suspended" : "queue", { queue: queue.name });
                }, context);
                setText(view.summary, queues.length === 0 ? "No queues." : "");
                view.summary.hidden = queues.length !== 0;
            }

            // The queue's throughput samples as a polyline, newest on the right, on a scale of the largest sample.
            function sparkline(cell, queue) {
                const history = queue.history || [];
                const key = history.join(",");
                if (cell.dashboardKey === key) return;
                cell.dashboardKey = key;
                const width = 120;
                const height = 28;
                const slots = 60;
                const peak = Math.max(0, ...history);
                const step = width / (slots - 1);
                const points = history.slice(-slots).map((value, index, shown) => {
                    const x = width - (shown.length - 1 - index) * step;
                    const y = height - 2 - (peak > 0 ? (Math.max(0, value) / peak) * (height - 4) : 0);
                    return x.toFixed(1) + "," + y.toFixed(1);
                });
                const label = history.length === 0
                    ? "no throughput measured yet"
                    : "throughput of the last " + history.length + " updates: latest "
                        + rate(history[history.length - 1])
                        + ", peak " + rate(peak);
                let svg = cell.firstElementChild;
                if (!svg) {
                    svg = svgElement("svg", {
                        class: "sparkline", role: "img", width, height, viewBox: "0 0 " + width + " " + height,
                    }, svgElement("line", { class: "baseline", x1: 0, y1: height - 1.5, x2: width, y2: height - 1.5 }),
                        svgElement("polyline", { points: "" }));
                    cell.append(svg);
                }
                svg.setAttribute("aria-label", label);
                // A single sample is drawn as a point (a line of one point, twice).
                const drawn = points.length === 1 ? points[0] + " " + points[0] : points.join(" ");
                svg.lastElementChild.setAttribute("points", drawn);
            }

            function queueUnits(cell, queue) {
                if (queue.totalUnits === null || queue.totalUnits === undefined) return setText(cell, "—");
                setText(cell, count(queue.completedUnits || 0) + " / " + count(queue.totalUnits));
            }

            function queueActions(cell, queue, context) {
                const suspend = context.can("suspendQueue") && !queue.suspended;
                const resume = context.can("resumeQueue") && queue.suspended;
                const cancel = context.can("cancelQueue");
                fill(cell, [queue.name, suspend, resume, cancel].join("\n"), () => [
                    suspend ? button("suspend-queue", "suspend", {
                        "data-queue": queue.name, "aria-label": "suspend queue " + queue.name,
                    }) : null,
                    resume ? button("resume-queue", "resume", {
                        "data-queue": queue.name, "aria-label": "resume queue " + queue.name,
                    }) : null,
                    cancel ? button("cancel-queue danger", "cancel all", {
                        "data-queue": queue.name, "aria-label": "cancel all jobs of queue " + queue.name,
                    }) : null,
                ]);
            }

            function renderLimits(view, source) {
                const limits = source.limits || [];
                view.limitsPart.hidden = limits.length === 0 || Boolean(source.error);
                fill(view.limits, JSON.stringify(limits), () => limits.map((limit) => element(
                    "li", { "data-limit": limit.name },
                    "limit " + limit.name + ": " + count(limit.running) + "/" + count(limit.width) + " — queues "
                        + limit.queues.join(", "))));
            }
            """#
    }
#endif
