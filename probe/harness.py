"""Probe harness: a Messages API mock on loopback, a sandboxed HOME/project, and runners for the
real Claude Code client (headless `-p` and interactive under a private tmux server).

Throwaway tooling for establishing facts; the tests proper live in tests/e2e/.
"""
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CLIENTS = {
    "2.1.332": os.path.join(REPO, "target/claude-code-2.1.332/node_modules/.bin/claude"),
    "2.1.197": os.path.join(REPO, "target/claude-code-2.1.197/node_modules/.bin/claude"),
}
API_KEY = "sk-test-baton-e2e-0123456789abcdefghij"
MODEL = "claude-sonnet-4-5"
HOOK = "python3 %s" % os.path.join(HERE, "hook.py")
ALL_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart", "SessionEnd",
              "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "Notification"]


# ---------------------------------------------------------------- requests

def texts_of(content):
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    return []


class Req:
    def __init__(self, method, path, headers, body):
        self.method, self.path, self.headers, self.body = method, path, headers, body

    @property
    def messages(self):
        return (self.body or {}).get("messages") or []

    def is_turn(self):
        return self.method == "POST" and self.path.split("?")[0] == "/v1/messages" and bool((self.body or {}).get("tools"))

    def prompt(self):
        if not self.messages:
            return ""
        own = [t for t in texts_of(self.messages[0].get("content")) if not t.startswith("<system-reminder>")]
        return "\n".join(own)

    def assistant_turns(self):
        return sum(1 for m in self.messages if m.get("role") == "assistant")

    def last_user_texts(self):
        for m in reversed(self.messages):
            if m.get("role") == "user":
                return texts_of(m.get("content"))
        return []

    def all_texts(self):
        return [t for m in self.messages for t in texts_of(m.get("content"))]

    def find(self, needle):
        """Where `needle` occurs in the messages: [(message index, role, location)]."""
        found = []
        for i, m in enumerate(self.messages):
            content = m.get("content")
            if isinstance(content, str):
                if needle in content:
                    found.append((i, m.get("role"), "string content"))
                continue
            for j, b in enumerate(content or []):
                if b.get("type") == "text" and needle in b.get("text", ""):
                    found.append((i, m.get("role"), "text block %d" % j))
                elif b.get("type") == "tool_result":
                    c = b.get("content")
                    if isinstance(c, str) and needle in c:
                        found.append((i, m.get("role"), "tool_result %d content string" % j))
                    elif isinstance(c, list):
                        for k, cb in enumerate(c):
                            if needle in cb.get("text", ""):
                                found.append((i, m.get("role"), "tool_result %d content[%d] text" % (j, k)))
        return found

    def is_summary_request(self):
        last = "\n".join(self.last_user_texts())
        return "create a detailed summary of the conversation" in last.lower()

    def record(self):
        body = dict(self.body) if isinstance(self.body, dict) else self.body
        if isinstance(body, dict):
            if "tools" in body:
                body["tools"] = [t.get("name") for t in body["tools"]]
            if isinstance(body.get("system"), list):
                body["system"] = [{"chars": len(b.get("text", "")), "head": b.get("text", "")[:200]} for b in body["system"]]
        headers = {k: v for k, v in (self.headers or {}).items() if k.lower() not in ("x-api-key", "authorization")}
        return {"method": self.method, "path": self.path, "time": time.time(), "headers": headers, "body": body}


# ---------------------------------------------------------------- replies

def text(input_tokens, s, **usage):
    return {"input_tokens": input_tokens, "blocks": [("text", s)], **usage}


def tool(input_tokens, name, inp, **usage):
    return {"input_tokens": input_tokens, "blocks": [("tool", name, inp)], **usage}


def bash(input_tokens, command, **usage):
    return tool(input_tokens, "Bash", {"command": command, "description": "probe"}, **usage)


def sse(reply, model, msg_id):
    usage = {"input_tokens": reply["input_tokens"],
             "cache_creation_input_tokens": reply.get("cache_creation", 0),
             "cache_read_input_tokens": reply.get("cache_read", 0), "output_tokens": 1}
    events = [{"type": "message_start", "message": {"id": msg_id, "type": "message", "role": "assistant",
                                                    "model": model, "content": [], "stop_reason": None,
                                                    "stop_sequence": None, "usage": usage}}]
    uses_tool = False
    for i, block in enumerate(reply["blocks"]):
        if block[0] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block[1]}
        else:
            uses_tool = True
            start = {"type": "tool_use", "id": "toolu_probe_%s_%d" % (msg_id, i), "name": block[1], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block[2])}
        events += [{"type": "content_block_start", "index": i, "content_block": start},
                   {"type": "content_block_delta", "index": i, "delta": delta},
                   {"type": "content_block_stop", "index": i}]
    events += [{"type": "message_delta", "delta": {"stop_reason": "tool_use" if uses_tool else "end_turn",
                                                   "stop_sequence": None},
                "usage": {"output_tokens": reply.get("output_tokens", 20)}},
               {"type": "message_stop"}]
    return "".join("event: %s\ndata: %s\n\n" % (e["type"], json.dumps(e)) for e in events)


# ---------------------------------------------------------------- mock server

class Mock:
    """script(req) -> reply dict, or ("error", status, json) ; None = default side answer."""

    def __init__(self, script, log_path=None):
        self.script = script
        self.requests = []
        self.lock = threading.Lock()
        self.ids = 0
        self.log_path = log_path
        mock = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def _body(self):
                if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                    raw = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                        if size == 0:
                            while self.rfile.readline().strip():
                                pass
                            break
                        raw += self.rfile.read(size)
                        self.rfile.readline()
                    return raw
                n = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(n) if n else b""

            def _send(self, status, ctype, body):
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("request-id", "req_probe")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            def do_HEAD(self):
                self._send(200, "text/plain", "")

            def do_GET(self):
                self._send(404, "application/json", json.dumps({"type": "error", "error": {"type": "not_found_error", "message": "not mocked"}}))

            def do_POST(self):
                raw = self._body()
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                req = Req("POST", self.path, dict(self.headers), body)
                with mock.lock:
                    mock.requests.append(req)
                    mock.ids += 1
                    msg_id = "msg_probe_%d" % mock.ids
                    if mock.log_path:
                        with open(mock.log_path, "a") as f:
                            f.write(json.dumps(req.record()) + "\n")
                route = self.path.split("?")[0]
                if route == "/v1/messages/count_tokens":
                    return self._send(200, "application/json", json.dumps({"input_tokens": 1000}))
                if route != "/v1/messages":
                    return self.do_GET()
                reply = None
                try:
                    reply = mock.script(req)
                except Exception as e:  # a broken script must still answer
                    print("script error:", repr(e))
                if reply is None:
                    reply = text(100, "ok")
                if isinstance(reply, tuple) and reply[0] == "error":
                    return self._send(reply[1], "application/json", json.dumps(reply[2]))
                model = (body or {}).get("model", MODEL)
                self._send(200, "text/event-stream", sse(reply, model, msg_id))

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self):
        return "http://127.0.0.1:%d" % self.port

    def turns(self):
        return [r for r in self.requests if r.is_turn()]

    def turns_of(self, prompt_part):
        return [r for r in self.turns() if prompt_part in r.prompt()]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


# ---------------------------------------------------------------- sandbox

class Sandbox:
    def __init__(self, name, version, out_root=None):
        self.version = version
        self.root = "/tmp/baton-probe/%s-%s" % (name, version)
        shutil.rmtree(self.root, ignore_errors=True)
        self.home = os.path.join(self.root, "home")
        self.tmp = os.path.join(self.home, "tmp")
        self.project = os.path.join(self.root, "proj")
        self.capture = os.path.join(self.root, "capture")
        for d in (self.tmp, os.path.join(self.project, ".claude"), os.path.join(self.capture, "responses")):
            os.makedirs(d, exist_ok=True)
        self.out = out_root or os.path.join(HERE, "out", version, name)
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out, exist_ok=True)

    def settings(self, settings):
        with open(os.path.join(self.project, ".claude/settings.json"), "w") as f:
            json.dump(settings, f, indent=1)

    def hook_settings(self, events=ALL_EVENTS, statusline=False, extra=None):
        entry = [{"matcher": "", "hooks": [{"type": "command", "command": HOOK, "timeout": 30}]}]
        s = {"hooks": {e: entry for e in events}}
        if statusline:
            s["statusLine"] = {"type": "command", "command": HOOK + " statusline", "padding": 0}
        s.update(extra or {})
        self.settings(s)
        return s

    def respond(self, name, obj):
        with open(os.path.join(self.capture, "responses", name), "w", encoding="utf-8") as f:
            f.write(obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False))

    def trust(self):
        tail = API_KEY[-20:]
        with open(os.path.join(self.home, ".claude.json"), "w") as f:
            json.dump({"hasCompletedOnboarding": True,
                       "customApiKeyResponses": {"approved": [tail], "rejected": []},
                       "projects": {self.project: {"hasTrustDialogAccepted": True}}}, f)

    def env(self, mock, extra=None):
        env = {k: v for k, v in os.environ.items()
               if not (k.startswith("CLAUDE") or k.startswith("ANTHROPIC_") or k in ("TMUX", "TMUX_PANE"))}
        env.update({"HOME": self.home, "TMPDIR": self.tmp,
                    "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
                    "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
                    "XDG_DATA_HOME": os.path.join(self.home, ".local/share"),
                    "XDG_STATE_HOME": os.path.join(self.home, ".local/state"),
                    "DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                    "DISABLE_AUTOUPDATER": "1", "ANTHROPIC_BASE_URL": mock.base_url,
                    "ANTHROPIC_API_KEY": API_KEY, "PROBE_CAPTURE": self.capture})
        env.update(extra or {})
        return env

    def captures(self, event=None):
        d = os.path.join(self.capture, "captures")
        out = []
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if not name.endswith(".json"):
                continue
            with open(os.path.join(d, name)) as f:
                rec = json.load(f)
            if event is None or rec["event"] == event:
                out.append(rec)
        return out

    def transcripts(self):
        found = []
        base = os.path.join(self.home, ".claude/projects")
        for dirpath, _, files in os.walk(base):
            for f in files:
                if f.endswith(".jsonl"):
                    found.append(os.path.join(dirpath, f))
        return sorted(found)

    def rel(self, path):
        return path.replace(self.home, "~") if isinstance(path, str) else path

    def scrub(self, text):
        """Sandbox paths rewritten as if HOME=/home/user and the project were /home/user/proj."""
        return scrub_paths(text, self.root)

    def save(self, mock=None, notes=None, limit=1500):
        """Writes result.json, the hook/statusline captures, a shortened request log and a transcript
        census into the out dir (paths scrubbed). Full transcripts stay in the sandbox under /tmp."""
        cap_src = os.path.join(self.capture, "captures")
        cap = os.path.join(self.out, "captures")
        os.makedirs(cap, exist_ok=True)
        for name in sorted(os.listdir(cap_src)) if os.path.isdir(cap_src) else []:
            if not name.endswith(".json"):
                continue
            with open(os.path.join(cap_src, name)) as f:
                data = self.scrub(f.read())
            with open(os.path.join(cap, name), "w") as f:
                f.write(data)
        census = {}
        for t in self.transcripts():
            rel = self.scrub(os.path.relpath(t, os.path.join(self.home, ".claude/projects")))
            kinds = {}
            with open(t) as f:
                for line in f:
                    d = json.loads(line)
                    key = "%s/%s isSidechain=%s" % (d.get("type"), d.get("subtype") or d.get("attachment", {}).get("type", "")
                                                    if isinstance(d.get("attachment"), dict) or d.get("subtype") else "",
                                                    d.get("isSidechain", "absent"))
                    kinds[key] = kinds.get(key, 0) + 1
            census[rel] = {"bytes": os.path.getsize(t), "lines": kinds}
        with open(os.path.join(self.out, "transcripts.json"), "w") as f:
            json.dump(census, f, indent=1)
        if mock is not None:
            with open(os.path.join(self.out, "requests.jsonl"), "w") as f:
                for r in mock.requests:
                    f.write(self.scrub(json.dumps(shorten(r.record(), limit), ensure_ascii=False)) + "\n")
        if notes is not None:
            with open(os.path.join(self.out, "result.json"), "w") as f:
                f.write(self.scrub(json.dumps(notes, indent=1, ensure_ascii=False)))


def project_slug(path):
    """The client's directory name for a project under ~/.claude/projects (§7.5)."""
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in path)


def scrub_paths(text, root):
    """`text` with the paths of the sandbox at `root` rewritten as if HOME=/home/user and the project
    were /home/user/proj (also the project's slug under ~/.claude/projects)."""
    slug = project_slug
    project, home = os.path.join(root, "proj"), os.path.join(root, "home")
    for real, fake in ((project, "/home/user/proj"), (slug(project), slug("/home/user/proj")),
                       (home, "/home/user"), (os.path.join(root, "capture"), "/home/user/.probe-capture")):
        text = text.replace(real, fake)
    return text


def shorten(value, limit=1500):
    """Long strings cut to their head and tail (hook markers and reminders stay readable)."""
    if isinstance(value, str) and len(value) > limit:
        return value[:limit - 500] + "\n[... %d chars cut ...]\n" % (len(value) - limit) + value[-500:]
    if isinstance(value, list):
        return [shorten(v, limit) for v in value]
    if isinstance(value, dict):
        return {k: shorten(v, limit) for k, v in value.items()}
    return value


# ---------------------------------------------------------------- runners

def headless(sb, mock, prompt, tools="Bash,Agent", model=MODEL, env=None, args=(), limit=180, prefix=()):
    """`prefix`: a command the client runs under (strace, say)."""
    cmd = [*prefix, CLIENTS[sb.version], "-p", prompt, "--allowedTools", tools, "--model", model, *args]
    t0 = time.time()
    p = subprocess.run(cmd, cwd=sb.project, env=sb.env(mock, env), stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=limit)
    return {"cmd": " ".join(cmd[len(prefix) + 1:]), "rc": p.returncode, "stdout": p.stdout[-4000:], "stderr": p.stderr[-4000:],
            "seconds": round(time.time() - t0, 1)}


class Tmux:
    def __init__(self, sb, mock, model=MODEL, env=None, args=()):
        self.socket = "baton-probe-%d" % os.getpid()
        conf = os.path.join(sb.home, "tmux.conf")
        with open(conf, "w") as f:
            f.write("set -g remain-on-exit on\nset -g focus-events on\nset -g history-limit 5000\n")
        e = sb.env(mock, env)
        e["TERM"] = "xterm-256color"
        cmd = ["tmux", "-L", self.socket, "-f", conf, "new-session", "-d", "-s", "p", "-x", "200", "-y", "50",
               "-c", sb.project, "--", CLIENTS[sb.version], "--model", model, *args]
        subprocess.run(cmd, env=e, check=True, cwd=sb.project)

    def run(self, *args):
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True).stdout

    def screen(self):
        return self.run("capture-pane", "-p", "-t", "p")

    def type(self, s):
        self.run("send-keys", "-t", "p", "-l", s)

    def enter(self):
        self.run("send-keys", "-t", "p", "Enter")

    def wait(self, pred, limit=90):
        t0 = time.time()
        while time.time() - t0 < limit:
            s = self.screen()
            if pred(s):
                return s
            time.sleep(0.3)
        return None

    def submit(self, s, limit=90):
        ok = self.wait(lambda sc: "❯" in sc, limit)
        if not ok:
            raise RuntimeError("no prompt:\n" + self.screen())
        self.type(s)
        self.wait(lambda sc: any("❯" in row and s[:30] in row for row in sc.splitlines()), 30)
        time.sleep(0.3)
        self.enter()

    def kill(self):
        self.run("kill-server")
        # tmux leaves its socket file behind
        path = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), "tmux-%d" % os.getuid(), self.socket)
        if os.path.exists(path):
            os.remove(path)


# ---------------------------------------------------------------- load

class Load:
    """Load on the machine while a `with` block runs: `cpu` (stress-ng `--cpu 2`), `io` (`--cpu 2
    --io 2 --hdd 1`, CPU and disk, what scripts/stress-e2e.sh uses), `disk` (`--cpu 2 --io 4 --hdd 4`,
    writers that fsync: the disk stalls), `suite` (`io` plus baton's
    integration suite run over and over, the way a user's test suite runs beside the agent;
    needs `cargo test --no-run --test integration` done) or `none`."""
    ARGS = {"none": None, "cpu": ["--cpu", "2"], "io": ["--cpu", "2", "--io", "2", "--hdd", "1"],
            "disk": ["--cpu", "2", "--io", "4", "--hdd", "4", "--hdd-opts", "fsync"]}

    def __init__(self, kind):
        if kind not in (*self.ARGS, "suite"):
            raise SystemExit("load must be one of none, cpu, io, disk, suite")
        self.kind, self.procs = kind, []

    def __enter__(self):
        args = self.ARGS["io" if self.kind == "suite" else self.kind]
        workdir = "/tmp/baton-probe/stress"
        os.makedirs(workdir, exist_ok=True)
        if args:
            self.procs.append(subprocess.Popen(
                ["stress-ng", *args, "--hdd-bytes", "256M", "--temp-path", workdir, "--timeout", "3600s"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        if self.kind == "suite":
            # The built test binary itself: `cargo test` would rebuild (and replace the baton under
            # test) after an edit.
            deps = os.path.join(REPO, "target/debug/deps")
            tests = [os.path.join(deps, f) for f in os.listdir(deps)
                     if f.startswith("integration-") and os.access(os.path.join(deps, f), os.X_OK)
                     and "." not in f]
            if not tests:
                raise SystemExit("load suite: build the tests first (cargo test --no-run --test integration)")
            binary = max(tests, key=os.path.getmtime)
            loop = "while :; do '%s' --skip e2e >/dev/null 2>&1; done" % binary
            self.procs.append(subprocess.Popen(["sh", "-c", loop], cwd=REPO, stdout=subprocess.DEVNULL,
                                               stderr=subprocess.DEVNULL, start_new_session=True))
        time.sleep(2 if self.procs else 0)  # let the load start
        return self

    def __exit__(self, *exc):
        for proc in self.procs:
            os.killpg(proc.pid, 15)
            proc.wait()


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]
