import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, WebsitesTable } from './schema.js';
import { containsIgnoringCase } from './like.js';
import { canMatchStoredText } from '../model/text.js';
import { nowTimestamp, systemClock, type Clock } from '../time.js';

export type WebsiteRow = Selectable<WebsitesTable>;

export interface WebsiteListQuery {
  userId: number;
  search: string | null;
  sortBy: 'id' | 'domain';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export type NewWebsite = Omit<WebsiteRow, 'id' | 'email_since' | 'created_at' | 'updated_at'>;
export type WebsiteChanges = Omit<
  Updateable<WebsitesTable>,
  'id' | 'user_id' | 'domain' | 'email_since' | 'created_at' | 'updated_at'
>;

export class WebsitesRepository {
  private writes = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Changes once each write through this repository is visible: a cache of its rows keeps what
   * it read only when the version was the same before and after reading (event collection).
   */
  get version(): number {
    return this.writes;
  }

  async list(q: WebsiteListQuery): Promise<{ total: number; rows: WebsiteRow[] }> {
    if (q.search !== null && !canMatchStoredText(q.search)) return { total: 0, rows: [] };
    let base = this.db.selectFrom('websites').where('user_id', '=', q.userId);
    if (q.search !== null) base = base.where(containsIgnoringCase('domain', q.search));
    const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || q.offset >= total) return { total, rows: [] };
    let rows = base.selectAll().orderBy(q.sortBy, q.sort);
    if (q.sortBy !== 'id') rows = rows.orderBy('id', q.sort); // a stable order across pages
    return { total, rows: await rows.limit(q.limit).offset(q.offset).execute() };
  }

  find(userId: number, id: number): Promise<WebsiteRow | undefined> {
    return this.db.selectFrom('websites').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  /** The website with this id regardless of owner: the public share page decides by privacy. */
  findById(id: number): Promise<WebsiteRow | undefined> {
    return this.db.selectFrom('websites').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async domainTaken(userId: number, domain: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('websites')
      .select('id')
      .where('user_id', '=', userId)
      .where('domain', '=', domain)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Throws a unique violation when the account already has the domain (see db/errors.ts). */
  async create(website: NewWebsite): Promise<WebsiteRow> {
    const now = nowTimestamp(this.clock);
    try {
      return await this.db
        .insertInto('websites')
        .values({ ...website, email_since: website.email === 1 ? now : null, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    } finally {
      this.writes++; // once the write is visible: anything read before may be stale
    }
  }

  async update(userId: number, id: number, changes: WebsiteChanges): Promise<WebsiteRow | undefined> {
    const now = nowTimestamp(this.clock);
    // `email_since` follows `email` in the same statement: set when it becomes 1 (kept while it
    // stays 1), cleared when it becomes 0 or null (digests/: the first digest is for a later period).
    const emailSince =
      changes.email === 1
        ? { email_since: sql<string>`case when email = 1 and email_since is not null then email_since else ${now} end` }
        : changes.email !== undefined
          ? { email_since: null }
          : {};
    try {
      return await this.db
        .updateTable('websites')
        .set({ ...changes, ...emailSince, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    } finally {
      this.writes++;
    }
  }

  async delete(userId: number, id: number): Promise<boolean> {
    try {
      const result = await this.db.deleteFrom('websites').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    } finally {
      this.writes++;
    }
  }

  /**
   * For event collection (any account): the website with this domain created first (lowest id),
   * so another account registering the same domain later cannot take over or switch off the
   * first one's domain-only tracking.
   */
  firstWithDomain(domain: string): Promise<WebsiteRow | undefined> {
    return this.db.selectFrom('websites').selectAll().where('domain', '=', domain).orderBy('id').limit(1).executeTakeFirst();
  }

  async countFor(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('websites')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
