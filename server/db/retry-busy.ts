/**
 * Runs `write` again when SQLite answers SQLITE_BUSY: its busy timeout (5 s, connect.ts) can pass while another
 * process's commit or checkpoint waits on a disk saturated by uploads, and a write that merely had to wait must not
 * fail its request. A few tries with growing pauses; any other error, or the last BUSY, is thrown.
 */
export async function retryBusy<T>(write: () => Promise<T>, tries = 4, firstPauseMs = 100): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= tries) throw err;
      await new Promise((resolve) => setTimeout(resolve, firstPauseMs * 2 ** (attempt - 1)));
    }
  }
}
