// Digest bookkeeping (digests/digest-service.ts): which websites are due a period's digest, who
// receives it, and the record that it was queued (one per website, rhythm and period).
import type { Kysely } from 'kysely';
import { nowTimestamp, systemClock, type Clock } from '../time.js';
import type { Database } from './schema.js';
import type { WebsiteRow } from './websites-repository.js';

/** A website with e-mail reports and its account's address. */
export interface DigestTarget {
  website: WebsiteRow;
  recipient: string;
}

export class DigestsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Websites with `email` = 1 since `periodStartedAt` or before (the first digest covers the
   * first whole period after e-mail was turned on) that have no digest of this period yet.
   */
  async due(period: string, periodStart: string, periodStartedAt: string): Promise<{ id: number; userId: number }[]> {
    const rows = await this.db
      .selectFrom('websites as w')
      .select(['w.id', 'w.user_id'])
      .where('w.email', '=', 1)
      .where('w.email_since', 'is not', null)
      .where('w.email_since', '<=', periodStartedAt)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('digests as d')
              .select('d.website_id')
              .whereRef('d.website_id', '=', 'w.id')
              .where('d.period', '=', period)
              .where('d.period_start', '=', periodStart),
          ),
        ),
      )
      .orderBy('w.id')
      .execute();
    return rows.map((r) => ({ id: r.id, userId: r.user_id }));
  }

  /** Records that a period's digest was queued; false when it was already. */
  async record(websiteId: number, period: string, periodStart: string): Promise<boolean> {
    const result = await this.db
      .insertInto('digests')
      .values({ website_id: websiteId, period, period_start: periodStart, created_at: nowTimestamp(this.clock) })
      .onConflict((oc) => oc.columns(['website_id', 'period', 'period_start']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** A website (any account) and its account's e-mail; undefined when it no longer exists. */
  async target(websiteId: number): Promise<DigestTarget | undefined> {
    const row = await this.db
      .selectFrom('websites')
      .innerJoin('users', 'users.id', 'websites.user_id')
      .selectAll('websites')
      .select('users.email as recipient')
      .where('websites.id', '=', websiteId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { recipient, ...website } = row;
    return { website, recipient };
  }

  /** Every website with `email` = 1 and its account's e-mail, by id. */
  async withEmail(): Promise<DigestTarget[]> {
    const rows = await this.db
      .selectFrom('websites')
      .innerJoin('users', 'users.id', 'websites.user_id')
      .selectAll('websites')
      .select('users.email as recipient')
      .where('websites.email', '=', 1)
      .orderBy('websites.id')
      .execute();
    return rows.map(({ recipient, ...website }) => ({ website, recipient }));
  }
}
