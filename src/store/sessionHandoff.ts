import { useSession } from './session';
import { SESSION } from './storageKeys';

/*
 * Handing the signed-in session to a tab this tab opens (a slide opened from the diagnosis editor).
 *
 * Why this way. The token lives in session storage (spec §3: one tab's sign-in, gone when the tab closes), so a new
 * tab starts signed out; `noopener` (kept: the new tab gets no handle on this one) also stops the browser copying
 * session storage into it. The token itself must never travel in the address: history, server and proxy logs and
 * the Referer keep addresses. localStorage is not the answer either: a session there is every tab's, outlives
 * closing them, and is read by anything that opens the app in this browser profile.
 *
 * So the opener writes a one-time random ticket into the new tab's address *fragment* (never sent to any server) and,
 * on a same-origin BroadcastChannel, answers the one request that presents it: once, within TICKET_MS, and only while
 * this tab is still signed in and not locked. A ticket seen by anyone else is worth nothing: used up by the first
 * request, soon expired, and never the token. The new tab takes the ticket out of its address at once. Revocation is
 * unchanged: both tabs hold the same server session, so signing out, an expired session or an administrator's
 * revocation ends both (the server answers 401 to either). Other tabs of the app hear a grant on the channel too;
 * they are this origin's own code, which already shares this browser's storage, and ignore tickets they did not ask for.
 */

const CHANNEL = 'dsms-session-handoff';
const PARAM = 'handoff';
/** How long an issued ticket may be presented: the new tab asks as it boots, in well under a second. */
const TICKET_MS = 20_000;
/** How long a new tab waits for the opener's answer before it shows the sign-in page as before. */
const WAIT_MS = 4_000;

type Message =
  | { kind: 'ask'; ticket: string }
  | { kind: 'grant'; ticket: string; token: string; userId: number; showAllData: boolean };

const issued = new Map<string, number>();
let channel: BroadcastChannel | null = null;

/** 128 random bits as hex; getRandomValues (not randomUUID) also works on a plain-http intranet address. */
function newTicket(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function answering(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (e: MessageEvent<Message>) => {
    const m = e.data;
    if (m?.kind !== 'ask') return;
    const until = issued.get(m.ticket);
    if (until === undefined) return;
    issued.delete(m.ticket);
    const { token, locked, showAllData } = useSession.getState();
    const userId = Number(sessionStorage.getItem(SESSION.userId));
    if (until < Date.now() || !token || locked || !userId) return;
    channel!.postMessage({ kind: 'grant', ticket: m.ticket, token, userId, showAllData } satisfies Message);
  };
  return channel;
}

/** The address a new tab opens at, carrying a fresh ticket this tab answers; the plain path where handing over is impossible. */
export function signedInUrl(path: string): string {
  if (!useSession.getState().token || !answering()) return path;
  const now = Date.now();
  for (const [t, until] of issued) if (until < now) issued.delete(t);
  const ticket = newTicket();
  issued.set(ticket, now + TICKET_MS);
  return `${path}#${PARAM}=${ticket}`;
}

/** Opens a page of the app in a new tab, signed in as this one. */
export function openSignedIn(path: string): void {
  window.open(signedInUrl(path), '_blank', 'noopener');
}

let received: Promise<void> | null = null;

/**
 * At boot: a tab opened with a ticket and no session of its own asks the opener for it, and waits (a few seconds at
 * most) before the routes decide whether to show the sign-in page. Resolves at once without a ticket. Once per page.
 */
export function receiveHandoff(): Promise<void> {
  received ??= take();
  return received;
}

async function take(): Promise<void> {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const ticket = fragment.get(PARAM);
  if (!ticket) return;
  fragment.delete(PARAM);
  const rest = fragment.toString();
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`);
  if (useSession.getState().token || typeof BroadcastChannel === 'undefined' || !/^[0-9a-f]{32}$/.test(ticket)) return;
  const ask = new BroadcastChannel(CHANNEL);
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      ask.close();
      resolve();
    };
    const timer = setTimeout(done, WAIT_MS);
    ask.onmessage = (e: MessageEvent<Message>) => {
      const m = e.data;
      if (m?.kind !== 'grant' || m.ticket !== ticket) return;
      const session = useSession.getState();
      session.setToken(m.token, m.userId);
      session.setShowAllData(m.showAllData);
      done();
    };
    ask.postMessage({ kind: 'ask', ticket } satisfies Message);
  });
}
