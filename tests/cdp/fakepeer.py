#!/usr/bin/env python3
"""A fake DevTools peer for zamcap's tests: a minimal WebSocket server
(RFC 6455, stdlib only) on 127.0.0.1 that answers CDP commands the way a
test asks it to. It prints its port on stdout, serves one connection, and
exits when the client goes or after a time limit.

usage: fakepeer.py MODE
  ok         answer every command with {"result": {"echo": method}}
  garbage    answer the first command with bytes that are not JSON
  unknownid  answer the first command with an id never sent
  close      close the socket instead of answering the first command
  hang       never answer
  error      answer with a CDP error object
  big        answer with a 3 MB result split into 64 KB fragments, after
             an event; then answer normally
  events     send 3 events before each answer
"""
import base64, hashlib, json, os, socket, struct, sys, time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def send_frame(conn, payload, opcode=1, fin=True):
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 65536:
        head += bytes([126]) + struct.pack(">H", n)
    else:
        head += bytes([127]) + struct.pack(">Q", n)
    conn.sendall(head + payload)


def send_text(conn, text, fragment=0):
    data = text.encode()
    if not fragment or len(data) <= fragment:
        send_frame(conn, data)
        return
    parts = [data[i:i + fragment] for i in range(0, len(data), fragment)]
    for i, p in enumerate(parts):
        send_frame(conn, p, 1 if i == 0 else 0, i == len(parts) - 1)


def recv_exact(conn, n):
    b = b""
    while len(b) < n:
        c = conn.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return b


def recv_msg(conn):
    data = b""
    while True:
        h = recv_exact(conn, 2)
        fin, op, masked, n = h[0] & 0x80, h[0] & 0x0F, h[1] & 0x80, h[1] & 0x7F
        if n == 126:
            n = struct.unpack(">H", recv_exact(conn, 2))[0]
        elif n == 127:
            n = struct.unpack(">Q", recv_exact(conn, 8))[0]
        mask = recv_exact(conn, 4) if masked else b"\0\0\0\0"
        p = bytearray(recv_exact(conn, n))
        for i in range(n):
            p[i] ^= mask[i % 4]
        if op == 8:
            raise EOFError
        if op in (9, 10):
            continue
        data += bytes(p)
        if fin:
            return data.decode()


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    print(srv.getsockname()[1], flush=True)
    srv.settimeout(30)
    conn, _ = srv.accept()
    conn.settimeout(60)
    req = b""
    while b"\r\n\r\n" not in req:
        req += conn.recv(4096)
    key = ""
    for line in req.decode().split("\r\n"):
        if line.lower().startswith("sec-websocket-key:"):
            key = line.split(":", 1)[1].strip()
    acc = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest())
    conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + acc +
                 b"\r\n\r\n")
    first = True
    try:
        while True:
            m = json.loads(recv_msg(conn))
            mid, method = m["id"], m["method"]
            if MODE == "garbage" and first:
                send_text(conn, "{this is not json")
            elif MODE == "unknownid" and first:
                send_text(conn, json.dumps({"id": 424242, "result": {}}))
            elif MODE == "close" and first:
                conn.shutdown(socket.SHUT_RDWR)
                conn.close()
                return
            elif MODE == "hang":
                pass
            elif MODE == "error":
                send_text(conn, json.dumps({"id": mid, "error": {
                    "code": -32601, "message": "'%s' wasn't found" % method}}))
            elif MODE == "big" and first:
                send_text(conn, json.dumps({"method": "Fake.event",
                                            "params": {"n": 1}}))
                blob = "x" * (3 << 20)
                send_text(conn, json.dumps({"id": mid, "result": {
                    "blob": blob}}), fragment=65536)
            else:
                if MODE == "events":
                    for i in range(3):
                        send_text(conn, json.dumps({
                            "method": "Fake.event", "params": {"n": i},
                            "sessionId": "S1"}))
                send_text(conn, json.dumps({"id": mid, "result": {
                    "echo": method, "session": m.get("sessionId")}}))
            first = False
    except (EOFError, ConnectionError, socket.timeout):
        pass


if __name__ == "__main__":
    main()
