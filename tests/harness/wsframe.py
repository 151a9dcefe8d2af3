"""WebSocket framing (RFC 6455) for the tests' DevTools peers, stdlib only:
the fake peer (tests/cdp/fakepeer.py) and the proxy to a real Chromium
(tests/agent/covproxy.py). A server's frames go unmasked, a client's
masked."""
import base64, hashlib, os, struct

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
    """data XOR the repeated 4-byte mask, as one big integer (fast)."""
    if not data:
        return data
    m = (mask * (len(data) // 4 + 1))[:len(data)]
    x = int.from_bytes(data, "little") ^ int.from_bytes(m, "little")
    return x.to_bytes(len(data), "little")


def recv_message(conn):
    """One whole message, its fragments joined, as bytes; pings and pongs
    skipped; EOFError on a close frame or a closed socket."""
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


def send_frame(conn, payload, opcode=1, fin=True, masked=False):
    n = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
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
        payload = unmask(payload, mask)
    conn.sendall(head + payload)


def accept(conn):
    """The server's side of the opening handshake on an accepted socket."""
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
