import type { Storage } from './storage.js';

/**
 * An object copied to another storage under the same key, then removed from the first (a finished upload going to
 * its hospital area's storage, or back when its bind fails). The copy is written whole or not at all (a writer
 * renamed or completed into place), so a failure leaves the object where it was.
 */
export async function transferObject(from: Storage, to: Storage, key: string): Promise<void> {
  await to.write(key, await from.readStream(key));
  await from.remove(key);
}
