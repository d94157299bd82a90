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

/** The account a job is fair-shared under ('' when it acts for none: pruning, a CLI command). */
export function accountKey(account: number | null | undefined): string {
  return account == null ? '' : String(account);
}

/**
 * The order in which one instance hands a kind's free slot to accounts: the account with the
 * fewest jobs of that kind running here first, then the one served longest ago (never served
 * first), so accounts take turns (round-robin); within an account, its oldest due job.
 */
export class FairShare {
  private readonly running = new Map<string, number>();
  private readonly served = new Map<string, number>();
  private turn = 0;

  /** An account's job of this kind started here. */
  started(account: string): void {
    this.running.set(account, (this.running.get(account) ?? 0) + 1);
    this.served.set(account, ++this.turn);
  }

  /** An account's job of this kind ended here. */
  ended(account: string): void {
    const left = (this.running.get(account) ?? 1) - 1;
    if (left > 0) this.running.set(account, left);
    else this.running.delete(account);
  }

  /** Jobs of this kind running here. */
  get total(): number {
    let n = 0;
    for (const count of this.running.values()) n += count;
    return n;
  }

  /** The accounts known here with their running count and last turn (for the fetch's ORDER BY). */
  standings(): { account: string; running: number; served: number }[] {
    // Accounts not served for many turns and running nothing sort like new ones: forget them,
    // so the map stays as small as the set of recently active accounts.
    if (this.served.size > 1000) {
      for (const [account, at] of this.served)
        if (!this.running.has(account) && this.turn - at > 1000) this.served.delete(account);
    }
    return [...this.served].map(([account, served]) => ({ account, running: this.running.get(account) ?? 0, served }));
  }

  /** Of the accounts that have due jobs (with their oldest due time), the one whose turn it is. */
  pick(candidates: readonly { account: string; oldest: number }[]): string | undefined {
    let best: { account: string; key: [number, number, number] } | undefined;
    for (const { account, oldest } of candidates) {
      const key: [number, number, number] = [this.running.get(account) ?? 0, this.served.get(account) ?? -1, oldest];
      if (
        !best ||
        key[0] < best.key[0] ||
        (key[0] === best.key[0] && (key[1] < best.key[1] || (key[1] === best.key[1] && key[2] < best.key[2])))
      ) {
        best = { account, key };
      }
    }
    return best?.account;
  }
}
