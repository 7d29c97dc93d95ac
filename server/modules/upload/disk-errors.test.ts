import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.js';
import { translate } from '../../i18n/translate.js';
import { mapDiskError } from './disk-errors.js';

const errno = (code: string) => Object.assign(new Error(`${code}: no space left on device, write`), { code });

describe('mapDiskError', () => {
  it('turns a full disk or quota into a translated 507', () => {
    for (const code of ['ENOSPC', 'EDQUOT']) {
      const mapped = mapDiskError(errno(code));
      expect(mapped).toBeInstanceOf(AppError);
      expect(mapped).toMatchObject({ status: 507, key: 'upload.disk_full' });
    }
    expect(translate('zh-CN', 'upload.disk_full')).toContain('存储空间不足');
    expect(translate('en-US', 'upload.disk_full')).toContain('out of storage space');
  });

  it('passes every other failure on unchanged', () => {
    for (const err of [errno('EACCES'), new AppError(422, 'upload.failed'), new Error('plain'), undefined, null]) {
      expect(mapDiskError(err)).toBe(err);
    }
  });
});
