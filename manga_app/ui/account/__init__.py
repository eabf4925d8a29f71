"""Account UI: the Firebase client root, the sign-in area, the follow button."""
