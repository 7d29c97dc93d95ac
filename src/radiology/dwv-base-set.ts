/**
 * dwv reads the document's base address once, when its module runs, to find its decoder workers
 * (`./assets/workers/…`, vite.config.ts dwvWorkers). From a /dicom/1/2 page that would be /dicom/1/assets/…;
 * for that moment the base names the folder the build copied them to (dwv-base-unset.ts puts it back).
 */
const base = document.createElement('base');
base.href = typeof __DWV_WORKERS__ === 'string' ? __DWV_WORKERS__ : '/';
base.dataset.dwv = '';
document.head.prepend(base);
