"""The anchor of the push benchmark: sends one notification to every device token of a list with aioapns 4.0 (an
asyncio APNs client on h2, from PyPI) to a local mock APNs, and prints what it measured as one line of JSON:

    {"sent": N, "accepted": A, "failed": F, "seconds": S}

Run it with the Python of the venv that Scripts/install-aioapns.sh makes:

    Benchmarks/.build/aioapns-venv/bin/python Benchmarks/Anchors/aioapns-anchor.py --host 127.0.0.1 --port PORT \\
        --ca-file ca.pem --key AuthKey.p8 --key-id KEYID --team-id TEAMID --topic org.example.app \\
        --tokens tokens.txt --payload payload.json --connections 2

- Each notification is a `NotificationRequest` with the payload file's JSON object as its body, `apns-push-type`
  from --push-type (default alert) and an `apns-id` (a UUID) of its own. Authentication is by provider token (JWT,
  ES256, signed with the .p8 key), which aioapns signs once per connection.
- `seconds` is the wall time from the first send to the last answer. The requests are built, and the first
  connection opened, before the clock starts (an unreachable server or an untrusted certificate fails at once).
  aioapns opens further connections, up to --connections, within the measured time and only when every open one is
  at the server's SETTINGS_MAX_CONCURRENT_STREAMS.
- --in-flight workers (default 100) each send one notification at a time. aioapns is CPU-bound on one core (h2's
  pure-Python HPACK and framing), so more in flight is no faster, and more than 100 risks a broken connection:
  aioapns assumes 1,000 free streams on a new connection before the server's SETTINGS arrive.
- `accepted` counts 200 answers, `failed` all other notifications (their reasons and counts go to stderr): answered
  with an error, or given up by aioapns after 5 attempts. aioapns sends a notification again when its connection
  closed before the answer (so one may be accepted twice) or could not be opened; it never retries an answer.
- A subclass of aioapns's connection protocol (endpoint_protocol) puts the mock's address in place of Apple's, in
  every mode. Unless --stock, which runs aioapns as published otherwise, two fixes that change no request and only
  keep aioapns from slowing down or stalling: fix_stream_limit_raise (without it a connection can stay at one or
  two streams) and HTTP/2 flow-control credit given back for answer bodies (without it a connection stalls after
  64 KiB of error bodies).

Exit status 0 when it sent (even if APNs refused some); 1 on setup errors (files, key, arguments) and when no
connection to the server could be made at all, with the reason on stderr.
"""

import argparse
import asyncio
import json
import logging
import re
import ssl
import sys
import time


DEFAULT_IN_FLIGHT = 100


def fail(message):
    print(f"aioapns-anchor: error: {message}", file=sys.stderr)
    sys.exit(1)


try:
    import jwt
    from aioapns import APNs, NotificationRequest, PushType
    from aioapns.common import DynamicBoundedSemaphore
    from aioapns.connection import APNsProductionClientProtocol
    from aioapns.exceptions import ConnectionError as APNsConnectionError
except ImportError as error:
    fail(f"{error}: run this script with the Python of the venv made by Scripts/install-aioapns.sh")


def parse_arguments():
    parser = argparse.ArgumentParser(description="Sends one notification per device token with aioapns to a mock APNs.")
    parser.add_argument("--host", default="127.0.0.1", help="the server's address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, required=True, help="the server's port")
    parser.add_argument("--ca-file", required=True, help="PEM file of the CA that signed the server's certificate")
    parser.add_argument("--key", required=True, help="the signing key, a .p8 file (PKCS#8 PEM, P-256)")
    parser.add_argument("--key-id", required=True, help="the key's ID (the JWT's kid)")
    parser.add_argument("--team-id", required=True, help="the team ID (the JWT's iss)")
    parser.add_argument("--topic", required=True, help="the apns-topic (the app's bundle ID)")
    parser.add_argument("--tokens", required=True, help="device tokens, one hex token a line")
    parser.add_argument("--payload", required=True, help="a JSON object, the body of every notification")
    parser.add_argument("--connections", type=int, default=1, help="aioapns's max_connections (default 1)")
    parser.add_argument(
        "--in-flight", type=int, default=0,
        help=f"notifications sent at once (default {DEFAULT_IN_FLIGHT}; more than 100 may break new connections)")
    parser.add_argument(
        "--stock", action="store_true",
        help="aioapns as published, without the anchor's fixes (stream-limit raise, flow-control credit)")
    parser.add_argument(
        "--push-type", default="alert",
        choices=[kind.value for kind in PushType] + ["none"],
        help="apns-push-type (default alert; none sends no header)")
    arguments = parser.parse_args()
    if not 1 <= arguments.port <= 65535:
        parser.error("--port must be between 1 and 65535")
    if arguments.connections < 1:
        parser.error("--connections must be at least 1")
    if arguments.in_flight < 0:
        parser.error("--in-flight must not be negative")
    return arguments


def read_text(path, what):
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        fail(f"cannot read the {what} {path}: {error}")


def load_inputs(arguments):
    key = read_text(arguments.key, "key")
    try:
        # Fails here, with a clear message, on a key that is not a P-256 private key, instead of in every request.
        jwt.encode({"iss": arguments.team_id, "iat": int(time.time())}, key, algorithm="ES256",
                   headers={"kid": arguments.key_id})
    except Exception as error:
        fail(f"{arguments.key} is not a usable ES256 (P-256) private key in PEM: {error}")

    tokens = []
    for number, line in enumerate(read_text(arguments.tokens, "token list").splitlines(), start=1):
        token = line.strip()
        if not token:
            continue
        if len(token) % 2 or not re.fullmatch(r"[0-9A-Fa-f]+", token):
            fail(f"{arguments.tokens}:{number}: not a hex device token: {token[:80]!r}")
        tokens.append(token)
    if not tokens:
        fail(f"{arguments.tokens} has no device token")

    try:
        payload = json.loads(read_text(arguments.payload, "payload"))
    except json.JSONDecodeError as error:
        fail(f"{arguments.payload} is not JSON: {error}")
    if not isinstance(payload, dict):
        fail(f"{arguments.payload} must hold a JSON object")

    try:
        context = ssl.create_default_context(cafile=arguments.ca_file)
    except (OSError, ssl.SSLError) as error:
        fail(f"cannot load the CA file {arguments.ca_file}: {error}")
    # aioapns offers no ALPN of its own: `h2` here, as HTTP/2 over TLS has it (RFC 9113, 3.2), for a server that
    # checks. It costs nothing after the handshake.
    context.set_alpn_protocols(["h2"])
    return key, tokens, payload, context


def endpoint_protocol(host, port, stock):
    """aioapns has no argument for the server: its pool connects to `protocol_class.APNS_SERVER:APNS_PORT` (a class
    of aioapns.connection chosen by use_sandbox), which also names the server for TLS (SNI, hostname check) and in
    the `host` header. A subclass with the mock's address, set as the pool's protocol_class, points it there without
    patching aioapns's module.

    Unless `stock`, the subclass also acknowledges the body of each answer, which aioapns 4.0 never does: HTTP/2
    flow control would otherwise let a server send no more bodies on a connection after 64 KiB of them (some 2,400
    error answers such as {"reason":"BadDeviceToken"}), and those notifications would wait until the connection
    closes after 10 idle seconds, then be sent again."""

    class LocalAPNsProtocol(APNsProductionClientProtocol):
        APNS_SERVER = host
        APNS_PORT = port

        if not stock:
            def on_data_received(self, data, stream_id):
                super().on_data_received(data, stream_id)
                self.conn.acknowledge_received_data(len(data), stream_id)

    return LocalAPNsProtocol


def fix_stream_limit_raise():
    """Fixes aioapns 4.0's raising of a connection's stream limit, without which it never uses more than a few
    streams on an APNs connection.

    Each connection counts its free streams in a DynamicBoundedSemaphore (aioapns.common) whose `bound` follows the
    server's SETTINGS_MAX_CONCURRENT_STREAMS. APNs (and the mock) allow 1 stream until the first notification is
    accepted, then raise the limit to 1,000. When the limit rises while no stream is free (a few streams went out
    before the first SETTINGS arrived, as in a burst onto a new connection, or the raise comes before an answer),
    aioapns releases the difference one by one while the *old* bound still caps the count, so the connection keeps
    the one or two streams it had for good (about 1.2k notifications/s instead of 5.5k here). Whether it happens
    depends on timing; setting the new bound before releasing is the evident intent of that code."""
    stock = DynamicBoundedSemaphore.bound

    def raise_then_release(self, new_bound):
        if new_bound > self._bound_value:
            old_bound = self._bound_value
            self._bound_value = new_bound
            for _ in range(new_bound - old_bound):
                self.release()
        else:
            stock.fset(self, new_bound)

    DynamicBoundedSemaphore.bound = property(stock.fget, raise_then_release)


class OncePerMessage(logging.Filter):
    """Lets each distinct log message through once: aioapns logs every failed attempt of every notification."""

    def __init__(self):
        super().__init__()
        self.seen = set()

    def filter(self, record):
        message = record.getMessage()
        if message in self.seen:
            return False
        self.seen.add(message)
        return True


async def send_all(arguments, key, tokens, payload, context):
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("aioapns-anchor: %(name)s: %(message)s"))
    handler.addFilter(OncePerMessage())
    logging.getLogger("aioapns").addHandler(handler)
    logging.getLogger("aioapns").setLevel(logging.ERROR)
    logging.getLogger("aioapns").propagate = False
    failures = {}

    async def on_error(request, result):
        # Replaces aioapns's log line for each refused notification (which would cost more than counting).
        reason = result.description or result.status
        failures[reason] = failures.get(reason, 0) + 1

    client = APNs(
        key=key, key_id=arguments.key_id, team_id=arguments.team_id, topic=arguments.topic,
        max_connections=arguments.connections, ssl_context=context, err_func=on_error)
    client.pool.protocol_class = endpoint_protocol(arguments.host, arguments.port, arguments.stock)
    # The first connection, opened through aioapns's pool before the clock starts: a server that cannot be reached
    # or whose certificate the CA does not vouch for fails here at once, instead of after 5 attempts per notification.
    try:
        await client.pool.acquire()
    except APNsConnectionError:
        fail(f"cannot connect to {arguments.host}:{arguments.port} (aioapns's reason above)")

    push_type = None if arguments.push_type == "none" else PushType(arguments.push_type)
    requests = [NotificationRequest(device_token=token, message=payload, push_type=push_type) for token in tokens]
    accepted = 0
    errors = {}
    pending = iter(requests)

    async def worker():
        nonlocal accepted
        for request in pending:
            try:
                result = await client.send_notification(request)
            except Exception as error:  # MaxAttemptsExceeded, or what aioapns lets through (h2's errors)
                name = type(error).__name__
                errors[name] = errors.get(name, 0) + 1
                continue
            if result.is_successful:
                accepted += 1

    in_flight = min(arguments.in_flight or DEFAULT_IN_FLIGHT, len(requests))
    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    seconds = time.perf_counter() - start
    client.pool.close()
    # Lets the transports close before the loop ends (no "unclosed transport" warnings).
    await asyncio.sleep(0)

    failed = len(requests) - accepted
    if failures or errors:
        summary = ", ".join(f"{reason} {count}" for reason, count in sorted({**failures, **errors}.items()))
        print(f"aioapns-anchor: {failed} not accepted: {summary}", file=sys.stderr)
    return {"sent": len(requests), "accepted": accepted, "failed": failed, "seconds": round(seconds, 6)}


def main():
    arguments = parse_arguments()
    key, tokens, payload, context = load_inputs(arguments)
    if not arguments.stock:
        fix_stream_limit_raise()
    result = asyncio.run(send_all(arguments, key, tokens, payload, context))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
