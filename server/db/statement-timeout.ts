/** How long PostgreSQL runs one statement before cancelling it, unless the caller says (config.ts: DB_STATEMENT_TIMEOUT_MS). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
