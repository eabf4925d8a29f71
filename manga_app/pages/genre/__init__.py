"""One genre `/genre/{name}`: its view, state and the pure logic of its query,
sort links and pager."""
