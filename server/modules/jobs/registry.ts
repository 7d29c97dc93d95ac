import type { JobType } from './job-type.js';

export { PermanentJobError, type JobContext, type JobType } from './job-type.js';

/**
 * The job types one runner runs, by name: modules register theirs (server/modules/job-types.ts lists them, as
 * resource-hooks.ts lists the resource hooks), and this module knows none of them. A name registered twice is a
 * mistake that would make one job run the other's code, so it throws instead of overwriting.
 */
export class JobRegistry {
  readonly #types = new Map<string, JobType<unknown>>();

  register<P>(type: JobType<P>): this {
    if (this.#types.has(type.type)) throw new Error(`job type "${type.type}" is already registered`);
    this.#types.set(type.type, type as JobType<unknown>);
    return this;
  }

  /** What the runner takes, in the order registered (the order it looks for work in). */
  types(): JobType<unknown>[] {
    return [...this.#types.values()];
  }
}
