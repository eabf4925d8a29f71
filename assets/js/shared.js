// Generated from manga_app/core/browser.py by `python -m manga_app.core.browser`:
// do not edit; change the Python module and run that command again.

export const VISITOR_COOKIE = "manga_visitor";
export const COOKIE_SECONDS = 34560000;
export const SETTINGS_COOKIE = "manga_reader_layout";
export const SETTINGS_STORAGE_KEY = "manga_reader_settings";
export const FIRST_PAGE_COOKIE = "manga_reader_first";
export const POSITIONS_STORAGE_KEY = "manga_reader_positions";
export const HISTORY_STORAGE_KEY = "manga_reading_history";
export const LIBRARY_OWNER_STORAGE_KEY = "manga_library_owner";
export const EVENT_NUMBER_FIELD = "manga_sent";
export const EVENT_ANSWER_REF = "manga_answered";
