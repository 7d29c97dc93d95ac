import { ERROR_LOG_CAP } from '../core/constants';
import type { ErrorInfo } from './pis';

/**
 * Appends to the local error log and trims the oldest entries above the cap (spec §8, §9).
 * Dexie is loaded on the first error, not with the login page.
 */
export async function logLocalError(entry: Omit<ErrorInfo, 'id'>): Promise<void> {
  try {
    const { pis } = await import('./pis');
    await pis.error_info.add(entry);
    const count = await pis.error_info.count();
    if (count > ERROR_LOG_CAP) {
      const excess = await pis.error_info.orderBy('id').limit(count - ERROR_LOG_CAP).primaryKeys();
      await pis.error_info.bulkDelete(excess);
    }
  } catch {
    // A failing error log must never raise another error (private mode, quota); the toast was shown already.
  }
}
