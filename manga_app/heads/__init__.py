"""Page heads: the search-engine data of every page (seo, build), looked up for a
path (resolve), held for the browser (state) and rendered as head tags (tags)."""
