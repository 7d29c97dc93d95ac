/**
 * Hands a signed same-origin file link to the browser's download manager: a click on an `<a download>`
 * streams the file to disk (the server answers `Content-Disposition: attachment`), so a slide of
 * several gigabytes never passes through page memory the way a fetched blob would.
 */
export function startDownload(url: string): void {
  // Only our own paths: the link comes from our API, and nothing else should be opened from here.
  if (!url.startsWith('/') || url.startsWith('//')) throw new Error(`not a same-origin download link: ${url}`);
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
