"""The console's uploads (/admin/upload): the tus endpoint files are sent to
(resumable, operators only), the staging folder under DATA_DIR they land in,
and the plan of what an import of them would do, by the importer's rules."""
