import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { e2eApp, evidence, signIn, uploadThroughPage } from './harness.js';

/**
 * Issue 28: the slide lists and the upload panel follow jobs by the pushes of the realtime channel, and still end
 * right when pushes are lost. Here the page's MQTT connection is cut (Playwright stands between the page and the
 * broker) and kept from coming back while a slide's ingest runs and ends, so every push of it is lost: SlideLibrary
 * (every 10 s while the channel is down) and the upload panel still find the slide ready, and once the channel is
 * back the list reads its rows again (what was pushed meanwhile never came).
 */
describe('slide jobs with the realtime channel lost', () => {
  const app = e2eApp({ ownDataDir: true });

  it('ends ready in SlideLibrary and the upload panel though the ingest’s pushes were lost, and reads again once the channel is back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-e2e-lost-'));
    const file = path.join(dir, 'e2e-lost-pushes.tiff');
    await generateDemoSlide({ out: file, width: 2000, height: 1500, seed: 11 });
    await app.server.stopJobs(); // the slide waits, 'ingesting', until the channel is cut
    const page: Page = await app.browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    // Every connection to the broker goes through here: passed on, or (while `cut`) closed at once.
    const connections: WebSocketRoute[] = [];
    let cut = false;
    let comebacks = 0;
    await page.routeWebSocket(/\/mqtt$/, (ws) => {
      if (cut) return void ws.close();
      if (connections.length) comebacks += 1;
      ws.connectToServer();
      connections.push(ws);
    });
    await page.goto(`${app.url}/login`);
    await page.evaluate(() => localStorage.setItem('lang', 'en-US'));
    await signIn(page, app.url, 'technician', 'dsms-demo');
    await page.getByTestId('dashboard').waitFor();
    await uploadThroughPage(page, app.url, file, undefined, { keepTask: true });
    const panel = page.getByTestId('upload-task').getByTestId('upload-slide');
    await expect.poll(() => panel.getAttribute('data-status')).toBe('ingesting');

    await page.locator('[data-testid="side-menu"] a[data-alias="SlideLibrary"]').click();
    const row = page.getByTestId('list-page').getByRole('row').filter({ hasText: 'e2e-lost-pushes' });
    const bar = row.locator('[data-progress]');
    await bar.waitFor();
    await page.locator('html[data-realtime="live"]').waitFor({ state: 'attached' });

    // The channel goes, and stays away while the ingest runs and ends: its pushes reach nobody on this page.
    cut = true;
    for (const ws of connections) await ws.close();
    app.server.startJobs();
    await bar.waitFor({ state: 'detached', timeout: 120_000 });
    expect(await row.getByText('Ready', { exact: true }).count()).toBe(1);
    await expect.poll(() => panel.getAttribute('data-status').catch(() => 'gone'), { timeout: 60_000 }).toMatch(/^(ready|gone)$/);
    expect(comebacks).toBe(0);
    await evidence(page, 'job-progress-lost-pushes-en-US.png');

    // The channel comes back (the client tries every 10 s): the list reads its rows again on its return.
    let asked = 0;
    page.on('request', (r) => { if (new URL(r.url()).pathname.endsWith('/lists')) asked += 1; });
    cut = false;
    await expect.poll(() => comebacks, { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => asked, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await row.getByText('Ready', { exact: true }).count()).toBe(1);
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 240_000);
});
