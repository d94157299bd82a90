// Webhooks: the event sink every service publishes to (events.ts), and the delivery job. Publishing
// stores one delivery per subscribed active webhook, holding the exact body to send, and queues
// its job; the job POSTs that body (signed with the webhook's secret) and retries with the
// queue's backoff for about a day (DELIVERY_POLICY) until the receiver answers 2xx.
import { randomUUID } from 'node:crypto';
import type { WebhookDeliveriesRepository } from '../db/webhook-deliveries-repository.js';
import type { WebhookRow, WebhooksRepository } from '../db/webhooks-repository.js';
import { eventData, type EventData, type EventName, type EventSink } from '../model/events.js';
import type { JobLog } from '../jobs/log.js';
import { DELIVERY_POLICY, type JobQueue } from '../jobs/queue.js';
import type { FeatureJobs } from '../jobs/registry.js';
import { formatTimestamp, nowTimestamp, type Clock } from '../time.js';
import { eventsOf } from '../model/webhook-events.js';
import { postWebhook } from './post.js';
import { signatureHeaders } from './signature.js';
import { refusedTarget, type TargetGuard } from './target.js';

export const DELIVER_JOB = 'webhook.deliver';
export const PRUNE_JOB = 'webhook.prune';
/** Deliveries are listed for this long, then pruned. */
export const DELIVERY_RETENTION_DAYS = 30;
/** The whole exchange (connect, send, answer) must fit in this. */
export const DELIVERY_TIMEOUT_MS = 10_000;

const DAY_MS = 86_400_000;
/** A delivery untouched this long after it was stored gets its job again (see sweep). */
const SWEEP_AFTER_MS = 10 * 60_000;
const SWEEP_EVERY_MS = 60_000;

export interface WebhookServiceOptions {
  webhooks: WebhooksRepository;
  deliveries: WebhookDeliveriesRepository;
  jobs: JobQueue;
  clock: Clock;
  log: JobLog;
  /** The address guard for targets (the analyser's policy and resolver). */
  guard: TargetGuard;
  /** The instance's version, for the User-Agent. */
  version: string;
  timeoutMs?: number;
}

/** A failed attempt: the job throws it so the queue retries. */
export class DeliveryFailedError extends Error {
  override name = 'DeliveryFailedError';
}

export class WebhookService implements EventSink {
  private readonly timeoutMs: number;
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: WebhookServiceOptions) {
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  }

  /** The delivery and pruning jobs, the pruning schedule and the sweep (services.ts registers them). */
  jobs(): FeatureJobs {
    return {
      jobs: [
        {
          type: DELIVER_JOB,
          kind: 'webhook',
          policy: DELIVERY_POLICY,
          run: (payload: { deliveryId: number }, context) => this.deliver(payload.deliveryId, context.attempt),
        },
        {
          type: PRUNE_JOB,
          kind: 'webhook',
          run: async () => {
            await this.prune();
          },
        },
      ],
      schedules: [
        {
          // Every instance ticks; the hour's key makes one pruning job an hour.
          name: 'webhooks.prune',
          run: async (now) => {
            await this.options.jobs.send(PRUNE_JOB, {}, { key: `deliveries:${new Date(now).toISOString().slice(0, 13)}` });
          },
        },
        { name: 'webhooks.sweep', run: (now) => this.sweep(now) },
      ],
    };
  }

  /**
   * Once a minute: deliveries stored over SWEEP_AFTER_MS ago that no attempt has touched get
   * their job (queued under the delivery's id, so one that exists already is not doubled).
   */
  async sweep(now: number): Promise<void> {
    if (Math.abs(now - this.lastSweep) < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const before = formatTimestamp(new Date(Math.floor(now - SWEEP_AFTER_MS)));
    for (const { id, userId } of await this.options.deliveries.untouched(before, 100)) await this.queue(id, userId);
  }

  /** A delivery's one job, keyed by its id, in its account's turn. */
  private queue(deliveryId: number, account: number): Promise<boolean> {
    return this.options.jobs.send(DELIVER_JOB, { deliveryId }, { key: String(deliveryId), account });
  }

  /**
   * One delivery for each of the account's active webhooks subscribed to `event`, each queued.
   * Never throws: the caller's work (a report stored) is done, so a failure here is logged.
   */
  async publish(userId: number, event: EventName, data: EventData): Promise<void> {
    let listeners: WebhookRow[];
    try {
      listeners = (await this.options.webhooks.active(userId)).filter((hook) => eventsOf(hook.events).includes(event));
    } catch (error) {
      this.options.log.error({ err: error, event, userId }, 'webhook events could not be queued');
      return;
    }
    if (listeners.length === 0) return;
    const createdAt = nowTimestamp(this.options.clock);
    const payload = JSON.stringify({ event, created_at: createdAt, data: eventData(data) });
    for (const hook of listeners) {
      try {
        const delivery = await this.options.deliveries.create(
          { webhook_id: hook.id, event, payload, uuid: randomUUID() },
          createdAt,
        );
        await this.queue(delivery.id, userId);
      } catch (error) {
        // e.g. the webhook was deleted meanwhile (its deliveries go with it)
        this.options.log.error({ err: error, event, webhook: hook.id }, 'a webhook event could not be queued');
      }
    }
  }

  /** Null when `url` may be a webhook's target (the address guard, after DNS); otherwise why not. */
  refusedTarget(url: string): Promise<string | null> {
    return refusedTarget(url, this.options.guard);
  }

  /**
   * The delivery job: one attempt. A delivery whose webhook was deleted (its row went with it) or
   * made inactive is dropped unsent; a 2xx records the success; anything else records the answer
   * and throws, so the queue retries (`attempt` > the policy's retries: the last one).
   */
  async deliver(deliveryId: number, attempt: number): Promise<void> {
    const { deliveries, webhooks } = this.options;
    const delivery = await deliveries.find(deliveryId);
    if (!delivery || delivery.delivered_at !== null) return;
    const hook = await webhooks.findById(delivery.webhook_id);
    if (!hook) return;
    if (hook.active !== 1) {
      await deliveries.failed(delivery.id, null, 'Not sent: the webhook is inactive.');
      return;
    }
    const attempts = (await deliveries.countAttempt(delivery.id)) ?? delivery.attempts + 1;
    const outcome = await postWebhook(
      hook.url,
      delivery.payload,
      {
        'content-type': 'application/json',
        'user-agent': `Rankscope-Webhooks/${this.options.version}`,
        'x-rankscope-event': delivery.event,
        'x-rankscope-delivery': delivery.uuid,
        ...signatureHeaders(hook.secret, delivery.uuid, delivery.payload, this.options.clock.now()),
      },
      this.options.guard,
      this.timeoutMs,
    );
    if (outcome.error === null) {
      await deliveries.succeeded(delivery.id, outcome.statusCode ?? 200);
      return;
    }
    const last = attempt > DELIVERY_POLICY.retryLimit;
    const error = last ? `${outcome.error} Gave up after ${attempts} attempts.` : outcome.error;
    await deliveries.failed(delivery.id, outcome.statusCode, error);
    throw new DeliveryFailedError(outcome.error);
  }

  /** Deletes deliveries older than DELIVERY_RETENTION_DAYS; how many. */
  prune(): Promise<number> {
    const cutoff = this.options.clock.now() - DELIVERY_RETENTION_DAYS * DAY_MS;
    return this.options.deliveries.pruneBefore(formatTimestamp(new Date(Math.floor(cutoff))));
  }
}
