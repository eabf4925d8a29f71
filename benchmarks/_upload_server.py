"""The server bench_upload measures: the site's own HTTP layer
(web/middleware.site_http_layer, with the console's tus endpoint at
/admin/tus) under uvicorn configured as manga_app.serve runs it (uvloop,
the platform's httptools protocol), in a process of its own.

Where the site would hand a request to Reflex, this process has a plain
upload target instead: a PUT whose body is written to a file in the same
folder tus writes to (DATA_DIR/uploads/incoming), chunk by chunk as it
arrives, as the simplest server would. It is what `curl -T` is measured
against: the same process, event loop, middleware and disk as the tus
endpoint, and none of the protocol. The product has no such route: it
exists only in this harness.

    python -m benchmarks._upload_server PORT   (DATA_DIR, REFLEX_DB_URL, ADMIN_EMAILS from the environment)
"""

from __future__ import annotations

import sys

PLAIN_PREFIX = "/plain-put/"


async def plain_put(scope, receive, send) -> None:
    """PUT /plain-put/<name>: the body to incoming/<name>, 201. Anything else: 404."""
    from manga_app.core.config import get_settings
    from manga_app.uploads import staging

    if scope["type"] != "http":
        return
    path = scope["path"]
    name = path[len(PLAIN_PREFIX):]
    if scope["method"] != "PUT" or not path.startswith(PLAIN_PREFIX) or not name.isalnum():
        await send({"type": "http.response.start", "status": 404, "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})
        return
    folder = staging.incoming_dir(get_settings())
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    with open(folder / name, "wb") as target:
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            target.write(message.get("body", b""))
            written += len(message.get("body", b""))
            more = message.get("more_body", False)
    body = str(written).encode()
    await send({"type": "http.response.start", "status": 201,
                "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def main(port: int) -> None:
    import uvicorn

    from manga_app.core.db import migrate
    from manga_app.platform.http_protocol import HeaderDeadlineProtocol
    from manga_app.web.middleware import site_http_layer

    migrate()
    uvicorn.run(site_http_layer(plain_put), host="127.0.0.1", port=port, loop="uvloop", http=HeaderDeadlineProtocol,
                lifespan="off", log_level="warning", access_log=False, server_header=False)


if __name__ == "__main__":
    main(int(sys.argv[1]))
