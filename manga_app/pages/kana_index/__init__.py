"""五十音 index `/index/{row}`: one row's titles in 五十音順, paged, with
every row's tab and count."""
