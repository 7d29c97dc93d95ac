import { describe, expect, it } from 'vitest';
import type { ExportCase, ExportSubject } from '../../server/modules/slides/dicom/export-subject.js';
import { patientStudyModules, slideLabelModule, specimenModule } from '../../server/modules/slides/dicom/subject-modules.js';

const now = new Date(2026, 10, 22, 9, 30, 0);
const hospital = { code: 'H001', name: '第一人民医院' };
const kase: ExportCase = {
  pathologyNumber: 'P2026-00003', patientName: '王芳', gender: 'female', age: 61, ageUnit: 'year', idNumber: '110105196405170025',
  admissionNumber: 'ZY20260031', outpatientNumber: 'MZ88017', inspectionDoctor: '周明', specimenName: '颈部淋巴结', registrationAt: null,
};
const subject = (over: Partial<ExportSubject> = {}): ExportSubject => ({
  slide: { name: 'DEMO-3 淋巴结', createdAt: '2026-11-20T01:02:03.000Z' }, hospital, case: kase,
  glassSlide: { block: 'A', section: 2, stain: 'HE', label: null, specimenName: null }, ...over,
});

describe('DICOM export: what the case and glass slide say (Patient, Study, Specimen, Slide Label)', () => {
  it('takes the patient from the case: admission number as ID (outpatient number beside it), birth date from the resident ID', () => {
    expect(patientStudyModules(subject(), now)).toMatchObject({
      PatientName: '王芳', PatientID: 'ZY20260031', IssuerOfPatientID: 'H001',
      OtherPatientIDsSequence: [{ PatientID: 'MZ88017', IssuerOfPatientID: 'H001', TypeOfPatientID: 'TEXT' }],
      PatientBirthDate: '19640517', PatientSex: 'F', PatientAge: '061Y', ReferringPhysicianName: '周明',
      AccessionNumber: 'P2026-00003', StudyID: 'P2026-00003', StudyDescription: 'P2026-00003 颈部淋巴结', InstitutionName: '第一人民医院',
      StudyDate: '20261122', StudyTime: '093000',
    });
  });

  it('leaves type 2 attributes present and empty when the case does not know, and never cuts an identifier', () => {
    const bare = patientStudyModules(subject({ case: { ...kase, admissionNumber: null, outpatientNumber: ' ', idNumber: 'E1234567', gender: null, inspectionDoctor: null, pathologyNumber: 'P2026-0000000000003' } }), now);
    expect(bare).toMatchObject({ PatientID: '', PatientBirthDate: '', PatientSex: '', ReferringPhysicianName: '', AccessionNumber: '', StudyID: '' });
    expect(bare).not.toHaveProperty('IssuerOfPatientID');
    expect(bare).not.toHaveProperty('OtherPatientIDsSequence');
    // Sex from the resident ID when the case has none.
    expect(patientStudyModules(subject({ case: { ...kase, gender: null } }), now).PatientSex).toBe('F');
    const none = patientStudyModules(subject({ case: null, hospital: null }), now);
    expect(none).toMatchObject({ PatientName: '', PatientID: '', PatientBirthDate: '', PatientSex: '', AccessionNumber: '', StudyID: '' });
    expect(none).not.toHaveProperty('StudyDescription');
  });

  it('dates the study by the case\'s registration', () => {
    const registered = new Date(2026, 10, 2, 8, 15, 0).toISOString();
    expect(patientStudyModules(subject({ case: { ...kase, registrationAt: registered } }), now)).toMatchObject({ StudyDate: '20261102', StudyTime: '081500' });
  });

  it('names the glass slide as the container and its block as the specimen, stained H&E in codes', () => {
    const m = specimenModule(subject()) as Record<string, any>;
    expect(m.ContainerIdentifier).toBe('P2026-00003-A-2');
    expect(m.IssuerOfTheContainerIdentifierSequence).toEqual([{ LocalNamespaceEntityID: 'H001' }]);
    const [specimen] = m.SpecimenDescriptionSequence;
    expect(specimen).toMatchObject({ SpecimenIdentifier: 'P2026-00003-A', SpecimenShortDescription: '颈部淋巴结' });
    expect(specimen.SpecimenUID).toMatch(/^2\.25\.\d+$/);
    const items = specimen.SpecimenPreparationSequence[0].SpecimenPreparationStepContentItemSequence;
    expect(items.map((i: any) => i.ConceptCodeSequence?.[0].CodeMeaning ?? i.TextValue)).toEqual(['P2026-00003-A', 'Staining', 'hematoxylin stain', 'water soluble eosin stain']);
    // Another stain is named as the glass slide names it; a printed label is the container's identifier.
    const ihc = specimenModule(subject({ glassSlide: { block: 'B', section: 1, stain: 'Ki-67', label: 'SL-0003-B1', specimenName: '淋巴结（右）' } })) as Record<string, any>;
    expect(ihc.ContainerIdentifier).toBe('SL-0003-B1');
    expect(ihc.SpecimenDescriptionSequence[0].SpecimenShortDescription).toBe('淋巴结（右）');
    expect(ihc.SpecimenDescriptionSequence[0].SpecimenPreparationSequence[0].SpecimenPreparationStepContentItemSequence[2]).toMatchObject({ ValueType: 'TEXT', TextValue: 'Ki-67' });
  });

  it('falls back to the case, then to the slide, for what no glass slide records', () => {
    const caseOnly = specimenModule(subject({ glassSlide: null })) as Record<string, any>;
    expect(caseOnly.ContainerIdentifier).toBe('DEMO-3 淋巴结');
    expect(caseOnly.SpecimenDescriptionSequence[0]).toMatchObject({ SpecimenIdentifier: 'P2026-00003', SpecimenPreparationSequence: [] });
    const unbound = specimenModule(subject({ case: null, glassSlide: null, hospital: null })) as Record<string, any>;
    expect(unbound).toMatchObject({ ContainerIdentifier: 'DEMO-3 淋巴结', IssuerOfTheContainerIdentifierSequence: [] });
    expect(unbound.SpecimenDescriptionSequence[0].SpecimenIdentifier).toBe('DEMO-3 淋巴结');
  });

  it('writes the label\'s lines and barcode, empty when the slide is no glass slide of a case', () => {
    expect(slideLabelModule(subject())).toEqual({ LabelText: 'P2026-00003 A-2 HE', BarcodeValue: 'P2026-00003-A-2' });
    expect(slideLabelModule(subject({ glassSlide: { block: 'A', section: 2, stain: 'HE', label: 'SL-X', specimenName: null } })).BarcodeValue).toBe('SL-X');
    expect(slideLabelModule(subject({ glassSlide: null }))).toEqual({ LabelText: '', BarcodeValue: '' });
  });
});
