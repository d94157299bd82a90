// Log configuration: secrets never reach a log line. A secret parameter is recognised by the
// name the server reads, after decoding, so `p%61ssword=`, `password[]=` and `password%5B%5D=`
// are redacted like `password=`, in query strings, form bodies and JSON alike.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { baseName, decodeComponent } from './input.js';

const REDACTED = '[REDACTED]';

/** Parameter names whose values are secrets (compared lower-cased, after decoding). */
const SECRET_NAMES = new Set([
  'password',
  'password_confirmation',
  'current_password',
  'new_password',
  'token',
  'api_token',
  'api_key',
  'access_token',
  'key',
  'secret',
  '_csrf',
  'csrf_token',
  '_token',
]);

export function isSecretName(rawName: string): boolean {
  return SECRET_NAMES.has(baseName(decodeComponent(rawName)).toLowerCase());
}

/** `a=1&password=x` with every secret value replaced; names and order kept. */
export function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return isSecretName(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** A request target with the secrets of its query string redacted. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const query = hash === -1 ? url.slice(q + 1) : url.slice(q + 1, hash);
  return `${url.slice(0, q + 1)}${redactQuery(query)}${hash === -1 ? '' : url.slice(hash)}`;
}

/** A parsed body or input (form or JSON) with the values of secret keys redacted, at any depth. */
export function redactValues(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValues(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretName(k) ? REDACTED : redactValues(v, depth + 1)]));
}

export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password'],
      censor: REDACTED,
    },
    serializers: {
      req(request: FastifyRequest) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
      body: redactValues,
      input: redactValues,
      query: redactValues,
    },
  };
}

/** One line per request, when it completes: method, redacted URL, status, time, request id. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 100) / 100 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
