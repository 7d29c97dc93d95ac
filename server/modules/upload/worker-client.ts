import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './worker-messages.js';
import { appPath, COMPILED } from '../../paths.js';

/**
 * One upload worker thread, started on first use: posts requests and matches the answers to them.
 * If the thread dies, everyone waiting gets the error and `onLost` runs; the next request starts a new thread.
 */
export class WorkerClient {
  private worker?: Worker;
  private readonly waiting = new Map<number, { resolve: (r: FromWorker) => void; reject: (e: Error) => void }>();
  private counter = 0;

  constructor(private readonly onLost: () => void = () => undefined) {}

  /** A key for a new request or job, unique within this client. */
  nextKey(): number {
    return ++this.counter;
  }

  post(message: ToWorker): void {
    (this.worker ??= this.start()).postMessage(message);
  }

  request(message: ToWorker): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      this.waiting.set(message.job, { resolve, reject });
      this.post(message);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = spawnUploadWorker();
    worker.unref();
    worker.on('message', (reply: FromWorker) => {
      const waiter = this.waiting.get(reply.job);
      this.waiting.delete(reply.job);
      waiter?.resolve(reply);
    });
    const lost = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const { reject } of this.waiting.values()) reject(err);
      this.waiting.clear();
      this.onLost();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`upload worker exited with code ${code}`)));
    return worker;
  }
}

/**
 * Compiled (`npm run build`, `npm start`), the worker is its own bundle, dist-server/upload-worker.js. The
 * TypeScript server runs through tsx, whose loader a worker thread does not inherit; so under tsx (and vitest) the
 * worker boots through tsx's API.
 */
function spawnUploadWorker(): Worker {
  if (COMPILED) return new Worker(appPath('dist-server', 'upload-worker.js'));
  const entry = new URL('./upload-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`, { eval: true });
}
