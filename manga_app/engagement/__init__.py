"""What readers do with chapters, kept as keyed hashes of who did it: the
once-a-day view counts and likes (いいね), with their tables. Below the
accounts (an account merge carries its likes over) and the reader (which
counts and shows them)."""
