// The `events` a webhook subscribes to: written as a comma-separated string or as an array (form
// `events[]=…`, JSON arrays), stored comma-separated in EVENT_NAMES order, returned as an array.
import { EVENT_NAMES, type EventName } from './events.js';

export type EventListOutcome =
  | { ok: true; events: EventName[] }
  /** Nothing named (empty string, only commas, empty array). */
  | { ok: false; problem: 'empty' }
  /** Neither a string nor an array (a JSON object or boolean). */
  | { ok: false; problem: 'type' }
  /** The first entry that is not an event name, as sent. */
  | { ok: false; problem: 'unknown'; entry: string };

const KNOWN: ReadonlySet<string> = new Set(EVENT_NAMES);

function isEventName(name: string): name is EventName {
  return KNOWN.has(name);
}

/** Reads what a client sent; entries are trimmed and repeats dropped. */
export function parseEventList(value: unknown): EventListOutcome {
  let entries: unknown[];
  if (typeof value === 'string') entries = value.split(',');
  else if (Array.isArray(value)) entries = value;
  else return { ok: false, problem: 'type' };
  const chosen = new Set<EventName>();
  for (const entry of entries) {
    const name = typeof entry === 'string' ? entry.trim() : entry;
    if (name === '' || name === null) continue;
    if (typeof name !== 'string' || !isEventName(name)) {
      return { ok: false, problem: 'unknown', entry: typeof name === 'string' ? name : JSON.stringify(name) };
    }
    chosen.add(name);
  }
  if (chosen.size === 0) return { ok: false, problem: 'empty' };
  return { ok: true, events: EVENT_NAMES.filter((name) => chosen.has(name)) };
}

/** The stored form: comma-separated, in EVENT_NAMES order. */
export function storedEvents(events: readonly EventName[]): string {
  return EVENT_NAMES.filter((name) => events.includes(name)).join(',');
}

/** The stored form read back (a name no longer known is left out). */
export function eventsOf(stored: string): EventName[] {
  return stored.split(',').filter(isEventName);
}
