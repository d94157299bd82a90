// robots.txt per RFC 9309, as checks.md §5.1 (robots) and §5.3 (sitemap) describe.
//
// Hand-written rather than robots-parser 3 because that library normalises the two sides
// differently (patterns through encodeURI, paths through the WHATWG URL parser, so `%7E` never
// matches `~` and `|` or `[` never match themselves), does not skip a leading BOM, and has no
// notion of `/robots.txt` being always allowed. The matcher below is the same linear
// wildcard algorithm as Google's robotstxt (and robots-parser).

import { parseUrl, withoutFragment } from './urls.js';

export interface RobotsRule {
  allow: boolean;
  /** Normalised pattern, compared octet by octet. */
  pattern: string;
  /** The value as written in the file, for error payloads. */
  written: string;
}

interface Group {
  agents: string[];
  rules: RobotsRule[];
}

interface Line {
  field: string;
  value: string;
}

function* lines(body: string): Generator<Line> {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash === -1 ? raw : raw.slice(0, hash);
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    yield { field: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() };
  }
}

/** Groups in file order; consecutive user-agent lines open one group, rules before any group are dropped. */
function parseGroups(body: string): Group[] {
  const groups: Group[] = [];
  let current: Group | null = null;
  let sawRule = false;
  for (const { field, value } of lines(body)) {
    if (field === 'user-agent') {
      if (current === null || sawRule) {
        current = { agents: [], rules: [] };
        groups.push(current);
        sawRule = false;
      }
      current.agents.push(value);
    } else if (field === 'allow' || field === 'disallow') {
      sawRule = true;
      if (current !== null && value !== '') {
        current.rules.push({ allow: field === 'allow', pattern: normalise(value), written: value });
      }
    }
  }
  return groups;
}

/** The product token of a user-agent line (`RankscopeBot/1.0` → `rankscopebot`), or `*`. */
function agentToken(value: string): string {
  if (value.startsWith('*')) return '*';
  return (/^[A-Za-z_-]*/.exec(value)?.[0] ?? '').toLowerCase();
}

/** The merged rules of the groups naming `token`, else of the `*` groups, else none. */
export function rulesFor(body: string, token: string): RobotsRule[] {
  const groups = parseGroups(body);
  const wanted = token.toLowerCase();
  const pick = (name: string) => groups.filter((g) => g.agents.some((a) => agentToken(a) === name));
  let chosen = pick(wanted);
  if (chosen.length === 0) chosen = pick('*');
  return chosen.flatMap((g) => g.rules);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const KEEP = /[A-Za-z0-9\-._~!$&'()*+,/:;=?@]/;

/**
 * One canonical spelling for both sides: escapes of unreserved characters decoded, other
 * escapes upper-cased, and everything outside the URI characters percent-encoded as UTF-8.
 */
export function normalise(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        const decoded = String.fromCharCode(parseInt(hex, 16));
        out += UNRESERVED.test(decoded) ? decoded : '%' + hex.toUpperCase();
        i += 2;
      } else {
        out += '%25';
      }
    } else if (KEEP.test(c)) {
      out += c;
    } else {
      const char = String.fromCodePoint(s.codePointAt(i)!);
      if (char.length === 2) i++;
      // A lone surrogate encodes as U+FFFD, as the URL parser does.
      for (const byte of Buffer.from(char)) {
        out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
      }
    }
  }
  return out;
}

/** Whether `pattern` (normalised; `*` any run, final `$` anchors) matches a prefix of `path`. */
export function patternMatches(pattern: string, path: string): boolean {
  // Ends of the path prefixes matched so far, ascending.
  let ends = [0];
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern[p];
    if (c === '$' && p === pattern.length - 1) return ends[ends.length - 1] === path.length;
    if (c === '*') {
      const from = ends[0];
      ends = [];
      for (let e = from; e <= path.length; e++) ends.push(e);
    } else {
      const next: number[] = [];
      for (const e of ends) if (e < path.length && path[e] === c) next.push(e + 1);
      if (next.length === 0) return false;
      ends = next;
    }
  }
  return true;
}

/** The rule that decides for `pathAndQuery`: the longest match, `allow` winning a tie; null if none. */
export function decidingRule(rules: RobotsRule[], pathAndQuery: string): RobotsRule | null {
  const path = normalise(pathAndQuery);
  let best: RobotsRule | null = null;
  for (const rule of rules) {
    if (!patternMatches(rule.pattern, path)) continue;
    if (
      best === null ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)
    ) {
      best = rule;
    }
  }
  return best;
}

/** The disallow pattern (as written) that blocks `url` for `token`, or null when allowed. */
export function blockingPattern(body: string, token: string, url: string): string | null {
  const parsed = parseUrl(url);
  const pathAndQuery = parsed ? parsed.pathname + parsed.search : url;
  if (pathAndQuery === '/robots.txt') return null;
  const rule = decidingRule(rulesFor(body, token), pathAndQuery);
  return rule && !rule.allow ? rule.written : null;
}

/** The `Sitemap:` values anywhere in the file, resolved against its URL, deduplicated. */
export function sitemapUrls(body: string, robotsUrl: string): string[] {
  const found = new Set<string>();
  for (const { field, value } of lines(body)) {
    if (field !== 'sitemap' || value === '') continue;
    const url = parseUrl(value, robotsUrl);
    found.add(url ? withoutFragment(url) : value);
  }
  return [...found];
}
