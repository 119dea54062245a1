"""A scripted Anthropic Messages API on 127.0.0.1, for driving the real SDK's tool runner offline.

``POST /v1/messages`` answers with the next scripted assistant reply and records the request body
(parsed JSON). Once the script is used up every request gets a 500, so a runner that loops too far
fails fast (with ``max_retries=0``) instead of hanging. Nothing else is served.

    script = [tool_use_reply(memory_call(command="view", path="/memories")), text_reply("done")]
    with scripted_server(script) as server:
        client = anthropic.Anthropic(api_key="test", base_url=server.url, max_retries=0)
        ...
        server.requests  # every request body, in order
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

__all__ = [
    "MODEL",
    "ScriptedServer",
    "memory_call",
    "scripted_server",
    "text_reply",
    "tool_use_reply",
]

JSON = dict[str, Any]
MODEL = "claude-sonnet-4-5"
MAX_BODY_BYTES = 16 * 1024 * 1024
_ids = itertools.count(1)


# -- reply builders ------------------------------------------------------------------------


def _message(content: list[JSON], stop_reason: str) -> JSON:
    return {
        "id": f"msg_e2e_{next(_ids):04d}",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def memory_call(tool_input: JSON | None = None, /, *, id: str | None = None, **fields: Any) -> JSON:
    """A ``tool_use`` block calling the memory tool: ``memory_call(command="view", path="/memories")``,
    or ``memory_call({...})`` for an input that keyword arguments cannot spell."""
    return {
        "type": "tool_use",
        "id": id or f"toolu_e2e_{next(_ids):04d}",
        "name": "memory",
        "input": dict(tool_input) if tool_input is not None else fields,
    }


def tool_use_reply(*calls: JSON, text: str | None = None) -> JSON:
    """An assistant turn that calls tools (``stop_reason: tool_use``), optionally after some text."""
    if not calls:
        raise ValueError("a tool_use reply needs at least one tool_use block")
    prefix: list[JSON] = [{"type": "text", "text": text}] if text else []
    return _message([*prefix, *calls], "tool_use")


def text_reply(text: str) -> JSON:
    """A final assistant turn (``stop_reason: end_turn``)."""
    return _message([{"type": "text", "text": text}], "end_turn")


# -- the server ----------------------------------------------------------------------------


class ScriptedServer:
    """Serves ``replies`` in order on an ephemeral port; ``requests`` holds every body received."""

    def __init__(self, replies: Sequence[JSON]) -> None:
        self._replies = list(replies)
        self._lock = threading.Lock()
        self.requests: list[JSON] = []
        self.unexpected: list[str] = []  # requests beyond the script, or to other paths
        self._httpd = HTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="scripted-anthropic", daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._replies)

    def start(self) -> ScriptedServer:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise RuntimeError("the scripted server thread did not stop")

    def next_reply(self, body: JSON) -> JSON | None:
        """Record ``body`` and hand out the next scripted reply (None once the script is used up)."""
        with self._lock:
            self.requests.append(body)
            if not self._replies:
                self.unexpected.append(f"request {len(self.requests)} after the script ended")
                return None
            return self._replies.pop(0)

    def note_unexpected(self, what: str) -> None:
        with self._lock:
            self.unexpected.append(what)


def _handler_for(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if self.path.split("?", 1)[0] != "/v1/messages":
                server.note_unexpected(f"POST {self.path}")
                self._send(HTTPStatus.NOT_FOUND, _error("not_found_error", f"no route {self.path}"))
                return
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY_BYTES:
                server.note_unexpected(f"body of {length} bytes")
                self._send(HTTPStatus.BAD_REQUEST, _error("invalid_request_error", "bad body length"))
                return
            reply = server.next_reply(json.loads(self.rfile.read(length)))
            if reply is None:
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, _error("api_error", "the script is used up"))
                return
            self._send(HTTPStatus.OK, reply)

        def do_GET(self) -> None:
            server.note_unexpected(f"GET {self.path}")
            self._send(HTTPStatus.NOT_FOUND, _error("not_found_error", f"no route {self.path}"))

        def _send(self, status: HTTPStatus, payload: JSON) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("request-id", "req_e2e")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

    return Handler


def _error(kind: str, message: str) -> JSON:
    return {"type": "error", "error": {"type": kind, "message": message}}


@contextmanager
def scripted_server(replies: Sequence[JSON]) -> Iterator[ScriptedServer]:
    """Start a ScriptedServer for the duration of the ``with`` block."""
    server = ScriptedServer(replies).start()
    try:
        yield server
    finally:
        server.stop()
