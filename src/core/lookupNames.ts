/**
 * The named option sources a schema may give as `lookup:<name>` (their loaders: src/engine/optionSources.ts, typed by
 * this list so the two cannot part). Pure, so the page checks read it without the browser's client.
 */
export const LOOKUP_NAMES = ['teaching_libraries', 'primary_workload', 'bind_targets', 'hospitals', 'colleagues', 'labels'] as const;
export type LookupName = (typeof LOOKUP_NAMES)[number];
