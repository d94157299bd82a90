// The engine in worker threads: the same results as in-process, and failures contained in the
// worker (a page that needs too much memory or time fails alone, the pool goes on).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EnginePool } from '../../src/analysis/engine-pool.js';
import { inProcessEngine, type Engine } from '../../src/analysis/engine.js';
import { makeSnapshot } from '../../src/analysis/snapshot.js';
import { DEFAULT_CONFIG } from '../../src/analysis/config.js';
import { FetchError } from '../../src/analysis/errors.js';
import { SAMPLE_HTML } from '../helpers/seed.js';

async function analyse(engine: Engine, html: string, finalUrl = 'https://www.example.com/blue-widgets') {
  const parsed = await engine.parse(html, finalUrl);
  return { declaredIcon: parsed.declaredIcon, ...(await parsed.check(makeSnapshot({ html, finalUrl }), DEFAULT_CONFIG)) };
}

const bigPage = (elements: number) =>
  `<html><head><title>x</title></head><body>${'<div><a href="/p">link</a></div>'.repeat(elements)}</body></html>`;

describe('the engine pool', () => {
  const pools: EnginePool[] = [];
  const pool = (size: number, options = {}) => {
    const p = new EnginePool(size, options);
    pools.push(p);
    return p;
  };
  after(() => Promise.all(pools.map((p) => p.close())));

  test('gives exactly the in-process results, for many pages at once', async () => {
    const engine = pool(2);
    const pages = [SAMPLE_HTML, '<title>a</title><link rel=icon href=/i.png>', bigPage(2000), '<p>no head</p>'];
    const expected = await Promise.all(pages.map((html) => analyse(inProcessEngine, html)));
    const actual = await Promise.all(pages.map((html) => analyse(engine, html)));
    assert.deepEqual(actual, expected);
    assert.equal(actual[1].declaredIcon, 'https://www.example.com/i.png');
  });

  test('a page that needs more memory than a worker may have fails as too_complex; the next page is analysed', async () => {
    const engine = pool(1, { maxHeapMb: 16 });
    await assert.rejects(
      analyse(engine, bigPage(200_000)),
      (error: unknown) => error instanceof FetchError && error.reason === 'too_complex',
    );
    const after = await analyse(engine, SAMPLE_HTML);
    assert.equal(after.results.title.value, 'Blue widgets for sale');
    assert.equal(engine.started, 2, 'the dead worker was replaced');
  });

  test('a job past its deadline fails and its worker is replaced', async () => {
    const engine = pool(1, { jobTimeoutMs: 1 });
    await assert.rejects(
      analyse(engine, bigPage(100_000)),
      (error: unknown) => error instanceof FetchError && error.reason === 'too_complex',
    );
    assert.ok(engine.started >= 1);
  });

  test('a worker left with a large heap takes no new page, finishes the pages it holds, then is replaced', async () => {
    const engine = pool(1, { recycleAboveMb: 1 });
    const snapshot = makeSnapshot({ html: SAMPLE_HTML, finalUrl: 'https://example.com/' });
    const first = await engine.parse(SAMPLE_HTML, 'https://example.com/');
    const second = await engine.parse(SAMPLE_HTML, 'https://example.com/');
    assert.equal(engine.started, 2, 'the second page went to a fresh worker');
    const checked = await first.check(snapshot, DEFAULT_CONFIG);
    assert.equal(checked.results.title.value, 'Blue widgets for sale', 'the retiring worker still checks the page it holds');
    second.discard();
    await assert.rejects(second.check(snapshot, DEFAULT_CONFIG), /discarded|unknown|too large/);
    await analyse(engine, SAMPLE_HTML);
    assert.equal(engine.started, 3);
  });

  test("accounts take turns: another account's page waits for the job in progress, not for a burst", async () => {
    const engine = pool(1);
    await analyse(engine, SAMPLE_HTML); // the worker is up
    const order: string[] = [];
    const page = (who: string, html: string) =>
      engine.parse(html, 'https://example.com/', who).then((p) => {
        order.push(who);
        p.discard();
      });
    const burst = Array.from({ length: 6 }, () => page('A', bigPage(20_000)));
    const single = page('B', SAMPLE_HTML);
    await Promise.all([...burst, single]);
    assert.equal(order.indexOf('B'), 1, `B's page came right after the one in progress: ${order.join(' ')}`);
  });

  test('a closed pool refuses work', async () => {
    const engine = pool(1);
    await engine.close();
    await assert.rejects(engine.parse(SAMPLE_HTML, 'https://example.com/'), /closed/);
  });
});
