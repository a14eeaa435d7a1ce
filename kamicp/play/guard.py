"""Only the user's own browser tab may drive the play server (it is a local web service: any web page the
user visits could otherwise send it requests).

- Host: only the names the server is reached by (127.0.0.1, localhost, [::1], with its port): a page
  on another name that resolves to 127.0.0.1 (DNS rebinding) is refused (421 Misdirected Request).
- Origin: a request that changes anything (every method but GET and HEAD) from another origin is
  refused (403); browsers send Origin with every such request.
- Content type: the JSON endpoints take only application/json and an upload only
  application/octet-stream (415 otherwise): neither can be sent across sites without the browser first
  asking the server (a CORS preflight), which this server never allows.

Starlette's TrustedHostMiddleware checks names but neither the port nor [::1] nor Origin, hence this
small ASGI middleware.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

NAMES = ("127.0.0.1", "localhost", "[::1]")
SAFE_METHODS = ("GET", "HEAD")


def allowed_hosts(port: int | None) -> frozenset[str]:
    """The Host values the server answers: each name with `port` (None: with any port or none, for an
    app not bound to a socket, e.g. under a test client)."""
    if port is None:
        return frozenset(NAMES)
    return frozenset(f"{name}:{port}" for name in NAMES)


def _host_ok(host: str, hosts: frozenset[str], any_port: bool) -> bool:
    host = host.lower()
    if host in hosts:
        return True
    if not any_port:
        return False
    name, port = host, ""
    if not host.endswith("]") and ":" in host:
        name, _, port = host.rpartition(":")
    return name in hosts and (port == "" or port.isdigit())


class LocalOnly:
    """The checks above, in front of `app`; `content_types` maps a path to the type its POSTs must have."""

    def __init__(self, app: ASGIApp, port: int | None, content_types: dict[str, str]) -> None:
        self.app = app
        self.hosts = allowed_hosts(port)
        self.any_port = port is None
        self.content_types = content_types

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await JSONResponse({"error": refusal[1]}, status_code=refusal[0])(scope, receive, send)

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = Headers(scope=scope)
        if not _host_ok(headers.get("host", ""), self.hosts, self.any_port):
            return 421, "this server answers only on 127.0.0.1, localhost and [::1]"
        if scope["method"] in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and not (origin.startswith("http://") and
                                       _host_ok(origin.removeprefix("http://"), self.hosts, self.any_port)):
            return 403, "requests from other sites are refused"
        wanted = self.content_types.get(scope["path"])
        given = headers.get("content-type", "").split(";")[0].strip().lower()
        if wanted is not None and given != wanted:
            return 415, f"the request's Content-Type must be {wanted}"
        return None
