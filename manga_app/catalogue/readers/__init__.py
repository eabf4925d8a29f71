"""One reader per chapter format; archives.open_chapter picks the reader."""
