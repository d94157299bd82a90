// A browser-like client of the dashboard over inject(): it keeps the cookies it is given, reads
// the CSRF token from the last page, and posts forms as a same-origin browser would.
import type { LightMyRequestResponse } from 'fastify';
import { SessionsRepository } from '../../src/db/sessions-repository.js';
import { fixtureHash } from './password-hash.js';
import type { TestApp } from './app.js';

export const TEST_PASSWORD = 'correct horse battery';

export interface DashboardClient {
  /** The account signed in. */
  account: { id: number; email: string; key: string };
  /** The CSRF token of the session (from the last page that carried one). */
  csrf: string;
  cookies: Map<string, string>;
  get(path: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** A form post with the session's token (unless `_token` is given), same-origin. */
  post(
    path: string,
    fields?: Record<string, string | string[]>,
    headers?: Record<string, string | undefined>,
  ): Promise<LightMyRequestResponse>;
}

function formBody(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else params.append(key, value);
  }
  return params.toString();
}

/** Sets an account's dashboard password directly (the CLI's effect). */
export async function givePassword(t: TestApp, userId: number, password = TEST_PASSWORD): Promise<void> {
  await t.users.setPasswordHash(userId, await fixtureHash(password));
}

/** A client without a session (sign it in with `signIn`). */
export function dashboardClient(t: TestApp, account: DashboardClient['account']): DashboardClient {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (res: LightMyRequestResponse) => {
    for (const c of res.cookies) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires && c.expires.getTime() < Date.now()))
        cookies.delete(c.name);
      // Kept encoded, as a browser sends it back (inject's cookies are decoded).
      else cookies.set(c.name, encodeURIComponent(c.value));
    }
    const token = /name="_token" value="([^"]+)"/.exec(res.body)?.[1];
    if (token) client.csrf = token;
    return res;
  };
  const client: DashboardClient = {
    account,
    csrf: '',
    cookies,
    async get(path, headers = {}) {
      return remember(await t.app.inject({ method: 'GET', url: path, headers: { cookie: cookieHeader(), ...headers } }));
    },
    async post(path, fields = {}, headers = {}) {
      const body = '_token' in fields ? fields : { _token: client.csrf, ...fields };
      return remember(
        await t.app.inject({
          method: 'POST',
          url: path,
          // A header given as undefined is left out (a browser that sends no Sec-Fetch-Site).
          headers: Object.fromEntries(
            Object.entries({
              cookie: cookieHeader(),
              'content-type': 'application/x-www-form-urlencoded',
              'sec-fetch-site': 'same-origin',
              ...headers,
            }).filter(([, v]) => v !== undefined),
          ),
          payload: formBody(body),
        }),
      );
    },
  };
  return client;
}

/** A new account with a password, signed in: the client holds its session and CSRF token. */
export async function signedInClient(t: TestApp, email?: string): Promise<DashboardClient> {
  const account = await t.account(email);
  await givePassword(t, account.id);
  const client = dashboardClient(t, account);
  const res = await client.post('/login', { email: account.email, password: TEST_PASSWORD, _token: '' });
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
  await client.get('/app/account'); // a page, for the CSRF token
  return client;
}

export const sessionsOf = (t: TestApp) => new SessionsRepository(t.db.handle.db);
