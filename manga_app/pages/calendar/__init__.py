"""曜日別 `/calendar?day=&page=`: ongoing series under the weekday they
usually update on (不定期 for the rest); its view, state and query."""
