#if Dashboard
    extension DashboardPage {
        /// The core of the page's script: element helpers and formats, the token, the Server-Sent Events connection
        /// (closed while the page is hidden, reopened with backoff after an error), the status line, the actions and
        /// the click handling. ``scriptTables`` and ``scriptJobs`` render the sources, ``scriptGraph`` the dependency
        /// graph; the page runs the four in one block scope (in strict mode), then `start()`.
        static let scriptCore = #"""
            const root = document.getElementById("dashboard");
            const basePath = root.dataset.basePath;
            const statusLine = document.getElementById("status");
            const sourcesBox = document.getElementById("sources");
            const actionResult = document.getElementById("action-result");
            const svgNamespace = "http://www.w3.org/2000/svg";
            const counts = new Intl.NumberFormat("en");
            const decimals = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });
            const smallDecimals = new Intl.NumberFormat("en", { maximumFractionDigits: 2 });
            const clock = new Intl.DateTimeFormat(undefined, {
                hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
            });
            const dateAndClock = new Intl.DateTimeFormat(undefined, {
                month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
            });
            const pageSize = 100;
            const mostExtraJobs = 500;
            const graphCap = 50;
            // The least time between two fetches of the extra jobs or of the graph that updates make.
            const refreshEvery = 1000;

            const state = {
                snapshot: null,
                token: null,
                events: null,
                retryDelay: 1000,
                retryTimer: 0,
                views: new Map(),
                more: new Map(),
                selected: null,
                graphLoading: false,
                graphStale: false,
                graphKey: "",
                graphLoadedAt: 0,
                marking: false,
            };

            // An HTML element with attributes (`class` sets the class name; null, undefined and false are left out)
            // and children (strings become text nodes).
            function element(tag, attributes, ...children) {
                return build(document.createElement(tag), attributes, children);
            }

            function svgElement(tag, attributes, ...children) {
                return build(document.createElementNS(svgNamespace, tag), attributes, children);
            }

            function build(node, attributes, children) {
                for (const [name, value] of Object.entries(attributes || {})) {
                    if (value === null || value === undefined || value === false) continue;
                    node.setAttribute(name, value === true ? "" : String(value));
                }
                for (const child of children) {
                    if (child !== null && child !== undefined && child !== false) node.append(child);
                }
                return node;
            }

            function button(className, label, attributes) {
                return element("button", { type: "button", class: className, ...attributes }, label);
            }

            // Sets a node's text only when it changed.
            function setText(node, text) {
                const value = String(text);
                if (node.dashboardKey !== value) {
                    node.dashboardKey = value;
                    node.textContent = value;
                }
            }

            // Replaces a node's children with `make()`'s when `key` differs from the one they were made for.
            function fill(node, key, make) {
                if (node.dashboardKey === key) return;
                node.dashboardKey = key;
                const children = make().filter((child) => child !== null && child !== undefined && child !== false);
                node.replaceChildren(...children);
            }

            function setAttribute(node, name, value) {
                if (value === null || value === undefined) {
                    if (node.hasAttribute(name)) node.removeAttribute(name);
                } else if (node.getAttribute(name) !== String(value)) {
                    node.setAttribute(name, String(value));
                }
            }

            function count(value) {
                return value === null || value === undefined ? "—" : counts.format(value);
            }

            function rate(value) {
                if (value === null || value === undefined) return "—";
                return (value < 10 ? smallDecimals : decimals).format(value) + "/s";
            }

            function duration(seconds) {
                if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
                if (seconds < 10) return decimals.format(Math.max(0, seconds)) + " s";
                const whole = Math.floor(seconds);
                const two = (value) => String(value).padStart(2, "0");
                if (whole < 60) return whole + " s";
                if (whole < 3600) return Math.floor(whole / 60) + " min " + two(whole % 60) + " s";
                if (whole < 86400) {
                    return Math.floor(whole / 3600) + " h " + two(Math.floor((whole % 3600) / 60)) + " min";
                }
                return Math.floor(whole / 86400) + " d " + Math.floor((whole % 86400) / 3600) + " h";
            }

            function moment(iso) {
                const date = new Date(iso);
                if (Number.isNaN(date.getTime())) return String(iso);
                const today = new Date().toDateString() === date.toDateString();
                return (today ? clock : dateAndClock).format(date);
            }

            function query(parameters) {
                return new URLSearchParams(parameters).toString();
            }

            // The token of the actions: from the fragment `#token=…` (then kept for this tab and removed from the
            // address bar, so it is neither bookmarked nor shown), else from an earlier load of this tab.
            function readToken() {
                const key = "switchyard-dashboard-token " + basePath;
                const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
                if (match) {
                    let token = match[1];
                    try {
                        token = decodeURIComponent(token);
                    } catch (error) {
                        // A malformed escape: the token is used as written.
                    }
                    try {
                        sessionStorage.setItem(key, token);
                    } catch (error) {
                        // Storage is off: the token lasts as long as the page.
                    }
                    history.replaceState(history.state, "", location.pathname + location.search);
                    return token || null;
                }
                try {
                    return sessionStorage.getItem(key) || null;
                } catch (error) {
                    return null;
                }
            }

            function forgetToken() {
                try {
                    sessionStorage.removeItem("switchyard-dashboard-token " + basePath);
                } catch (error) {
                    // Nothing was kept.
                }
                state.token = null;
                if (state.snapshot) render(state.snapshot);
            }

            function setStatus(kind, text) {
                setAttribute(statusLine, "data-state", kind);
                setText(statusLine, text);
            }

            function connect() {
                if (state.events || document.hidden) return;
                clearTimeout(state.retryTimer);
                if (statusLine.dataset.state !== "reconnecting") setStatus("connecting", "connecting…");
                const events = new EventSource(basePath + "events");
                state.events = events;
                events.addEventListener("snapshot", (event) => {
                    if (state.events !== events) return;
                    let snapshot;
                    try {
                        snapshot = JSON.parse(event.data);
                    } catch (error) {
                        return;
                    }
                    state.retryDelay = 1000;
                    receive(snapshot);
                });
                events.addEventListener("error", () => {
                    if (state.events !== events) return;
                    setStatus("reconnecting", "reconnecting…");
                    if (events.readyState === EventSource.CLOSED) {
                        // The browser gave up (a refused or failed response): try again later, backing off.
                        state.events = null;
                        state.retryTimer = setTimeout(connect, state.retryDelay);
                        state.retryDelay = Math.min(state.retryDelay * 2, 30000);
                    }
                });
            }

            function disconnect() {
                clearTimeout(state.retryTimer);
                if (state.events) {
                    state.events.close();
                    state.events = null;
                }
            }

            function receive(snapshot) {
                state.snapshot = snapshot;
                statusLine.dataset.sequence = String(snapshot.sequence);
                setStatus("live", "live · update " + count(snapshot.sequence) + " · " + moment(snapshot.takenAt));
                render(snapshot);
                refreshMore();
                if (state.selected && !state.selected.missing && Date.now() - state.graphLoadedAt >= refreshEvery) {
                    loadGraph();
                }
            }

            function render(snapshot) {
                renderNotice(snapshot);
                renderSources(snapshot);
                markScrollables();
            }

            function actionsUsable(snapshot) {
                return Boolean(snapshot && snapshot.actionsEnabled && state.token);
            }

            function renderNotice(snapshot) {
                const notice = document.getElementById("notice");
                const forget = document.getElementById("forget-token");
                let text = "";
                if (snapshot.actionsEnabled && !state.token) {
                    text = "Actions are enabled on this server: open the dashboard with #token=… in its address "
                        + "to use them.";
                } else if (snapshot.actionsEnabled) {
                    text = "Actions are enabled: the buttons cancel, suspend, resume and retry at once, without "
                        + "asking.";
                } else if (state.token) {
                    text = "This dashboard is read-only: the server has actions disabled.";
                }
                notice.hidden = text === "";
                forget.hidden = !state.token;
                setText(document.getElementById("notice-text"), text);
                let mode = "read-only";
                if (snapshot.actionsEnabled) mode = state.token ? "actions enabled" : "actions need the token";
                setText(
                    document.getElementById("footer-text"),
                    "Switchyard dashboard · an update every " + smallDecimals.format(snapshot.interval) + " s · "
                        + mode);
            }

            // Lets a table that is wider than its box be scrolled from the keyboard: once per frame at most, in the
            // frame's own layout (reading the boxes' widths forces one).
            function markScrollables() {
                if (state.marking) return;
                state.marking = true;
                requestAnimationFrame(() => {
                    state.marking = false;
                    markNow();
                });
            }

            function markNow() {
                for (const box of document.querySelectorAll(".scroll")) {
                    const scrolls = box.scrollWidth > box.clientWidth + 1;
                    setAttribute(box, "tabindex", scrolls ? "0" : null);
                    setAttribute(box, "role", scrolls ? "group" : null);
                    setAttribute(box, "aria-labelledby", scrolls ? box.dataset.label : null);
                }
            }

            function report(outcome, text) {
                actionResult.dataset.outcome = outcome;
                actionResult.textContent = text;
            }

            async function act(request, control, label) {
                if (!state.token) return;
                control.disabled = true;
                report("pending", label + "…");
                try {
                    const response = await fetch(basePath + "actions", {
                        method: "POST",
                        headers: { "Content-Type": "application/json", Authorization: "Bearer " + state.token },
                        body: JSON.stringify(request),
                        cache: "no-store",
                    });
                    const reply = await response.json().catch(() => ({}));
                    if (response.ok) {
                        report("success", reply.message || label + ": done");
                    } else {
                        report("error", label + ": " + (reply.error || "refused (HTTP " + response.status + ")"));
                    }
                } catch (error) {
                    report("error", label + ": " + error.message);
                } finally {
                    control.disabled = false;
                }
            }

            function onClick(event) {
                const node = event.target.closest("#graph g.node");
                if (node && state.selected) {
                    selectJob(state.selected.source, node.dataset.job);
                    return;
                }
                const control = event.target.closest("button");
                if (!control || control.disabled) return;
                const section = control.closest("section.source");
                const source = section ? section.dataset.source : null;
                const classes = control.classList;
                const job = control.dataset.job;
                const name = control.dataset.name || "job " + job;
                const queue = control.dataset.queue;
                if (classes.contains("show-graph") || classes.contains("job-link")) {
                    selectJob(source, job);
                } else if (classes.contains("cancel-job")) {
                    act({ action: "cancelJob", source, job }, control, "cancel " + name);
                } else if (classes.contains("retry-job")) {
                    act({ action: "retryJob", source, job }, control, "retry " + name);
                } else if (classes.contains("suspend-queue")) {
                    act({ action: "suspendQueue", source, queue }, control, "suspend queue " + queue);
                } else if (classes.contains("resume-queue")) {
                    act({ action: "resumeQueue", source, queue }, control, "resume queue " + queue);
                } else if (classes.contains("cancel-queue")) {
                    act({ action: "cancelQueue", source, queue }, control, "cancel the jobs of queue " + queue);
                } else if (classes.contains("more")) {
                    showMore(source, control.dataset.list);
                } else if (control.id === "graph-close") {
                    closeGraph();
                } else if (control.id === "forget-token") {
                    forgetToken();
                }
            }

            function start() {
                state.token = readToken();
                root.addEventListener("click", onClick);
                document.getElementById("graph-canvas").addEventListener("keydown", onGraphKey);
                document.addEventListener("visibilitychange", () => {
                    if (document.hidden) {
                        disconnect();
                        setStatus("paused", "paused");
                    } else {
                        connect();
                    }
                });
                window.addEventListener("resize", markScrollables);
                connect();
            }
            """#
    }
#endif
