"""The reading component (assets/js/reader/reader.jsx) as a Reflex component.

Paging, keys, taps, swipes, preloading and scroll tracking run in the
browser; Python hands it the page list and settings and receives the
visitor's position and setting changes back as events."""

import reflex as rx


class MangaReader(rx.Component):
    library = rx.asset("js/reader/reader.jsx").importable_path
    tag = "MangaReader"

    # The path these props were loaded for: the reader draws only its own.
    loaded_path: rx.Var[str]
    # [{url, saver_url, width, height, avif?, saver_avif?, hidpi_avif?}] of this chapter,
    # in reading order (the AVIF copies where the media store has them).
    pages: rx.Var[list[dict]]
    # Sent back with every progress report (see ReaderState.view_id).
    view_id: rx.Var[int]
    alt_prefix: rx.Var[str]
    heading: rx.Var[str]
    # With the chapter number, the key of the browser's per-chapter position.
    series_slug: rx.Var[str]
    chapter_number: rx.Var[str]
    series_title: rx.Var[str]
    series_url: rx.Var[str]
    chapter_url: rx.Var[str]
    prev_url: rx.Var[str]
    prev_label: rx.Var[str]
    next_url: rx.Var[str]
    next_label: rx.Var[str]
    chapters: rx.Var[list[dict[str, str]]]
    # "vertical" or "paged"; "rtl" or "ltr"; the visitor's choice for the
    # series ("auto": the series' own).
    mode: rx.Var[str]
    direction: rx.Var[str]
    direction_choice: rx.Var[str]
    settings: rx.Var[dict]
    preload: rx.Var[int]
    initial_page: rx.Var[int]
    initial_offset: rx.Var[float]
    # When the history saved that position (epoch ms, 0: never).
    initial_at: rx.Var[int]
    # The next chapter's first images, [{src, avif, hidpi_avif?, width?, height?}] (reader/images.warm_images).
    next_warm: rx.Var[list[dict]]
    # The screen in the first-page cookie (rules.first_page_screen): it picks the first pages' AVIF.
    first_screen: rx.Var[str]
    # The end card (reader/end_state.py): 完結 or not, [{url, title, cover, cover_avif, why}]
    # to read next (whether led by what readers also read), this chapter's いいね
    # (the count as shown, whether this reader likes it, and the "slug/number" they
    # are of), and the series' follow control, drawn by Python.
    series_complete: rx.Var[bool]
    end_picks: rx.Var[list[dict[str, str]]]
    end_picks_also_read: rx.Var[bool]
    end_phrases: rx.Var[dict[str, list[str]]]
    likes: rx.Var[str]
    liked: rx.Var[bool]
    like_key: rx.Var[str]
    end_follow: rx.Var[rx.Component]
    # The chapter's own one-page offset in double view (worked out at import
    # from where its spreads fall), used until the reader picks one.
    default_offset: rx.Var[bool]

    on_progress: rx.EventHandler[
        lambda view_id, slug, chapter, page, offset, read_at: [view_id, slug, chapter, page, offset, read_at]
    ]
    on_settings_change: rx.EventHandler[lambda change: [change]]
    on_near_end: rx.EventHandler[lambda: []]
    # The like the reader asks for (true) or takes back (false): a state, not a toggle.
    on_like: rx.EventHandler[lambda slug, chapter, liked: [slug, chapter, liked]]
    on_end_seen: rx.EventHandler[lambda slug, chapter: [slug, chapter]]


manga_reader = MangaReader.create
