/**
 * A registry of named things (cell, action and search kinds, live sources, link openers) that refuses a second
 * registration of a name, as amis's renderer factory does: two files claiming one kind is a mistake to see at once,
 * not a silent overwrite that depends on import order.
 */
export interface NamedRegistry<T> {
  register(name: string, value: T): void;
  get(name: string): T | undefined;
  has(name: string): boolean;
  names(): string[];
  values(): T[];
}

export function namedRegistry<T>(what: string): NamedRegistry<T> {
  const entries = new Map<string, T>();
  return {
    register(name, value) {
      if (entries.has(name)) throw new Error(`${what} "${name}" is registered twice`);
      entries.set(name, value);
    },
    get: (name) => entries.get(name),
    has: (name) => entries.has(name),
    names: () => [...entries.keys()],
    values: () => [...entries.values()],
  };
}
