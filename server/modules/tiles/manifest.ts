import { parseSize } from './iiif.js';
import type { ManifestCase, ManifestSlide } from './manifest-queries.js';

/**
 * A case as a IIIF Presentation API 3.0 manifest: one canvas per slide, painted with the slide's image and its
 * IIIF Image API 3 service (level 2), so a IIIF viewer (Mirador, Universal Viewer) opens the case's slides side by
 * side. Labels are language maps in both of the app's languages; values that are the case's own text (numbers,
 * specimen, file names) carry no language (`none`). Ids are absolute, from PUBLIC_URL, never from the request.
 */

const CONTEXT = 'http://iiif.io/api/presentation/3/context.json';
export const MANIFEST_MEDIA_TYPE = `application/ld+json;profile="${CONTEXT}"`;

type Lang = 'zh-CN' | 'en-US';
const WORDS = {
  case: { 'zh-CN': '病例 {{number}}', 'en-US': 'Case {{number}}' },
  pathology_number: { 'zh-CN': '病理号', 'en-US': 'Pathology number' },
  hospital: { 'zh-CN': '医院', 'en-US': 'Hospital' },
  specimen: { 'zh-CN': '标本', 'en-US': 'Specimen' },
  slides: { 'zh-CN': '切片 {{count}} 张', 'en-US': '{{count}} slide(s)' },
  section: { 'zh-CN': '蜡块 {{block}} 第 {{section}} 片 {{stain}}', 'en-US': 'Block {{block}}, section {{section}}, {{stain}}' },
  slide: { 'zh-CN': '切片 {{name}}', 'en-US': 'Slide {{name}}' },
  slide_name: { 'zh-CN': '切片文件', 'en-US': 'Slide file' },
} as const;

type LanguageMap = Record<string, string[]>;

/** `key` in both languages, its `{{name}}` placeholders filled. */
function both(key: keyof typeof WORDS, params: Record<string, string | number> = {}): LanguageMap {
  const fill = (lang: Lang) => WORDS[key][lang].replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(params[name] ?? '')).trim();
  return { 'zh-CN': [fill('zh-CN')], 'en-US': [fill('en-US')] };
}
const plain = (value: string): LanguageMap => ({ none: [value] });
const entry = (label: keyof typeof WORDS, value: LanguageMap) => ({ label: both(label), value });

/** Glass slides in block and section order (A2 before A10), then slides of no glass slide by id. */
function bySection(a: ManifestSlide, b: ManifestSlide): number {
  if (a.block_number !== b.block_number) {
    if (a.block_number === null) return 1;
    if (b.block_number === null) return -1;
    return a.block_number.localeCompare(b.block_number, 'en', { numeric: true });
  }
  return (a.section_number ?? 0) - (b.section_number ?? 0) || a.id - b.id;
}

export function caseManifest(publicUrl: string, kase: ManifestCase, slides: readonly ManifestSlide[]) {
  const id = `${publicUrl}/api/iiif/cases/${kase.id}/manifest`;
  const hospital: LanguageMap = kase.hospital_en_name ? { 'zh-CN': [kase.hospital_name], 'en-US': [kase.hospital_en_name] } : plain(kase.hospital_name);
  return {
    '@context': CONTEXT,
    id,
    type: 'Manifest',
    label: both('case', { number: kase.pathology_number }),
    summary: both('slides', { count: slides.length }),
    metadata: [
      entry('pathology_number', plain(kase.pathology_number)),
      entry('hospital', hospital),
      ...(kase.specimen_name ? [entry('specimen', plain(kase.specimen_name))] : []),
    ],
    items: [...slides].sort(bySection).map((slide) => canvas(publicUrl, id.replace(/\/manifest$/, ''), slide)),
  };
}

function canvas(publicUrl: string, caseBase: string, slide: ManifestSlide) {
  const id = `${caseBase}/canvas/${slide.id}`;
  const serviceId = `${publicUrl}/api/iiif/${slide.id}`;
  const service = [{ id: serviceId, type: 'ImageService3', profile: 'level2' }];
  // full/max is the whole slide within maxArea: the size it answers is the body's size.
  const max = parseSize({ x: 0, y: 0, width: slide.width, height: slide.height }, 'max');
  const thumb = parseSize({ x: 0, y: 0, width: slide.width, height: slide.height }, '!256,256');
  const label = slide.block_number && slide.section_number !== null
    ? both('section', { block: slide.block_number, section: slide.section_number, stain: slide.stain ?? '' })
    : both('slide', { name: slide.name });
  return {
    id,
    type: 'Canvas',
    label,
    width: slide.width,
    height: slide.height,
    metadata: [entry('slide_name', plain(slide.name))],
    thumbnail: [{ id: `${serviceId}/full/!256,256/0/default.jpg`, type: 'Image', format: 'image/jpeg', ...thumb, service }],
    items: [{
      id: `${id}/page`,
      type: 'AnnotationPage',
      items: [{
        id: `${id}/page/image`,
        type: 'Annotation',
        motivation: 'painting',
        target: id,
        body: { id: `${serviceId}/full/max/0/default.jpg`, type: 'Image', format: 'image/jpeg', ...max, service },
      }],
    }],
  };
}
