"""The console's uploader (assets/js/uploader.jsx): Uppy's Dashboard and its
tus uploader as a Reflex component. The npm packages are pinned here, once
for the whole app."""

import reflex as rx

UPPY_PACKAGES = ["@uppy/core@6.3.1", "@uppy/dashboard@6.0.3", "@uppy/tus@6.0.0", "@uppy/golden-retriever@6.0.0"]


class Uploader(rx.Component):
    library = rx.asset("js/uploader.jsx").importable_path
    tag = "Uploader"
    lib_dependencies: list[str] = UPPY_PACKAGES

    # The tus endpoint (/admin/tus).
    endpoint: rx.Var[str]
    # The largest file Uppy takes (the server refuses larger ones anyway).
    max_file_size: rx.Var[int]
    # The line under the drop area.
    note: rx.Var[str]

    # (files uploaded, files failed): a batch of uploads settled.
    on_uploaded: rx.EventHandler[lambda succeeded, failed: [succeeded, failed]]


uploader = Uploader.create
