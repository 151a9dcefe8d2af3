#!/usr/bin/env python3
"""A DevTools proxy for test_shapes (stdlib only): zamcap talks through it
to a real Chromium, and it refuses what Chromium would not refuse on its
own. It listens on 127.0.0.1, prints its port on stdout, takes one
connection, opens the browser's WebSocket UPSTREAM, and relays every
message both ways, except that a command named REFUSED gets a CDP error
instead of reaching the browser. It exits when either side goes, or
after ten minutes.

usage: covproxy.py UPSTREAM REFUSED
  UPSTREAM  the browser's ws://127.0.0.1:PORT/devtools/browser/ID
  REFUSED   a CDP method, e.g. Profiler.startPreciseCoverage
"""
import base64, json, os, socket, sys, threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "harness"))
from wsframe import accept, recv_message, send_frame  # noqa: E402

UPSTREAM, REFUSED = sys.argv[1], sys.argv[2]


def send_msg(conn, data, masked, lock):
    with lock:
        send_frame(conn, data, masked=masked)


def connect_upstream(url):
    rest = url[len("ws://"):]
    hostport, path = rest.split("/", 1)
    host, port = hostport.rsplit(":", 1)
    conn = socket.create_connection((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n" %
                  (path, hostport, key)).encode())
    resp = b""
    while b"\r\n\r\n" not in resp:
        c = conn.recv(1)
        if not c:
            raise EOFError
        resp += c
    if b" 101 " not in resp.split(b"\r\n", 1)[0]:
        raise EOFError
    return conn


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    print(srv.getsockname()[1], flush=True)
    srv.settimeout(600)
    client, _ = srv.accept()
    accept(client)
    up = connect_upstream(UPSTREAM)
    to_client, to_up = threading.Lock(), threading.Lock()
    done = threading.Event()

    def downstream():
        try:
            while True:
                send_msg(client, recv_message(up), False, to_client)
        except (EOFError, OSError):
            done.set()

    def upstream():
        try:
            while True:
                m = recv_message(client)
                try:
                    j = json.loads(m)
                except ValueError:
                    j = {}
                if j.get("method") == REFUSED:
                    err = {"id": j.get("id"), "error": {
                        "code": -32000,
                        "message": "%s is refused here" % REFUSED}}
                    if "sessionId" in j:
                        err["sessionId"] = j["sessionId"]
                    send_msg(client, json.dumps(err).encode(), False,
                             to_client)
                    continue
                send_msg(up, m, True, to_up)
        except (EOFError, OSError):
            done.set()

    for f in (downstream, upstream):
        threading.Thread(target=f, daemon=True).start()
    done.wait(600)


if __name__ == "__main__":
    main()
