#!/usr/bin/env python3
"""Browser tests of Switchyard's live dashboard: the page in a real browser (Debian's Chromium, driven headless by
Playwright), against real `switchyard` processes.

    .build/browser-venv/bin/python Tests/Browser/dashboard_browser_test.py \\
        --switchyard .build/debug/switchyard --artifacts DIR [--database POSTGRES_URL] [--scenario NAME …]

Scripts/install-browser-tests.sh makes the venv (Playwright, axe-playwright-python) and installs Chromium. The
scenarios (all of them unless --scenario names some):

  in-process  `switchyard dashboard-test-workload` (a debug build's workload of in-process queues): live updates,
              reasons (a dependency, a full width limit), progress that advances, a failure, an escalated priority,
              the dependency graph, cancelling a job through the page, no action buttons without the token, the
              headers (CSP with a nonce) and refusals of POST /actions (cross-site, wrong or missing token,
              foreign origin); axe.
  import      `switchyard import --sample vbb --dashboard 127.0.0.1:0`: the import's queues on the page; axe.
  durable     `switchyard dashboard --database URL` over a durable queue in a schema of its own: jobs that no worker
              runs say so, a `switchyard worker` then runs one, and a waiting job is cancelled through the page; axe.
              Needs --database (it fails without one: nothing is skipped).

Every command is a child process in its own process group, started with `--listen 127.0.0.1:0` (or
`--dashboard 127.0.0.1:0`); the test reads the line `Dashboard: URL` from its output, and stops the group at the end
(SIGINT, then SIGKILL). Each scenario writes a full-page screenshot to ARTIFACTS/dashboard-NAME.png, and on a
failure ARTIFACTS/NAME-failure.png and NAME-failure.html, plus every command's output as ARTIFACTS/NAME-COMMAND.log.
One line per passed check; the exit status is 1 when a check fails, 2 for wrong arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Error as PlaywrightError, Page, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
TIMEOUT_MS = 20_000
START_TIMEOUT_S = 120  # a debug build's first start, and `import --sample` generating its feed first
SCENARIOS = ("in-process", "import", "durable")


class Failure(Exception):
    """A check that did not hold, with what was expected and what was found."""


def shown(arguments: list[str]) -> str:
    """A command line for a log, with the password of any URL in it left out."""
    return " ".join(re.sub(r"(://[^:/@\s]+):[^@/\s]+@", r"\1:…@", each) for each in arguments)


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


def passed(message: str) -> None:
    print(f"ok: {message}", flush=True)


class Child:
    """A command in a process group of its own, its standard output and error copied to a log file. `url()` waits for
    its line `Dashboard: URL` (on either stream; a `#token=…` after the URL is left out); `stop()` interrupts the
    group, then kills it."""

    def __init__(self, arguments: list[str], log: Path, cwd: Path | None = None):
        self.arguments = arguments
        self.log_path = log
        self.log = log.open("w", encoding="utf-8", errors="replace")
        self.log.write("$ " + shown(arguments) + "\n")
        self.log.flush()
        self.lines: list[str] = []
        self.lock = threading.Lock()
        self.dashboard = threading.Event()
        self.dashboard_url: str | None = None
        self.process = subprocess.Popen(
            arguments,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        self.readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, True), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, False), daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, is_stdout: bool) -> None:
        for line in stream:
            with self.lock:
                self.lines.append(line.rstrip("\n"))
                self.log.write(("" if is_stdout else "[stderr] ") + line)
                self.log.flush()
                # The first `Dashboard: URL` line, on either stream; a fragment (`#token=…`) is not the URL's.
                match = re.match(r"Dashboard: (http://[^\s#]+)", line)
                if match and self.dashboard_url is None:
                    self.dashboard_url = match.group(1)
                    self.dashboard.set()

    def tail(self, count: int = 15) -> str:
        with self.lock:
            return "\n".join("    " + line for line in self.lines[-count:]) or "    (no output)"

    def url(self, timeout: float = START_TIMEOUT_S) -> str:
        deadline = time.monotonic() + timeout
        while not self.dashboard.wait(0.2):
            if time.monotonic() > deadline:
                break
            if self.process.poll() is not None:
                for reader in self.readers:  # they end at the streams' end, with the last lines read
                    reader.join(5)
                break
        name = " ".join(self.arguments[:2])
        if self.dashboard_url is None:
            status = self.process.poll()
            state = f"exited with status {status}" if status is not None else f"printed none in {timeout:.0f} s"
            raise Failure(f"`{name}` printed no line `Dashboard: URL` ({state}); its output:\n{self.tail()}")
        check(self.dashboard_url.endswith("/"), f"`{name}` printed a URL without a final /: {self.dashboard_url}")
        return self.dashboard_url

    def stop(self, grace: float = 10) -> int | None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGINT)
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                pass
            except ProcessLookupError:
                pass
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(10)
        else:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)  # whatever the command left in its group
            except ProcessLookupError:
                pass
        for reader in self.readers:
            reader.join(5)
        self.log.close()
        return self.process.returncode


def run_command(arguments: list[str], log: Path, timeout: float = 60) -> str:
    """Runs a command to its end; its standard output, or a failure naming its status and output."""
    completed = subprocess.run(
        arguments, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, start_new_session=True)
    with log.open("a", encoding="utf-8") as file:
        file.write("$ " + shown(arguments) + "\n" + completed.stdout + completed.stderr)
    if completed.returncode != 0:
        raise Failure(
            f"`{' '.join(arguments[:3])}` exited with status {completed.returncode}:\n"
            f"{completed.stdout}{completed.stderr}")
    return completed.stdout


# MARK: - HTTP checks without the browser


def request(url: str, method: str = "GET", headers: dict | None = None, body: bytes | None = None):
    """(status, headers, body) of one request; an HTTP error status is returned, not raised."""
    call = urllib.request.Request(url, method=method, headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(call, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def check_page_headers(url: str) -> None:
    status, headers, body = request(url)
    check(status == 200, f"GET {url} answered {status}")
    policy = headers.get("Content-Security-Policy", "")
    nonce = re.search(r"script-src 'nonce-([^']+)'", policy)
    check(nonce is not None, f"the page's Content-Security-Policy has no script nonce: {policy!r}")
    check("default-src 'none'" in policy, f"the page's CSP lacks default-src 'none': {policy!r}")
    check(f"style-src 'nonce-{nonce.group(1)}'" in policy, f"the page's CSP lacks the style nonce: {policy!r}")
    text = body.decode("utf-8")
    check(f'<script nonce="{nonce.group(1)}">' in text, "the page's <script> does not carry the header's nonce")
    check(f'<style nonce="{nonce.group(1)}">' in text, "the page's <style> does not carry the header's nonce")
    check(headers.get("X-Content-Type-Options") == "nosniff", "the page lacks X-Content-Type-Options: nosniff")
    check("no-store" in headers.get("Cache-Control", ""), "the page lacks Cache-Control: no-store")
    _, second, _ = request(url)
    check(second.get("Content-Security-Policy") != policy, "two responses of the page carry the same nonce")
    passed("the page has a Content-Security-Policy with a fresh nonce per response, and nosniff, no-store")


def first_snapshot(url: str) -> dict:
    status, headers, body = request(url + "snapshot.json")
    check(status == 200, f"GET snapshot.json answered {status}")
    snapshot = json.loads(body)
    check(snapshot.get("schema") == 1 and isinstance(snapshot.get("sources"), list), "snapshot.json is no snapshot")
    return snapshot


def check_event_stream(url: str) -> None:
    call = urllib.request.Request(url + "events", headers={"Accept": "text/event-stream"})
    with urllib.request.urlopen(call, timeout=10) as response:
        kind = response.headers.get("Content-Type", "")
        check(kind.startswith("text/event-stream"), f"GET events has Content-Type {kind!r}")
        lines = []
        while True:
            line = response.readline().decode("utf-8").rstrip("\r\n")
            if line == "" and any(each.startswith("data:") for each in lines):
                break
            lines.append(line)
    check("event: snapshot" in lines, f"the first event is not `event: snapshot`: {lines[:3]}")
    data = json.loads(next(each for each in lines if each.startswith("data:"))[5:])
    check(data.get("schema") == 1, "the first event's data is no snapshot")
    passed("GET events streams `event: snapshot` with a snapshot as data")


def check_actions_refused(url: str, token: str, source: str) -> None:
    """POST /actions is refused (403) across sites, from another origin, and with a missing or wrong token. The job
    does not exist: were a refusal missing, the answer would be 404, never a cancelled job."""
    body = json.dumps({"action": "cancelJob", "source": source, "job": "987654321"}).encode()
    cases = {
        "cross-site with the right token": {"Authorization": f"Bearer {token}", "Sec-Fetch-Site": "cross-site"},
        "from another origin with the right token": {
            "Authorization": f"Bearer {token}", "Origin": "http://attacker.example"},
        "without a token": {},
        "with a wrong token": {"Authorization": "Bearer wrong-" + token},
    }
    for name, headers in cases.items():
        status, _, answer = request(
            url + "actions", "POST", {"Content-Type": "application/json", **headers}, body)
        check(status == 403, f"POST actions {name} answered {status}, not 403: {answer[:200]!r}")
        try:
            error = json.loads(answer).get("error")
        except ValueError:
            error = None
        check(bool(error), f"the 403 of POST actions {name} has no JSON {{\"error\": …}}: {answer[:200]!r}")
    passed("POST actions is refused with 403 cross-site, from another origin, and without the right token")


# MARK: - The page in the browser


class PageWatch:
    """Collects a page's script errors and CSP violations (none may happen)."""

    def __init__(self, page: Page):
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(f"script error: {error}"))
        page.on("console", self._console)
        self.page = page

    def _console(self, message) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self.errors.append(f"CSP: {message.text}")

    def check(self) -> None:
        violations = self.page.evaluate("() => window.__cspViolations || []")
        problems = self.errors + [f"CSP violation: {each}" for each in violations]
        check(not problems, "the page had errors:\n  " + "\n  ".join(problems))
        passed("no script error and no CSP violation")


CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
    window.__cspViolations.push(event.violatedDirective + " blocked " + (event.blockedURI || "inline")
        + " at " + event.sourceFile + ":" + event.lineNumber + " " + (event.sample || ""));
});
"""


def new_page(browser: Browser, width: int = 1360) -> tuple[Page, PageWatch]:
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page, PageWatch(page)


def wait_for_updates(page: Page, what: str) -> None:
    """Waits until #status[data-sequence] has taken two distinct values."""
    first = page.wait_for_function(
        "() => { const s = document.querySelector('#status'); return s && s.dataset.sequence; }").json_value()
    second = page.wait_for_function(
        """(first) => { const s = document.querySelector('#status');
            return s && s.dataset.sequence && s.dataset.sequence !== first && s.dataset.sequence; }""",
        arg=first).json_value()
    status = page.locator("#status").text_content()
    passed(f"{what}: live updates arrive (sequence {first}, then {second}; status “{status}”)")


def job_id(page: Page, list_class: str, name: str) -> str:
    """The data-job of the first row of `tr.job.LIST` whose job is named `name` (waiting for it)."""
    handle = page.wait_for_function(
        """([list, name]) => {
            for (const row of document.querySelectorAll("tr.job." + list)) {
                const cell = row.querySelector("td.name");
                if (cell && cell.firstChild && cell.firstChild.textContent === name) return row.dataset.job;
            }
            return null;
        }""",
        arg=[list_class, name])
    return handle.json_value()


def run_axe(page: Page, what: str) -> None:
    results = Axe().run(page)
    violations = results.response["violations"]
    serious = [each for each in violations if each.get("impact") in ("serious", "critical")]
    for violation in violations:
        targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        print(f"  axe {violation['impact']}: {violation['id']}: {violation['help']} ({targets})", flush=True)
    check(not serious, f"{what}: axe found {len(serious)} serious or critical violations:\n{results.generate_report()}")
    passed(f"{what}: axe finds no serious or critical violation ({len(violations)} minor or moderate)")


def screenshot(page: Page, path: Path) -> None:
    page.screenshot(path=str(path), full_page=True)
    passed(f"screenshot {path}")


def check_no_action_buttons(browser: Browser, url: str) -> None:
    page, watch = new_page(browser)
    page.goto(url)
    wait_for_updates(page, "a page without the token")
    expect(page.locator("button.show-graph").first).to_be_visible()
    for selector in ("button.cancel-job", "button.retry-job", "button.suspend-queue", "button.resume-queue",
                     "button.cancel-queue"):
        found = page.locator(selector).count()
        check(found == 0, f"without the token the page shows {found} {selector}")
    watch.check()
    page.context.close()
    passed("without the token (no #token= fragment) the page shows no action button")


# MARK: - Scenarios


def scenario_in_process(browser: Browser, switchyard: str, artifacts: Path, _database: str | None, work: Path):
    token = secrets.token_urlsafe(18)
    child = Child(
        [switchyard, "dashboard-test-workload", "--listen", "127.0.0.1:0", "--actions-token", token,
         "--interval", "250"],
        artifacts / "in-process-workload.log")
    children = [child]
    try:
        url = child.url()
        passed(f"dashboard-test-workload serves the dashboard at {url}")
        check_page_headers(url)
        check_event_stream(url)
        snapshot = first_snapshot(url)
        check(snapshot["actionsEnabled"], "the workload's snapshot says actions are disabled")
        source = snapshot["sources"][0]["id"]
        check_actions_refused(url, token, source)

        page, watch = new_page(browser)
        page.goto(url + "#token=" + token)
        wait_for_updates(page, "in-process")
        check("token" not in page.url, f"the token stays in the address bar: {page.url}")
        passed("the token is removed from the address bar")
        section = page.locator(f'section.source[data-source="{source}"]')
        expect(section.locator("h2")).to_be_visible()
        for queue in ("demo", "other"):
            expect(section.locator(f'tr.queue[data-queue="{queue}"]')).to_be_visible()
            expect(section.locator(f'tr.queue[data-queue="{queue}"] svg.sparkline')).to_have_attribute(
                "aria-label", re.compile(r"\S"))
        passed("the queues demo and other are listed, each with a sparkline")
        expect(section.locator('tr.queue[data-queue="demo"] .limit')).to_contain_text("shared")
        expect(section.locator("ul.limits li", has_text="shared")).to_contain_text(re.compile(r"\d+/3"))
        passed("the limit shared is shown with its running/width, and the queue demo names it")

        blocked = job_id(page, "waiting", "blocked")
        dependency = section.locator(f'tr.job.waiting[data-job="{blocked}"] .reason[data-kind="dependencies"]')
        expect(dependency).to_contain_text("slow parent")
        expect(dependency.locator("button.job-link", has_text="slow parent")).to_be_visible()
        passed("the waiting job blocked has a dependencies reason naming slow parent (as a link)")
        slot = section.locator('tr.job.waiting .reason[data-kind="slot"]').first
        expect(slot).to_be_visible()
        passed(f"a waiting job has a slot reason: “{slot.text_content()}”")
        escalated = section.locator("td.priority.escalated").first
        expect(escalated).to_contain_text("→")
        passed(f"an escalated priority is marked: “{escalated.text_content()}”")
        failure = section.locator("tr.failure", has=page.locator("code", has_text="disk full (test)"))
        expect(failure).to_be_visible()
        passed("the failure shows the error disk full (test)")

        progress_id = job_id(page, "running", "progress")
        bar = section.locator(f'tr.job.running[data-job="{progress_id}"] progress.job-progress')
        expect(bar).to_have_attribute("value", re.compile(r"^\d"))
        expect(bar).to_have_attribute("aria-label", re.compile(r"progress"))
        first = float(bar.get_attribute("value"))
        page.wait_for_function(
            """([id, first]) => {
                const bar = document.querySelector(`tr.job.running[data-job="${id}"] progress.job-progress`);
                return bar && Number(bar.getAttribute("value")) > first;
            }""",
            arg=[progress_id, first])
        passed(f"the progress bar of the job progress advances (from {first:g} to {bar.get_attribute('value')})")
        elapsed = section.locator(f'tr.job.running[data-job="{progress_id}"] td.elapsed')
        before = elapsed.text_content()
        expect(elapsed).not_to_have_text(before)
        passed(f"the elapsed time of the job progress is updated ({before} → {elapsed.text_content()})")

        section.locator(f'tr.job.waiting[data-job="{blocked}"] button.show-graph').click()
        page.wait_for_function("() => document.querySelectorAll('#graph g.node').length >= 2")
        expect(page.locator(f'#graph g.node.root[data-job="{blocked}"]')).to_have_count(1)
        expect(page.locator("#graph path.edge").first).to_be_attached()
        nodes = page.locator("#graph g.node").count()
        passed(f"the graph of blocked shows {nodes} jobs, blocked among them, and its edges")
        dependency.locator("button.job-link", has_text="slow parent").click()
        page.wait_for_function(
            """(blocked) => { const root = document.querySelector('#graph g.node.root');
                return root && root.dataset.job !== blocked; }""",
            arg=blocked)
        passed("a dependency's link selects that job's graph")
        expect(page.locator("#graph-truncated")).to_be_hidden()

        watch.check()
        run_axe(page, "in-process")
        screenshot(page, artifacts / "dashboard-in-process.png")

        cancel = section.locator(f'tr.job.running[data-job="{progress_id}"] button.cancel-job')
        expect(cancel).to_be_visible()
        cancel.click()
        expect(page.locator("#action-result")).to_have_attribute("data-outcome", "success")
        page.wait_for_function(
            """(id) => { const row = document.querySelector(`tr.job.running[data-job="${id}"]`);
                return !row || row.querySelector(".badge.cancelling") !== null; }""",
            arg=progress_id)
        result = page.locator("#action-result").text_content()
        passed(f"cancelling the job progress through the page succeeds: “{result}”")
        watch.check()
        page.context.close()

        check_no_action_buttons(browser, url)
    finally:
        for each in children:
            each.stop()


def scenario_import(browser: Browser, switchyard: str, artifacts: Path, _database: str | None, work: Path):
    folder = work / "import"
    folder.mkdir(parents=True, exist_ok=True)
    child = Child(
        [switchyard, "import", "--sample", "vbb", "--dashboard", "127.0.0.1:0", "--database",
         str(folder / "vbb.sqlite")],
        artifacts / "import-import.log", cwd=folder)
    try:
        url = child.url()
        passed(f"import --dashboard serves the dashboard at {url}")
        page, watch = new_page(browser)
        page.goto(url)
        wait_for_updates(page, "import")
        queue = page.locator('tr.queue[data-queue^="import"]').first
        expect(queue).to_be_visible()
        passed(f"the import's queue {queue.get_attribute('data-queue')} is listed")
        wait_for_updates(page, "import (later)")
        watch.check()
        run_axe(page, "import")
        screenshot(page, artifacts / "dashboard-import.png")
        page.context.close()
    finally:
        child.stop()


def schema_url(database: str, schema: str) -> str:
    """The URL with its `schema` parameter set to `schema` (its other parameters kept as written)."""
    parts = urllib.parse.urlsplit(database)
    query = [item for item in parts.query.split("&") if item and not item.startswith("schema=")]
    return urllib.parse.urlunsplit(parts._replace(query="&".join(query + [f"schema={schema}"])))


def drop_schema(database: str, schema: str, log: Path) -> None:
    """Drops the test's schema with psql, when there is one (cleanup only: not a check)."""
    if shutil.which("psql") is None:
        return
    completed = subprocess.run(
        ["psql", database, "-v", "ON_ERROR_STOP=1", "-qAtc", f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    if completed.returncode != 0:
        with log.open("a", encoding="utf-8") as file:
            file.write(f"could not drop schema {schema}: {completed.stderr}\n")


def scenario_durable(browser: Browser, switchyard: str, artifacts: Path, database: str | None, work: Path):
    if not database:
        raise Failure(
            "the durable scenario needs --database postgres://… (Scripts/postgres-dev.sh start prints a URL); "
            "it is never skipped")
    schema = "dashboard_test_" + uuid.uuid4().hex[:10]
    url_with_schema = schema_url(database, schema)
    log = artifacts / "durable-commands.log"
    token = secrets.token_urlsafe(18)
    children: list[Child] = []
    try:
        jobs = []
        for _ in range(3):
            output = run_command(
                [switchyard, "enqueue", "test-sleep", "--database", url_with_schema, "--ms", "120000"], log)
            jobs.append(output.strip().splitlines()[-1].strip())
        check(all(job.isdigit() for job in jobs), f"enqueue test-sleep printed no job ids: {jobs}")
        passed(f"enqueued switchyard.test.sleep jobs {', '.join(jobs)} in schema {schema}")

        dashboard = Child(
            [switchyard, "dashboard", "--database", url_with_schema, "--listen", "127.0.0.1:0", "--actions-token",
             token, "--interval", "250"],
            artifacts / "durable-dashboard.log")
        children.append(dashboard)
        url = dashboard.url()
        passed(f"switchyard dashboard serves the durable queue at {url}")
        check_page_headers(url)

        page, watch = new_page(browser)
        page.goto(url + "#token=" + token)
        wait_for_updates(page, "durable")
        section = page.locator("section.source").first
        expect(section.locator("h2")).to_be_visible()
        for job in jobs:
            row = page.locator(f'tr.job.waiting[data-job="{job}"]')
            expect(row).to_be_visible()
            reason = row.locator('.reason[data-kind="noWorker"], .reason[data-kind="other"]').first
            expect(reason).to_contain_text(re.compile(r"\bno\b.*\bworker", re.IGNORECASE))
        text = page.locator(f'tr.job.waiting[data-job="{jobs[0]}"] .reason').first.text_content()
        passed(f"with no worker the waiting jobs say so: “{text}”")
        expect(page.locator("table.workers tr.worker")).to_have_count(0)

        worker = Child(
            [switchyard, "worker", "--database", url_with_schema, "--name", "dashboard-browser-test", "--concurrency",
             "1", "--lease", "5", "--poll-ms", "200", "--grace", "1"],
            artifacts / "durable-worker.log")
        children.append(worker)
        running = page.locator("tr.job.running").first
        expect(running).to_be_visible()
        running_id = running.get_attribute("data-job")
        check(running_id in jobs, f"the running job {running_id} is none of the enqueued {jobs}")
        passed(f"after a worker starts, job {running_id} shows as running")
        expect(page.locator("table.workers tr.worker", has_text="dashboard-browser-test")).to_be_visible()
        passed("the worker is listed in table.workers")

        waiting_id = next(job for job in jobs if job != running_id)
        cancel = page.locator(f'tr.job.waiting[data-job="{waiting_id}"] button.cancel-job')
        expect(cancel).to_be_visible()
        watch.check()
        run_axe(page, "durable")
        screenshot(page, artifacts / "dashboard-durable.png")
        cancel.click()
        expect(page.locator("#action-result")).to_have_attribute("data-outcome", "success")
        expect(page.locator(f'tr.job.waiting[data-job="{waiting_id}"]')).to_have_count(0)
        passed(f"cancelling the waiting job {waiting_id} through the page succeeds and removes it from the list")
        watch.check()
        page.context.close()
    finally:
        for each in reversed(children):
            each.stop(grace=15)
        drop_schema(database, schema, log)


RUNNERS = {"in-process": scenario_in_process, "import": scenario_import, "durable": scenario_durable}


def save_failure(browser: Browser, artifacts: Path, name: str) -> None:
    """A screenshot and the DOM of every page still open, for the failure's diagnosis."""
    for index, context in enumerate(browser.contexts):
        for number, page in enumerate(context.pages):
            stem = artifacts / f"{name}-failure{'' if index == number == 0 else f'-{index}-{number}'}"
            try:
                page.screenshot(path=f"{stem}.png", full_page=True)
                Path(f"{stem}.html").write_text(page.content(), encoding="utf-8")
                print(f"  saved {stem}.png and {stem}.html", flush=True)
            except PlaywrightError:
                pass
        try:
            context.close()
        except PlaywrightError:
            pass


def main() -> int:
    parser = argparse.ArgumentParser(description="Browser tests of Switchyard's dashboard (Playwright, Chromium).")
    parser.add_argument("--switchyard", required=True, help="the switchyard binary (a debug build)")
    parser.add_argument("--artifacts", required=True, help="the folder for screenshots and logs")
    parser.add_argument("--database", help="a PostgreSQL URL for the durable scenario (required by it)")
    parser.add_argument(
        "--scenario", action="append", choices=SCENARIOS, help="a scenario to run (repeatable; default: all)")
    arguments = parser.parse_args()

    switchyard = str(Path(arguments.switchyard).resolve())
    if not os.access(switchyard, os.X_OK):
        print(f"error: --switchyard {arguments.switchyard} is not an executable file", file=sys.stderr)
        return 2
    if not os.access(CHROMIUM, os.X_OK):
        print(f"error: {CHROMIUM} is missing: run Scripts/install-browser-tests.sh", file=sys.stderr)
        return 2
    artifacts = Path(arguments.artifacts).resolve()
    artifacts.mkdir(parents=True, exist_ok=True)
    scenarios = arguments.scenario or list(SCENARIOS)
    expect.set_options(timeout=TIMEOUT_MS)

    failures = []
    with tempfile.TemporaryDirectory(prefix="switchyard-browser-") as temporary, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        for name in scenarios:
            print(f"== {name}", flush=True)
            started = time.monotonic()
            try:
                RUNNERS[name](browser, switchyard, artifacts, arguments.database, Path(temporary))
                print(f"== {name}: passed in {time.monotonic() - started:.1f} s", flush=True)
            except Exception as error:  # noqa: BLE001 - every failure is reported, then the next scenario runs
                message = str(error) if isinstance(error, Failure) else "".join(traceback.format_exception(error))
                print(f"FAIL {name}: {message}", flush=True)
                save_failure(browser, artifacts, name)
                failures.append(name)
        browser.close()
    if failures:
        print(f"error: {len(failures)} of {len(scenarios)} scenarios failed: {', '.join(failures)}", file=sys.stderr)
        return 1
    print(f"all {len(scenarios)} scenarios passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
