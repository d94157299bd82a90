// A change the API refused for now (429), as the dashboard sees it: every write a page makes goes
// through unlessLimited (context.ts apiFor), and the /app scope answers the error with one page
// (routes.ts, context.ts tooManyChangesPage), whatever form sent it.
import type { ApiAnswer } from './api-client.js';

/** Why: the account's budget a minute (its API key and these forms share it), or "run now" of a monitor within a minute of the last. */
export class TooManyChanges extends Error {
  override name = 'TooManyChanges';

  constructor(
    readonly retryAfterSeconds: number,
    readonly reason: 'budget' | 'monitor-run',
    /** The account's budget a minute (X-RateLimit-Limit), when the API said. */
    readonly perMinute: number | null,
  ) {
    super('the API answered 429');
  }
}

/** Throws TooManyChanges for a write the API answered 429; otherwise returns the answer. */
export function unlessLimited<T>(answer: ApiAnswer<T>, path: string): ApiAnswer<T> {
  if (answer.status !== 429) return answer;
  const header = (name: string) => {
    const value = answer.headers[name];
    return typeof value === 'string' || typeof value === 'number' ? Number(value) : Number.NaN;
  };
  const retryAfter = header('retry-after');
  const limit = header('x-ratelimit-limit');
  // The budget's own 429 leaves none remaining; a run refused while budget remains is the monitor's minute.
  const reason = /^\/monitors\/\d+\/run$/.test(path) && header('x-ratelimit-remaining') !== 0 ? 'monitor-run' : 'budget';
  throw new TooManyChanges(
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60,
    reason,
    Number.isFinite(limit) ? limit : null,
  );
}
