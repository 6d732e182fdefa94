"""A small client of the GPU Arena trainer API (`npm run serve`), standard library only.

    from arena_client import ArenaClient, ArenaError

    env = ArenaClient("http://127.0.0.1:8080", observation_format="original")
    answer = env.reset(task="market_round", seed=7)      # a session of this client's own
    obs = answer["observation"]
    while not obs["done"]:
        answer = env.step({"action_type": "wait"})
        obs = answer["observation"]
    env.close()                                           # DELETE the session

Every call returns the server's answer as a plain dict (`reset` and `step`: {"observation", "reward",
"done", "info", ...}; `state`: {"state", ...}); observations are in the format asked for: "native" (this
arena's, camelCase plus the original's top-level names) or "original" (the original arena's exact shapes,
snake_case, as its pydantic models and SFT data have them); None = the server's default. A refusal
raises ArenaError with the HTTP status, the machine-readable `code` and the message. One client holds one
session over one keep-alive connection: use one client per thread for parallel rollouts.
"""
import http.client
import json
import urllib.parse

__all__ = ["ArenaClient", "ArenaError"]


class ArenaError(Exception):
    """A refused request: `status` (HTTP), `code` (e.g. "unknown_session"), `message`, `body` (the whole answer)."""

    def __init__(self, status, code, message, body=None):
        super().__init__("%s %s: %s" % (status, code, message))
        self.status = status
        self.code = code
        self.message = message
        self.body = body


class ArenaClient:
    """A client of one server holding (at most) one session; not thread-safe (one per thread)."""

    def __init__(self, url="http://127.0.0.1:8080", observation_format=None, timeout=30.0):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("url must look like http://host:port, got %r" % url)
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._timeout = timeout
        self._conn = None
        self.observation_format = observation_format
        self.session_id = None

    # -- transport ---------------------------------------------------------------------------------
    def _connection(self):
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = cls(self._host, self._port, timeout=self._timeout)
        return self._conn

    def request(self, method, path, body=None):
        """One JSON request; returns the parsed answer, raises ArenaError for a 4xx/5xx answer."""
        payload = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"} if payload is not None else {}
        for attempt in (0, 1):
            conn = self._connection()
            try:
                conn.request(method, path, body=payload, headers=headers)
                res = conn.getresponse()
                raw = res.read()
                break
            except (http.client.HTTPException, ConnectionError, OSError):
                # A keep-alive connection the server closed meanwhile: reconnect once.
                self._drop()
                if attempt == 1:
                    raise
        try:
            answer = json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            raise ArenaError(res.status, "not_json", "the answer is not JSON", raw)
        if res.status >= 400:
            err = answer.get("error") if isinstance(answer, dict) else None
            if isinstance(err, dict):
                raise ArenaError(res.status, err.get("code", "unknown"), err.get("message", ""), answer)
            detail = answer.get("detail") if isinstance(answer, dict) else answer
            raise ArenaError(res.status, "unknown", json.dumps(detail), answer)
        return answer

    def _drop(self):
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- the API -----------------------------------------------------------------------------------
    def health(self):
        """GET /health: {"status": "ok", "benchmark_id": ...}."""
        return self.request("GET", "/health")

    def tasks(self):
        """GET /tasks: the three tasks, the action types, the features."""
        return self.request("GET", "/tasks")

    def reset(self, task=None, seed=None, shared=False, **options):
        """POST /reset. Opens a session of this client's own, or restarts it in place when it has one;
        shared=True uses the server's default session instead (what the original's clients did).
        `options` are further reset fields (actions_per_round, opponents, invalid_actions, holdout, ...).
        Returns {"observation", "session_id", "info"}."""
        body = dict(options)
        if task is not None:
            body["task_type"] = task
        if seed is not None:
            body["seed"] = seed
        if self.observation_format is not None:
            body.setdefault("observation_format", self.observation_format)
        if not shared:
            if self.session_id is not None:
                body["session_id"] = self.session_id
            else:
                body["new_session"] = True
        answer = self.request("POST", "/reset", body)
        self.session_id = answer.get("session_id")
        return answer

    def step(self, action):
        """POST /step with one action (a dict in either field-name dialect, or a model's raw JSON text).
        Returns {"observation", "reward", "done", "info"}."""
        body = {"action": action}
        if self.session_id is not None:
            body["session_id"] = self.session_id
        return self.request("POST", "/step", body)

    def state(self, token=None, admin_token=None):
        """GET /state of this client's session (or a self-play seat's view with `token`, the public view
        with `admin_token`)."""
        query = {}
        if token is not None:
            query["token"] = token
        elif admin_token is not None:
            query["admin_token"] = admin_token
        elif self.session_id is not None:
            query["session_id"] = self.session_id
        return self.request("GET", "/state" + ("?" + urllib.parse.urlencode(query) if query else ""))

    def close(self):
        """DELETE this client's session (if any) and close the connection."""
        try:
            if self.session_id is not None:
                self.request("DELETE", "/session/" + urllib.parse.quote(self.session_id, safe=""))
        finally:
            self.session_id = None
            self._drop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
