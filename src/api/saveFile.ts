import type { AxiosResponse } from 'axios';

/** The file name a download answer gives in its Content-Disposition, or the fallback. */
export const fileNameOf = (res: AxiosResponse, fallback: string) =>
  /filename="([^"]+)"/.exec(String(res.headers['content-disposition'] ?? ''))?.[1] ?? fallback;

/** Hands a blob answer (`responseType: 'blob'`) to the browser as a download under the server's file name. */
export function saveFileAnswer(res: AxiosResponse, fallbackName: string): void {
  const url = URL.createObjectURL(res.data as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameOf(res, fallbackName);
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The browser has taken the file by then; the address is only needed for the click.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
