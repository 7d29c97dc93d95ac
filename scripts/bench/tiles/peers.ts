import fs from 'node:fs';
import path from 'node:path';
import { IMAGE_COOKIE } from '../../../server/http/image-cookie.js';
import { start, waitForHttp, which, type Started } from './processes.js';
import type { TileAddress } from './requests.js';

/** One server under test: how to start it and how it names a Deep Zoom tile. */
export interface Server {
  name: string;
  port: number;
  path(t: TileAddress): string;
  /** An Authorization header to send with every request, when the server takes one. */
  authorization?: () => string;
  /** A Cookie header to send with every request, when the server takes one. */
  cookie?: () => string;
  /** Starts the server; every process is handed to `track` as soon as it exists, so a failed start leaks nothing. */
  start(track: (p: Started) => void): Promise<void>;
}

export interface BenchPaths {
  dir: string;
  slide: string;
  /** `vips dzsave` output prefix: `<dz>_files/…` and `<dz>.dzi`. */
  dz: string;
}

/**
 * Our server. `auth: 'cookie'` sends the image cookie a browser sends, `auth: 'header'` sends `Authorization: Bearer`;
 * both are checked on every tile through the 5-second session cache the tile routes share with the guard.
 */
export function dsmsServer(p: BenchPaths, port: number, workers: number, slideKey: string, auth: 'cookie' | 'header' = 'cookie'): Server {
  let token = '';
  // The slide's id, which the server prints when ready: tiles are reached by id only (the file is linked by name).
  let slideId = '';
  return {
    name: `dsms (${workers > 1 ? `${workers} workers` : '1 process'}${auth === 'header' ? ', bearer header' : ''})`,
    port,
    path: (t) => `/api/tiles/${slideId}_files/${t.level}/${t.col}_${t.row}.jpeg`,
    authorization: auth === 'header' ? () => `Bearer ${token}` : undefined,
    cookie: auth === 'cookie' ? () => `${IMAGE_COOKIE}=${token}` : undefined,
    async start(track) {
      const dataDir = path.join(p.dir, `dsms-data-${port}`);
      fs.mkdirSync(path.join(dataDir, 'slides'), { recursive: true });
      const link = path.join(dataDir, 'slides', `${slideKey}.tiff`);
      if (!fs.existsSync(link)) fs.symlinkSync(p.slide, link);
      const log = path.join(p.dir, `dsms-${port}.log`);
      fs.writeFileSync(log, '');
      const proc = start(this.name, process.execPath, ['--import', 'tsx', path.resolve('scripts/bench/tiles/dsms-server.ts'),
        '--data', dataDir, '--port', String(port), '--workers', String(workers)], { log, env: { NODE_ENV: 'production' } });
      track(proc);
      const until = Date.now() + 60_000;
      while (Date.now() < until) {
        const m = fs.readFileSync(log, 'utf8').match(/READY (\S+) (\d+)/);
        if (m) { [, token, slideId] = m; return; }
        if (proc.child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`dsms server did not start; see ${log}`);
    },
  };
}

/** nginx serving the static dzsave tree: the ceiling (no auth, no work but sendfile). */
export function nginxStatic(p: BenchPaths, port: number): Server {
  const name = path.basename(p.dz);
  return {
    name: 'nginx static (dzsave)',
    port,
    path: (t) => `/${name}_files/${t.level}/${t.col}_${t.row}.jpeg`,
    async start(track) {
      await startNginx(track, p.dir, 'static', `
        server {
          listen 127.0.0.1:${port};
          root ${path.dirname(p.dz)};
          location / { open_file_cache max=100000 inactive=60s; }
        }`, `http://127.0.0.1:${port}/${name}.dzi`);
    },
  };
}

/** iipsrv 1.1 (Debian) as FastCGI processes, one per core, behind nginx (one connection per request: iipsrv does not keep FastCGI connections), with a tile cache as large as ours. */
export function iipsrv(p: BenchPaths, port: number, processes: number): Server {
  return {
    name: `iipsrv (${processes} fcgi)`,
    port,
    path: (t) => `/fcgi-bin/iipsrv.fcgi?DeepZoom=${p.slide}_files/${t.level}/${t.col}_${t.row}.jpg`,
    async start(track) {
      const binary = '/usr/lib/iipimage-server/iipsrv.fcgi';
      for (let i = 0; i < processes; i++) {
        track(start(`iipsrv-${i}`, binary, ['--bind', `127.0.0.1:${port + 10 + i}`], {
          log: path.join(p.dir, `iipsrv-${i}.log`),
          env: { LOGFILE: path.join(p.dir, `iipsrv-${i}.trace`), VERBOSITY: '0', MAX_IMAGE_CACHE_SIZE: '256', JPEG_QUALITY: '80' },
        }));
      }
      const upstream = Array.from({ length: processes }, (_, i) => `server 127.0.0.1:${port + 10 + i};`).join(' ');
      await startNginx(track, p.dir, 'iipsrv', `
        upstream iip { ${upstream} }
        server {
          listen 127.0.0.1:${port};
          location /fcgi-bin/iipsrv.fcgi { include /etc/nginx/fastcgi_params; fastcgi_pass iip; }
        }`, `http://127.0.0.1:${port}/fcgi-bin/iipsrv.fcgi?DeepZoom=${p.slide}.dzi`);
    },
  };
}

/** Debian's OpenSlide Deep Zoom example server (Flask) under gunicorn, 256-pixel tiles, no overlap. */
export function openslideServer(p: BenchPaths, port: number, workers: number): Server {
  const examples = '/usr/share/doc/python-openslide-examples/examples/deepzoom';
  return {
    name: `OpenSlide DZ (gunicorn ${workers}w)`,
    port,
    path: (t) => `/slide_files/${t.level}/${t.col}_${t.row}.jpeg`,
    async start(track) {
      const settings = path.join(p.dir, 'deepzoom.cfg');
      fs.writeFileSync(settings, [
        `DEEPZOOM_SLIDE = ${JSON.stringify(p.slide)}`, 'DEEPZOOM_TILE_SIZE = 256', 'DEEPZOOM_OVERLAP = 0',
        'DEEPZOOM_LIMIT_BOUNDS = False', 'DEEPZOOM_TILE_QUALITY = 80', '',
      ].join('\n'));
      const proc = start('openslide', which('gunicorn') ?? 'gunicorn', ['-w', String(workers), '-k', 'gthread', '--threads', '4',
        '-b', `127.0.0.1:${port}`, '--chdir', examples, '--log-level', 'warning', 'deepzoom_server:app'], {
        log: path.join(p.dir, 'openslide.log'), env: { DEEPZOOM_TILER_SETTINGS: settings },
      });
      track(proc);
      await waitForHttp(`http://127.0.0.1:${port}/slide.dzi`);
    },
  };
}

export function peersAvailable(): Record<'nginx' | 'iipsrv' | 'openslide' | 'wrk', boolean> {
  return {
    wrk: !!which('wrk'),
    nginx: !!which('nginx') || fs.existsSync('/usr/sbin/nginx'),
    iipsrv: fs.existsSync('/usr/lib/iipimage-server/iipsrv.fcgi'),
    openslide: !!which('gunicorn') && fs.existsSync('/usr/share/doc/python-openslide-examples/examples/deepzoom/deepzoom_server.py'),
  };
}

async function startNginx(track: (p: Started) => void, dir: string, name: string, servers: string, readyUrl: string): Promise<void> {
  const prefix = path.join(dir, `nginx-${name}`);
  fs.mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(conf, `
worker_processes 2;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on; tcp_nopush on; tcp_nodelay on;
  keepalive_requests 1000000; keepalive_timeout 65;
  types { image/jpeg jpg jpeg; application/xml dzi; }
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy; fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  ${servers}
}
`);
  const bin = which('nginx') ?? '/usr/sbin/nginx';
  track(start(`nginx-${name}`, bin, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], { log: path.join(prefix, 'logs', 'stdout.log') }));
  await waitForHttp(readyUrl);
}
