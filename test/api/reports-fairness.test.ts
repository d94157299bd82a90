// One account's burst of creates must not starve another account: the analysis slots are shared
// by account. The page server holds every page until the test releases it, oldest first, so the
// order in which creates are answered is the order the pool admitted them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { testApp } from '../helpers/app.js';
import { goodPage, startSite } from '../helpers/pages.js';
import { until } from '../helpers/wait.js';

async function burstThenSingle(env: Record<string, string>): Promise<string[]> {
  const t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true', ANALYSIS_CONCURRENCY: '8', ...env });
  const held: { who: string; release: () => void }[] = [];
  const site = await startSite({
    '/page.html': (req, res) => {
      const who = new URL(req.url ?? '/', 'http://page.test').searchParams.get('who') ?? '?';
      held.push({
        who,
        release: () => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(goodPage());
        },
      });
    },
  });
  const answered: { who: string; res: LightMyRequestResponse }[] = [];
  try {
    const a = await t.account();
    const b = await t.account();
    const create = (key: string, who: string) =>
      t
        .call(key, { method: 'POST', url: '/api/v1/reports', form: { url: `${site.origin}/page.html?who=${who}` } })
        .then((res) => {
          answered.push({ who, res });
        });
    const pool = t.app.analysisPool;

    const burst = Array.from({ length: 20 }, (_, i) => create(a.key, `A${i + 1}`));
    await until(() => pool.active + pool.queued === 20, { what: 'A’s 20 creates are in the pool' });
    const single = create(b.key, 'B');
    await until(() => pool.active + pool.queued === 21, { what: 'B’s create is in the pool' });

    // Release the held pages one at a time, oldest first, each after the previous create is answered.
    while (answered.length < 21) {
      await until(() => held.length > 0 || answered.length === 21, { what: 'a page is requested' });
      const page = held.shift();
      if (!page) break;
      const before = answered.length;
      page.release();
      await until(() => answered.length > before, { what: `the create for ${page.who} is answered` });
    }
    await Promise.all([...burst, single]);
    assert.deepEqual(
      answered.filter((x) => x.res.statusCode !== 201).map((x) => `${x.who}: ${x.res.statusCode} ${x.res.body}`),
      [],
      'every create succeeds (no 503)',
    );
    assert.deepEqual([pool.active, pool.queued], [0, 0]);
    return answered.map((x) => x.who);
  } finally {
    for (const page of held) page.release();
    await t.close();
    await site.close();
  }
}

test('account B’s create is answered before account A’s burst of 20 drains, and nobody gets 503', async () => {
  const order = await burstThenSingle({});
  // A runs at most 6 at once (ANALYSIS_CONCURRENCY 8 − 2), so B takes a free slot at once: it
  // waits for none of A's 14 queued creates (first come, first served, it would wait for all).
  const after = order.slice(order.indexOf('B') + 1).length;
  assert.ok(after >= 13, `B answered with only ${after} of A’s creates after it: ${order.join(' ')}`);
});

test('with no per-account cap, B still waits for one of A’s analyses only, not for A’s queue', async () => {
  const order = await burstThenSingle({ ANALYSIS_CONCURRENCY_PER_ACCOUNT: '8' });
  // A fills all 8 slots; the first to finish hands its slot to B, ahead of A's 12 queued creates.
  const after = order.slice(order.indexOf('B') + 1).length;
  assert.ok(after >= 12, `B answered with only ${after} of A’s creates after it: ${order.join(' ')}`);
});
