// One delivery attempt on the wire: POST the stored body through a guarded undici Agent (the
// analyser's connector: the host is resolved, every answer checked, and the socket opened to the
// checked address), no redirects followed, one deadline for the whole exchange. A fresh Agent per
// attempt, so no kept-alive socket skips the address check.
import { createGuardedAgent } from '../analysis/fetch/connector.js';
import { toFetchError } from '../analysis/fetch/network-errors.js';
import { FetchError } from '../analysis/errors.js';
import { type TargetGuard, unreachableMessage } from './target.js';

export interface PostOutcome {
  /** The receiver's status, null when none answered. */
  statusCode: number | null;
  /** Null on a 2xx; otherwise why the attempt failed. */
  error: string | null;
}

/** At most this much of a response is read (and thrown away). */
const MAX_RESPONSE_BYTES = 4096;

export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  guard: TargetGuard,
  timeoutMs: number,
): Promise<PostOutcome> {
  const url = new URL(target);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new FetchError('timeout', { timeoutMs })), timeoutMs);
  const agent = createGuardedAgent({
    policy: guard.policy,
    resolver: guard.resolver,
    hooks: guard.hooks,
    connectTimeoutMs: timeoutMs,
    signal: controller.signal,
  });
  try {
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers,
      body,
      signal: controller.signal,
    });
    // The status decides; the body is drained only so the exchange ends cleanly.
    await response.body.dump({ limit: MAX_RESPONSE_BYTES, signal: controller.signal }).catch(() => {});
    const { statusCode } = response;
    if (statusCode >= 200 && statusCode <= 299) return { statusCode, error: null };
    return { statusCode, error: `The receiver answered HTTP ${statusCode}.` };
  } catch (error) {
    const reason = controller.signal.aborted ? controller.signal.reason : toFetchError(error, timeoutMs);
    return { statusCode: null, error: unreachableMessage(reason, timeoutMs) };
  } finally {
    clearTimeout(timer);
    await agent.destroy().catch(() => {});
  }
}
