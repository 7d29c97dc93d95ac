import mergePatch from 'json-merge-patch';

/**
 * A hospital override applied to a base page schema: a JSON merge patch (RFC 7396), the same
 * library the server layers with (server/modules/schemas/store.ts). The base is never changed.
 */
export function applyMergePatch<T>(base: T, patch: unknown): T {
  return mergePatch.apply(structuredClone(base), patch) as T;
}
