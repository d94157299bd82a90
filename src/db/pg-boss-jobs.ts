// The one query the application makes of pg-boss's own tables: the jobs `rankscope jobs` lists
// (everything not completed, and the failed ones, archived or not).

export interface PgBossJobRow {
  id: string;
  name: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  retry_count: number;
  error: string | null;
  start_after: Date;
  started_on: Date | null;
  created_on: Date;
}

interface SqlRunner {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export async function listOpenPgBossJobs(db: SqlRunner, schema: string): Promise<PgBossJobRow[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const columns = `id::text as id, name, state::text as state, retry_count, output->>'message' as error,
    start_after, started_on, created_on`;
  const { rows } = await db.executeSql(
    `select ${columns} from ${schema}.job where state <> 'completed'
     union all
     select ${columns} from ${schema}.archive where state = 'failed'
     order by created_on, id`,
  );
  return rows as PgBossJobRow[];
}
