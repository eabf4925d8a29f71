"""Server rendering: every page's first HTML is rendered by the app's own
components (React Router's server build) with the states its on_load
handlers produce, and the browser hydrates it in place."""
