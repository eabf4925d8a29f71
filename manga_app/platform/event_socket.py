"""The ASGI app `manga_app.serve` runs: Reflex's, with the event websocket
(`/_event`) handed straight to its socket.io app.

Every ASGI layer an open websocket went through stays suspended in memory for
as long as the tab is open: through Reflex's two Starlette apps (error, CORS
and exception middleware, routers, mounts) and the site's HTTP layer, about
8 KB per connected visitor (issue 19, measured with tracemalloc). None of
those layers does anything to a websocket: the middleware pass non-HTTP
scopes through, the site's layer sends them on to Reflex, and the routers
only find the socket.io mount. What Reflex's own context middleware does for
every request (attach its contexts) is done here too. HTTP and lifespan go
through the whole stack as before.

engine.io's queue of packets for each socket is a SocketQueue (platform/
socket_queue.py) rather than an asyncio.Queue: 3 KB less per open tab; its
socket a LeanSocket (platform/engineio_socket.py), with one task besides the one
serving it where engine.io keeps four.

Overrides: engineio.async_socket.AsyncSocket (the module's class, replaced
by LeanSocket), the engine.io server's create_queue, App._api (read to find
the socket.io mount) and App._set_contexts_internal.
Why: about 8 KB per open tab held by ASGI layers that do nothing to a
websocket, and 3 KB per tab of engine.io's queue (issue 19).
Waits for: Reflex serving its event websocket without socket.io's stack
(reflex-dev/reflex#6932, "bare websockets", open).
"""

from __future__ import annotations

import engineio.async_socket
from reflex.app import App
from reflex_base import constants, otel
from reflex_base.config import get_config
from starlette.routing import Mount
from starlette.types import ASGIApp, Receive, Scope, Send

from manga_app.platform.engineio_socket import LeanSocket
from manga_app.platform.socket_queue import SocketQueue


def event_path() -> str:
    return get_config().prepend_backend_path(str(constants.Endpoint.EVENT))


def socket_app_of(reflex_app: App) -> ASGIApp:
    """The app Reflex mounts at the event path (socket.io behind its header fix)."""
    path = event_path()
    for route in reflex_app._api.routes if reflex_app._api else ():
        if isinstance(route, Mount) and route.path == path:
            return route.app
    raise RuntimeError(f"Reflex mounts nothing at {path}: the event websocket cannot be served")


def is_event_socket(scope: Scope, path: str) -> bool:
    return scope["type"] == "websocket" and (scope["path"] == path or scope["path"].startswith(path + "/"))


def with_direct_event_socket(reflex_app: App, asgi_app: ASGIApp) -> ASGIApp:
    """`asgi_app` (what `reflex_app()` built), with event websockets sent to socket.io directly."""
    if otel.asgi_middleware is not None:
        return asgi_app  # OpenTelemetry wraps every request: keep the whole stack
    socket_app, path = socket_app_of(reflex_app), event_path()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if is_event_socket(scope, path):
            reflex_app._set_contexts_internal()
            await socket_app(scope, receive, send)
        else:
            await asgi_app(scope, receive, send)

    return app


def app() -> ASGIApp:
    """uvicorn's app factory (`manga_app.platform.event_socket:app`)."""
    from reflex.utils.exec import get_app_instance
    from uvicorn.importer import import_from_string

    # What uvicorn imported before: the app module's `app`, which builds the ASGI app when called.
    reflex_app = import_from_string(get_app_instance())
    asgi_app = reflex_app()
    if reflex_app.sio is not None:
        reflex_app.sio.eio.create_queue = SocketQueue  # engine.io asks its server for each socket's queue
        engineio.async_socket.AsyncSocket = LeanSocket  # engine.io's server makes each socket from its module's class
    return with_direct_event_socket(reflex_app, asgi_app)
