"""Search `/search`: its view, state and the pure logic of its links, chips and
suggestions."""
