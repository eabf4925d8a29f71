"""UI parts shared by the pages: layouts, cards, filters, pager, links, the antd
wrappers, account parts, the navigation stack and the header search box. The
records they render are in manga_app/cards/."""
