// robots.txt per RFC 9309, as docs/checks.md §5.1 (robots) and §5.3 (sitemap) describe.
//
// Hand-written rather than robots-parser 3 because that library normalises the two sides
// differently (patterns through encodeURI, paths through the WHATWG URL parser, so `%7E` never
// matches `~` and `|` or `[` never match themselves), does not skip a leading BOM, and has no
// notion of `/robots.txt` being always allowed.
//
// `compileRobots` parses a body once for one token and compiles every rule, so a crawler can
// decide thousands of URLs against one parse; each decision is linear in the path per rule
// (robots-pattern.ts). The other exports are one-shot conveniences over it.

import { compilePattern, matchesPath, type CompiledPattern, type StepMeter } from './robots-pattern.js';
import { parseUrl, withoutFragment } from './urls.js';

export type { StepMeter } from './robots-pattern.js';

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
  /** The group's first valid `Crawl-delay` in seconds (not in RFC 9309, widely honoured). */
  delay: number | null;
}

interface Line {
  field: string;
  value: string;
}

const isWs = (code: number) => code === 0x20 || code === 0x09;

/**
 * RFC 9309's whitespace is space and tab only. String.prototype.trim() would also strip
 * U+FEFF, NBSP and the other Unicode spaces, which are data in a field name or value.
 * (Loops, not /[ \t]+$/: that regex backtracks quadratically over a long inner run of spaces.)
 */
function trimWs(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isWs(s.charCodeAt(start))) start++;
  while (end > start && isWs(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

function* lines(body: string): Generator<Line> {
  // Only a BOM opening the file is skipped; anywhere else it is a character like any other.
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash === -1 ? raw : raw.slice(0, hash);
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    yield { field: trimWs(line.slice(0, colon)).toLowerCase(), value: trimWs(line.slice(colon + 1)) };
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
        current = { agents: [], rules: [], delay: null };
        groups.push(current);
        sawRule = false;
      }
      current.agents.push(value);
    } else if (field === 'allow' || field === 'disallow') {
      sawRule = true;
      if (current !== null && value !== '') {
        current.rules.push({ allow: field === 'allow', pattern: normalise(value), written: value });
      }
    } else if (field === 'crawl-delay' && current !== null) {
      const seconds = Number(value);
      if (current.delay === null && value !== '' && Number.isFinite(seconds) && seconds >= 0) current.delay = seconds;
    }
  }
  return groups;
}

/** The product token of a user-agent line (`RankscopeBot/1.0` → `rankscopebot`), or `*`. */
function agentToken(value: string): string {
  if (value.startsWith('*')) return '*';
  return (/^[A-Za-z_-]*/.exec(value)?.[0] ?? '').toLowerCase();
}

/** The groups naming any of `tokens` (merged), else the `*` groups, else none. */
function groupsFor(body: string, tokens: string | readonly string[]): Group[] {
  const groups = parseGroups(body);
  const wanted = new Set((typeof tokens === 'string' ? [tokens] : tokens).map((t) => t.toLowerCase()));
  const chosen = groups.filter((g) => g.agents.some((a) => wanted.has(agentToken(a))));
  return chosen.length > 0 ? chosen : groups.filter((g) => g.agents.some((a) => agentToken(a) === '*'));
}

/** The merged rules of the groups naming `tokens` (one or several), else of the `*` groups, else none. */
export function rulesFor(body: string, tokens: string | readonly string[]): RobotsRule[] {
  return groupsFor(body, tokens).flatMap((g) => g.rules);
}

/** The `Crawl-delay` (seconds) of the groups `rulesFor` picks: the first one given; null when none. */
export function crawlDelayFor(body: string, tokens: string | readonly string[]): number | null {
  for (const group of groupsFor(body, tokens)) if (group.delay !== null) return group.delay;
  return null;
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
        out += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
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
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      }
    }
  }
  return out;
}

/** Whether `pattern` (normalised; `*` any run, final `$` anchors) matches a prefix of `path`. */
export function patternMatches(pattern: string, path: string, meter?: StepMeter): boolean {
  return matchesPath(compilePattern(pattern), path, meter);
}

/** A rule set compiled once; decisions against it reuse the parse and the compiled patterns. */
export interface CompiledRules {
  /** The rule that decides for `pathAndQuery`: the longest match, `allow` winning a tie; null if none. */
  decidingRule(pathAndQuery: string, meter?: StepMeter): RobotsRule | null;
}

export interface CompiledRobots extends CompiledRules {
  /** The merged rules for the token, in file order. */
  readonly rules: readonly RobotsRule[];
  /** The disallow pattern (as written) that blocks `url`, or null when allowed. */
  blockingPattern(url: string, meter?: StepMeter): string | null;
}

export function compileRules(rules: readonly RobotsRule[]): CompiledRules {
  // Tried in the order that decides: longest first, allow before disallow at equal length,
  // file order otherwise (the sort is stable), so the first match is the deciding rule.
  // A repeat of an earlier (allow, pattern) can never decide, so it is dropped.
  const seen = new Set<string>();
  const unique = rules.filter((rule) => {
    const key = (rule.allow ? 'A' : 'D') + rule.pattern;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const ordered: { rule: RobotsRule; compiled: CompiledPattern }[] = unique
    .sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow))
    .map((rule) => ({ rule, compiled: compilePattern(rule.pattern) }));
  return {
    decidingRule(pathAndQuery, meter) {
      const path = normalise(pathAndQuery);
      for (const { rule, compiled } of ordered) {
        if (matchesPath(compiled, path, meter)) return rule;
      }
      return null;
    },
  };
}

/** robots.txt parsed and compiled once for `token` (or several, whose groups merge). */
export function compileRobots(body: string, token: string | readonly string[]): CompiledRobots {
  const rules = rulesFor(body, token);
  const compiled = compileRules(rules);
  return {
    rules,
    decidingRule: compiled.decidingRule,
    blockingPattern(url, meter) {
      const parsed = parseUrl(url);
      const pathAndQuery = parsed ? parsed.pathname + parsed.search : url;
      if (pathAndQuery === '/robots.txt') return null;
      const rule = compiled.decidingRule(pathAndQuery, meter);
      return rule && !rule.allow ? rule.written : null;
    },
  };
}

/** The rule that decides for `pathAndQuery`: the longest match, `allow` winning a tie; null if none. */
export function decidingRule(rules: RobotsRule[], pathAndQuery: string): RobotsRule | null {
  return compileRules(rules).decidingRule(pathAndQuery);
}

/** The disallow pattern (as written) that blocks `url` for `token`, or null when allowed. */
export function blockingPattern(body: string, token: string, url: string): string | null {
  return compileRobots(body, token).blockingPattern(url);
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
