"""Memory of a served site: the resident set of its process tree, from /proc."""

from __future__ import annotations

from pathlib import Path


def tree(root: int) -> list[int]:
    """`root` and every process below it."""
    children: dict[int, list[int]] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(proc.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def rss_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


# Python processes of the tree that hold no visitor: the job queue's consumer, and the rankings board's
# computation, a child that comes and goes every few minutes (its 86 MB counted in one level and not in
# the next made "RSS per visitor" jump by 200 KB either way).
SIDE_PROCESSES = (b"manga_app.jobs\0", b"manga_app.read_models.board_process\0")


def python_workers(root: int) -> list[int]:
    """The Python processes of the tree that serve visitors (the server and its workers; not the Node
    renderer, nor SIDE_PROCESSES)."""
    return [pid for pid in tree(root)
            if b"python" in (line := _cmdline(pid)) and not any(side in line for side in SIDE_PROCESSES)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def tree_rss(root: int) -> int:
    return sum(rss_bytes(pid) for pid in tree(root))


def server_of(data_dir: str) -> int:
    """The root `manga_app.serve` process of the site whose DATA_DIR is `data_dir`."""
    found = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if f"DATA_DIR={data_dir}\0".encode() in (proc / "environ").read_bytes() + b"\0" and \
                    b"manga_app.serve" in (proc / "cmdline").read_bytes():
                found.add(int(proc.name))
        except OSError:
            continue
    roots = [pid for pid in found if not any(pid in tree(other) and pid != other for other in found)]
    if len(roots) != 1:
        raise RuntimeError(f"cannot tell the server of {data_dir} among {sorted(found)}")
    return roots[0]
