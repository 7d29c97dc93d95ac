/** Business constants of spec §9; the names say where each is used. */
export const DUPLICATE_REQUEST_WINDOW_MS = 5000;
/** Loading one code chunk (a lazily loaded page or dialog); not API requests (src/api/client.ts). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const TOAST_THROTTLE_MS = 100;
export const MENU_AUTO_COLLAPSE_MAX_WIDTH = 1440;
export const ERROR_LOG_CAP = 200;
export const PIS_DB_VERSION = 16;
export const DEFAULT_ROUTE = '/manage';
export const UPLOAD_CHUNK_BYTES = 2_097_152;
export const UPLOAD_MD5_MAX_BYTES = 1024 ** 3;
export const UPLOAD_MAX_RETRIES = 5;
export const ATTACHMENT_MAX_BYTES = 200 * 1024 * 1024;
export const LOGIN_DEBOUNCE_MS = 200;
export const DIALOG_CONFIRM_THROTTLE_MS = 500;
/** Spec §9 page sizes: the options 20, 50, 100, 200, 500 (some lists add 1000, 2000; the server caps at 2000). */
export const PAGE_SIZES = [20, 50, 100, 200, 500] as const;
export const LONG_LIST_PAGE_SIZES = [...PAGE_SIZES, 1000, 2000] as const;
/** "default 10 in shared pager": list state that names no size pages by 10. */
export const PAGER_DEFAULT_PAGE_SIZE = 10;
/** "first option 100 in the generic list": a schema list offers 100 and up, and starts at 100. */
export const LIST_PAGE_SIZES = [100, 200, 500] as const;
export const TAB_BADGE_CAP = 999;
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
