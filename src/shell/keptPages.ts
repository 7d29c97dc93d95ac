/**
 * Addresses whose page asked to stay drawn when left (KeptOutlet): the engine's list pages ask as they render,
 * so the shell needs no page types of its own.
 */
const keepable = new Set<string>();

export function keepWhenLeft(pathname: string, keep: boolean): void {
  if (keep) keepable.add(pathname);
  else keepable.delete(pathname);
}

export const keptWhenLeft = (pathname: string) => keepable.has(pathname);
