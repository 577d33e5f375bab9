"""The official Python MCP SDK (`mcp` 2.3.0) as a test peer: an `MCPServer` with the JS peers'
tools (`echo {text}`, tagged with the era that served it, and `add {a,b}`), served over
Streamable HTTP (the SDK's dual-era default), the deprecated HTTP+SSE transport, or stdio.

It writes its own log, one JSON object a line, so a test can see what reached it and how it
was served (test/interop/python-peer.ts reads it):
- `{"kind": "http", ...}`: every HTTP request the ASGI app received, with the path Starlette
  routed on (percent-decoded), the raw path, the routing headers and the status it answered;
- `{"kind": "served", ...}`: every JSON-RPC message the SDK's protocol layer took (its server
  middleware sees each one), with the protocol version of the connection it was served on and
  the era that makes it. A request the SDK's routing or transport refused (no session, a
  -32020/-32022 rejection, a body it cannot parse) is not `served`.

How 2.3.0 decides the era (read from mcp/server/streamable_http_manager.py,
_streamable_http_modern.py and runner.py):
- Streamable HTTP routes on the `MCP-Protocol-Version` HEADER ONLY: a value that is present and
  not a handshake version (2024-11-05 .. 2025-11-25) goes to the modern single-exchange entry
  (which then checks the body's `_meta` envelope against the headers); no header, or a handshake
  version, goes to the legacy transport. The SDK's own comment calls this "header-only
  era-routing for now; body-primary classification is a follow-up". The legacy leg is
  sessionful by default (`stateless_http=False`): an `initialize` without a session opens one,
  anything else without `Mcp-Session-Id` is 400. Its session loop (`serve_loop`) is
  handshake-only and does not look at `_meta`, so a modern envelope that arrives without the
  header is served on the legacy path.
- stdio and HTTP+SSE run `serve_dual_era_loop`: the connection's first request decides, once:
  a non-`initialize` request whose `params._meta` holds
  `io.modelcontextprotocol/protocolVersion` opens a modern connection, anything else a legacy
  one; the other era is then refused on that connection.
- `server/discover` is a modern method: on the legacy leg it is -32601.
- Both legs parse JSON with Python's parsers (`json.loads`, `pydantic_core.from_json`), which
  accept NaN/Infinity and keep the last of duplicate keys; no leg decodes `Content-Encoding`;
  uvicorn percent-decodes the path before Starlette routes it.
There is no modern-only or legacy-only switch in 2.3.0.

Usage: python server.py --log FILE [--transport streamable-http|sse|stdio] [--stateless]
       [--tokens T1,T2] [--port N]
On HTTP it prints one line `{"listening": <port>}` on stdout once it accepts requests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import threading
import time
from typing import Any
from urllib.parse import quote

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp_types.version import MODERN_PROTOCOL_VERSIONS


class PeerLog:
    """Appends JSON lines to a file, flushed at once so a test reads what happened so far."""

    def __init__(self, path: str, transport: str) -> None:
        self._file = open(path, "a", encoding="utf-8")
        self._lock = threading.Lock()
        self.transport = transport

    def write(self, entry: dict[str, Any]) -> None:
        line = json.dumps({"at": time.time(), "transport": self.transport, **entry}, separators=(",", ":"))
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()


def era_of(protocol_version: str | None) -> str:
    return "modern" if protocol_version in MODERN_PROTOCOL_VERSIONS else "legacy"


class ServedLogMiddleware:
    """Server middleware: sees every inbound message the SDK's protocol layer serves."""

    def __init__(self, log: PeerLog) -> None:
        self._log = log

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        params = ctx.params or {}
        # `initialize` is handled on a connection that has not negotiated yet: name what it asked for.
        version = params.get("protocolVersion") if ctx.method == "initialize" else ctx.protocol_version
        request = ctx.request
        headers = getattr(request, "headers", None)
        self._log.write(
            {
                "kind": "served",
                "method": ctx.method,
                "id": ctx.request_id,
                "name": params.get("name") if isinstance(params.get("name"), str) else None,
                "protocolVersion": version,
                "era": "legacy" if ctx.method == "initialize" else era_of(ctx.protocol_version),
                "sessionId": headers.get("mcp-session-id") if headers is not None else None,
                "authorization": headers.get("authorization") if headers is not None else None,
            }
        )
        return await call_next(ctx)


class HttpLog:
    """ASGI wrapper: logs each HTTP request as the app saw it, and says when the app is up."""

    def __init__(self, app: Any, log: PeerLog, on_ready: Any) -> None:
        self._app = app
        self._log = log
        self._on_ready = on_ready

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._app(scope, receive, self._lifespan_send(send))
            return
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        entry: dict[str, Any] = {
            "kind": "http",
            "method": scope["method"],
            "path": scope["path"],
            "rawPath": scope.get("raw_path", b"").decode("latin-1") or quote(scope["path"]),
            "protocolVersionHeader": headers.get("mcp-protocol-version"),
            "mcpMethodHeader": headers.get("mcp-method"),
            "sessionId": headers.get("mcp-session-id"),
            "authorization": headers.get("authorization"),
            "contentEncoding": headers.get("content-encoding"),
            "status": None,
        }

        async def watch(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                entry["status"] = message["status"]
                self._log.write(entry)
            await send(message)

        try:
            await self._app(scope, receive, watch)
        finally:
            if entry["status"] is None:
                self._log.write(entry)

    def _lifespan_send(self, send: Any) -> Any:
        async def forward(message: dict[str, Any]) -> None:
            await send(message)
            if message["type"] == "lifespan.startup.complete":
                self._on_ready()

        return forward


class ExactTokens:
    """A token verifier that accepts exactly the configured tokens, as the server reads them."""

    def __init__(self, tokens: list[str]) -> None:
        self._tokens = set(tokens)

    async def verify_token(self, token: str) -> AccessToken | None:
        if token not in self._tokens:
            return None
        return AccessToken(token=token, client_id=f"client-{sorted(self._tokens).index(token)}", scopes=[])


def build_server(log: PeerLog, tokens: list[str], port: int) -> MCPServer:
    auth_options: dict[str, Any] = {}
    if tokens:
        base = f"http://127.0.0.1:{port}"
        auth_options = {
            "token_verifier": ExactTokens(tokens),
            "auth": AuthSettings(issuer_url=f"{base}/issuer", resource_server_url=f"{base}/mcp"),
        }
    server = MCPServer("python-sdk-peer", version="1.0.0", middleware=[ServedLogMiddleware(log)], **auth_options)

    @server.tool(description="Echo the text back, tagged with the era that served it")
    def echo(text: str, ctx: Context) -> str:
        return f"{text} era={era_of(ctx.protocol_version)}"

    @server.tool(description="Add two numbers")
    def add(a: float, b: float) -> str:
        return f"{a + b:g}"

    return server


def listening_socket(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


async def serve_http(args: argparse.Namespace, log: PeerLog) -> None:
    import uvicorn

    sock = listening_socket(args.port)
    port = sock.getsockname()[1]
    server = build_server(log, [t for t in args.tokens.split(",") if t], port)
    if args.transport == "sse":
        app = server.sse_app()
    else:
        app = server.streamable_http_app(stateless_http=args.stateless)

    def ready() -> None:
        print(json.dumps({"listening": port}), flush=True)

    # A held-open SSE stream would keep a graceful shutdown waiting for ever.
    config = uvicorn.Config(HttpLog(app, log, ready), log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    await uvicorn.Server(config).serve(sockets=[sock])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--transport", choices=["streamable-http", "sse", "stdio"], default="streamable-http")
    parser.add_argument("--stateless", action="store_true", help="serve the legacy leg statelessly")
    parser.add_argument("--tokens", default="", help="comma-separated bearer tokens to require (HTTP)")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    log = PeerLog(args.log, args.transport)
    if args.transport == "stdio":
        build_server(log, [], 0).run("stdio")
        return
    try:
        asyncio.run(serve_http(args, log))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
