"""The console's upload endpoint, /admin/tus: the tus protocol (tus.io:
chunked, resumable uploads; the browser's Uppy speaks it) served by
tuspyserver's FastAPI router, mounted in front of Reflex by the site's HTTP
layer (web/middleware.py).

Operators only. Every request carries the operator's Firebase ID token
(`Authorization: Bearer …`), verified here with firebase-admin and checked for
the operator's role (accounts.roles) before the router sees it; anyone else
gets the site's plain 404, as /admin answers readers. Before an upload starts
its name, size and the free disk are checked (staging.check_upload: 413, 415,
507 with an English message), once the uploads left unfinished past their
expiry are swept; a finished upload moves to the operator's
staging folder and is written to the audit log. The bytes are written as
they arrive, off the event loop (tus_storage.py)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from fastapi import Depends, FastAPI, HTTPException, Request
from sqlmodel import Session
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import Receive, Scope, Send
from tuspyserver import create_tus_router

from manga_app.accounts.roles import is_operator
from manga_app.accounts.settings import FirebaseConfigError, get_firebase_config
from manga_app.accounts.verify import TokenRefused, VerificationUnavailable, VerifiedUser, verify_id_token
from manga_app.catalogue import audit
from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine
from manga_app.uploads import staging
from manga_app.uploads.tus_storage import UploadStorage

__all__ = ["TUS_PATH", "is_tus_path", "tus_endpoint"]

logger = logging.getLogger(__name__)
TUS_PATH = "/admin/tus"
# The days a started upload waits for the rest of its bytes.
DAYS_TO_KEEP = 7
NOT_FOUND = PlainTextResponse("見つかりませんでした", status_code=404)
_APPS: dict[tuple[str, int], FastAPI] = {}


def is_tus_path(path: str) -> bool:
    return path == TUS_PATH or path.startswith(TUS_PATH + "/")


async def operator_of_request(scope: Scope) -> VerifiedUser | None:
    """The operator whose verified ID token the request carries, else None."""
    scheme, _, token = Headers(scope=scope).get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    try:
        user = await asyncio.to_thread(verify_id_token, token.strip(), config=get_firebase_config())
    except (TokenRefused, FirebaseConfigError, ValueError):
        return None
    except VerificationUnavailable:
        logger.warning("An upload request could not be checked: Firebase did not answer")
        return None
    return user if is_operator(user, get_settings().operator_emails) else None


def _operator(request: Request) -> VerifiedUser:
    """The router's auth dependency: what tus_endpoint verified, or 404."""
    user = request.scope.get("state", {}).get("operator")
    if not isinstance(user, VerifiedUser):
        raise HTTPException(status_code=404)
    return user


def _pre_create(operator: VerifiedUser = Depends(_operator)):
    def check(metadata: dict, upload_info: dict) -> None:
        staging.sweep_expired(get_settings())  # before the free disk is counted
        try:
            staging.check_upload(metadata, upload_info.get("size"), get_settings())
        except staging.Refused as refused:
            logger.info("Upload refused for %s: %s", operator.email, refused.message)
            raise HTTPException(status_code=refused.status, detail=refused.message) from None

    return check


def _record(operator: VerifiedUser, name: str, size: int) -> None:
    with Session(shared_engine()) as session:
        audit.record(session, operator, "upload", f"staged {name}", "", f"{size} bytes")
        session.commit()


def _on_complete(operator: VerifiedUser = Depends(_operator)):
    async def done(file_path: str, metadata: dict) -> None:
        size = Path(file_path).stat().st_size
        name = await asyncio.to_thread(staging.place, Path(file_path), metadata, operator.uid, get_settings())
        await asyncio.to_thread(_record, operator, str(name), size)

    return done


def _files_dir():
    return lambda metadata: {"files_dir": str(staging.incoming_dir(get_settings()))}


async def _plain_refusal(request: Request, error: HTTPException) -> PlainTextResponse:
    """A refusal as its English sentence (Uppy shows the response's text to the operator), not FastAPI's JSON."""
    return PlainTextResponse(str(error.detail), status_code=error.status_code, headers=error.headers)


def _app() -> FastAPI:
    """The router for the current settings (one per staging folder and size limit)."""
    settings = get_settings()
    key = (str(staging.incoming_dir(settings)), settings.upload_max_bytes)
    if key not in _APPS:
        app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
        app.add_exception_handler(HTTPException, _plain_refusal)
        app.include_router(create_tus_router(
            prefix=TUS_PATH, files_dir=key[0], max_size=settings.upload_max_bytes, auth=_operator,
            days_to_keep=DAYS_TO_KEEP, pre_create_dep=_pre_create, upload_complete_dep=_on_complete,
            file_dep=_files_dir, strict_offset_validation=True, storage=UploadStorage(key[0]),
        ))
        _APPS[key] = app
    return _APPS[key]


async def tus_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
    """An ASGI app: the tus router for an operator, the plain 404 for anyone else."""
    operator = await operator_of_request(scope)
    if operator is None:
        await NOT_FOUND(scope, receive, send)
        return
    scope = {**scope, "state": {**scope.get("state", {}), "operator": operator}}
    await _app()(scope, receive, send)
