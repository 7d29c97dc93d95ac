import { ERROR_LOG_CAP } from '../core/constants';
import type { ErrorInfo } from './pis';

const REPORT_URL = '/logs/errors';

/**
 * Appends to the local error log and trims the oldest entries above the cap (spec §8, §9), and reports
 * the error to the server's LogError when signed in, so administrators see what users hit.
 * Dexie and the API client are loaded on the first error, not with the login page.
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
  await reportToServer(entry);
}

async function reportToServer(entry: Omit<ErrorInfo, 'id'>): Promise<void> {
  // A failed report is itself an HTTP error: never report that one, or a broken server would loop us.
  if (entry.error.includes(REPORT_URL)) return;
  try {
    const [{ api }, { useSession }] = await Promise.all([import('../api/client'), import('../store/session')]);
    if (!useSession.getState().token) return;
    await api.post(REPORT_URL, { message: entry.error.slice(0, 4000), page: entry.page.slice(0, 2000) }, { silent: true, allowMultiple: true });
  } catch {
    // Reporting is best effort; the local log keeps the entry.
  }
}
