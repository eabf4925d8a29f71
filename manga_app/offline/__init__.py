"""Reading without a connection: the save controls and shelves (parts), the
reading done offline as the browser reports it once back online (reports, pure),
and the state that joins it to the history (progress_state); assets/js/offline."""
