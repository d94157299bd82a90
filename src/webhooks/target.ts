// Where a webhook may POST: the address guard the analyser uses for report URLs
// (analysis/fetch/address-guard.ts), checked when a webhook is saved and again when each
// delivery connects (through the guarded connector, which connects to the address it checked).
import { FetchError } from '../analysis/errors.js';
import { resolveAllowedAddress, type AddressPolicy, type Resolver } from '../analysis/fetch/address-guard.js';
import type { ConnectHooks } from '../analysis/fetch/connector.js';
import { MAX_URL_LENGTH } from '../analysis/urls.js';

export interface TargetGuard {
  policy: AddressPolicy;
  resolver: Resolver;
  /** Test-only connection hooks (the analyser's `guard`): a veto right before each connection. */
  hooks?: ConnectHooks;
}

/** A DNS answer that takes longer than this counts as a failure to resolve (the API waits for it). */
const RESOLVE_TIMEOUT_MS = 5_000;

/** Why a delivery could not reach its receiver, by the network failure's reason. */
export function unreachableMessage(error: unknown, timeoutMs: number): string {
  const reason = error instanceof FetchError ? error.reason : null;
  switch (reason) {
    case 'blocked_address':
      return 'The url points to a private or reserved network address.';
    case 'dns':
      return 'The url host could not be resolved (DNS).';
    case 'refused':
      return 'The receiver refused the connection.';
    case 'timeout':
      return `The receiver did not answer within ${timeoutMs / 1000} seconds.`;
    case 'tls':
      return 'The secure connection failed (TLS certificate or handshake error).';
    default:
      return 'The connection failed before the receiver answered.';
  }
}

/**
 * Syntax of a webhook url: absolute http(s), a host, no user name or password, at most 2,048
 * characters. The normalised URL (without fragment), or the API's message (`attr`: the field).
 */
export function parseTargetUrl(value: string, attr: string): { value: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `The ${attr} must be a valid URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: `The ${attr} must start with http:// or https://.` };
  if (url.hostname === '') return { error: `The ${attr} must be a valid URL.` };
  if (url.username !== '' || url.password !== '') return { error: `The ${attr} must not contain a user name or password.` };
  url.hash = '';
  if (url.href.length > MAX_URL_LENGTH) return { error: `The ${attr} must not be greater than ${MAX_URL_LENGTH} characters.` };
  return { value: url.href };
}

/** Null when the url's host resolves to addresses the guard allows; otherwise why not. */
export async function refusedTarget(url: string, guard: TargetGuard): Promise<string | null> {
  const { hostname } = new URL(url);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FetchError('dns')), RESOLVE_TIMEOUT_MS);
  });
  try {
    await Promise.race([resolveAllowedAddress(hostname, guard.resolver, guard.policy), timeout]);
    return null;
  } catch (error) {
    if (error instanceof FetchError) return unreachableMessage(error, RESOLVE_TIMEOUT_MS);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
