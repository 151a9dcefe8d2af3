#!/usr/bin/env python3
"""A build server that fails on cue, for the one command's fault tests.

    faultserve.py DIR PORTFILE [--break-from N] [--crash-at N --out OUT]

Serves DIR on 127.0.0.1 (an ephemeral port, written to PORTFILE) and
counts the requests for the page ("/" or "/index.html"):

  --break-from N   from the Nth page request on, the page has no
                   #filter-active button, so a scenario step fails there;
  --crash-at N     at the Nth page request, kills the renderers of the
                   Chrome that the zamcap writing to OUT launched (found
                   through the process table: zamcap --out OUT, its child
                   Chrome, that Chrome's process group), as the OOM killer
                   would, and then answers; OUT.killed then holds how
                   many it killed.
"""
import argparse
import functools
import http.server
import os
import signal
import subprocess
import sys


def chrome_group(out):
    """The process group of the Chrome started by zamcap ... --out OUT."""
    ps = subprocess.run(["ps", "-eo", "pid=,ppid=,pgid=,args="],
                        capture_output=True, text=True).stdout.splitlines()
    rows = []
    for line in ps:
        parts = line.split(None, 3)
        if len(parts) == 4:
            rows.append((int(parts[0]), int(parts[1]), int(parts[2]),
                         parts[3]))
    zp = [p for p, _, _, a in rows if "--out " + out in a and "zamcap" in a
          and "faultserve" not in a]
    for p, pp, pg, a in rows:
        if pp in zp and "chrom" in a:
            return pg, rows
    return None, rows


def kill_renderers(out):
    pg, rows = chrome_group(out)
    if pg is None:
        print("faultserve: no Chrome of zamcap --out %s" % out,
              file=sys.stderr)
        return
    n = 0
    for p, _, g, a in rows:
        if g == pg and "--type=renderer" in a:
            os.kill(p, signal.SIGKILL)
            n += 1
    # For the test: proof that the kill happened.
    with open(out + ".killed", "w") as f:
        f.write("%d\n" % n)


class Handler(http.server.SimpleHTTPRequestHandler):
    pages = 0
    scripts = 0

    def log_message(self, *a):
        pass

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == self.server.args.crash_script:
            Handler.scripts += 1
            if Handler.scripts == 1:
                kill_renderers(self.server.args.out)
        if path not in ("/", "/index.html"):
            return super().do_GET()
        Handler.pages += 1
        n = Handler.pages
        if self.server.args.crash_at == n:
            kill_renderers(self.server.args.out)
        with open(os.path.join(self.server.args.dir, "index.html"), "rb") as f:
            body = f.read()
        if self.server.args.break_from and n >= self.server.args.break_from:
            body = body.replace(b'id="filter-active"', b'id="gone"')
            body = body.replace(b">Active<", b">Gone<")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("portfile")
    ap.add_argument("--break-from", type=int, default=0)
    ap.add_argument("--crash-at", type=int, default=0)
    ap.add_argument("--crash-script", default="")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    handler = functools.partial(Handler, directory=args.dir)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.args = args
    tmp = args.portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(tmp, args.portfile)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    srv.serve_forever()


if __name__ == "__main__":
    main()
