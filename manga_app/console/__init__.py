"""The operator's console (/admin): its layout and menu, its states (each
event checks the operator's role on the server), its reads of the library and
its edits, made through the catalogue's own code (catalogue.metadata, the CLI's
library edits), one transaction and one publish each."""
