// What happened to an account's resources, for whoever listens (webhooks today). Services
// publish; the sink decides who hears. `data` is the resource's public JSON shape (the API's).
export const EVENT_NAMES = ['report.created', 'report.updated', 'report.deleted', 'monitor.alert', 'crawl.finished'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** An event's data, or what builds it: built only when someone listens (a crawl publishes one a page). */
export type EventData = object | (() => object);

export interface EventSink {
  /** Records the event for delivery; never throws for a listener's failure (delivery is a job). */
  publish(userId: number, event: EventName, data: EventData): Promise<void>;
}

export const eventData = (data: EventData): object => (typeof data === 'function' ? data() : data);

/** A sink that drops everything (the CLI's one-off commands). */
export const noEvents: EventSink = { publish: async () => {} };
