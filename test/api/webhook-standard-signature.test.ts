// Deliveries carry the Standard Webhooks headers, checked here by the `standardwebhooks` package
// (a receiver nobody here wrote): it verifies them given the base64 of the secret, and refuses a
// captured delivery replayed more than 5 minutes after its attempt.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { fixedClock } from '../../src/time.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { usingPostgres } from '../helpers/database.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

/** The headers as a receiver's framework hands them over (one string each). */
const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));

describe('webhook deliveries: Standard Webhooks signatures', () => {
  // The library checks timestamps against the real time, so this clock starts at the real time
  // less 6 minutes: the first attempt is one captured then and replayed now.
  const clock = fixedClock(Date.now() - 6 * 60_000);
  let t: TestApp;
  let receiver: Receiver;
  let key: string;
  let accountId: number;
  let secret: string;

  before(async () => {
    t = await testApp({ ALLOW_PRIVATE_ADDRESSES: 'true' }, { clock });
    receiver = await startReceiver();
    ({ key, id: accountId } = await t.account());
    const res = await t.call(key, {
      method: 'POST',
      url: '/api/v1/webhooks',
      form: { url: `${receiver.origin}/hook`, events: 'report.deleted' },
    });
    assert.equal(res.statusCode, 201, res.body);
    secret = res.json().data.secret;
    // The first attempt fails, so the event is sent again after the backoff.
    receiver.answer('/hook', (count) => (count === 1 ? 500 : 204));
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('each attempt is signed with its own time; a replay older than 5 minutes is refused, a fresh one verifies', async () => {
    await t.services.events.publish(accountId, 'report.deleted', { id: 42 });
    await t.services.jobs.drain();
    // The retry, 6 minutes on (the clock is now the real time): the queue's backoff has passed.
    clock.advance(6 * 60_000);
    if (usingPostgres) {
      await sql.raw(`update ${t.db.schema}_jobs.job set start_after = now() where state = 'retry'`).execute(t.db.handle.db);
    }
    await t.services.jobs.drain();
    const [old, fresh] = receiver.at('/hook');
    assert.ok(old && fresh, 'two attempts');

    const verifier = new Webhook(Buffer.from(secret, 'utf8').toString('base64'));
    for (const attempt of [old, fresh]) {
      assert.equal(attempt.headers['webhook-id'], attempt.headers['x-rankscope-delivery'], 'webhook-id is the delivery id');
      assert.match(String(attempt.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
      assert.ok(attempt.headers['x-rankscope-signature'], 'the original signature stays');
    }
    assert.equal(old.headers['webhook-id'], fresh.headers['webhook-id'], 'the same id on a retry');
    assert.equal(Number(old.headers['webhook-timestamp']), Math.floor((clock.now() - 6 * 60_000) / 1000));
    assert.equal(Number(fresh.headers['webhook-timestamp']), Math.floor(clock.now() / 1000), 'the time of this attempt');

    const payload = verifier.verify(fresh.raw.toString('utf8'), flat(fresh.headers)) as { event: string; data: unknown };
    assert.equal(payload.event, 'report.deleted');
    assert.deepEqual(payload.data, { id: 42 });

    assert.throws(() => verifier.verify(old.raw.toString('utf8'), flat(old.headers)), /timestamp too old/i);
    const tampered = fresh.raw.toString('utf8').replace('42', '43');
    assert.throws(() => verifier.verify(tampered, flat(fresh.headers)), /signature/i, 'another body does not verify');
    const wrongKey = new Webhook(Buffer.from('whsec_wrong', 'utf8').toString('base64'));
    assert.throws(() => wrongKey.verify(fresh.raw.toString('utf8'), flat(fresh.headers)), /signature/i);
  });
});
