"""The title page `/manga/{slug}`: its view, state, chapter list and the
pure logic that makes its chapter rows and where reading starts."""
