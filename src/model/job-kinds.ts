// What kind of work a job is. Each kind has job slots of its own (JOB_CONCURRENCY split between
// them), so a kind that is backed up (deliveries to a receiver that never answers, a hundred
// crawls) never holds the slots another kind's jobs need. Every job type registers its kind.

export const JOB_KINDS = ['webhook', 'mail', 'monitor', 'crawl'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Jobs of each kind one instance runs at once. */
export type JobSlots = Record<JobKind, number>;

/** JOB_CONCURRENCY may not go below this: one slot per kind. */
export const MIN_JOB_CONCURRENCY = JOB_KINDS.length;

/**
 * Each kind's share of JOB_CONCURRENCY: crawl pages are the bulk of the work (every running
 * crawl has CRAWL_CONCURRENCY page workers), webhook deliveries and monitor runs wait on other
 * servers, mail is a few SMTP exchanges an hour per account. 8 slots: 2, 1, 2, 3.
 */
const SHARES: JobSlots = { webhook: 0.25, mail: 0.125, monitor: 0.25, crawl: 0.375 };

/** `total` slots split by SHARES, at least one per kind; what rounding leaves goes to crawls. */
export function splitSlots(total: number): JobSlots {
  if (!Number.isInteger(total) || total < MIN_JOB_CONCURRENCY) {
    throw new RangeError(`job slots must be an integer of at least ${MIN_JOB_CONCURRENCY}, got ${total}`);
  }
  const slots = { webhook: 0, mail: 0, monitor: 0, crawl: 0 };
  for (const kind of JOB_KINDS) slots[kind] = Math.max(1, Math.floor(total * SHARES[kind]));
  slots.crawl += total - JOB_KINDS.reduce((sum, kind) => sum + slots[kind], 0);
  return slots;
}
