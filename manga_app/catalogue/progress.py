"""What the operator sees while an import runs: progress, time left, failures as they happen.

On a terminal: a bar that moves with every page, with the time elapsed and
left. Elsewhere (a log file, cron, CI): a plain line every few seconds. A
chapter that fails is printed at once, above the bar; the final summary
(cli.py) lists every failure again. Time left comes from the share of the
work done so far (a chapter counts as the share of its pages done).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from manga_app.catalogue.scanner import Candidate
from manga_app.core.text import shown

__all__ = ["PLAIN_EVERY_SECONDS", "ImportProgress", "duration_text", "import_progress"]

PLAIN_EVERY_SECONDS = 5.0


@dataclass
class ImportProgress:
    """The callbacks import_source takes, drawing on `console` (stderr)."""

    console: Console
    progress: Progress | None = None
    task: int | None = None
    total: int = 0
    chapters: int = 0
    pages: int = 0
    done: dict[Path, float] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    printed: float = field(default_factory=time.monotonic)

    def on_start(self, total: int) -> None:
        self.total = total
        self.started = self.printed = time.monotonic()
        if self.progress is not None:
            self.progress.update(self.task, total=max(total, 1))
        self._show("")

    def on_page(self, candidate: Candidate, pages_done: int, pages: int) -> None:
        self.pages += pages_done - round(self.done.get(candidate.path, 0.0) * pages)
        self.done[candidate.path] = pages_done / pages
        self._show(candidate.path.name)

    def on_progress(self, candidate: Candidate) -> None:
        self.done[candidate.path] = 1.0
        self.chapters += 1
        self._show(candidate.path.name)

    def on_failure(self, path: Path, reason: str) -> None:
        line = shown(f"FAILED  {path}: {reason}")
        if self.progress is not None:
            self.progress.console.print(escape(line), highlight=False, soft_wrap=True)
        else:
            self.console.print(escape(line), highlight=False, soft_wrap=True)

    def remaining(self) -> float | None:
        """Seconds left, from the share done so far; None before anything is done."""
        share = sum(self.done.values()) / max(self.total, 1)
        if share <= 0:
            return None
        return (time.monotonic() - self.started) * (1 - share) / share

    def _show(self, name: str) -> None:
        name = shown(name)
        if self.progress is not None:
            self.progress.update(
                self.task, completed=sum(self.done.values()), description=name,
                chapters=f"{self.chapters}/{self.total}", pages=self.pages,
            )  # fmt: skip
            return
        now = time.monotonic()
        if now - self.printed < PLAIN_EVERY_SECONDS and self.chapters < self.total:
            return
        self.printed = now
        left = self.remaining()
        elapsed = now - self.started
        rate = f", {self.pages / elapsed:.1f} pages/s" if elapsed > 0 and self.pages else ""
        self.console.print(
            f"Importing: {self.chapters}/{self.total} chapters, {self.pages} pages{rate}, "
            f"{duration_text(elapsed)} elapsed, "
            + (f"about {duration_text(left)} left" if left is not None else "time left unknown yet"),
            highlight=False, soft_wrap=True,
        )  # fmt: skip


@contextmanager
def import_progress(console: Console | None = None) -> Iterator[ImportProgress]:
    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield ImportProgress(console)
        return
    columns = (
        TextColumn("Importing"),
        BarColumn(),
        TextColumn("{task.fields[chapters]} chapters, {task.fields[pages]} pages"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        TextColumn("{task.description}"),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("", total=None, chapters="0/?", pages=0)
        yield ImportProgress(console, progress, task)


def duration_text(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m {seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"
