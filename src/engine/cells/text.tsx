import dayjs from 'dayjs';
import { DATE_FORMAT, DATETIME_FORMAT } from '../../core/dateRanges';
import { formatFileSize } from '../../core/fileSize';
import { registerCell } from './registry';

/** Kinds drawn as formatted text. */
const asText = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v));
const asDate = (format: string) => (v: unknown) => (dayjs(v as string).isValid() ? dayjs(v as string).format(format) : String(v));

registerCell('text', { text: (_c, v) => asText(v) });
registerCell('number', { text: (_c, v) => asText(v) });
registerCell('link', { text: (_c, v) => asText(v) });
registerCell('date', { text: (_c, v) => asDate(DATE_FORMAT)(v) });
registerCell('datetime', { text: (_c, v) => asDate(DATETIME_FORMAT)(v) });
registerCell('boolean', { text: (_c, v, { yesNo }) => (v === true || v === 1 || v === '1' ? yesNo[0] : yesNo[1]) });
registerCell('filesize', { text: (_c, v) => formatFileSize(v) });
// A pathology number opens its case's detail page (spec §2); a row without a case_id (a slide in no case) shows
// the number alone. Rows of cases themselves name their column's link (`/case/{id}`).
registerCell('case_number', { text: (_c, v) => asText(v), link: '/case/{case_id}' });
