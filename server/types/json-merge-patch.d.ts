declare module 'json-merge-patch' {
  /** RFC 7386: applies `patch` to `target` (mutating it) and returns the result. */
  export function apply<T = unknown>(target: unknown, patch: unknown): T;
  export function generate(before: unknown, after: unknown): unknown;
}
