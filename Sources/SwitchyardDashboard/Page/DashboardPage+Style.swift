#if Dashboard
    extension DashboardPage {
        /// The page's stylesheet: a light theme whose text and controls keep a contrast of at least 4.5:1 (WCAG AA),
        /// the system font stack, tables that scroll sideways in their own box on narrow screens, and the colors of
        /// the reasons, badges and graph nodes. It styles the SVG of the sparklines and the graph too (no inline style
        /// attribute is allowed by the page's CSP).
        static let style = #"""
            :root {
                color-scheme: light;
                --text: #1b1f24;
                --muted: #555e68;
                --border: #d0d7de;
                --rule: #e4e8ec;
                --canvas: #f4f6f8;
                --surface: #ffffff;
                --accent: #0a58ca;
                --accent-soft: #e8f0fd;
                --danger: #b42318;
                --danger-soft: #fdeeec;
                --ok: #1a7f37;
                --warn-text: #7a4a00;
                --warn-soft: #fff6dd;
            }
            * { box-sizing: border-box; }
            [hidden] { display: none !important; }
            html { -webkit-text-size-adjust: 100%; }
            body {
                margin: 0;
                font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans",
                    "Liberation Sans", sans-serif;
                font-size: 0.9375rem;
                line-height: 1.45;
                color: var(--text);
                background: var(--canvas);
            }
            .page-header {
                display: flex;
                flex-wrap: wrap;
                align-items: baseline;
                gap: 0.25rem 1.5rem;
                padding: 0.9rem 1.5rem;
                background: var(--surface);
                border-bottom: 1px solid var(--border);
            }
            h1 { font-size: 1.3rem; margin: 0; }
            h2 { font-size: 1.15rem; margin: 0; }
            h3 { font-size: 1rem; margin: 1.1rem 0 0.3rem; }
            #status { margin: 0; color: var(--muted); font-variant-numeric: tabular-nums; }
            #status::before {
                content: "";
                display: inline-block;
                width: 0.6rem;
                height: 0.6rem;
                margin-right: 0.45rem;
                border-radius: 50%;
                background: #8c959f;
            }
            #status[data-state="live"]::before { background: var(--ok); }
            #status[data-state="reconnecting"] { color: var(--danger); }
            #status[data-state="reconnecting"]::before { background: var(--danger); }
            main { display: block; max-width: 120rem; margin: 0 auto; padding: 1rem 1.5rem 2rem; }
            .page-footer { padding: 0 1.5rem 1.5rem; color: var(--muted); font-size: 0.85rem; }
            .page-footer p { max-width: 120rem; margin: 0 auto; }
            #action-result { margin: 0 0 0.75rem; font-weight: 600; }
            #action-result:empty { margin: 0; }
            #action-result[data-outcome="success"] { color: var(--ok); }
            #action-result[data-outcome="error"] { color: var(--danger); }
            #notice {
                display: flex;
                flex-wrap: wrap;
                align-items: center;
                gap: 0.5rem 1rem;
                margin: 0 0 1rem;
                padding: 0.5rem 0.75rem;
                border: 1px solid var(--border);
                border-radius: 6px;
                background: var(--surface);
            }
            #notice p { margin: 0; }
            .source, #graph {
                margin: 0 0 1.25rem;
                padding: 1rem 1.25rem 1.1rem;
                background: var(--surface);
                border: 1px solid var(--border);
                border-radius: 8px;
            }
            .source-heading { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.75rem; }
            .source-kind { color: var(--muted); font-size: 0.9rem; }
            .source-error {
                margin: 0.75rem 0 0;
                padding: 0.5rem 0.75rem;
                color: #8c1d18;
                background: var(--danger-soft);
                border: 1px solid #f1b8b1;
                border-radius: 6px;
            }
            .summary { margin: 0 0 0.35rem; color: var(--muted); font-size: 0.875rem; }
            .scroll { overflow-x: auto; }
            .scroll:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
            table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
            th, td {
                padding: 0.35rem 0.6rem;
                text-align: left;
                vertical-align: top;
                border-bottom: 1px solid var(--rule);
            }
            thead th {
                font-size: 0.8125rem;
                font-weight: 600;
                white-space: nowrap;
                background: #eef1f4;
                border-bottom: 1px solid var(--border);
            }
            th.num, td.num { text-align: right; }
            td.name { font-weight: 600; overflow-wrap: break-word; min-width: 10rem; }
            td.actions, td.progress { white-space: nowrap; }
            tbody tr:hover { background: #f7f9fb; }
            tr.suspended { background: #f1f2f4; }
            tr.gone { color: var(--muted); }
            .badge {
                display: inline-block;
                margin-left: 0.4rem;
                padding: 0 0.45rem;
                border: 1px solid;
                border-radius: 999px;
                font-size: 0.75rem;
                font-weight: 600;
                white-space: nowrap;
            }
            .badge.cancelling { color: #8a3600; background: #fff0e2; border-color: #f0bd8c; }
            .badge.suspended { color: #39414a; background: #e8ebee; border-color: #c5ccd3; }
            .limit { display: block; color: var(--muted); font-size: 0.8125rem; white-space: nowrap; }
            td.priority { white-space: nowrap; }
            td.priority.escalated { color: #5b2491; background: #f5edfd; font-weight: 600; }
            .reason {
                display: inline-block;
                margin: 0 0.3rem 0.2rem 0;
                padding: 0.05rem 0.45rem;
                border-left: 3px solid #8c959f;
                border-radius: 3px;
                background: #f1f3f5;
                font-size: 0.875rem;
            }
            .reason[data-kind="dependencies"] { border-left-color: var(--accent); background: #eef4fd; }
            .reason[data-kind="slot"] { border-left-color: #a36a00; background: var(--warn-soft); }
            .reason[data-kind="noWorker"], .reason[data-kind="other"] {
                border-left-color: var(--danger);
                background: var(--danger-soft);
            }
            .reason[data-kind="suspended"], .reason[data-kind="held"] { border-left-color: #5b2491; }
            .usage { font-weight: 600; white-space: nowrap; }
            button {
                font: inherit;
                font-size: 0.8125rem;
                line-height: 1.3;
                padding: 0.15rem 0.55rem;
                color: var(--accent);
                background: var(--surface);
                border: 1px solid var(--accent);
                border-radius: 4px;
                cursor: pointer;
            }
            button:hover { background: var(--accent-soft); }
            button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
            button:disabled { cursor: wait; background: #eef1f4; }
            button.danger { color: var(--danger); border-color: var(--danger); }
            button.danger:hover { background: var(--danger-soft); }
            td.actions button + button { margin-left: 0.35rem; }
            button.job-link {
                padding: 0;
                font-size: inherit;
                font-weight: 600;
                text-decoration: underline;
                background: none;
                border: none;
            }
            button.more { margin-top: 0.5rem; }
            progress.job-progress { width: 7rem; height: 0.85rem; vertical-align: middle; accent-color: var(--accent); }
            .units { margin-left: 0.4rem; color: var(--muted); font-size: 0.8125rem; white-space: nowrap; }
            svg.sparkline { display: block; overflow: visible; }
            svg.sparkline .baseline { stroke: var(--border); stroke-width: 1; }
            svg.sparkline polyline { fill: none; stroke: var(--accent); stroke-width: 1.5; stroke-linejoin: round; }
            ul.limits { margin: 0.2rem 0 0; padding-left: 1.25rem; }
            ul.limits li { margin: 0.1rem 0; }
            tr.failure code {
                white-space: pre-wrap;
                overflow-wrap: anywhere;
                padding: 0.05rem 0.3rem;
                color: #8c1d18;
                background: var(--danger-soft);
                border-radius: 3px;
                font-size: 0.8125rem;
            }
            td.error { min-width: 14rem; }
            .graph-header {
                display: flex;
                flex-wrap: wrap;
                align-items: baseline;
                justify-content: space-between;
                gap: 0.5rem;
            }
            #graph-heading:focus { outline: none; }
            #graph-summary { margin: 0.4rem 0; }
            #graph-truncated {
                display: inline-block;
                margin: 0 0 0.4rem;
                padding: 0.2rem 0.6rem;
                color: var(--warn-text);
                background: var(--warn-soft);
                border: 1px solid #e9c46a;
                border-radius: 4px;
            }
            .graph-legend { margin: 0 0 0.5rem; color: var(--muted); font-size: 0.8125rem; }
            #graph svg { display: block; }
            #graph .edge { fill: none; stroke: #6e7781; stroke-width: 1.5; }
            #graph .arrow { fill: #6e7781; }
            #graph .node { cursor: pointer; }
            #graph .node rect { fill: #f1f3f5; stroke: #57606a; stroke-width: 1.5; }
            #graph .node text { font-size: 12px; fill: var(--text); }
            #graph .node .node-name { font-weight: 600; }
            #graph .node .node-meta { font-size: 11px; fill: #3d444c; }
            #graph .node.state-running rect { fill: #e5effd; stroke: var(--accent); }
            #graph .node.state-waiting rect, #graph .node.state-ready rect, #graph .node.state-available rect {
                fill: #fff6dd;
                stroke: #a36a00;
            }
            #graph .node.state-succeeded rect { fill: #e6f4ea; stroke: var(--ok); }
            #graph .node.state-failed rect, #graph .node.state-cancelled rect, #graph .node.state-timedOut rect,
            #graph .node.state-dependencyFailed rect {
                fill: var(--danger-soft);
                stroke: var(--danger);
            }
            #graph .node.root rect { stroke-width: 3; }
            #graph .node:focus { outline: none; }
            #graph .node:focus-visible rect { stroke: #000; stroke-width: 3; }
            .visually-hidden {
                position: absolute;
                width: 1px;
                height: 1px;
                margin: -1px;
                padding: 0;
                overflow: hidden;
                clip: rect(0 0 0 0);
                white-space: nowrap;
                border: 0;
            }
            @media (max-width: 720px) {
                .page-header, main, .page-footer { padding-left: 0.75rem; padding-right: 0.75rem; }
                .source, #graph { padding: 0.75rem; }
                th, td { padding: 0.3rem 0.4rem; }
            }
            """#
    }
#endif
