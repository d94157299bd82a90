import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from './schema.js';
import type { User } from './users-repository.js';

export type SessionRow = Selectable<SessionsTable>;

/** Dashboard sessions. Times are the API's timestamps (fixed-width UTC), so they compare as text. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(row: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  /** The session and its account, unless it has expired. */
  async findActive(idHash: string, now: string): Promise<{ session: SessionRow; user: User } | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('sessions')
      .select([
        'users.email',
        'users.api_key_hash',
        'users.password_hash',
        'users.created_at as user_created_at',
        'users.updated_at as user_updated_at',
      ])
      .where('sessions.id_hash', '=', idHash)
      .where('sessions.expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    const { email, api_key_hash, password_hash, user_created_at, user_updated_at, ...session } = row;
    return {
      session,
      user: { id: session.user_id, email, api_key_hash, password_hash, created_at: user_created_at, updated_at: user_updated_at },
    };
  }

  /** Slides the expiry of a session in use. */
  async touch(idHash: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
      .where('id_hash', '=', idHash)
      .execute();
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /** Every session of the account (but `keep`, when given). */
  async deleteForUser(userId: number, keep?: string): Promise<void> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keep !== undefined) query = query.where('id_hash', '!=', keep);
    await query.execute();
  }

  async countForUser(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Expired sessions (kept until now for nothing). */
  async deleteExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
