"""One author `/author/{name}`: every series they wrote or drew, listed like a
genre (sortable, paged); the tag page (pages/tag) shares its state and view."""
