"""漫画ひろば, a Japanese raw-manga reading site (Reflex). This top level is the
app's wiring: manga_app.py (the Reflex app, its pages and HTTP layer), serve.py
(serving the built app) and platform/; each part has its own package."""
