"""Every genre `/genres`, with its count: view and state."""
