// Waiters grouped by account and served in turns: each account keeps its own FIFO, and the next
// item comes from the account served least recently. So one account's burst queues behind
// itself instead of in front of others, even when its items arrive one at a time between
// services (a new item of the account just served never jumps ahead of another account's).

export class FairQueue<T> {
  private readonly byAccount = new Map<string, T[]>();
  /** When each account was last served (or sent to the back): a rising counter. */
  private readonly served = new Map<string, number>();
  private tick = 0;
  private total = 0;

  get size(): number {
    return this.total;
  }

  sizeOf(account: string): number {
    return this.byAccount.get(account)?.length ?? 0;
  }

  /** Queues an item at the end of its account's line. */
  push(account: string, item: T): void {
    const items = this.byAccount.get(account);
    if (items) items.push(item);
    else this.byAccount.set(account, [item]);
    this.total++;
  }

  /** Takes out an item that stopped waiting; false when it was not (or no longer) queued. */
  remove(account: string, item: T): boolean {
    const items = this.byAccount.get(account);
    const i = items ? items.indexOf(item) : -1;
    if (i === -1) return false;
    items!.splice(i, 1);
    if (items!.length === 0) this.byAccount.delete(account);
    this.total--;
    return true;
  }

  /** Sends an account behind every other (as if just served), queued or not. */
  moveToBack(account: string): void {
    this.markServed(account);
  }

  /**
   * The oldest item of the least recently served account that `eligible` accepts (accounts
   * never served first, then in the order they queued); that account goes to the back.
   */
  shift(eligible: (account: string) => boolean): { account: string; item: T } | undefined {
    let chosen: string | undefined;
    let chosenAt = Infinity;
    for (const account of this.byAccount.keys()) {
      const at = this.served.get(account) ?? -1;
      if (at < chosenAt && eligible(account)) {
        chosen = account;
        chosenAt = at;
      }
    }
    if (chosen === undefined) return undefined;
    const items = this.byAccount.get(chosen)!;
    const item = items.shift()!;
    if (items.length === 0) this.byAccount.delete(chosen);
    this.total--;
    this.markServed(chosen);
    return { account: chosen, item };
  }

  private markServed(account: string): void {
    this.served.delete(account);
    this.served.set(account, ++this.tick);
    // Bounded memory: forget the oldest turns of accounts with nothing queued.
    if (this.served.size > 10_000) {
      for (const old of this.served.keys()) {
        if (this.served.size <= 5_000) break;
        if (!this.byAccount.has(old)) this.served.delete(old);
      }
    }
  }
}
