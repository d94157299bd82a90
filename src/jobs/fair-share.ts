// Turns between accounts at one kind's job slots (jobs/sqlite-queue.ts, jobs/pg-boss-queue.ts).

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
