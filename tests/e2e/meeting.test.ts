import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { RealtimeConfig } from '../../server/realtime/config.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { e2eApp, evidence, signIn, startPeer } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

/**
 * A reading meeting in Chromium (issue 12): two users of one hospital in two browser contexts. The presenter starts
 * the meeting from the list page; the participant's view follows the presenter's pans (the delay is measured and
 * logged); control is taken over by the participant, whose pans the presenter then follows, and handed back; the
 * presenter switches slides and ends the meeting. Run once on the embedded broker (one app) and once on RabbitMQ
 * with two app processes sharing the database and the broker, presenter on one and participant on the other.
 */
const rabbit = process.env.TEST_RABBITMQ_URL ? new URL(process.env.TEST_RABBITMQ_URL) : undefined;
// The RabbitMQ users this run provisions: its own prefix (the sweep of each app touches only its prefix), so files and
// runs side by side on one broker never take or remove each other's; they are removed after the file.
const prefix = `dsmse2e-${process.pid.toString(36)}-${randomBytes(4).toString('hex')}-`;

interface Variant { name: string; presenterLang: Lang; participantLang: Lang; realtime?: RealtimeConfig; peerEnv?: Record<string, string> }
const variants: Variant[] = [
  { name: 'embedded', presenterLang: 'en-US', participantLang: 'zh-CN' },
  ...(rabbit ? [{
    name: 'rabbitmq',
    presenterLang: 'zh-CN' as const,
    participantLang: 'en-US' as const,
    realtime: {
      kind: 'rabbitmq', managementUrl: `http://${rabbit.username}:${rabbit.password}@${rabbit.hostname}:15672`,
      serverUrl: `ws://${rabbit.username}:${rabbit.password}@${rabbit.hostname}:15675/ws`, userPrefix: prefix, sweepMs: 5000, maxConnectionsPerSession: 20,
    } as RealtimeConfig,
    peerEnv: { RABBITMQ_URL: process.env.TEST_RABBITMQ_URL!, RABBITMQ_USER_PREFIX: prefix },
  }] : []),
];
if (rabbit) afterAll(async () => {
  const management = `http://${rabbit.hostname}:15672/api/users`;
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(rabbit.username)}:${decodeURIComponent(rabbit.password)}`).toString('base64')}`;
  const users = await (await fetch(management, { headers: { authorization } })).json() as { name: string }[];
  const ours = users.map((u) => u.name).filter((name) => name.startsWith(prefix));
  if (ours.length) await fetch(`${management}/bulk-delete`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ users: ours }) });
});
if (!rabbit) console.warn('meeting e2e: TEST_RABBITMQ_URL is unset, so the RabbitMQ variant (two app processes, one broker) is skipped');

for (const variant of variants) {
  describe(`a reading meeting in Chromium (${variant.name})`, () => {
    let peer: Awaited<ReturnType<typeof startPeer>> | null = null;
    const slides: string[] = [];
    let annotationId = 0;

    const app = e2eApp({
      peerDataDir: true,
      realtime: variant.realtime,
      async setup(server) {
        const dir = path.join(server.dir, 'slides', 'e2e');
        fs.mkdirSync(dir, { recursive: true });
        const hospital = await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
        for (const [i, name] of ['MEET-A', 'MEET-B'].entries()) {
          const out = path.join(dir, `${name}.tiff`);
          await generateDemoSlide({ out, width: 4096, height: 3072, mpp: 0.25, seed: 41 + i, slideId: name, label: false });
          const id = await registerSlide(server.db, server.dir, out, { name, hospital_id: hospital.id, case_id: null, uploaded_by: null });
          await ingestNow(server.db, server.dir, id);
          slides.push(name);
        }
        const first = await server.db.selectFrom('slides').select('id').where('name', '=', 'MEET-A').executeTakeFirstOrThrow();
        const now = new Date().toISOString();
        annotationId = (await server.db.insertInto('slide_annotations').values({
          slide_id: first.id, hospital_id: hospital.id, user_id: 1, username: 'admin', type: 'rectangle', points: JSON.stringify([[1200, 900], [2400, 1800]]),
          name: 'BOARD-ROI', description: '', color: '#00aa00', classification: '', length_um: null, area_um2: null, perimeter_um: null, version: 1, created_at: now, updated_at: now,
        }).returning('id').executeTakeFirstOrThrow()).id;
        if (variant.peerEnv) peer = await startPeer(server.dir, variant.peerEnv);
      },
    });
    // The peer stops before the server it shares the database with.
    afterAll(async () => {
      await peer?.close();
    });

    async function signedIn(url: string, user: string, lang: Lang): Promise<Page> {
      const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: lang });
      const page = await context.newPage();
      await page.goto(`${url}/login`);
      await page.evaluate((l) => localStorage.setItem('lang', l), lang);
      await signIn(page, url, user, 'dsms-demo');
      await page.getByTestId('dashboard').waitFor();
      return page;
    }
    // Animations finished first: a dialog caught mid fade-in shows the page behind it.
    const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { animations: 'disabled' });
    const room = (page: Page) => page.getByTestId('meeting-room');
    const center = async (page: Page) => (await page.getByTestId('meeting-pane').getAttribute('data-center')) ?? '';
    const near = (a: string, b: string) => {
      const [ax, ay] = a.split(',').map(Number);
      const [bx, by] = b.split(',').map(Number);
      return Math.abs(ax! - bx!) < 1e-3 && Math.abs(ay! - by!) < 1e-3;
    };
    /** Drags the leader's slide and answers how long after the mouse was let go the follower's view matched it. */
    async function panAndFollow(leader: Page, follower: Page, dx: number): Promise<number> {
      const before = await center(follower);
      const box = (await leader.getByTestId('meeting-pane').boundingBox())!;
      const from: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
      await leader.mouse.move(...from);
      await leader.mouse.down();
      await leader.mouse.move(from[0] + dx, from[1] + dx / 2, { steps: 10 });
      await leader.mouse.up();
      const released = Date.now();
      let matchedAt = 0;
      await poll(async () => {
        const [l, f] = [await center(leader), await center(follower)];
        const ok = f !== before && near(l, f);
        if (ok && !matchedAt) matchedAt = Date.now();
        return ok;
      }).toBe(true);
      // The view goes on gliding a little after release (OpenSeadragon's animation): the follower tracks it to the end.
      await poll(async () => near(await center(leader), await center(follower))).toBe(true);
      return matchedAt - released;
    }

    it(`follows the presenter, hands control over and back, switches slides and ends (${variant.presenterLang} presenter, ${variant.participantLang} participant)`, async () => {
      const presenterUrl = app.url;
      const participantUrl = peer?.url ?? app.url;
      const presenter = await signedIn(presenterUrl, 'primary', variant.presenterLang);
      // The side menu offers the meetings page, under the slides (in a window of its own, as the viewer).
      await presenter.getByTestId('side-menu').getByText(variant.presenterLang === 'zh-CN' ? '切片管理' : 'Slides', { exact: true }).click();
      await expect(presenter.locator('[data-alias=ReadingMeeting]').first().getAttribute('href')).resolves.toBe('/meeting/view');
      // Started from the viewer's Share tab: the slide comes chosen.
      const first = await app.db.selectFrom('slides').select('id').where('name', '=', slides[0]!).executeTakeFirstOrThrow();
      await presenter.goto(`${presenterUrl}/slide/view?id=${first.id}`);
      await presenter.getByTestId('tab-share').click();
      await presenter.getByTestId('share-meeting').click();
      await presenter.getByTestId('meeting-create').waitFor();
      await poll(() => presenter.locator(`[data-testid=meeting-slide-choice][data-slide="${first.id}"]`).isChecked()).toBe(true);
      await presenter.getByTestId('meeting-name').fill(`Tumour board ${variant.name}`);
      await presenter.getByTestId('meeting-slide-search').fill('MEET');
      await presenter.getByText(slides[1]!, { exact: true }).click();
      await poll(() => presenter.locator('[data-testid=meeting-slide-choice]:checked').count()).toBe(2);
      await shot(presenter, `meeting-create-${variant.presenterLang}`);
      await presenter.getByTestId('meeting-create-submit').click();
      await room(presenter).waitFor();
      const meetingUrl = new URL(presenter.url());
      const primaryId = await room(presenter).getAttribute('data-me');
      await poll(() => room(presenter).getAttribute('data-presenter')).toBe(primaryId);
      await poll(() => center(presenter)).not.toBe('');

      const participant = await signedIn(participantUrl, 'technician', variant.participantLang);
      await participant.goto(`${participantUrl}/meeting/view`);
      await participant.getByTestId('meeting-row').first().waitFor();
      await shot(participant, `meeting-list-${variant.participantLang}`);
      await participant.goto(`${participantUrl}/meeting/view${meetingUrl.search}`);
      await room(participant).waitFor();
      const technicianId = await room(participant).getAttribute('data-me');
      await poll(() => center(participant)).not.toBe('');
      // The presenter's page learns of the new participant from the server's announcement.
      await poll(() => presenter.getByTestId('meeting-participant').count()).toBe(2);
      // The slide's annotations are drawn for those who may see them (primary holds slide_annotation_view, technician not).
      await presenter.getByTestId(`annotation-${annotationId}`).waitFor();
      expect(await participant.getByTestId('annotation-overlay').count()).toBe(0);

      const delays: number[] = [];
      for (const dx of [180, -120, 90]) delays.push(await panAndFollow(presenter, participant, dx));
      const channel = Number(await room(participant).getAttribute('data-follow-delay'));
      console.info(`meeting e2e (${variant.name}): participant matched the presenter ${delays.join(' ms, ')} ms after each pan was released; last message took ${channel} ms presenter → participant`);
      await shot(presenter, `meeting-presenter-${variant.presenterLang}`);
      await shot(participant, `meeting-participant-${variant.participantLang}`);

      // Control over to the participant: now the presenter follows.
      await participant.getByTestId('meeting-take').click();
      await poll(() => room(presenter).getAttribute('data-presenter')).toBe(technicianId);
      await poll(() => room(participant).getAttribute('data-presenter')).toBe(technicianId);
      const back = await panAndFollow(participant, presenter, -150);
      console.info(`meeting e2e (${variant.name}): with control handed over, the host matched the participant ${back} ms after release`);
      await shot(participant, `meeting-control-taken-${variant.participantLang}`);
      // …and back to the host.
      await participant.getByTestId('meeting-handback').click();
      await poll(() => room(participant).getAttribute('data-presenter')).toBe(primaryId);
      await poll(() => room(presenter).getAttribute('data-presenter')).toBe(primaryId);
      await panAndFollow(presenter, participant, 100);

      // Leaving the room leaves the meeting; coming back joins again and follows at once.
      await participant.getByTestId('meeting-back').click();
      await participant.getByTestId('meeting-list').waitFor();
      await poll(() => presenter.getByTestId('meeting-participant').count()).toBe(1);
      await participant.getByTestId('meeting-join').first().click();
      await room(participant).waitFor();
      await poll(() => presenter.getByTestId('meeting-participant').count()).toBe(2);
      await poll(async () => near(await center(presenter), await center(participant))).toBe(true);

      // The presenter switches slides; the participant's viewer follows there too.
      const second = presenter.getByTestId('meeting-slide').nth(1);
      const secondId = await second.getAttribute('data-slide');
      await second.click();
      await poll(() => participant.getByTestId('meeting-pane').getAttribute('data-slide')).toBe(secondId);
      await poll(() => center(participant)).not.toBe('');
      await panAndFollow(presenter, participant, 140);

      // A rename reaches the participant through the server's announcement.
      await presenter.getByTestId('meeting-edit').click();
      await presenter.getByTestId('meeting-edit-name').fill(`Tumour board ${variant.name} (renamed)`);
      await shot(presenter, `meeting-edit-${variant.presenterLang}`);
      await presenter.getByTestId('meeting-edit-save').click();
      await poll(() => participant.getByTestId('meeting-room').textContent()).toContain('(renamed)');

      await presenter.getByTestId('meeting-end').click();
      await participant.getByTestId('meeting-ended').waitFor();
      await shot(participant, `meeting-ended-${variant.participantLang}`);
      await presenter.context().close();
      await participant.context().close();
    });
  });
}
