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
import base64, hashlib, json, os, socket, struct, sys, threading

UPSTREAM, REFUSED = sys.argv[1], sys.argv[2]
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def recv_exact(conn, n):
    b = bytearray()
    while len(b) < n:
        c = conn.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return bytes(b)


def unmask(data, mask):
    if not data:
        return data
    m = (mask * (len(data) // 4 + 1))[:len(data)]
    x = int.from_bytes(data, "little") ^ int.from_bytes(m, "little")
    return x.to_bytes(len(data), "little")


def recv_msg(conn):
    """One whole message (text or binary), its fragments joined."""
    data = b""
    while True:
        h = recv_exact(conn, 2)
        fin, op, masked, n = h[0] & 0x80, h[0] & 0x0F, h[1] & 0x80, h[1] & 0x7F
        if n == 126:
            n = struct.unpack(">H", recv_exact(conn, 2))[0]
        elif n == 127:
            n = struct.unpack(">Q", recv_exact(conn, 8))[0]
        mask = recv_exact(conn, 4) if masked else None
        p = recv_exact(conn, n)
        if mask:
            p = unmask(p, mask)
        if op == 8:
            raise EOFError
        if op in (9, 10):
            continue
        data += p
        if fin:
            return data


def send_msg(conn, data, masked, lock):
    n = len(data)
    head = bytes([0x81])
    bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack(">H", n)
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", n)
    if masked:
        mask = os.urandom(4)
        head += mask
        data = unmask(data, mask)
    with lock:
        conn.sendall(head + data)


def accept_client(srv):
    conn, _ = srv.accept()
    req = b""
    while b"\r\n\r\n" not in req:
        c = conn.recv(4096)
        if not c:
            raise EOFError
        req += c
    key = ""
    for line in req.decode().split("\r\n"):
        if line.lower().startswith("sec-websocket-key:"):
            key = line.split(":", 1)[1].strip()
    acc = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest())
    conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + acc +
                 b"\r\n\r\n")
    return conn


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
    client = accept_client(srv)
    up = connect_upstream(UPSTREAM)
    to_client, to_up = threading.Lock(), threading.Lock()
    done = threading.Event()

    def downstream():
        try:
            while True:
                send_msg(client, recv_msg(up), False, to_client)
        except (EOFError, OSError):
            done.set()

    def upstream():
        try:
            while True:
                m = recv_msg(client)
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
