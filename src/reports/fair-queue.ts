// Waiters grouped by account and served round-robin: each account keeps its own FIFO and the
// accounts take turns, so one account's burst queues behind itself instead of in front of others.

export class FairQueue<T> {
  // The Map's insertion order is the rotation: the front account is asked first, and an account
  // that is served (or told to wait its turn) is re-inserted at the back.
  private readonly byAccount = new Map<string, T[]>();
  private total = 0;

  get size(): number {
    return this.total;
  }

  sizeOf(account: string): number {
    return this.byAccount.get(account)?.length ?? 0;
  }

  /** Queues an item at the end of its account's line; a new account joins the back of the rotation. */
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

  /** Sends an account to the back of the rotation (a no-op when it has nothing queued). */
  moveToBack(account: string): void {
    const items = this.byAccount.get(account);
    if (!items) return;
    this.byAccount.delete(account);
    this.byAccount.set(account, items);
  }

  /**
   * The oldest item of the first account in the rotation that `eligible` accepts; that account
   * moves to the back. Ineligible accounts keep their place, so they are first once they qualify.
   */
  shift(eligible: (account: string) => boolean): { account: string; item: T } | undefined {
    for (const [account, items] of this.byAccount) {
      if (!eligible(account)) continue;
      const item = items.shift()!;
      this.byAccount.delete(account);
      if (items.length > 0) this.byAccount.set(account, items);
      this.total--;
      return { account, item };
    }
    return undefined;
  }
}
