"""Home `/`: latest updates, popular and new series, genres (view, state)."""
