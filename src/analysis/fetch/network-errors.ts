// Maps whatever the network stack throws (errno codes, undici errors, TLS errors) onto the
// user-facing fetch failure reasons.
import { FetchError } from '../errors.js';
import type { FetchFailureReason } from '../types.js';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL']);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
]);
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|EPROTO$)/;

function reasonForCode(code: string): FetchFailureReason | null {
  if (DNS_CODES.has(code)) return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (TIMEOUT_CODES.has(code)) return 'timeout';
  if (TLS_CODE.test(code)) return 'tls';
  return null;
}

/** The FetchError for a low-level failure; the error's `cause` chain is searched for a known code. */
export function toFetchError(error: unknown, timeoutMs?: number): FetchError {
  if (error instanceof FetchError) return error;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof FetchError) return current;
    const code = (current as { code?: unknown }).code;
    const reason = typeof code === 'string' ? reasonForCode(code) : null;
    if (reason !== null) return new FetchError(reason, { cause: error, timeoutMs });
    current = current.cause;
  }
  return new FetchError('network', { cause: error });
}
