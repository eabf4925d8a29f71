"""What `make dev` runs (the Makefile's dev-serve, read with `make -n`): the
images name the backend's origin, the catalogue is published into its own data
folder, and the backend reloads only for the code it runs.
(benchmarks/bench_devloop.py serves it and checks a cover loads.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def _dev_commands(tmp_path: Path) -> list[str]:
    printed = subprocess.run(
        ["make", "--no-print-directory", "-n", "dev-serve", "PORT=4100", f"DATA_DIR={tmp_path}"],
        cwd=PROJECT_ROOT, check=True, capture_output=True, text=True,
    ).stdout
    return printed.splitlines()


def test_images_come_from_the_backend_port_through_a_dev_catalogue(tmp_path: Path) -> None:
    avif, setup, publish, serve = _dev_commands(tmp_path)
    # The demo's AVIF copies, made in the background while the store (DATA_DIR's) lacks them
    assert avif.startswith(f"test -e {tmp_path}/media/.avif-v1 || ")
    assert f"-m manga_app.catalogue reencode > {tmp_path}/reencode.log 2>&1 &" in avif
    dev_data = f"{tmp_path}/dev-4100"
    assert f"ln -sfn ../media {dev_data}/media" in setup
    assert f"ln -sfn ../content_key {dev_data}/content_key" in setup
    for command in (publish, serve):
        assert f"DATA_DIR={dev_data} " in command
        assert "MEDIA_BASE_URL=http://localhost:4101/media " in command
    assert publish.endswith("-m manga_app.catalogue publish")
    assert serve.endswith("-m reflex run --env dev --frontend-port 4100 --backend-port 4101")


def test_the_backend_reloads_only_for_the_app_its_assets_and_config(tmp_path: Path) -> None:
    serve = _dev_commands(tmp_path)[-1]
    paths = serve.split("REFLEX_HOT_RELOAD_OVERRIDE_PATHS=")[1].split()[0].split(":")
    assert paths == [str(PROJECT_ROOT / name) for name in ("manga_app", "assets", "rxconfig.py")]
