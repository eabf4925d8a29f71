"""UI parts shared by the pages: layouts, cards, filters, pager, links, the antd
wrappers, account parts, the navigation stack and the header search box, and the
small records (records.py) that states hold for them to render."""
