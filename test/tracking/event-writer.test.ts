// The group-commit writer (tracking/event-writer.ts) against a store whose commits the test
// settles by hand: when a batch leaves, what it holds, and that no caller's promise settles
// before its own batch has.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BatchFailure } from '../../src/db/batch-isolation.js';
import type { EventStore } from '../../src/db/event-store.js';
import { EventWriter, MAX_BATCH, PIPELINED_BATCH } from '../../src/tracking/event-writer.js';
import { SAMPLE_FIELDS } from '../../src/model/dimensions.js';
import type { StoredEvent } from '../../src/model/rollup.js';

/**
 * A store that keeps each batch and its commit open until the test settles it: committed whole,
 * committed without some of its events (`refuse`, by index), or failed whole.
 */
class HeldStore implements EventStore {
  readonly batches: { pages: string[]; commit(): void; refuse(failures: BatchFailure[]): void; fail(error: Error): void }[] = [];
  constructor(readonly batchesAtOnce?: number) {}
  record(events: StoredEvent[]): Promise<BatchFailure[]> {
    return new Promise<BatchFailure[]>((settle, fail) =>
      this.batches.push({ pages: events.map((e) => e.page), commit: () => settle([]), refuse: settle, fail }),
    );
  }
}

const event = (page: string): StoredEvent => ({
  ...SAMPLE_FIELDS,
  websiteId: 1,
  at: 0,
  createdAt: '2026-11-26 00:00:00.000000',
  day: '2026-11-26',
  hour: '00',
  name: 'pageview',
  page,
  visitor: 'v',
  referrer: null,
  source: null,
  campaign: null,
  browser: 'Chrome',
  os: 'Linux',
  device: 'desktop',
  country: 'FR',
  continent: 'EU',
  city: null,
  language: null,
  resolution: null,
  props: null,
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const pages = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `/${from + i}`);

/** Writes `names` and notes which promises have settled, and how. */
function writeAll(writer: EventWriter, names: string[]) {
  const settled = new Map<string, 'ok' | Error>();
  const promises = names.map((name) =>
    writer.write(event(name)).then(
      () => void settled.set(name, 'ok'),
      (error: Error) => void settled.set(name, error),
    ),
  );
  return { settled, all: Promise.all(promises) };
}

describe('EventWriter, one batch at a time (PostgreSQL, in-process SQLite)', () => {
  test('events of one tick commit together; a 202 waits for its commit', async () => {
    const store = new HeldStore();
    const writer = new EventWriter(store);
    const { settled } = writeAll(writer, ['/a', '/b', '/c']);
    assert.equal(store.batches.length, 0, 'the batch leaves after the tick, not with the first event');
    await tick();
    assert.deepEqual(
      store.batches.map((b) => b.pages),
      [['/a', '/b', '/c']],
    );
    await tick();
    assert.equal(settled.size, 0, 'nothing settles before the commit');
    store.batches[0].commit();
    await tick();
    assert.deepEqual([...settled.values()], ['ok', 'ok', 'ok']);
  });

  test('events that arrive while a batch commits wait, then go as one batch', async () => {
    const store = new HeldStore();
    const writer = new EventWriter(store);
    writeAll(writer, ['/a']);
    await tick();
    const later = writeAll(writer, pages(0, 40));
    await tick();
    assert.equal(store.batches.length, 1, 'no second batch while the first commits');
    store.batches[0].commit();
    await tick();
    assert.deepEqual(
      store.batches.map((b) => b.pages.length),
      [1, 40],
    );
    store.batches[1].commit();
    await later.all;
  });

  test('a failed commit fails its own events only', async () => {
    const store = new HeldStore();
    const writer = new EventWriter(store);
    const first = writeAll(writer, ['/a', '/b']);
    await tick();
    const second = writeAll(writer, ['/c']);
    store.batches[0].fail(new Error('disk full'));
    await tick();
    assert.deepEqual(
      [...first.settled.values()].map((v) => (v instanceof Error ? v.message : v)),
      ['disk full', 'disk full'],
    );
    assert.equal(second.settled.size, 0);
    store.batches[1].commit();
    await second.all;
    assert.equal(second.settled.get('/c'), 'ok');
  });

  test('an event the store could not store fails alone; the rest of its batch is acknowledged', async () => {
    const store = new HeldStore();
    const writer = new EventWriter(store);
    const { settled, all } = writeAll(writer, ['/a', '/refused', '/b', '/c']);
    await tick();
    assert.equal(store.batches.length, 1);
    store.batches[0].refuse([{ index: 1, error: new Error('refused by a trigger') }]);
    await all;
    assert.deepEqual(
      ['/a', '/refused', '/b', '/c'].map((page) => {
        const outcome = settled.get(page);
        return outcome instanceof Error ? outcome.message : outcome;
      }),
      ['ok', 'refused by a trigger', 'ok', 'ok'],
    );
    await writer.flush();
  });

  test('a store that throws instead of rejecting fails that batch, and the next batch still goes', async () => {
    let calls = 0;
    const writer = new EventWriter({
      record: () => {
        calls += 1;
        if (calls === 1) throw new Error('no thread');
        return Promise.resolve([]);
      },
    });
    await assert.rejects(writer.write(event('/a')), /no thread/);
    await writer.write(event('/b'));
    assert.equal(calls, 2);
    await writer.flush();
  });

  test(`a batch holds at most ${MAX_BATCH} events`, async () => {
    const store = new HeldStore();
    const writer = new EventWriter(store);
    const { all } = writeAll(writer, pages(0, MAX_BATCH + 20));
    await tick();
    assert.deepEqual(
      store.batches.map((b) => b.pages.length),
      [MAX_BATCH],
    );
    store.batches[0].commit();
    await tick();
    assert.deepEqual(
      store.batches.map((b) => b.pages.length),
      [MAX_BATCH, 20],
    );
    store.batches[1].commit();
    await all;
  });
});

describe('EventWriter, several batches at once (the SQLite write thread)', () => {
  test(`a batch leaves as soon as it holds ${PIPELINED_BATCH} events, before the tick ends`, async () => {
    const store = new HeldStore(4);
    const writer = new EventWriter(store);
    writeAll(writer, pages(0, PIPELINED_BATCH * 2 + 3));
    assert.deepEqual(
      store.batches.map((b) => b.pages),
      [pages(0, PIPELINED_BATCH), pages(PIPELINED_BATCH, PIPELINED_BATCH * 2)],
    );
    await tick();
    assert.deepEqual(
      store.batches.map((b) => b.pages.length),
      [PIPELINED_BATCH, PIPELINED_BATCH, 3],
      'the rest leaves at the end of the tick',
    );
  });

  test('with every slot taken, later events gather into one batch for the first free slot', async () => {
    const store = new HeldStore(2);
    const writer = new EventWriter(store);
    const first = writeAll(writer, pages(0, PIPELINED_BATCH * 2));
    assert.equal(store.batches.length, 2);
    const waiting = writeAll(writer, pages(100, 100 + PIPELINED_BATCH * 3));
    await tick();
    assert.equal(store.batches.length, 2, 'no third batch while two are held');
    // Commits settle their own callers, in any order.
    store.batches[1].commit();
    await tick();
    assert.equal(first.settled.size, PIPELINED_BATCH);
    assert.ok(pages(PIPELINED_BATCH, PIPELINED_BATCH * 2).every((p) => first.settled.get(p) === 'ok'));
    assert.deepEqual(store.batches[2].pages, pages(100, 100 + PIPELINED_BATCH * 3));
    store.batches[0].commit();
    store.batches[2].commit();
    await Promise.all([first.all, waiting.all]);
  });

  test('flush resolves once every event handed over is committed', async () => {
    const store = new HeldStore(4);
    const writer = new EventWriter(store);
    writeAll(writer, pages(0, PIPELINED_BATCH + 1));
    let flushed = false;
    const flush = writer.flush().then(() => {
      flushed = true;
    });
    await tick();
    assert.equal(store.batches.length, 2);
    store.batches[0].commit();
    await tick();
    assert.equal(flushed, false);
    store.batches[1].commit();
    await flush;
    assert.equal(flushed, true);
    await writer.flush(); // nothing pending: at once
  });
});
