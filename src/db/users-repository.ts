import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from './schema.js';
import { nowTimestamp, systemClock, type Clock } from '../time.js';
import { prepared } from './prepared.js';

export type User = Selectable<UsersTable>;

export class UsersRepository {
  /** Every API request runs this: compiled once. */
  private readonly byKeyHash;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock = systemClock,
  ) {
    this.byKeyHash = prepared(db, db.selectFrom('users').selectAll().where('api_key_hash', '=', ''));
  }

  async findByKeyHash(keyHash: string): Promise<User | undefined> {
    return (await this.byKeyHash(keyHash))[0];
  }

  findById(id: number): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Throws a unique violation when the e-mail is taken (see db/errors.ts). */
  create(email: string, keyHash: string): Promise<User> {
    const now = nowTimestamp(this.clock);
    return this.db
      .insertInto('users')
      .values({ email, api_key_hash: keyHash, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Sets the dashboard password's hash; false when there is no such account. */
  async setPasswordHash(id: number, passwordHash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: nowTimestamp(this.clock) })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Replaces the key hash of an account by id (the dashboard's rotation). */
  async rotateKeyById(id: number, keyHash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ api_key_hash: keyHash, updated_at: nowTimestamp(this.clock) })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Replaces the key hash; false when there is no such account. */
  async rotateKey(email: string, keyHash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ api_key_hash: keyHash, updated_at: nowTimestamp(this.clock) })
      .where('email', '=', email)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
