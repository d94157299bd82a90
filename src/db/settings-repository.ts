import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The stored value, or `make()` stored now. Instances starting together on one PostgreSQL
   * may both try: the first insert wins and everyone reads it back.
   */
  async getOrCreate(key: string, make: () => string): Promise<string> {
    const existing = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    if (existing) return existing.value;
    await this.db
      .insertInto('settings')
      .values({ key, value: make() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return row.value;
  }
}
