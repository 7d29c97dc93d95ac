import { chunkRanges, chunksToSend, chunkTotal, progressFromLack, progressPercent, retryDecision } from '../core/uploadPlan';

/** Up to four chunks of one file in flight at once. */
export const CHUNKS_PER_FILE = 4;

export type ChunkAnswer = { code: 0; msg: number | string; lack: number[] } | { code: 1; path: string };

export interface SendOptions {
  file: Blob & { name: string };
  totalMd5: string;
  chunkMd5(num: number): Promise<string>;
  /** POSTs one chunk's form to upload/large and returns the unwrapped answer. */
  post(form: FormData): Promise<ChunkAnswer>;
  signal: AbortSignal;
  retryable(error: unknown): boolean;
  onProgress(percent: number): void;
  startProgress?: number;
  /** For tests: replaces setTimeout for retry delays. */
  wait?: (ms: number, fn: () => void) => void;
}

export class UploadIncompleteError extends Error {}

/**
 * Sends the chunks of one file (spec §7): the first goes alone and its `lack` says which chunks a resumed
 * upload still needs; then up to four at a time. A chunk that fails is retried with back-off; more than
 * five failures of one chunk, or an answer that will not change (a 4xx), rejects. Resolves with the path of code 1.
 */
export function sendChunks(o: SendOptions): Promise<string> {
  const { file, signal } = o;
  const ranges = chunkRanges(file.size);
  const total = chunkTotal(file.size);
  const wait = o.wait ?? ((ms, fn) => setTimeout(fn, ms));
  let lack: number[] | null = null;
  const done = new Set<number>();
  const inFlight = new Set<number>();
  const failures = new Map<number, number>();
  let progress = o.startProgress ?? 0;
  let emptyLackRounds = 0;

  return new Promise<string>((resolve, reject) => {
    let finished = false;
    const finish = (fn: () => void) => {
      if (finished) return;
      finished = true;
      fn();
    };
    if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', () => finish(() => reject(new DOMException('aborted', 'AbortError'))));

    const pump = () => {
      if (finished) return;
      const limit = lack === null ? 1 : CHUNKS_PER_FILE;
      let next = chunksToSend(total, { lack, done, inFlight });
      if (next.length === 0 && inFlight.size === 0) {
        // Everything is present but no path yet: the last chunk again makes the server answer code 1.
        emptyLackRounds += 1;
        if (emptyLackRounds > 3) return finish(() => reject(new UploadIncompleteError('the server did not complete the file')));
        done.delete(total);
        next = [total];
      }
      while (inFlight.size < limit && next.length > 0) send(next.shift()!);
    };

    const send = (num: number) => {
      inFlight.add(num);
      void (async () => {
        try {
          const md5 = await o.chunkMd5(num);
          const range = ranges[num - 1]!;
          const form = new FormData();
          // Fields before the file part: the server reads them first (spec §7).
          form.append('file_name', file.name);
          form.append('num', String(num));
          form.append('total_num', String(total));
          form.append('md5', md5);
          form.append('total_md5', o.totalMd5);
          form.append('total_size', String(file.size));
          form.append('blob', file.slice(range.start, range.end), file.name);
          const answer = await o.post(form);
          inFlight.delete(num);
          if (answer.code === 1) return finish(() => resolve(answer.path));
          done.add(num);
          lack = Array.isArray(answer.lack) ? answer.lack : [];
          const reported = Math.max(progressPercent(answer.msg), progressFromLack(total, lack));
          if (reported > progress) {
            progress = reported;
            o.onProgress(progress);
          }
          pump();
        } catch (error) {
          inFlight.delete(num);
          if (finished || signal.aborted) return;
          const count = (failures.get(num) ?? 0) + 1;
          failures.set(num, count);
          const decision = retryDecision(count);
          if (!decision.retry || !o.retryable(error)) return finish(() => reject(error));
          inFlight.add(num); // cooling down: not picked again before the delay
          wait(decision.delayMs, () => {
            inFlight.delete(num);
            if (!finished) send(num);
          });
        }
      })();
    };
    pump();
  });
}
