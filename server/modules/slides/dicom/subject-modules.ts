import { ageString, fitText, localDateTime, sexCode } from '../../../../src/core/dicomValues.js';
import { residentIdFacts } from '../../../../src/core/residentId.js';
import type { ExportSubject } from './export-subject.js';
import { newUid } from './uids.js';

type Dataset = Record<string, unknown>;
const code = (CodeValue: string, CodingSchemeDesignator: string, CodeMeaning: string) => ({ CodeValue, CodingSchemeDesignator, CodeMeaning });

/** SNOMED CT and DICOM codes the Specimen module names (PS3.16 CID 8101, 8112, TID 8001–8004). */
const MICROSCOPE_SLIDE = code('433466003', 'SCT', 'Microscope slide');
const CONCEPT = {
  specimenIdentifier: code('121041', 'DCM', 'Specimen Identifier'),
  processingType: code('111701', 'DCM', 'Processing type'),
  usingSubstance: code('424361007', 'SCT', 'Using substance'),
};
const STAINING = code('127790008', 'SCT', 'Staining');
/** H&E, as two substances (what the Specimen module's examples and viewers such as Slim expect). */
const HE_SUBSTANCES = [code('12710003', 'SCT', 'hematoxylin stain'), code('36879007', 'SCT', 'water soluble eosin stain')];

/** SH holds 16 characters: an identifier longer than that is not cut (a cut identifier names another case), it is left out. */
const shortString = (v: string | null | undefined) => (v && [...v].length <= 16 ? v : '');

/** The glass slide's own code: its printed label, else what the slide labels carry (cases/labels.ts). */
export function glassSlideCode(subject: ExportSubject): string | null {
  const { case: c, glassSlide: g } = subject;
  if (!c || !g) return null;
  return g.label ?? `${c.pathologyNumber}-${g.block}-${g.section}`;
}

/**
 * The Patient, General Study and Patient Study modules from the case: name (UTF-8 text as the case holds it), the
 * hospital's patient ID (admission number, else outpatient number; the other in Other Patient IDs), birth date and
 * sex from the resident ID number when it is a valid one (a case records only the age), the case's age, the
 * requesting doctor as referring physician, the pathology number as accession number and study ID. The study is
 * dated by the case's registration, else by the export. Type 2 attributes are present and empty when unknown.
 */
export function patientStudyModules(subject: ExportSubject, now: Date): Dataset {
  const c = subject.case;
  const issuer = subject.hospital ? fitText(subject.hospital.code, 64) : '';
  const ids = [c?.admissionNumber, c?.outpatientNumber].map((v) => fitText(v?.trim() ?? '', 64)).filter(Boolean);
  const person = residentIdFacts(c?.idNumber);
  const registered = c?.registrationAt ? new Date(c.registrationAt) : null;
  const studyAt = localDateTime(registered && !Number.isNaN(registered.getTime()) ? registered : now);
  const age = ageString(c?.age, c?.ageUnit);
  const number = c?.pathologyNumber ?? '';
  return {
    PatientName: fitText(c?.patientName?.trim() ?? '', 64),
    PatientID: ids[0] ?? '',
    ...(ids[0] && issuer ? { IssuerOfPatientID: issuer } : {}),
    ...(ids.length > 1 ? { OtherPatientIDsSequence: ids.slice(1).map((PatientID) => ({ PatientID, ...(issuer ? { IssuerOfPatientID: issuer } : {}), TypeOfPatientID: 'TEXT' })) } : {}),
    PatientBirthDate: person?.birthDate ?? '',
    PatientSex: sexCode(c?.gender ?? person?.sex),
    ...(age ? { PatientAge: age } : {}),
    StudyDate: studyAt.date, StudyTime: studyAt.time,
    ReferringPhysicianName: fitText(c?.inspectionDoctor?.trim() ?? '', 64),
    StudyID: shortString(number),
    AccessionNumber: shortString(number),
    ...(c ? { StudyDescription: fitText([number, c.specimenName].filter(Boolean).join(' '), 64) } : {}),
    ...(subject.hospital ? { InstitutionName: fitText(subject.hospital.name, 64) } : {}),
  };
}

/**
 * The Specimen module: the container is the glass slide (its code, or the slide's name when it is bound to no glass
 * slide), the specimen on it the tissue of its wax block (`<number>-<block>`; the case's number, or the slide's name,
 * when that is all that is known), described by the specimen's name and stained as the glass slide says.
 */
export function specimenModule(subject: ExportSubject, specimenUid = newUid()): Dataset {
  const { case: c, glassSlide: g } = subject;
  const container = glassSlideCode(subject) ?? subject.slide.name;
  const specimen = c && g ? `${c.pathologyNumber}-${g.block}` : c?.pathologyNumber ?? subject.slide.name;
  const issuer = subject.hospital ? [{ LocalNamespaceEntityID: fitText(subject.hospital.code, 64) }] : [];
  const description = g?.specimenName ?? c?.specimenName;
  return {
    ContainerIdentifier: fitText(container, 64),
    IssuerOfTheContainerIdentifierSequence: issuer,
    ContainerTypeCodeSequence: [MICROSCOPE_SLIDE],
    SpecimenDescriptionSequence: [{
      SpecimenIdentifier: fitText(specimen, 64),
      IssuerOfTheSpecimenIdentifierSequence: issuer,
      SpecimenUID: specimenUid,
      ...(description ? { SpecimenShortDescription: fitText(description, 64) } : {}),
      SpecimenPreparationSequence: g ? [staining(fitText(specimen, 64), g.stain)] : [],
    }],
  };
}

/** One preparation step (TID 8001): the staining, with H&E coded and any other stain (an IHC marker …) as text. */
function staining(specimen: string, stain: string): Dataset {
  const he = /^h\s*&?\s*e$/i.test(stain.trim());
  const substances = he
    ? HE_SUBSTANCES.map((substance) => ({ ValueType: 'CODE', ConceptNameCodeSequence: [CONCEPT.usingSubstance], ConceptCodeSequence: [substance] }))
    : [{ ValueType: 'TEXT', ConceptNameCodeSequence: [CONCEPT.usingSubstance], TextValue: fitText(stain, 64) }];
  return {
    SpecimenPreparationStepContentItemSequence: [
      { ValueType: 'TEXT', ConceptNameCodeSequence: [CONCEPT.specimenIdentifier], TextValue: specimen },
      { ValueType: 'CODE', ConceptNameCodeSequence: [CONCEPT.processingType], ConceptCodeSequence: [STAINING] },
      ...substances,
    ],
  };
}

/** The Slide Label module of a LABEL instance: what the glass slide's label says (cases/labels.ts prints these lines) and its barcode. */
export function slideLabelModule(subject: ExportSubject): Dataset {
  const { case: c, glassSlide: g } = subject;
  return {
    LabelText: c && g ? [c.pathologyNumber, `${g.block}-${g.section}`, g.stain].join(' ') : '',
    BarcodeValue: glassSlideCode(subject) ?? '',
  };
}
