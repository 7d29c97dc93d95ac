/** What the job tests share: a runner logger that says nothing, and a wait for a condition the runner makes true. */
export const quiet = { info() {}, warn() {}, error() {} };

export const until = async (check: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};
