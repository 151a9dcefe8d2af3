#!/usr/bin/env python3
"""A script-and-map server for the map finder's network tests (issue 26).

    mapserve.py DIR LOG [--redirect PATH=URL ...] [--slow PATH ...]

Serves DIR on 127.0.0.1 (an ephemeral port, printed on the first line of
stdout), appends each request's path to LOG (one a line, flushed), answers
PATH with a 302 to URL for each --redirect, and sends a --slow PATH's
body one byte a second.
"""
import argparse
import http.server
import os
import sys
import time


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        args = self.server.args
        path = self.path.split("?")[0]
        with open(args.log, "a") as f:
            f.write(path + "\n")
        if path in args.redirects:
            self.send_response(302)
            self.send_header("Location", args.redirects[path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        full = os.path.join(args.dir, path.lstrip("/"))
        if not os.path.isfile(full):
            self.send_error(404)
            return
        with open(full, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            if path in args.slow:
                for b in body:
                    self.wfile.write(bytes([b]))
                    self.wfile.flush()
                    time.sleep(1)
            else:
                self.wfile.write(body)
        except OSError:
            pass


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("log")
    p.add_argument("--redirect", action="append", default=[])
    p.add_argument("--slow", action="append", default=[])
    args = p.parse_args()
    args.redirects = dict(r.split("=", 1) for r in args.redirect)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.args = args
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
