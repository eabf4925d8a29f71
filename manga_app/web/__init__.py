"""The HTTP layer in front of Reflex: page shells with their head, JSON,
install metadata and crawler files. Routes are declared in middleware.py."""
