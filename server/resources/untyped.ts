/**
 * Resource tables are named by data (schemas/resources), not by server/db/schema.ts, so queries over them cannot be
 * typed by Kysely: this is the one place that says so. Column and table names are checked against the resource
 * definition before they reach a query instead.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Untyped = any;
