"""The Japanese not-found page."""
