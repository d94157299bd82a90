// The statements the application makes of pg-boss's own tables (pg-boss 10's `job` and
// `archive`): the jobs `rankscope jobs` lists, and the three the queue needs that pg-boss lacks
// (jobs/pg-boss-queue.ts): a fair fetch, a lost lease re-queued at once, a deferral.

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

function checked(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  return schema;
}

export async function listOpenPgBossJobs(db: SqlRunner, schema: string): Promise<PgBossJobRow[]> {
  checked(schema);
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

export interface FetchedPgBossJob {
  id: string;
  name: string;
  data: unknown;
  /** Retries started so far (this one included): the attempt is retryCount + 1. */
  retryCount: number;
  /** The account key the job was fetched under ('' for none). */
  account: string;
}

/**
 * Takes one due job of `types` as pg-boss's own fetch does (state active, started_on, a retry
 * counted), choosing it by turns: the account with the fewest jobs of these types running on this
 * instance first, then the one served longest ago (`standings`; an account absent from them has
 * none running and was never served), then the oldest job. The account is read from `data`.
 */
export async function fetchPgBossJob(
  db: SqlRunner,
  schema: string,
  types: readonly string[],
  standings: readonly { account: string; running: number; served: number }[],
  accountField: string,
): Promise<FetchedPgBossJob | undefined> {
  const s = checked(schema);
  const { rows } = await db.executeSql(
    `WITH standings AS (
       SELECT * FROM unnest($2::text[], $3::int[], $4::bigint[]) AS s(account, running, served)
     ), next AS (
       SELECT j.id, j.name, COALESCE(j.data->>$5, '') AS account
       FROM ${s}.job j
       LEFT JOIN standings st ON st.account = COALESCE(j.data->>$5, '')
       WHERE j.name = ANY($1::text[]) AND j.state < 'active' AND j.start_after < now()
       ORDER BY COALESCE(st.running, 0), COALESCE(st.served, -1), j.created_on, j.id
       LIMIT 1
       FOR UPDATE OF j SKIP LOCKED
     )
     UPDATE ${s}.job j SET
       state = 'active',
       started_on = now(),
       retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
     FROM next
     WHERE j.name = next.name AND j.id = next.id
     RETURNING j.id::text AS id, j.name, j.data, j.retry_count AS "retryCount", next.account`,
    [types, standings.map((x) => x.account), standings.map((x) => x.running), standings.map((x) => x.served), accountField],
  );
  return rows[0] as FetchedPgBossJob | undefined;
}

/**
 * Jobs of `types` active for longer than the lease (their process died or hung) go back to the
 * queue due now, or to failed when they have used every attempt: the retry backoff is for
 * failures, not for a lost lease. How many.
 */
export async function expirePgBossLeases(
  db: SqlRunner,
  schema: string,
  types: readonly string[],
  leaseSeconds: number,
  message: string,
): Promise<number> {
  const s = checked(schema);
  const { rows } = await db.executeSql(
    `WITH expired AS (
       UPDATE ${s}.job SET
         state = CASE WHEN retry_count < retry_limit THEN 'retry'::${s}.job_state ELSE 'failed'::${s}.job_state END,
         start_after = now(),
         completed_on = CASE WHEN retry_count < retry_limit THEN NULL ELSE now() END,
         output = jsonb_build_object('message', $3::text)
       WHERE name = ANY($1::text[]) AND state = 'active' AND started_on < now() - $2::int * interval '1 second'
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM expired`,
    [types, leaseSeconds, message],
  );
  return (rows[0] as { n: number }).n;
}

/**
 * An active job back to the queue until `until` (ms since the epoch), its attempt given back:
 * `created` with no start, so the next fetch does not count a retry.
 */
export async function deferPgBossJob(
  db: SqlRunner,
  schema: string,
  name: string,
  id: string,
  until: number,
  message: string,
): Promise<void> {
  const s = checked(schema);
  await db.executeSql(
    `UPDATE ${s}.job SET state = 'created', started_on = NULL, start_after = to_timestamp($3::double precision / 1000),
       output = jsonb_build_object('message', $4::text)
     WHERE name = $1 AND id = $2::uuid AND state = 'active'`,
    [name, id, until, message],
  );
}
