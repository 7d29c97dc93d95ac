/** The success envelope the spec's readers expect (ARCHITECTURE.md §3). */
export interface Envelope<T> {
  code: 0;
  message: 'ok';
  data: T;
}

export function ok<T>(data: T): Envelope<T> {
  return { code: 0, message: 'ok', data };
}
