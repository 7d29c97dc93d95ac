/**
 * Upload throughput on loopback, not a test (ARCHITECTURE.md §5). One file (default 1 GiB) goes
 *   (a) through our POST /api/upload/large: 2 MiB chunks, per-chunk and whole-file MD5 checked by the server,
 *       4 requests in flight, real HTTP with a bearer token, the finished file fsynced before "done";
 *   (a1) the same with 1 request in flight (one chunk at a time, as tus sends);
 *   (b) through @tus/server + @tus/file-store: 2 MiB PATCHes (tus is sequential by design);
 *   (c) as plain 2 MiB HTTP PUTs, 4 in flight, streamed to disk by a minimal node:http server;
 *   (d) as a raw disk write of the same bytes (2 MiB writes, page cache, like (b) and (c)).
 * Each server runs in its own process, so the client never shares its event loop. Ours is the app as `npm start`
 * runs it (server/main.ts: WORKERS processes, default the number of cores, sharing the port). The client computes
 * each chunk's MD5 as it sends it, as the browser's hashing worker does; total_md5 is computed before timing, as
 * the browser computes it before its first chunk. Our server's CPU and memory are those of all its processes.
 * Timing starts once the app's start-up work is done (the demo seed's background jobs), as on a running server.
 * Besides MB/s it prints the CPU seconds per GiB each server process and the client spent: on a shared machine
 * the wall times move with everyone else's load, the CPU cost much less.
 *
 *   node --import tsx scripts/bench/upload.ts [--size-mb 1024] [--runs 3] [--profile DIR]
 * --profile writes a V8 CPU profile of our server process to DIR (open it in Chrome DevTools).
 *
 * upload/: run.ts the timing and the table; source.ts the file and its MD5s; clients.ts the four ways to send it;
 * app.ts our server; servers.ts and children.ts the comparison servers (this script with --serve); usage.ts /proc.
 */
import { main } from './upload/run.js';
import { serve, type Kind } from './upload/servers.js';

// The children are this same script with --serve (upload/children.ts forks it).
if (process.argv[2] === '--serve') {
  await serve(process.argv[3] as Kind, process.argv[4]!);
} else {
  await main();
}
