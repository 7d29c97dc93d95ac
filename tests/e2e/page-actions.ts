import type { Locator, Page } from 'playwright-core';
import { DIALOG_CONFIRM_THROTTLE_MS } from '../../src/core/constants';

/**
 * A dialog's confirm acts once per DIALOG_CONFIRM_THROTTLE_MS (spec §5/§9: a double click acts once), so a person's next
 * confirm after a refused one comes later than that. `since`: Date.now() once the earlier confirm was sent (its click
 * or Enter resolved). Waits for what is left of the window: nothing when the steps in between took longer.
 */
export async function afterConfirmThrottle(since: number): Promise<void> {
  const left = since + DIALOG_CONFIRM_THROTTLE_MS + 50 - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

/**
 * Resolves once no animation or transition is running in the page (a drawer sliding away, a dialog fading in, a drop
 * settling), so what is read or shot next is where things end. Endless ones (a spinner) do not count.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
}

/**
 * Waits until each slide view named (a data-testid: `viewer-pane-0`, `share-pane` …) is settled: not moving, laid out
 * for its size, every tile of the view drawn at its best level (`data-settled`, src/viewer/slideViewer.ts).
 */
export async function viewsSettled(page: Page, ...testIds: string[]): Promise<void> {
  for (const id of testIds) await page.locator(`[data-testid="${id}"][data-settled="true"]`).waitFor();
}

/**
 * A double click at (x, y) as a mouse sends one: its four button events go out together. page.mouse.dblclick waits for
 * each event's round trip before sending the next, and on a busy machine the two clicks then arrive further apart than
 * the page's double-click time (OpenSeadragon's 300 ms), which makes them two clicks.
 */
export async function doubleClick(page: Page, x: number, y: number): Promise<void> {
  await page.mouse.move(x, y);
  const cdp = await page.context().newCDPSession(page);
  const button = (type: 'mousePressed' | 'mouseReleased', clickCount: number) =>
    cdp.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', buttons: type === 'mousePressed' ? 1 : 0, clickCount });
  await Promise.all([button('mousePressed', 1), button('mouseReleased', 1), button('mousePressed', 2), button('mouseReleased', 2)]);
  await cdp.detach();
}

/** Replaces the whole text of a CodeMirror editor (the JSON editors of the schema editor) as a person typing would. */
export async function setCode(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

/** The text of a CodeMirror editor, line by line (its lines are drawn as elements of their own). */
export async function codeOf(editor: Locator): Promise<string> {
  return (await editor.locator('.cm-line').allTextContents()).join('\n');
}

/**
 * Types a day (YYYY-MM-DD) and, when given, a time (HH:mm:ss) into a DateTimeInput (src/widgets/dateTime: Fluent's
 * DatePicker and TimePicker, typed as a user would: the day confirmed by leaving it with Tab (Enter would open its
 * calendar over the next field), the time with Enter, its list then closed). `root`: the input's wrapper (its data-testid); its first input
 * is the day, its second the time.
 */
export async function pickDateTime(root: Locator, date: string, time?: string): Promise<void> {
  const dateInput = root.locator('input').nth(0);
  await dateInput.fill(date);
  await dateInput.press('Tab');
  if (time === undefined) return;
  const timeInput = root.locator('input').nth(1);
  await timeInput.fill(time);
  await timeInput.press('Enter');
  // Its list of times may stay open over what comes next: Escape closes it (Tab would pick the list's highlighted time
  // instead of the one typed).
  if ((await timeInput.getAttribute('aria-expanded')) === 'true') await timeInput.press('Escape');
}

/**
 * Opens the menu page `alias` of a menu group from the side menu as a person does: the menu opened if it is folded,
 * the group unfolded if the entry is hidden (named by its menu name in `lang`), then the entry clicked. Answers the
 * page's list, once drawn (`list: false` for a hand-written page, whose own content the caller waits for).
 */
export async function openMenuPage(p: Page, lang: 'zh-CN' | 'en-US', group: { name: string; en_name: string }, alias: string, { list = true } = {}): Promise<Locator> {
  if ((await p.getByTestId('menu-toggle').getAttribute('aria-expanded')) === 'false') await p.getByTestId('menu-toggle').click();
  const link = p.locator(`[data-testid="side-menu"] a[data-alias="${alias}"]`);
  if (!(await link.isVisible())) {
    await p.locator('[data-testid="side-menu"] button[aria-expanded="false"]', { hasText: lang === 'zh-CN' ? group.name : group.en_name }).click();
    await animationsDone(p);
  }
  await link.click();
  const page = p.locator(`[data-testid="list-page"][data-alias="${alias}"]`);
  if (list) await page.waitFor();
  return page;
}
