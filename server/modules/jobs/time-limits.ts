/**
 * How long one attempt of each job type may run before the runner stops it and fails it with its reason (issue 27
 * finding 6), as seconds in a setting of its own. Generous by default: a whole-slide conversion of a large scan at the
 * lowest CPU priority on a busy 2-core machine takes an hour or more; an ingest hashes 1 GiB and may convert a photo.
 */
export const JOB_TIME_LIMITS = {
  'slides.ingest': { setting: 'JOB_TIME_LIMIT_INGEST_SECONDS', seconds: 3600 },
  'slides.convert': { setting: 'JOB_TIME_LIMIT_CONVERSION_SECONDS', seconds: 6 * 3600 },
  'slides.focus': { setting: 'JOB_TIME_LIMIT_FOCUS_SECONDS', seconds: 3600 },
} as const;

export type LimitedJobType = keyof typeof JOB_TIME_LIMITS;

/** The time limit of each job type in milliseconds, from the environment; a setting that is not a positive number stops the start. */
export function parseJobTimeLimits(env: NodeJS.ProcessEnv): Record<LimitedJobType, number> {
  const out = {} as Record<LimitedJobType, number>;
  for (const [type, { setting, seconds }] of Object.entries(JOB_TIME_LIMITS) as [LimitedJobType, { setting: string; seconds: number }][]) {
    const value = env[setting];
    if (value === undefined || value === '') {
      out[type] = seconds * 1000;
      continue;
    }
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${setting} must be a positive number of seconds, not "${value}"`);
    out[type] = n * 1000;
  }
  return out;
}

/** The default limit of a type, in milliseconds. */
export const defaultTimeLimitMs = (type: LimitedJobType) => JOB_TIME_LIMITS[type].seconds * 1000;
