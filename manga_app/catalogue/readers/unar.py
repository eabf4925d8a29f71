"""Solid RAR4 archives through The Unarchiver (Debian's `unar`/`lsar`, free software).

Debian's libarchive cannot decompress solid RAR4. `lsar -json` lists the
entries first, so names, encryption and declared sizes are checked before
anything is written; `unar` then extracts into a private folder with the
file-size limit set to the entry cap, so a lying header cannot fill the disk.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
from pathlib import Path

from manga_app.catalogue.readers.base import ArchiveError, Limits, check_name
from manga_app.catalogue.scanner import entry_kind

__all__ = ["extract_with_unar"]

_TIMEOUT = 300  # seconds for one chapter


def extract_with_unar(path: Path, folder: Path, limits: Limits) -> dict[str, Path | None]:
    if shutil.which("unar") is None or shutil.which("lsar") is None:
        raise ArchiveError(
            "solid RAR4 archives need The Unarchiver: run scripts/ensure_system_packages.sh "
            "(installs unar), or repack the chapter as CBZ"
        )
    listing = _run(["lsar", "-json", str(path)], limits)
    try:
        entries = json.loads(listing.stdout)["lsarContents"]
    except (ValueError, KeyError, TypeError):
        raise ArchiveError("unreadable RAR archive (its listing failed)") from None
    if len(entries) > limits.max_entries:
        raise ArchiveError(f"too many entries ({len(entries)} > {limits.max_entries})")
    files: dict[str, Path | None] = {}
    declared = 0
    for entry in entries:
        name = str(entry.get("XADFileName", ""))
        check_name(name)
        if entry.get("XADIsEncrypted"):
            raise ArchiveError(
                "the RAR archive is encrypted (password-protected archives are not supported)"
            )
        if entry.get("XADIsDirectory") or entry.get("XADIsLink"):
            continue
        declared += int(entry.get("XADFileSize", 0))
        files[name] = None
    if declared > limits.max_total_bytes:
        raise ArchiveError(f"declared size {declared} bytes exceeds {limits.max_total_bytes}")
    _run(["unar", "-quiet", "-no-directory", "-no-recursion", "-password", "",
          "-output-directory", str(folder), str(path)], limits)  # fmt: skip
    root = folder.resolve()
    for name in files:
        target = (folder / name).resolve()
        if not target.is_relative_to(root) or target.is_symlink():
            raise ArchiveError(f"unsafe entry name {name!r}; archive refused")
        if entry_kind(name) != "other" and target.is_file():
            files[name] = target
    return files


def _run(command: list[str], limits: Limits) -> subprocess.CompletedProcess:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.max_entry_bytes,) * 2)

    try:
        done = subprocess.run(
            command, capture_output=True, timeout=_TIMEOUT, preexec_fn=limit,
            env={**os.environ, "LC_ALL": "C.UTF-8"}, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise ArchiveError(f"the RAR archive took more than {_TIMEOUT} s to read") from None
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).decode(errors="replace").strip().splitlines()
        raise ArchiveError(f"unreadable RAR archive: {detail[-1] if detail else 'unar failed'}")
    return done
