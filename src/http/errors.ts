// The one place that shapes error responses: `{"message": …, "status": <code>}`, plus
// `errors` on 422, as docs/api.md "Errors" describes them. Every failure path in the API ends here.

export type FieldErrors = Record<string, string[]>;

export interface ErrorBody {
  message: string;
  errors?: FieldErrors;
  status: number;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 422 with the fields' messages (the API's validation); 400 for a malformed event body. */
export class ValidationError extends HttpError {
  constructor(
    readonly errors: FieldErrors,
    status: 400 | 422 = 422,
  ) {
    super(status, summarize(errors));
  }
}

/** Laravel ≥ 9: the first message, then " (and N more error[s])" counting every other message. */
export function summarize(errors: FieldErrors): string {
  const all = Object.values(errors).flat();
  if (all.length === 0) return 'The given data was invalid.';
  const more = all.length - 1;
  return more === 0 ? all[0] : `${all[0]} (and ${more} more error${more === 1 ? '' : 's'})`;
}

export function errorBody(error: HttpError): ErrorBody {
  return error instanceof ValidationError
    ? { message: error.message, errors: error.errors, status: error.status }
    : { message: error.message, status: error.status };
}

/** The resources whose 404 names them. */
export type Resource = 'Report' | 'Website' | 'Project' | 'Webhook' | 'Monitor' | 'Crawl';

export const unauthenticated = () => new HttpError(401, 'Unauthenticated.');
export const notFound = (what?: Resource) => new HttpError(404, what ? `${what} not found.` : 'Not found.');
export const tooManyAttempts = (retryAfterSeconds: number, headers: Record<string, string> = {}) =>
  new HttpError(429, 'Too Many Attempts.', { 'Retry-After': String(retryAfterSeconds), ...headers });
export const serverError = () => new HttpError(500, 'Server Error');

export function methodNotAllowed(method: string, path: string, allowed: string[]): HttpError {
  return new HttpError(
    405,
    `The ${method} method is not supported for route ${path.replace(/^\//, '')}. Supported methods: ${allowed.join(', ')}.`,
    { Allow: allowed.join(', ') },
  );
}

/** Messages for the framework's own 4xx errors (body parsing, limits, bad URLs). */
const FRAMEWORK_MESSAGES: Record<number, string> = {
  400: 'The request could not be understood.',
  408: 'The request took too long to arrive.',
  413: 'The request body is too large.',
  414: 'The request URL is too long.',
  415: 'Unsupported media type: send application/x-www-form-urlencoded or application/json.',
  431: 'The request headers are too large.',
};

/**
 * Node's `clientError`: a request its HTTP parser refused (malformed, headers too large, too
 * slow). There is no request object, so the response is written to the socket directly.
 */
export function rejectMalformedRequest(error: Error & { code?: string }, socket: import('node:stream').Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ message: FRAMEWORK_MESSAGES[status], status });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Turns anything thrown into an HttpError; unknown errors become a bare 500. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const e = error as { statusCode?: number; code?: string } | null;
  const status = e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (e?.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return new HttpError(400, 'The request body is not valid JSON.');
    return new HttpError(status, FRAMEWORK_MESSAGES[status] ?? 'The request could not be processed.');
  }
  return serverError();
}
