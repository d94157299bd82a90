// The dashboard's calls into the API, in process (api/internal-caller.ts): the same routes a
// curl user calls, so a form and the API cannot disagree on a rule, a message or an event.
import type { FastifyInstance } from 'fastify';
import type { InternalCredential } from '../api/internal-caller.js';

/** An answer; `T` is the body's type from the API's schemas (api-types.ts), unknown until named. */
export interface ApiAnswer<T = unknown> {
  status: number;
  /** The parsed JSON body (null for an empty or non-JSON one). */
  body: T;
  /** The raw body (CSV exports). */
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

export class DashboardApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly credential: InternalCredential,
  ) {}

  async call<T = unknown>(
    userId: number,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: { query?: Record<string, string | number | undefined | null>; body?: Record<string, unknown> } = {},
  ): Promise<ApiAnswer<T>> {
    const query = Object.fromEntries(
      Object.entries(options.query ?? {})
        .filter(([, v]) => v !== undefined && v !== null && v !== '')
        .map(([k, v]) => [k, String(v)]),
    );
    const response = await this.app.inject({
      method,
      url: `/api/v1${path}`,
      query,
      headers: { authorization: this.credential.header(userId), accept: 'application/json' },
      ...(options.body ? { payload: options.body } : {}),
    });
    let body: unknown = null;
    if (String(response.headers['content-type'] ?? '').includes('json') && response.body !== '') {
      body = JSON.parse(response.body);
    }
    return { status: response.statusCode, body: body as T, text: response.body, headers: response.headers };
  }
}
