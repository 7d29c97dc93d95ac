// dwv has read the base address (dwv-base-set.ts): the page's own comes back before anything else resolves against it.
document.head.querySelector('base[data-dwv]')?.remove();
