// Log configuration: secrets never reach a log line. A secret parameter is recognised by the
// name the server reads, after decoding, so `p%61ssword=`, `password[]=` and `password%5B%5D=`
// are redacted like `password=`, in query strings, form bodies and JSON alike.
import { type FastifyBaseLogger, type FastifyLogFn, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
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
    // Nothing to build when the line would be dropped (a route logging at warn, say).
    if (!error && !levelEnabled(reply.log, 'info')) return;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 100) / 100 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type PinoLogger = FastifyBaseLogger & { levels: { values: Record<string, number> }; isLevelEnabled(level: string): boolean };

function levelEnabled(logger: FastifyBaseLogger, level: LevelName): boolean {
  const check = (logger as Partial<PinoLogger>).isLevelEnabled;
  return typeof check === 'function' ? check.call(logger, level) : true;
}

/**
 * A request's child logger, made only when something is logged at a level it writes (or when
 * it is asked for more than its level): pino's child() with a level of its own rebuilds every
 * log method, a cost each event paid for lines it never wrote. What it writes is the child's.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private real: FastifyBaseLogger | undefined;
  private readonly threshold: number;

  constructor(
    private readonly parent: PinoLogger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: { level?: string },
  ) {
    const values = parent.levels.values;
    const level = options.level ?? parent.level;
    this.threshold = level === 'silent' ? Number.POSITIVE_INFINITY : (values[level] ?? 0);
  }

  private materialise(): FastifyBaseLogger {
    this.real ??= this.parent.child(this.bindings, this.options);
    return this.real;
  }

  private writes(level: LevelName): boolean {
    return this.real !== undefined || this.parent.levels.values[level] >= this.threshold;
  }

  get level(): string {
    return this.real?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.materialise().level = level;
  }

  isLevelEnabled(level: string): boolean {
    if (this.real !== undefined) return levelEnabled(this.real, level as LevelName);
    return level !== 'silent' && (this.parent.levels.values[level] ?? -1) >= this.threshold;
  }

  child(bindings: Record<string, unknown>, options?: { level?: string }): FastifyBaseLogger {
    return this.materialise().child(bindings, options);
  }

  private log(level: LevelName, args: unknown[]): void {
    if (this.writes(level)) (this.materialise()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal: FastifyLogFn = ((...args: unknown[]) => this.log('fatal', args)) as FastifyLogFn;
  error: FastifyLogFn = ((...args: unknown[]) => this.log('error', args)) as FastifyLogFn;
  warn: FastifyLogFn = ((...args: unknown[]) => this.log('warn', args)) as FastifyLogFn;
  info: FastifyLogFn = ((...args: unknown[]) => this.log('info', args)) as FastifyLogFn;
  debug: FastifyLogFn = ((...args: unknown[]) => this.log('debug', args)) as FastifyLogFn;
  trace: FastifyLogFn = ((...args: unknown[]) => this.log('trace', args)) as FastifyLogFn;
  silent: FastifyLogFn = (() => {}) as FastifyLogFn;
}

/** A route's childLoggerFactory: request loggers made lazily (LazyChildLogger), for pino loggers. */
export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: { level?: string },
): FastifyBaseLogger {
  const pino = logger as Partial<PinoLogger>;
  if (typeof pino.levels?.values !== 'object' || typeof pino.isLevelEnabled !== 'function')
    return logger.child(bindings, options);
  return new LazyChildLogger(pino as PinoLogger, bindings, options);
}
