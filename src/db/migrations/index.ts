// The migrations, one file each, applied in name order on both engines (only the identity
// column and a few engine-specific statements differ). Each file exports the name the
// migrations table stores (never renamed: a database already holding it skips the file) and
// `migration(engine)`. A migration is frozen: it imports nothing of the live code but Kysely,
// and carries a copy of any helper it needs, so what it creates never changes under it.
// The list is explicit so the compiler and the CLI bundle see every file; a test holds it
// equal to this folder's files in name order (test/db/migrations-layout.test.ts).
import type { Migration, MigrationProvider } from 'kysely';
import type { DatabaseEngine } from '../schema.js';
import * as m0001 from './0001-accounts-websites-reports.js';
import * as m0002 from './0002-reports-results-uncompressed.js';
import * as m0003 from './0003-report-search-index.js';
import * as m0004 from './0004-analytics.js';
import * as m0005 from './0005-jobs.js';
import * as m0006 from './0006-report-history-monitors.js';
import * as m0007 from './0007-mail.js';
import * as m0008 from './0008-webhooks.js';
import * as m0009 from './0009-crawls.js';
import * as m0010 from './0010-dashboard-sessions.js';
import * as m0011 from './0011-analytics-value-caps.js';
import * as m0012 from './0012-analytics-read-bounds.js';
import * as m0013 from './0013-job-fairness.js';
import * as m0014 from './0014-analytics-props.js';
import * as m0015 from './0015-crawl-page-facts.js';
import * as m0016 from './0016-crawl-links.js';
import * as m0017 from './0017-rendering.js';
import * as m0018 from './0018-crawl-render.js';

interface MigrationModule {
  name: string;
  migration(engine: DatabaseEngine): Migration;
}

/** Every migration, in the order they apply. */
export const MIGRATIONS: readonly MigrationModule[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
];

export function migrationProvider(engine: DatabaseEngine): MigrationProvider {
  return { getMigrations: async () => Object.fromEntries(MIGRATIONS.map((m) => [m.name, m.migration(engine)])) };
}
