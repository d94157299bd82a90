// Event collection: finds the website, applies its exclusions before anything is stored, holds
// each website to its events per second, reduces the client to what is kept (no address, no
// full User-Agent) and hands the event to the group-commit writer. Resolves once the event is
// durable.
import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { AnalyticsRepository } from '../db/analytics-repository.js';
import type { WebsiteRow, WebsitesRepository } from '../db/websites-repository.js';
import type { WindowCounter } from '../limits/window-counter.js';
import { deriveFields } from '../model/dimensions.js';
import { type Clock, formatTimestamp } from '../time.js';
import { type GeoLookup, isBotAgent, parseAgent } from './client-info.js';
import type { EventInput } from './event-input.js';
import type { EventWriter } from './event-writer.js';
import { cleanPage, hostMatchesDomain } from './page-url.js';

/**
 * Why an event was dropped on purpose. An unknown website and a page on another domain are both
 * `website`, so a sender cannot learn whether a website id exists; `engagement`: Plausible's
 * engagement ping, which is no event.
 */
export type DropReason = 'bot' | 'ip' | 'website' | 'engagement';

/** The name of Plausible's engagement pings (time on page, scroll depth): not an event. */
export const ENGAGEMENT = 'engagement';
export type Outcome =
  | { stored: true }
  | { stored: false; dropped: DropReason }
  /** The website's events per second are used up: try again after `retryAfter` seconds. */
  | { stored: false; dropped?: undefined; retryAfter: number };

export interface Client {
  address: string;
  userAgent: string;
}

export interface CollectorDeps {
  websites: WebsitesRepository;
  analytics: AnalyticsRepository;
  writer: EventWriter;
  geo: GeoLookup;
  clock: Clock;
  /** Events per second accepted for one website (EVENT_WEBSITE_LIMIT), counted in `counter`; 0 or absent: no limit. */
  websiteLimit?: { counter: WindowCounter; eventsPerSecond: number };
}

/**
 * How long a website read for collection is reused. Changes made through this instance apply at
 * once (the repository's version); another instance's apply within this time. An event for a
 * website deleted meanwhile is not stored (AnalyticsRepository.record drops it).
 */
export const WEBSITE_CACHE_MS = 2000;
const WEBSITE_CACHE_SIZE = 10_000;
const VISITOR_CACHE_SIZE = 20_000;

export class EventCollector {
  private readonly salts = new Map<string, Promise<string>>();
  private readonly websites = new Map<string, { row: WebsiteRow | undefined; version: number; until: number }>();
  private readonly ipLists = new Map<string, (address: string) => boolean>();

  constructor(private readonly deps: CollectorDeps) {}

  /**
   * Stores the event for its website: the one with id `website`, else each listed domain's (a
   * domain list is Plausible's rollups: the event is stored once for each listed domain that
   * has a website). Stored for any: stored. Else a website's per-second limit, if one was hit
   * (the sender may try again), else the first website's drop reason.
   */
  async collect(input: EventInput, client: Client): Promise<Outcome> {
    // Plausible's tracker measures time on page and scroll depth with `engagement` pings,
    // which are not events: nothing here counts them.
    if (input.name === ENGAGEMENT) return { stored: false, dropped: 'engagement' };
    const websites = await this.findWebsites(input);
    if (websites.length === 0) return { stored: false, dropped: 'website' };
    if (websites.length === 1) return this.collectFor(websites[0], input, client);
    const outcomes = await Promise.all(websites.map((website) => this.collectFor(website, input, client)));
    return (
      outcomes.find((o) => o.stored) ?? outcomes.find((o) => !o.stored && o.dropped === undefined) ?? (outcomes[0] as Outcome)
    );
  }

  private async collectFor(website: WebsiteRow | undefined, input: EventInput, client: Client): Promise<Outcome> {
    if (!website || !hostMatchesDomain(input.url.hostname, website.domain)) return { stored: false, dropped: 'website' };
    if (website.exclude_bots === 1 && isBotAgent(client.userAgent)) return { stored: false, dropped: 'bot' };
    if (website.exclude_ips && this.ipMatcher(website.exclude_ips)(client.address)) return { stored: false, dropped: 'ip' };
    // Only what would be stored counts: one website's flood is refused before it reaches the
    // writer, whose batches every website shares.
    const limit = this.deps.websiteLimit;
    if (limit && limit.eventsPerSecond > 0) {
      const hit = await limit.counter.incr(`event-website:${website.id}`, 1000);
      if (hit.count > limit.eventsPerSecond) return { stored: false, retryAfter: Math.max(1, Math.ceil(hit.ttl / 1000)) };
    }

    // Whole milliseconds: the system clock has a fraction, and last_seen is a bigint on PostgreSQL.
    const now = this.deps.clock.now();
    const at = Math.floor(now);
    const createdAt = formatTimestamp(new Date(at), Math.floor((now - at) * 1000));
    const day = createdAt.slice(0, 10);
    const fields = deriveFields({
      name: input.name,
      url: input.url,
      page: cleanPage(input.url, input.referrer, website.exclude_params, input.hashRouting),
      agent: parseAgent(client.userAgent),
      place: this.deps.geo.locate(client.address),
      body: input,
    });
    const salt = await this.saltFor(day);
    await this.deps.writer.write({
      websiteId: website.id,
      at,
      createdAt,
      day,
      hour: createdAt.slice(11, 13),
      visitor: this.visitorId(salt, website.id, client.address, client.userAgent),
      ...fields,
    });
    return { stored: true };
  }

  /**
   * The website with id `website`, else those of the listed domains (each its first website),
   * each once; an unknown id or a domain without a website is an `undefined` (dropped, as `website`).
   */
  private async findWebsites(input: EventInput): Promise<(WebsiteRow | undefined)[]> {
    if (input.website !== null) return [await this.findWebsite(`id:${input.website}`)];
    const found = await Promise.all(input.domains.map((domain) => this.findWebsite(`domain:${domain}`)));
    const websites = new Map<number, WebsiteRow>();
    for (const website of found) if (website !== undefined && !websites.has(website.id)) websites.set(website.id, website);
    return websites.size > 0 ? [...websites.values()] : found.slice(0, 1);
  }

  /** By `id:N` or `domain:D` (several: the one created first); reused for WEBSITE_CACHE_MS, found or not. */
  private async findWebsite(key: string): Promise<WebsiteRow | undefined> {
    const now = performance.now();
    const version = this.deps.websites.version;
    const cached = this.websites.get(key);
    if (cached !== undefined && cached.version === version && now < cached.until) return cached.row;
    const row = key.startsWith('id:')
      ? await this.deps.websites.findById(Number(key.slice(3)))
      : await this.deps.websites.firstWithDomain(key.slice(7));
    // Kept only if no write through this instance finished while it was read.
    if (this.deps.websites.version === version) {
      if (this.websites.size >= WEBSITE_CACHE_SIZE) this.websites.clear();
      this.websites.set(key, { row, version, until: now + WEBSITE_CACHE_MS });
    }
    return row;
  }

  /**
   * visitorId, kept per (salt, website, address, User-Agent) for the day's salt: a visitor sends
   * several events, and an HMAC costs more than the lookup. Bounded (cleared when full), and
   * emptied when the salt changes, so yesterday's ids are never reused. Memory only.
   */
  private visitorSalt = '';
  private readonly visitorIds = new Map<string, string>();

  private visitorId(salt: string, websiteId: number, address: string, userAgent: string): string {
    if (salt !== this.visitorSalt) {
      this.visitorIds.clear();
      this.visitorSalt = salt;
    }
    const key = `${websiteId}\n${address}\n${userAgent}`;
    let id = this.visitorIds.get(key);
    if (id === undefined) {
      id = visitorId(salt, websiteId, address, userAgent);
      if (this.visitorIds.size >= VISITOR_CACHE_SIZE) this.visitorIds.clear();
      this.visitorIds.set(key, id);
    }
    return id;
  }

  /** The day's salt, from the database (every instance uses the same one); kept for the day. */
  private saltFor(day: string): Promise<string> {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = this.deps.analytics.saltFor(day);
      salt.catch(() => this.salts.delete(day));
      this.salts.clear(); // yesterday's salt is never needed again
      this.salts.set(day, salt);
    }
    return salt;
  }

  private ipMatcher(list: string): (address: string) => boolean {
    let matcher = this.ipLists.get(list);
    if (!matcher) {
      matcher = ipMatcher(list);
      if (this.ipLists.size >= 1000) this.ipLists.clear();
      this.ipLists.set(list, matcher);
    }
    return matcher;
  }
}

/** hash(day's salt, website, address, User-Agent): the same visitor within a day, unlinkable across days. */
export function visitorId(salt: string, websiteId: number, address: string, userAgent: string): string {
  return createHmac('sha256', salt).update(`${websiteId}\n${address}\n${userAgent}`).digest('base64url').slice(0, 22);
}

/** A test for a website's exclude_ips (normalised addresses and CIDR ranges, one per line). */
export function ipMatcher(list: string): (address: string) => boolean {
  const ranges = list
    .split('\n')
    .filter(Boolean)
    .map((entry) =>
      entry.includes('/') ? ipaddr.parseCIDR(entry) : ([ipaddr.parse(entry), entry.includes(':') ? 128 : 32] as const),
    );
  return (address) => {
    if (!ipaddr.isValid(address)) return false;
    let parsed = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    return ranges.some(([base, bits]) => {
      if (base.kind() === parsed.kind()) return parsed.match(base, bits);
      // An IPv4 entry also matches its IPv4-mapped IPv6 form, and the reverse.
      if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return parsed.match((base as ipaddr.IPv6).toIPv4Address(), bits - 96);
      }
      return false;
    });
  };
}
