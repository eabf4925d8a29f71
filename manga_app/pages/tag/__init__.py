"""One tag `/tag/{name}`: every series carrying it, listed like a genre; its
state and view are the author page's (pages/author), with the tag's wording."""
