/**
 * The living department's cases as data (demo-department.ts writes them): about three months of a pathology lab,
 * worked out from a clock and a fixed pseudo-random sequence, so the same clock always gives the same department.
 * Pure: no database, no files.
 */
import { mulberry32 } from '../../modules/slides/demo-slide/random.js';

export const DAY_MS = 24 * 3600 * 1000;

/** Where a planned case stands now. Every phase and report step of the lab, oldest work furthest on. */
export type PlannedStage =
  | 'registration' | 'sample' | 'dehydration' | 'embeded' | 'cut' | 'stain' | 'cover'
  | 'to_allot' | 'to_first' | 'draft' | 'to_audit' | 'to_sign' | 'returned' | 'signed' | 'printed' | 'sent';

export interface PlannedCase {
  hospital: 'H001' | 'H002';
  pathology_number: string;
  case_type: 'routine' | 'frozen' | 'cell';
  patient_name: string;
  gender: 'male' | 'female';
  age: number;
  specimen: SpecimenKind;
  stage: PlannedStage;
  urgent: boolean;
  /** Registered at; every later step follows at fixed offsets from it (demo-department.ts STEP_HOURS). */
  registered: Date;
  blocks: number;
  /** An accepted supplementary report (IHC) on a sent case. */
  supplement: boolean;
  /** Requested by the demo clinician (a registered application of theirs). */
  requested: boolean;
  /** One specimen of the case was refused at receipt and a second one sent. */
  rejectedSpecimen: boolean;
}

export interface SpecimenKind {
  name: string;
  department: string;
  clinical: string;
  gross: string;
  microscopic: string;
  diagnosis: string;
}

const SPECIMENS: SpecimenKind[] = [
  { name: '胃窦黏膜活检', department: '消化内科', clinical: '慢性胃炎', gross: '灰白色碎组织3块，直径0.2–0.3 cm，全取。', microscopic: '胃窦黏膜腺体减少，间质淋巴细胞、浆细胞浸润，可见肠上皮化生。', diagnosis: '（胃窦）慢性萎缩性胃炎伴肠上皮化生（中度）。' },
  { name: '结肠息肉', department: '胃肠外科', clinical: '结肠息肉', gross: '息肉样组织1枚，大小0.8×0.6×0.5 cm，切面灰白，全取。', microscopic: '腺体增生，排列拥挤，细胞核呈笔杆状，轻度异型。', diagnosis: '（乙状结肠）管状腺瘤，低级别上皮内瘤变。' },
  { name: '乳腺肿物', department: '乳腺外科', clinical: '乳腺肿物', gross: '灰白灰黄组织1块，大小3×2.5×2 cm，切面见一结节，直径1.5 cm，界清。', microscopic: '纤维组织及腺管增生，腺管受压呈裂隙状，上皮无异型。', diagnosis: '（左乳）纤维腺瘤。' },
  { name: '甲状腺结节', department: '甲乳外科', clinical: '甲状腺结节', gross: '甲状腺组织1块，大小2×1.5×1 cm，切面见灰白结节，直径0.6 cm。', microscopic: '肿瘤细胞呈乳头状排列，核呈毛玻璃样，可见核沟及核内包涵体。', diagnosis: '（右甲状腺）甲状腺乳头状癌（微小癌），直径0.6 cm。' },
  { name: '子宫内膜', department: '妇科', clinical: '异常子宫出血', gross: '灰红色碎组织一堆，大小1.5×1×0.5 cm，全取。', microscopic: '子宫内膜腺体呈增生期改变，间质细胞丰富。', diagnosis: '（宫腔）增生期子宫内膜。' },
  { name: '胆囊', department: '肝胆外科', clinical: '胆囊结石', gross: '胆囊1枚，长7 cm，壁厚0.3 cm，腔内见结石数枚。', microscopic: '胆囊黏膜皱襞增生，壁内见罗-阿窦及慢性炎细胞浸润。', diagnosis: '（胆囊）慢性胆囊炎伴胆囊结石。' },
  { name: '皮肤肿物', department: '皮肤科', clinical: '皮肤肿物', gross: '梭形皮肤组织1块，大小1.2×0.6×0.4 cm，表面见黑褐色丘疹。', microscopic: '表皮下真皮内见痣细胞巢，无异型。', diagnosis: '（背部）皮内痣。' },
  { name: '颈部淋巴结', department: '头颈外科', clinical: '颈部淋巴结肿大', gross: '淋巴结1枚，大小1.5×1×0.8 cm，切面灰白。', microscopic: '淋巴结结构存在，淋巴滤泡增生，窦组织细胞增生。', diagnosis: '（颈部）淋巴结反应性增生。' },
];

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '周', '吴', '徐', '孙', '马', '朱', '胡', '郭', '何', '林', '高', '罗'];
const GIVEN = ['建国', '秀英', '志强', '丽华', '海燕', '文博', '晓明', '桂兰', '国平', '婷婷', '永红', '子涵', '春梅', '浩然', '玉珍', '俊杰'];

/** The youngest cases, newest first: one at every step the lab has, so every work list and tab has a row. */
const RECENT: PlannedStage[] = [
  'registration', 'registration', 'sample', 'sample', 'dehydration', 'embeded', 'cut', 'stain', 'cover',
  'to_allot', 'to_allot', 'to_first', 'draft', 'to_first', 'to_audit', 'returned', 'to_audit', 'to_sign', 'to_sign', 'to_first',
];

/** A fixed sequence of numbers in [0, 1): the demo slides' PRNG, so the same seed gives the same department. */
export const sequence = mulberry32;

/**
 * `count` cases of `hospital` registered over the `days` before `now`, newest first: the newest walk through RECENT
 * (registered today back to about six days ago, so the oldest open ones are overdue), the rest signed, most of them
 * printed and sent. Numbers continue after the base demo's (P…-00001 to -00003): from 101 per kind and year.
 */
export function planDepartment(now: Date, hospital: PlannedCase['hospital'], count: number, days: number, seed: number): PlannedCase[] {
  const next = sequence(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const counters = new Map<string, number>();
  const out: PlannedCase[] = [];
  for (let i = 0; i < count; i++) {
    const recent = i < RECENT.length;
    // Recent ones about 7 hours apart, the others evenly over the rest of the period; registrations 08:00–17:00 local-ish.
    const ageMs = recent ? i * 7.5 * 3600 * 1000 : (6 + ((i - RECENT.length) * (days - 6)) / Math.max(1, count - RECENT.length)) * DAY_MS;
    const registered = new Date(now.getTime() - ageMs - Math.floor(next() * 3600) * 1000);
    const roll = next();
    const stage: PlannedStage = recent ? RECENT[i] : roll < 0.12 ? 'signed' : roll < 0.25 ? 'printed' : 'sent';
    const case_type = i % 11 === 5 ? 'frozen' : i % 9 === 4 ? 'cell' : 'routine';
    const specimen = case_type === 'cell'
      ? { name: '宫颈液基细胞', department: '妇科', clinical: '宫颈癌筛查', gross: '液基细胞标本1瓶。', microscopic: '鳞状上皮细胞形态未见明显异常。', diagnosis: '未见上皮内病变或恶性病变（NILM）。' }
      : pick(SPECIMENS);
    const prefix = case_type === 'frozen' ? 'F' : case_type === 'cell' ? 'C' : 'P';
    const year = registered.getUTCFullYear();
    const key = `${prefix}${year}`;
    const n = (counters.get(key) ?? 100) + 1;
    counters.set(key, n);
    const gender = specimen.department === '妇科' || specimen.department === '乳腺外科' ? 'female' : next() < 0.5 ? 'male' : 'female';
    out.push({
      hospital, pathology_number: `${prefix}${year}-${String(n).padStart(5, '0')}`, case_type, gender,
      patient_name: `${pick(SURNAMES)}${pick(GIVEN)}`, age: 18 + Math.floor(next() * 65), specimen, stage,
      urgent: case_type === 'frozen' || next() < 0.1, registered, blocks: case_type === 'cell' ? 1 : 1 + Math.floor(next() * 3),
      supplement: stage === 'sent' && i % 7 === 3,
      requested: specimen.department === '消化内科' || i % 6 === 1,
      rejectedSpecimen: i % 23 === 8,
    });
  }
  return out;
}

const ORDER: PlannedStage[] = ['registration', 'sample', 'dehydration', 'embeded', 'cut', 'stain', 'cover', 'to_allot', 'to_first', 'draft', 'returned', 'to_audit', 'to_sign', 'signed', 'printed', 'sent'];

/** True when a case at `stage` has got at least as far as `step`. */
export const reached = (stage: PlannedStage, step: PlannedStage) => ORDER.indexOf(stage) >= ORDER.indexOf(step);

/** Hours after registration at which each step was done (a routine case signs out in a little over two days). */
export const STEP_HOURS = {
  receive: 1, sample: 4, dehydration: 18, embeded: 22, cut: 24, stain: 26, cover: 27, distribute: 29,
  create: 32, submit: 36, return: 40, approve: 44, sign: 50, print: 52, send: 53, supplement: 120, accept: 126,
} as const;

/** The time of `step` for a case, never later than a minute before `now`. */
export function stepAt(c: PlannedCase, step: keyof typeof STEP_HOURS, now: Date): string {
  const t = Math.min(c.registered.getTime() + STEP_HOURS[step] * 3600_000, now.getTime() - 60_000);
  return new Date(t).toISOString();
}

