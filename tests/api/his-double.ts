import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A patient as the loopback HIS answers it: the fields of server/modules/his/adapter.ts, plus noise a real HIS sends. */
export const HIS_PATIENTS: Record<string, Record<string, unknown>> = {
  MZ7001: {
    patient_name: '钱芳', gender: 'female', age: 38, age_unit: 'year', id_number: '110101198801010048', phone: '13900000007',
    outpatient_number: 'MZ7001', admission_number: null, treat_type: 'clinic', bed_number: null,
    inspection_department: '妇科', inspection_doctor: '赵医生', clinical_diagnosis: '宫颈息肉', internal_ward_code: 'W-17',
  },
  ZY7002: {
    patient_name: 'Li Wei', gender: 'male', age: 71, age_unit: 'year', id_number: null, phone: null,
    outpatient_number: null, admission_number: 'ZY7002', treat_type: 'hospital', bed_number: '5-12',
    inspection_department: 'Urology', inspection_doctor: 'Dr Chen', clinical_diagnosis: 'Prostate nodule',
  },
};

/**
 * The hospital's HIS, outside the app, stood in for on loopback (tests only): `GET /patient?outpatient_number=`
 * or `admission_number=` with the bearer token `his-secret`; `FAIL500` answers 500, `SLOW` never answers in time.
 */
export async function startHisDouble(patients: Record<string, Record<string, unknown>> = HIS_PATIENTS): Promise<{ url: string; requests: { path: string; auth?: string }[]; close(): Promise<void> }> {
  const requests: { path: string; auth?: string }[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://his');
    requests.push({ path: `${url.pathname}${url.search}`, auth: req.headers.authorization });
    const send = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
    if (req.headers.authorization !== 'Bearer his-secret') return send(401, { error: 'unauthorised' });
    if (url.pathname !== '/his/patient') return send(404, { error: 'no route' });
    const number = url.searchParams.get('outpatient_number') ?? url.searchParams.get('admission_number') ?? '';
    if (number === 'FAIL500') return send(500, { error: 'database down' });
    if (number === 'SLOW') return; // never answers: the adapter's timeout gives up
    const patient = patients[number];
    const field = url.searchParams.has('outpatient_number') ? 'outpatient_number' : 'admission_number';
    return patient && patient[field] === number ? send(200, patient) : send(404, { error: 'unknown patient' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/his`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
