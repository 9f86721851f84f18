#if Dashboard
    /// The dashboard's single HTML page: what `GET /` (relative to the mount point) returns.
    ///
    /// The page is self-contained: one inline `<style>` and one inline `<script>`, both carrying the response's CSP
    /// nonce, and no other asset, so it runs under `default-src 'none'; script-src 'nonce-N'; style-src 'nonce-N';
    /// connect-src 'self'`. It sets no inline style attribute and no event-handler attribute (it styles through its
    /// stylesheet, the CSSOM and SVG attributes), and builds every element from data with `textContent` and DOM calls,
    /// never with `innerHTML`: job names, queue names and errors are untrusted text.
    ///
    /// What it shows, per source of the snapshot: the queues with their counts, width (and the limit it shares) and a
    /// throughput sparkline of `history`; the shared limits; the running jobs with elapsed time, attempts and a
    /// `<progress>` bar; the waiting jobs with their reasons (the jobs a job waits on as links to their dependency
    /// graph, a full width limit as `domain running/width`), escalated priorities as `low → high`; pages of further
    /// running and waiting jobs (`jobs.json`); the latest failures with error and attempts; the workers of a durable
    /// source; and the dependency graph of a selected job (`graph.json`), laid out in layers, dependencies on the
    /// left. It follows `GET events` (Server-Sent Events, one snapshot per interval), closes the stream while the page
    /// is hidden and reopens it when the page is shown again, and says `reconnecting…` while the stream is down.
    ///
    /// Actions (cancel a job or a queue, suspend or resume a queue, retry a failed durable job) appear only when the
    /// snapshot says they are enabled, the source supports them, and the page knows the token: given as the URL
    /// fragment `#token=…`, kept in `sessionStorage` for the tab and removed from the address bar. Each is a
    /// `POST actions` with `Authorization: Bearer TOKEN`; its outcome is written to `#action-result`.
    ///
    /// The DOM contract the browser tests rely on (ids, classes and `data-` attributes) is the one of the dashboard's
    /// specification: `#status[data-sequence]`, `section.source[data-source]`, `tr.queue[data-queue]`,
    /// `tr.job.running[data-job]`, `tr.job.waiting[data-job]`, `span.reason[data-kind]`, `progress.job-progress`,
    /// `tr.failure`, `table.workers`, `#graph g.node[data-job]`, `#graph-truncated`, `button.show-graph`,
    /// `button.job-link`, `button.more[data-list]`, `button.cancel-job`, `button.retry-job`, `button.suspend-queue`,
    /// `button.resume-queue`, `button.cancel-queue` and `#action-result[data-outcome]` (`pending`, `success` or
    /// `error`).
    enum DashboardPage {
        /// The complete page.
        ///
        /// - Parameters:
        ///   - nonce: The response's CSP nonce (the `'nonce-…'` of its `Content-Security-Policy` header).
        ///   - basePath: The mount point's path, ending with `/` (the page keeps it as `data-base-path` of its
        ///     `<main>`): every request of the page is `basePath` followed by `events`, `jobs.json`, `graph.json` or
        ///     `actions`.
        /// - Complexity: O(n) in the page's length (about 50 kB); the script and stylesheet are built once.
        static func html(nonce: String, basePath: String) -> String {
            let nonce = attributeValue(nonce)
            let basePath = attributeValue(basePath)
            return #"""
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="referrer" content="no-referrer">
                <link rel="icon" href="data:,">
                <title>Switchyard dashboard</title>
                <style nonce="\#(nonce)">
                \#(style)
                </style>
                </head>
                <body>
                <header class="page-header">
                <h1>Switchyard dashboard</h1>
                <p id="status" data-state="connecting">connecting…</p>
                </header>
                <main id="dashboard" data-base-path="\#(basePath)">
                <noscript><p class="source-error">The dashboard needs JavaScript.</p></noscript>
                <p id="action-result" role="status"></p>
                <div id="notice" hidden>
                <p id="notice-text"></p>
                <button type="button" id="forget-token" hidden>forget the token</button>
                </div>
                <section id="graph" aria-labelledby="graph-heading" hidden>
                <div class="graph-header">
                <h2 id="graph-heading" tabindex="-1">Dependency graph</h2>
                <button type="button" id="graph-close">close the graph</button>
                </div>
                <p id="graph-summary"></p>
                <p id="graph-truncated" hidden></p>
                <p class="graph-legend">Dependencies on the left, the jobs that wait on them on the right; choose a job
                to see its own graph.</p>
                <div id="graph-canvas" class="scroll" data-label="graph-heading"></div>
                </section>
                <div id="sources"></div>
                </main>
                <footer class="page-footer"><p id="footer-text">Switchyard dashboard</p></footer>
                <script nonce="\#(nonce)">
                "use strict";
                {
                \#(scriptCore)
                \#(scriptTables)
                \#(scriptJobs)
                \#(scriptGraph)
                start();
                }
                </script>
                </body>
                </html>
                """#
        }

        /// `text` escaped for an HTML attribute value in double quotes (`&`, `<`, `>`, `"` and `'`).
        ///
        /// - Complexity: O(n) in the length of `text`.
        static func attributeValue(_ text: String) -> String {
            var result = ""
            result.reserveCapacity(text.utf8.count)
            for character in text {
                switch character {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\"": result += "&quot;"
                case "'": result += "&#39;"
                default: result.append(character)
                }
            }
            return result
        }
    }
#endif
