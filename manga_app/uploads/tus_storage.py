"""Where tus writes an upload's bytes: tuspyserver's local-file storage
(the same files, `<uid>` and `<uid>.info` in uploads/incoming, so the
sweep and the staging move are unchanged), changed where it made a 500 MB
upload 0.3-0.4x as fast as a plain PUT of the same file to the same server
(benchmarks/bench_upload.py):

- **The offset is the data file's size**, as in tusd (tus's reference
  server), not a number kept beside it: an upload's offset is how many of
  its bytes the server holds, and the file is that. So the `.info` file is
  replaced atomically (written, then renamed) but not fsynced. tuspyserver
  fsynced it twice per chunk, and on ext4 an fsync right after a chunk's
  write also waits for that chunk's data to reach the disk (the journal
  commits the file's new blocks first): every 8 MB chunk waited for the
  disk, where a plain PUT leaves the bytes in the page cache. A crash of the
  machine may lose an `.info` written just before; the offset, read from
  the bytes, can neither lag nor lead them. And the `.info` is written only
  when something in it besides the offset changed (the expiry, set by the
  first PATCH; the length of a deferred-length upload), not twice a chunk.
- **Local files are read and written in place**, on the event loop, not
  each on a thread: every call of tuspyserver's storage (exists, size,
  info, lock, each piece of the body) went through asyncio.to_thread for
  network filesystems; a PATCH made about a dozen hand-overs to a thread,
  each waiting to be scheduled, which on a busy machine cost more than the
  work. DATA_DIR is a local disk (the media store is there too), where these
  are page-cache operations; the body is written piece by piece as received
  (no copy, nothing held), as tuspyserver's default does. The upload's lock
  (several workers may serve one upload) is flock on its data file, not a
  lock file created and removed for every request; a contended one is
  polled without blocking the loop.
- **A full disk is 507**, with an English sentence, not a 500: what arrived
  is kept, and once space is freed the upload continues where it stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import json
import os
import time

from fastapi import HTTPException
from tuspyserver.lock import DEFAULT_LOCK_TIMEOUT, LockTimeoutError
from tuspyserver.storage.local import LocalFileStorage

__all__ = ["UploadStorage"]

LOCK_POLL_SECONDS = 0.05


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


@contextlib.contextmanager
def _disk_full_is_507():
    """A full disk (or quota) while writing: 507 with what the operator can do,
    not a 500. What arrived before is kept: the offset is the bytes held."""
    try:
        yield
    except OSError as error:
        if error.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        raise HTTPException(status_code=507, detail=(
            "The disk is full: the server kept what arrived of this file. Free some space under DATA_DIR, "
            "and the upload continues where it stopped.")) from None


# What a PATCH changes in tuspyserver's .info on every chunk: the offset (read
# from the data file here) and two counts of its own that nothing reads.
PER_CHUNK = ("offset", "upload_part", "upload_chunk_size")


def _lasting(info: dict) -> dict:
    return {key: value for key, value in json.loads(json.dumps(info, default=str)).items() if key not in PER_CHUNK}


class UploadStorage(LocalFileStorage):
    def __init__(self, files_dir: str) -> None:
        super().__init__(files_dir)
        self._open: dict[str, int] = {}  # an upload being written: its file

    async def create(self, uid: str) -> None:
        self._ensure_dir()
        open(self._path(uid), "a").close()

    async def exists(self, uid: str) -> bool:
        return os.path.exists(self._path(uid))

    async def size(self, uid: str) -> int:
        try:
            return os.path.getsize(self._path(uid))
        except FileNotFoundError:
            return 0

    async def append(self, uid: str, chunk: bytes) -> None:
        if uid not in self._open:
            self._ensure_dir()
            self._open[uid] = os.open(self._path(uid), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with _disk_full_is_507():
            _write_all(self._open[uid], chunk)

    async def flush(self, uid: str) -> None:
        """The request's bytes are all in the file (written as they came): close it."""
        fd = self._open.pop(uid, None)
        if fd is not None:
            os.close(fd)

    @contextlib.asynccontextmanager
    async def lock(self, uid: str):
        """The upload's lock across processes (several workers): flock on its
        own data file, not a lock file made and removed for every request."""
        try:
            fd = os.open(self._path(uid), os.O_RDONLY)
        except FileNotFoundError:
            raise HTTPException(status_code=404) from None
        try:
            deadline = time.monotonic() + DEFAULT_LOCK_TIMEOUT
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise LockTimeoutError(f"upload {uid} is locked") from None
                    await asyncio.sleep(LOCK_POLL_SECONDS)
            await self.flush(uid)  # a request refused mid-body left its file open
            yield
        finally:
            os.close(fd)  # and with it the lock

    async def read_info(self, uid: str) -> dict | None:
        try:
            with open(self._info_path(uid)) as handle:
                info = json.load(handle)
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        if isinstance(info, dict):
            info["offset"] = await self.size(uid)
            return info
        return None

    async def write_info(self, uid: str, data: dict) -> None:
        """Replace the .info file, unless what changed is only what the bytes
        say (the offset) or counts nothing reads (the PATCH's part and size)."""
        if (held := await self.read_info(uid)) is not None and _lasting(held) == _lasting(data):
            return
        self._ensure_dir()
        path = self._info_path(uid)
        with _disk_full_is_507():
            try:
                with open(f"{path}.tmp", "w") as handle:
                    json.dump(data, handle, default=str)
                os.replace(f"{path}.tmp", path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(f"{path}.tmp")

    async def delete(self, uid: str) -> None:
        fd = self._open.pop(uid, None)
        if fd is not None:
            os.close(fd)
        for path in (self._path(uid), self._info_path(uid)):
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
