import { createWriteStream } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { listen } from './http.js';

/** The children: a tus server and a plain PUT server, each in a process of its own, answering the parent over IPC. */

export type Kind = 'tus' | 'plain';
export type ToChild = { type: 'rss' };
export type FromChild = { type: 'ready'; port: number } | { type: 'rss'; rss: number; maxRss: number; cpuSeconds: number };

export async function serve(kind: Kind, dir: string): Promise<void> {
  const port = kind === 'tus' ? await serveTus(dir) : await servePlain(dir);
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send!({ type: 'rss', rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024, cpuSeconds: (user + system) / 1e6 } satisfies FromChild);
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', port } satisfies FromChild);
}

async function serveTus(directory: string): Promise<number> {
  const { Server } = await import('@tus/server');
  const { FileStore } = await import('@tus/file-store');
  const tus = new Server({ path: '/files', datastore: new FileStore({ directory }) });
  const server = http.createServer((req, res) => void tus.handle(req, res));
  return listen(server);
}

async function servePlain(dir: string): Promise<number> {
  const server = http.createServer((req, res) => {
    const num = /^\/put\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'PUT' || !num) return void res.writeHead(404).end();
    pipeline(req, createWriteStream(path.join(dir, num))).then(
      () => res.writeHead(204).end(),
      () => res.writeHead(500).end(),
    );
  });
  return listen(server);
}
