"""The OPDS 1.2 catalogue for reader apps (Panels, Chunky, KOReader, Mihon...).

Pure parts: URL builders (urls.py), the Atom documents (feeds.py,
entries.py), 五十音 rows (core/gojuon.py), ComicInfo.xml (comicinfo.py), the
streamed CBZ (cbz.py) and the author and 五十音 listings of the held
catalogue (listing.py). queries.py reads the database (functions taking a
session). The HTTP layer is manga_app/web/opds*.py; keys are
manga_app/accounts/opds_keys.py."""
