import { SlideFormatError } from '../slide-index.js';

/** Why a set of files is not one readable DICOM whole-slide series; `code` names a translated `dicom.*` message. */
export type DicomProblem =
  | 'not_dicom' | 'not_wsi' | 'mixed_series' | 'truncated' | 'too_many_frames' | 'syntax_unsupported'
  | 'bad_geometry' | 'too_many_instances' | 'no_volume' | 'header_too_large' | 'pixels_unsupported';

export class DicomSeriesError extends SlideFormatError {
  constructor(readonly code: DicomProblem, readonly params: Record<string, string | number> = {}, detail?: string) {
    super(detail ?? code);
  }
}
