#!/usr/bin/env python3
"""GitHub, GitLab and Jira stand-ins for test_tracker (stdlib only): one
HTTP server on 127.0.0.1 that answers as their documented REST APIs do
for what zamcap --tracker sends, and keeps what it was sent. It prints its
port on stdout; it exits when killed or after ten minutes.

usage: tracker_server.py TOKEN [--delay-create SECONDS]

APIs (base URLs: GitHub http://127.0.0.1:PORT, GitLab .../api/v4, Jira
.../jira):
  GitHub  POST /repos/O/R/issues, POST /repos/O/R/issues/N/comments,
          PATCH /repos/O/R/issues/N; "Authorization: Bearer TOKEN"
  GitLab  POST /api/v4/projects/ID/issues, .../issues/IID/notes,
          PUT .../issues/IID, POST .../uploads (ID is the URL-encoded
          path); "PRIVATE-TOKEN: TOKEN"
  Jira    POST /jira/rest/api/2/issue, .../issue/KEY/comment,
          .../issue/KEY/attachments (X-Atlassian-Token: no-check, else
          403), GET and POST .../issue/KEY/transitions; "Authorization:
          Bearer TOKEN" or Basic of "me@example.com:TOKEN"
A wrong token is 401. A project or repository named "invalid" answers an
issue's creation with a validation error (GitHub and GitLab 422, Jira
400); one named "ratelimited" answers the first creation with 429 and
Retry-After: 1, one named "flaky" with 503, and one named "broken" with
500; one named "waitlong" answers every creation with 429 and
Retry-After: 60, and one named "sleepy" takes 30 s to answer it. GitHub's
repository "nokey" answers a creation 201 with an empty object, "jsurl"
with a javascript: html_url. Jira's
project NOATTACH refuses attachments (413). GET /_state is what was
filed: {"requests": [[method, path], ...], "issues": {kind: [issue]}}.
"""
import base64, json, re, sys, threading, time
from urllib.parse import unquote
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = sys.argv[1]
DELAY = 0.0
if len(sys.argv) > 3 and sys.argv[2] == "--delay-create":
    DELAY = float(sys.argv[3])

LOCK = threading.Lock()
STATE = {"requests": [], "issues": {"github": [], "gitlab": [], "jira": []}}
FAILED_ONCE = set()


def special(where, kind):
    """None, or (status, headers, body) for the special projects."""
    name = where.split("/")[-1]
    if name.lower() == "invalid":
        if kind == "github":
            return 422, {}, {"message": "Validation Failed", "errors": [
                {"resource": "Issue", "code": "invalid", "field": "title"}],
                "documentation_url": "https://docs.github.com/rest"}
        if kind == "gitlab":
            return 422, {}, {"message": {"title": ["is invalid"]}}
        return 400, {}, {"errorMessages": [], "errors": {
            "project": "valid project is required"}}
    if name.lower() == "waitlong":
        return 429, {"Retry-After": "60"}, {"message": "slow down"}
    if name.lower() == "sleepy":
        time.sleep(30)
    for tag, status in (("ratelimited", 429), ("flaky", 503),
                        ("broken", 500)):
        if name.lower() == tag and (kind, where) not in FAILED_ONCE:
            FAILED_ONCE.add((kind, where))
            return status, {"Retry-After": "1"}, {"message": "slow down"}
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def answer(self, status, obj=None, headers=None):
        body = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if obj is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def json_body(self, raw):
        ctype = self.headers.get("Content-Type", "")
        if not ctype.startswith("application/json"):
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return None

    def files(self, raw):
        """The file names of a multipart body's parts named "file"."""
        if not self.headers.get("Content-Type", "").startswith(
                "multipart/form-data"):
            return None
        return re.findall(rb'name="file"; filename="([^"]*)"', raw)

    def authorized(self, kind):
        if kind == "github":
            return self.headers.get("Authorization") == "Bearer " + TOKEN
        if kind == "gitlab":
            return self.headers.get("PRIVATE-TOKEN") == TOKEN
        auth = self.headers.get("Authorization", "")
        basic = "Basic " + base64.b64encode(
            ("me@example.com:" + TOKEN).encode()).decode()
        return auth in ("Bearer " + TOKEN, basic)

    def handle_any(self, method):
        raw = self.body()
        path = self.path.split("?")[0]
        with LOCK:
            STATE["requests"].append([method, path])
        if path == "/_state" and method == "GET":
            with LOCK:
                return self.answer(200, STATE)
        if path.startswith("/repos/"):
            kind = "github"
        elif path.startswith("/api/v4/projects/"):
            kind = "gitlab"
        elif path.startswith("/jira/rest/api/2/"):
            kind = "jira"
        else:
            return self.answer(404, {"message": "Not Found"})
        if not self.authorized(kind):
            msg = {"github": {"message": "Bad credentials"},
                   "gitlab": {"message": "401 Unauthorized"},
                   "jira": {"errorMessages": ["You are not authenticated."]}}
            return self.answer(401, msg[kind])
        getattr(self, kind)(method, path, raw)

    # ---- GitHub ----
    def github(self, method, path, raw):
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues(?:/(\d+)(/comments)?)?",
                         path)
        if not m:
            return self.answer(404, {"message": "Not Found"})
        where, num, comments = m.group(1), m.group(2), m.group(3)
        body = self.json_body(raw)
        if body is None:
            return self.answer(400, {"message": "Problems parsing JSON"})
        issues = STATE["issues"]["github"]
        if not num and method == "POST":
            def shape(i):
                if where.endswith("/nokey"):  # a proxy that eats the body
                    return {}
                url = "https://github.example/%s/issues/%d" % (where, i["n"])
                if where.endswith("/jsurl"):
                    url = "javascript:alert(document.cookie)//"
                return {"number": i["n"], "state": "open", "html_url": url}
            return self.create("github", where, body.get("title"),
                               body.get("body"), shape)
        with LOCK:
            hits = [i for i in issues if i["n"] == int(num or 0)
                    and i["where"] == where]
        if not hits:
            return self.answer(404, {"message": "Not Found"})
        issue = hits[0]
        if comments and method == "POST":
            with LOCK:
                issue["comments"].append(body.get("body", ""))
            return self.answer(201, {"id": len(issue["comments"])})
        if not comments and method == "PATCH":
            if body.get("state") not in ("open", "closed"):
                return self.answer(422, {"message": "Validation Failed"})
            with LOCK:
                issue["state"] = body["state"]
                issue["events"].append(body["state"])
            return self.answer(200, {"number": issue["n"],
                                     "state": issue["state"]})
        return self.answer(404, {"message": "Not Found"})

    def create(self, kind, where, title, text, shape, files=None):
        bad = special(where, kind)
        if bad:
            return self.answer(bad[0], bad[2], bad[1])
        if not title or text is None:
            return self.answer(422, {"message": "Validation Failed"})
        time.sleep(DELAY)
        with LOCK:
            issues = STATE["issues"][kind]
            # numbered per repository or project, as the trackers do
            n = 1 + sum(1 for i in issues if i["where"] == where)
            issue = {"n": n, "where": where, "title": title,
                     "body": text, "state": "open", "comments": [],
                     "events": [], "files": files or []}
            issues.append(issue)
        return self.answer(201, shape(issue))

    # ---- GitLab ----
    def gitlab(self, method, path, raw):
        m = re.fullmatch(r"/api/v4/projects/([^/]+)/(issues|uploads)"
                         r"(?:/(\d+)(/notes)?)?", path)
        if not m or "%2F" not in m.group(1):
            return self.answer(404, {"message": "404 Project Not Found"})
        where, what = unquote(m.group(1)), m.group(2)
        iid, notes = m.group(3), m.group(4)
        if what == "uploads" and method == "POST" and not iid:
            names = self.files(raw)
            if not names:
                return self.answer(400, {"error": "file is missing"})
            name = names[0].decode()
            with LOCK:
                STATE.setdefault("uploads", []).append(name)
            url = "/uploads/%032x/%s" % (len(STATE["uploads"]), name)
            return self.answer(201, {"alt": name, "url": url,
                                     "full_path": "/" + where + url,
                                     "markdown": "[%s](%s)" % (name, url)})
        body = self.json_body(raw)
        if body is None:
            return self.answer(400, {"error": "not JSON"})
        if what == "issues" and not iid and method == "POST":
            return self.create("gitlab", where, body.get("title"),
                               body.get("description"), lambda i: {
                                   "id": 1000 + i["n"], "iid": i["n"],
                                   "state": "opened",
                                   "web_url": "https://gitlab.example/%s/-/"
                                   "issues/%d" % (where, i["n"])})
        with LOCK:
            hits = [i for i in STATE["issues"]["gitlab"]
                    if i["n"] == int(iid or 0) and i["where"] == where]
        if not hits:
            return self.answer(404, {"message": "404 Not found"})
        issue = hits[0]
        if notes and method == "POST":
            with LOCK:
                issue["comments"].append(body.get("body", ""))
            return self.answer(201, {"id": len(issue["comments"])})
        if not notes and method == "PUT":
            ev = body.get("state_event")
            if ev not in ("close", "reopen"):
                return self.answer(400, {"error": "state_event"})
            with LOCK:
                issue["state"] = "closed" if ev == "close" else "open"
                issue["events"].append(issue["state"])
            return self.answer(200, {"iid": issue["n"]})
        return self.answer(404, {"message": "404 Not found"})

    # ---- Jira ----
    def jira(self, method, path, raw):
        m = re.fullmatch(r"/jira/rest/api/2/issue(?:/([A-Z][A-Z0-9_]*-\d+)"
                         r"/(comment|attachments|transitions))?", path)
        if not m:
            return self.answer(404, {"errorMessages": ["Not found"]})
        key, what = m.group(1), m.group(2)
        if not key and method == "POST":
            body = self.json_body(raw) or {}
            f = body.get("fields", {})
            where = f.get("project", {}).get("key", "")
            if f.get("issuetype", {}).get("name") is None:
                return self.answer(400, {"errors": {"issuetype": "required"}})
            return self.create("jira", where, f.get("summary"),
                               f.get("description"), lambda i: {
                                   "id": str(10000 + i["n"]),
                                   "key": "%s-%d" % (where, i["n"]),
                                   "self": "/rest/api/2/issue/%d" %
                                   (10000 + i["n"])})
        with LOCK:
            hits = [i for i in STATE["issues"]["jira"]
                    if "%s-%d" % (i["where"], i["n"]) == key]
        if not hits:
            return self.answer(404, {"errorMessages": ["Issue does not exist"]})
        issue = hits[0]
        if what == "attachments" and method == "POST":
            if issue["where"] == "NOATTACH":
                return self.answer(413, {"errorMessages": [
                    "The attachment is too large."]})
            if self.headers.get("X-Atlassian-Token") != "no-check":
                return self.answer(403, {"errorMessages": [
                    "XSRF check failed"]})
            names = self.files(raw)
            if not names:
                return self.answer(400, {"errorMessages": ["no file"]})
            with LOCK:
                issue["files"] += [n.decode() for n in names]
            return self.answer(200, [{"filename": n.decode()} for n in names])
        if what == "transitions" and method == "GET":
            return self.answer(200, {"transitions": [
                {"id": "11", "name": "To Do",
                 "to": {"statusCategory": {"key": "new"}}},
                {"id": "31", "name": "Done",
                 "to": {"statusCategory": {"key": "done"}}}]})
        body = self.json_body(raw)
        if body is None:
            return self.answer(400, {"errorMessages": ["not JSON"]})
        if what == "comment" and method == "POST":
            with LOCK:
                issue["comments"].append(body.get("body", ""))
            return self.answer(201, {"id": str(len(issue["comments"]))})
        if what == "transitions" and method == "POST":
            tid = body.get("transition", {}).get("id")
            if tid not in ("11", "31"):
                return self.answer(400, {"errorMessages": ["bad transition"]})
            with LOCK:
                issue["state"] = "closed" if tid == "31" else "open"
                issue["events"].append(issue["state"])
            return self.answer(204)
        return self.answer(404, {"errorMessages": ["Not found"]})

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_PATCH(self):
        self.handle_any("PATCH")


srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
threading.Timer(600, srv.shutdown).start()
srv.serve_forever()
