export type Tree = { [key: string]: string | Tree };

/**
 * The translations of one language: the core file plus one file per feature (`locales/<lang>/<feature>.json`),
 * so features add their words without editing a shared file. Two files may not define the same key.
 */
export function bundle(core: Tree, features: Record<string, unknown>): Tree {
  const merged = structuredClone(core);
  for (const [file, mod] of Object.entries(features)) merge(merged, (mod as { default: Tree }).default, file, '');
  return merged;
}

function merge(into: Tree, from: Tree, file: string, prefix: string): void {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    if (typeof value === 'object' && (existing === undefined || typeof existing === 'object')) {
      into[key] = existing ?? {};
      merge(into[key] as Tree, value, file, `${prefix}${key}.`);
    } else if (existing !== undefined) {
      throw new Error(`${file} redefines the translation ${prefix}${key}`);
    } else {
      into[key] = value;
    }
  }
}
