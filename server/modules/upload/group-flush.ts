import fs from 'node:fs/promises';

interface FileFlushes {
  /** The flush under way, if any. */
  running?: Promise<void>;
  /** The flush that starts when `running` ends: everyone who wrote while `running` was under way waits for it. */
  next?: Promise<void>;
}

/**
 * Group commit for files written by several requests at once (the chunks of one upload, 4 in flight): a caller
 * whose bytes are written asks for a flush, and gets one that started after its write, so its bytes are on the
 * disk when the promise resolves; callers that ask while a flush runs share the one after it. fdatasync flushes
 * the file, not a descriptor, so one flush covers every write made to it before it started, through any descriptor.
 * With chunks arriving together this turns one flush per chunk into about one per batch, and no answer comes
 * before its chunk is durable.
 */
export class GroupFlush {
  private readonly files = new Map<string, FileFlushes>();

  constructor(private readonly datasync: (file: string) => Promise<void> = datasyncFile) {}

  flush(file: string): Promise<void> {
    let state = this.files.get(file);
    if (!state) this.files.set(file, (state = {}));
    if (!state.running) return this.start(file, state);
    // The running flush may have started before this caller's write: it waits for the next one.
    const s = state;
    s.next ??= state.running.catch(() => undefined).then(() => {
      s.next = undefined;
      return s.running ?? this.start(file, s);
    });
    return s.next;
  }

  private start(file: string, state: FileFlushes): Promise<void> {
    const running = this.datasync(file).finally(() => {
      if (state.running === running) state.running = undefined;
      if (!state.running && !state.next) this.files.delete(file);
    });
    state.running = running;
    return running;
  }
}

async function datasyncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
