// `rankscope jobs` lists every job not completed and the failed ones: type, state, attempts,
// last error (docs/monitors-and-mail.md).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { migrateToLatest, type DatabaseHandle } from '../../src/db/connection.js';
import { JobsRepository } from '../../src/db/jobs-repository.js';
import { silentLog } from '../../src/jobs/log.js';
import { splitSlots } from '../../src/model/job-kinds.js';
import { openJobQueue } from '../../src/jobs/open-queue.js';
import type { JobQueue } from '../../src/jobs/queue.js';
import { systemClock } from '../../src/time.js';
import { type ProcessDatabase, processDatabase } from '../helpers/database.js';
import { runCli } from '../helpers/spawn.js';

let pdb: ProcessDatabase;
let handle: DatabaseHandle;
let queue: JobQueue;

before(async () => {
  pdb = await processDatabase();
  handle = await pdb.open();
  await migrateToLatest(handle);
  queue = openJobQueue(
    handle,
    new JobsRepository(handle.db),
    { leaseSeconds: 60, slots: splitSlots(4) },
    { clock: systemClock, log: silentLog },
  );
});
after(async () => {
  await queue.stop();
  await handle.close();
  await pdb.cleanup();
});

test('rankscope jobs: nothing, then a queued job and a failed one with its error', async () => {
  const empty = await runCli(['jobs'], { DATABASE_URL: pdb.databaseUrl });
  assert.equal(empty.code, 0, empty.stderr);
  assert.equal(empty.stdout, 'No jobs are queued, running or failed.\n');

  queue.register(
    't.broken',
    async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    },
    { kind: 'monitor', retryLimit: 0, retryDelaySeconds: 0, retryBackoff: false },
  );
  queue.register('t.done', async () => {}, { kind: 'monitor' });
  queue.register('t.later', async () => {}, { kind: 'monitor' });
  await queue.send('t.broken', {});
  await queue.send('t.done', {});
  await queue.send('t.later', {}, { startAfter: Date.now() + 3_600_000 });
  await queue.drain();

  const listed = await runCli(['jobs'], { DATABASE_URL: pdb.databaseUrl });
  assert.equal(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2, listed.stdout);
  assert.match(
    lines.find((l) => l.startsWith('t.broken'))!,
    /^t\.broken\s+failed\s+1 attempt\s+\S+Z\s+connect ECONNREFUSED 127\.0\.0\.1:25$/,
  );
  assert.match(lines.find((l) => l.startsWith('t.later'))!, /^t\.later\s+queued\s+0 attempts\s+\S+Z$/);
});
