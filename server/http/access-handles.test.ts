import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('..', import.meta.url));

/** Every non-test .ts file under server/, relative to it. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path.relative(SERVER, full)] : [];
  });
}

/**
 * Who holds the unscoped database handle (issue 27), and why. Route modules get the request-scoped handle
 * (access-scope.ts): a statement over cases or slides there reaches only the request's hospitals and directories,
 * and nothing signed out. Anything new that needs the unscoped one is added here, with its reason, or it fails.
 */
const SYSTEM_HANDLE: Record<string, string> = {
  'app.ts': 'builds the scoped handle and hands the unscoped one to the holders below and to infrastructure (sessions, realtime, operation log, rule and schema stores, the tile resolver checked by mayView)',
  'modules/diagnosis/deps.ts': 'declares it for the two uses below',
  'modules/diagnosis/index.ts': 'passes it on',
  'modules/diagnosis/verify-route.ts': 'the public report verification page: its code is the grant',
  'modules/diagnosis/release-job.ts': 'the scheduled release runs outside any request, on the job runner’s unscoped handle',
  'modules/diagnosis/workflow.ts': 'issuing due reports is system work, for every hospital whoever triggers it',
  'modules/slides/routes.ts': 'passes it to the download file route',
  'modules/slides/download.ts': 'the signed download link, opened signed out; mayDownload checks its user',
  'modules/shares/routes.ts': 'share links: the token is the grant; need-login links checked by `usable`',
  'modules/consultations/routes.ts': 'the consultation link, opened signed out by the outside expert: the token is the grant and names one consultation',
  'modules/scanners/routes.ts': 'the scanners’ own API: the scanner key is the grant and names the hospital',
};

/**
 * Where a statement leaves the row scope out on the request's own handle (`withoutPlugins()`, the same transaction):
 * integrity checks that must see rows the user may not, answering only whether, never what.
 */
const SCOPE_LEFT_OUT: Record<string, string> = {
  'modules/cases/numbering.ts': 'whether a pathology number is taken in the hospital, in any directory',
  'modules/areas/queries.ts': 'whether a hospital area holds any hospital’s slides (its location then stays), and a slide’s job queue name',
  'modules/slides/queries.ts': 'whether a stored file is bound to a slide already, whoever’s',
  'modules/meetings/routes.ts': 'a meeting’s every slide: the hospital topic names them by id, and an edit keeps those the caller was not shown',
  'modules/meetings/queries.ts': 'an edit replaces the meeting’s whole slide list, the slides the caller was not shown passed back in',
  'modules/sso/users.ts': 'the operation log line of a user created at sign-in, written before anyone is signed in (it names the vouching hospital)',
};

describe('the unscoped database handle', () => {
  const files = sources(SERVER);

  it('is named only where the allow-list says why', () => {
    expect(files.length).toBeGreaterThan(100);
    const holders = files.filter((f) => /\bsystemDb\b/.test(fs.readFileSync(path.join(SERVER, f), 'utf8'))).sort();
    expect(holders).toEqual(Object.keys(SYSTEM_HANDLE).sort());
  });

  it('is taken back from the scoped one only where the allow-list says why', () => {
    const holders = files.filter((f) => /\.withoutPlugins\s*\(/.test(fs.readFileSync(path.join(SERVER, f), 'utf8'))).sort();
    expect(holders).toEqual(Object.keys(SCOPE_LEFT_OUT).sort());
  });

  it('is not opened anew by a module', () => {
    const offending = files.filter((f) => /^(modules|resources|http|realtime)\//.test(f) && /\bconnect\s*\(\s*\{/.test(fs.readFileSync(path.join(SERVER, f), 'utf8')));
    expect(offending).toEqual([]);
  });
});
