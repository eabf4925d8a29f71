"""Server rendering: every page's first HTML is rendered by the app's own
components (React Router's server build) with the states its on_load
handlers produce, and the browser hydrates it in place; where the built
files are (shell) and the pages' Content-Security-Policy, hashed from the
HTML as sent (csp). The HTTP layer (manga_app/web/) serves what this renders."""
