import { parentPort } from 'node:worker_threads';
import { HashJob } from './hash-job.js';
import type { FromWorker, ToWorker } from './worker-messages.js';

/**
 * The upload worker thread: the whole-file MD5 of the chunked upload, away from the event loop that serves
 * requests. It follows uploads' data files to hash them in order (HashJob). Messages for one job arrive in order; jobs share one read buffer, as they run one
 * at a time.
 */
const jobs = new Map<number, HashJob>();
/** Read in slices small enough to stay in the CPU cache between the read and the hash. */
const buffer = Buffer.allocUnsafe(256 * 1024);
const port = parentPort!;

port.on('message', (m: ToWorker) => {
  switch (m.op) {
    case 'open':
      jobs.set(m.job, new HashJob(m.data, m.md5Limit, m.chunkBytes, buffer));
      break;
    case 'add':
      jobs.get(m.job)?.add(m.count);
      break;
    case 'finish':
      void settle(m.job, async (job) => job.finish(m.size));
      break;
    case 'abort':
      void settle(m.job, async (job) => {
        job.abort();
        return {};
      });
      break;
  }
});

async function settle(key: number, step: (job: HashJob) => Promise<{ md5?: string }>): Promise<void> {
  let reply: FromWorker;
  try {
    const job = jobs.get(key);
    if (!job) throw new Error(`unknown assembly job ${key}`);
    reply = { job: key, ok: true, ...(await step(job)) };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    reply = { job: key, ok: false, code: e.code, message: e.message };
  }
  jobs.delete(key);
  port.postMessage(reply);
}
