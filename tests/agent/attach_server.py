#!/usr/bin/env python3
"""A bug tracker stand-in for test_attach (stdlib only): an HTTP server on
127.0.0.1 that takes zamcap's --attach uploads, checks them byte for byte
against the report folder, and answers as a tracker would. It prints its
port on stdout, then one line per request; it exits when killed or after
five minutes.

usage: attach_server.py BASE [--expect 'Name=value']...

POST paths:
  /rest/api/3/issue/ZC-1/attachments[?dir=D][&files=a,b]
        check the request: method, path, the --expect headers, a zamcap
        User-Agent, a multipart/form-data body whose parts are named
        "file" and carry the files of the report folder BASE/D (default
        BASE/report): all three, or those of files=, in order, with their
        base names, types and exact bytes; answer 201 with JSON, or 400
        with the first failed check as the body's first line
  /fail      403 "forbidden: bad token", then a second line
  /echo      401 quoting the Authorization header back
  /redirect  302 to another path, with a token in its query
  /long      500 with a one-line body of 5000 characters
  other      404
"""
import json, os, sys, threading
from urllib.parse import parse_qs
from http.server import BaseHTTPRequestHandler, HTTPServer

BASE = sys.argv[1]
EXPECT = {}
args = sys.argv[2:]
while args:
    if args[0] == "--expect" and len(args) > 1:
        name, _, value = args[1].partition("=")
        EXPECT[name.lower()] = value
        args = args[2:]
    else:
        sys.exit("attach_server.py: bad argument " + args[0])

ALL = ["report.html", "summary.md", "report.json"]
TYPES = {
    "report.html": "text/html; charset=utf-8",
    "summary.md": "text/markdown; charset=utf-8",
    "report.json": "application/json",
}
UPLOAD = "/rest/api/3/issue/ZC-1/attachments"


class CheckFailed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise CheckFailed(what)


def parse_multipart(ctype, body):
    """[(headers dict, content bytes)] of a multipart/form-data body."""
    check(ctype.startswith("multipart/form-data;"),
          "Content-Type is not multipart/form-data: " + ctype)
    boundary = None
    for param in ctype.split(";")[1:]:
        k, _, v = param.strip().partition("=")
        if k.lower() == "boundary":
            boundary = v.strip('"').encode()
    check(boundary, "no boundary in Content-Type")
    delim = b"--" + boundary
    check(body.startswith(delim + b"\r\n"), "the body does not open with the "
          "boundary")
    segments = (b"\r\n" + body).split(b"\r\n" + delim)
    check(segments[0] == b"", "text before the first part")
    check(segments[-1] in (b"--", b"--\r\n"), "the body does not close with "
          "the boundary")
    parts = []
    for seg in segments[1:-1]:
        check(seg.startswith(b"\r\n"), "a boundary line with trailing bytes")
        head, sep, content = seg[2:].partition(b"\r\n\r\n")
        check(sep, "a part without a blank line after its headers")
        headers = {}
        for line in head.decode("latin-1").split("\r\n"):
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        parts.append((headers, content))
    return parts


def disposition(value):
    """'form-data; name="file"; filename="x"' -> ('form-data', {...})."""
    kind, *params = [p.strip() for p in value.split(";")]
    d = {}
    for p in params:
        k, _, v = p.partition("=")
        d[k] = v[1:-1] if v.startswith('"') and v.endswith('"') else v
    return kind, d


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # so that Expect: 100-continue is met

    def log_message(self, *a):
        pass

    def answer(self, status, body, extra=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def report(self, status, note):
        print("%s %s %d %s" % (self.command, self.path, status, note),
              flush=True)

    def do_GET(self):
        self.report(405, "")
        self.answer(405, "POST only")

    def do_POST(self):
        n = self.headers.get("Content-Length")
        body = self.rfile.read(int(n)) if n else b""
        path, _, query = self.path.partition("?")
        if path == UPLOAD:
            try:
                note = self.check_upload(query, n, body)
                self.report(201, note)
                self.answer(201, json.dumps([{"id": "10001"}]))
            except CheckFailed as e:
                self.report(400, "check failed: %s" % e)
                self.answer(400, "check failed: %s\nmore" % e)
        elif path == "/fail":
            self.report(403, "")
            self.answer(403, "forbidden: bad token\nsee the logs")
        elif path == "/echo":
            self.report(401, "")
            auth = self.headers.get("Authorization", "none")
            self.answer(401, "  \r\nno such token: %s (Authorization: %s)\n"
                        % (auth.split()[-1], auth))
        elif path == "/redirect":
            self.report(302, "")
            port = self.server.server_address[1]
            self.answer(302, "", [("Location", "http://u:pw@127.0.0.1:%d/"
                                   "moved?token=abc" % port)])
        elif path == "/long":
            self.report(500, "")
            self.answer(500, "x" * 5000)
        else:
            self.report(404, "")
            self.answer(404, "no such path")

    def check_upload(self, query, length, body):
        check(length is not None, "no Content-Length")
        q = parse_qs(query, strict_parsing=bool(query))
        check(set(q) <= {"dir", "files"}, "unexpected query " + query)
        outdir = os.path.join(BASE, q.get("dir", ["report"])[0])
        want = q["files"][0].split(",") if "files" in q else ALL
        for name, value in EXPECT.items():
            got = self.headers.get(name)
            check(got is not None, "header %s missing" % name)
            check(got == value, "header %s has another value" % name)
        ua = self.headers.get("User-Agent", "")
        check(ua.startswith("zamcap/"), "User-Agent is " + ua)
        parts = parse_multipart(self.headers.get("Content-Type", ""), body)
        got = []
        for headers, content in parts:
            kind, d = disposition(headers.get("content-disposition", ""))
            check(kind == "form-data", "a part that is not form-data")
            check(d.get("name") == "file", "a part named %r" % d.get("name"))
            fn = d.get("filename", "")
            check(fn in ALL, "a part with filename %r" % fn)
            check(headers.get("content-type") == TYPES[fn],
                  "%s has type %r" % (fn, headers.get("content-type")))
            with open(os.path.join(outdir, fn), "rb") as f:
                check(f.read() == content, "%s differs from the file" % fn)
            got.append(fn)
        check(got == want, "parts %s, not %s" % (",".join(got),
                                                ",".join(want)))
        return ",".join(got)


server = HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Timer(300, lambda: os._exit(0)).start()
server.serve_forever()
