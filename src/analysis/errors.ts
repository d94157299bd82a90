// Why a page could not be analysed, in words a user can act on. The API puts `message` in
// `errors.url` (422) and the CLI prints it on stderr.
import type { FetchFailureReason } from './types.js';

/** Facts some messages mention; each is optional so a reason always has a message. */
export interface FetchErrorDetail {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  contentType?: string | null;
  status?: number;
  encoding?: string;
  /** Overrides the default message entirely (e.g. "longer than 2048 characters"). */
  message?: string;
  cause?: unknown;
}

export class FetchError extends Error {
  override name = 'FetchError';
  readonly reason: FetchFailureReason;

  constructor(reason: FetchFailureReason, detail: FetchErrorDetail = {}) {
    super(detail.message ?? fetchFailureMessage(reason, detail), { cause: detail.cause });
    this.reason = reason;
  }
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return s === 1 ? '1 second' : `${Number.isInteger(s) ? s : s.toFixed(1)} seconds`;
}

export function fetchFailureMessage(reason: FetchFailureReason, d: FetchErrorDetail = {}): string {
  switch (reason) {
    case 'invalid_url':
      return 'The address is not a valid http or https URL.';
    case 'dns':
      return 'The address could not be resolved (DNS).';
    case 'refused':
      return 'The server refused the connection.';
    case 'timeout':
      return d.timeoutMs === undefined
        ? 'The page did not answer in time.'
        : `The page did not answer within ${seconds(d.timeoutMs)}.`;
    case 'tls':
      return 'The secure connection failed (TLS certificate or handshake error).';
    case 'too_large':
      return d.maxBytes === undefined ? 'The page is too large.' : `The page is larger than ${megabytes(d.maxBytes)}.`;
    case 'not_html':
      return `The address is not HTML (${d.contentType ? d.contentType : 'no Content-Type'}).`;
    case 'blocked_address':
      return 'The address points to a private or reserved network and cannot be analysed.';
    case 'too_many_redirects':
      return d.maxRedirects === undefined ? 'Too many redirects.' : `Too many redirects (more than ${d.maxRedirects}).`;
    case 'bad_status':
      return d.status === undefined
        ? 'The page did not answer with a success status.'
        : `The page answered with HTTP status ${d.status}.`;
    case 'bad_encoding':
      return `The page uses an unsupported Content-Encoding${d.encoding ? ` (${d.encoding})` : ''}.`;
    case 'network':
      return 'The connection failed before the page was received.';
    case 'too_complex':
      return 'The page is too large or complex to analyse.';
  }
}
