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
import json, os, socket, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "harness"))
from wsframe import accept, recv_message, send_frame  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"


def send_text(conn, text, fragment=0):
    data = text.encode()
    if not fragment or len(data) <= fragment:
        send_frame(conn, data)
        return
    parts = [data[i:i + fragment] for i in range(0, len(data), fragment)]
    for i, p in enumerate(parts):
        send_frame(conn, p, 1 if i == 0 else 0, i == len(parts) - 1)


def recv_msg(conn):
    return recv_message(conn).decode()


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    print(srv.getsockname()[1], flush=True)
    srv.settimeout(30)
    conn, _ = srv.accept()
    conn.settimeout(60)
    accept(conn)
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
