import { TOAST_THROTTLE_MS } from '../core/constants';
import { throttle } from '../core/throttle';

export type ToastIntent = 'error' | 'success' | 'warning' | 'info';
type Sink = (text: string, intent: ToastIntent) => void;

let sink: Sink | undefined;
let load: (() => void) | undefined;
/** Toasts raised before the toaster's code arrived; bounded, as a burst before it loads needs only its first few. */
const waiting: [string, ToastIntent][] = [];
const WAITING_MAX = 10;

/** The toaster component registers itself here so non-React code (the API client) can raise toasts. */
export function setToastSink(next: Sink): void {
  sink = next;
  for (const [text, intent] of waiting.splice(0)) next(text, intent);
}

/**
 * The toaster is not part of the first screen's code (the login + shell budget): the root hands a loader here,
 * called by the first toast, which waits until the toaster has mounted.
 */
export function loadToasterWith(loader: () => void): void {
  load = loader;
  if (waiting.length > 0) loader();
}

function raise(text: string, intent: ToastIntent): void {
  if (sink) return sink(text, intent);
  if (waiting.length < WAITING_MAX) waiting.push([text, intent]);
  load?.();
}

/** Errors are throttled at 100 ms (spec §8) so a burst of failures shows one toast, not a wall. */
export const notifyError = throttle((text: string) => raise(text, 'error'), TOAST_THROTTLE_MS);
export const notify = (text: string, intent: ToastIntent = 'success') => raise(text, intent);
