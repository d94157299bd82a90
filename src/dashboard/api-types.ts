// The API's answers as the pages read them: the static types of the API's own TypeBox schemas
// (resources/schemas.ts, http/schemas.ts), never a copy, so a field added to a resource is one
// the pages see. A body is typed as its success; read `data` only after checking the status: a
// refusal carries `message` (and a 422 `errors` by field) instead.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Project } from '../api/schemas/reports.js';
import type { ErrorResponse, Paginated } from '../http/schemas.js';
import type {
  Crawl,
  CrawlIssue,
  CrawlPage,
  HistoryItem,
  Monitor,
  Report,
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  Website,
} from '../resources/schemas.js';

/** What a refusal's body holds: its message, and on a 422 the messages by field. */
export type Refusal = Partial<Pick<Static<typeof ErrorResponse>, 'message' | 'errors'>>;

/** One resource's answer, `{data, status}`. */
export type One<S extends TSchema> = { data: Static<S> } & Refusal;

/** A page of a list, Laravel's paginator. */
export type ListOf<S extends TSchema> = Static<ReturnType<typeof Paginated<S>>> & Refusal;

export type ReportJson = Static<typeof Report>;
export type HistoryJson = Static<typeof HistoryItem>;
export type ProjectJson = Static<typeof Project>;
export type WebsiteJson = Static<typeof Website>;
export type CrawlJson = Static<typeof Crawl>;
export type CrawlPageJson = Static<typeof CrawlPage>;
export type CrawlIssueJson = Static<typeof CrawlIssue>;
export type MonitorJson = Static<typeof Monitor>;
export type WebhookJson = Static<typeof Webhook>;
export type WebhookCreatedJson = Static<typeof WebhookCreated>;
export type DeliveryJson = Static<typeof WebhookDelivery>;

export type {
  Crawl,
  CrawlIssue,
  CrawlPage,
  HistoryItem,
  Monitor,
  Project,
  Report,
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  Website,
};
