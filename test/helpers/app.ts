// Builds the real application on a fresh database, with its log lines captured for assertions.
import { Writable } from 'node:stream';
import { after } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import type { Services } from '../../src/services.js';
import { loadConfig, type AppConfig } from '../../src/config.js';
import { UsersRepository } from '../../src/db/users-repository.js';
import { createAccount } from '../../src/accounts/accounts.js';
import { testDatabase, type TestDatabase } from './database.js';
import { watchResponses, type ResponseContract } from './contract.js';

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  config: AppConfig;
  logs: string[];
  users: UsersRepository;
  /** The app's services: its job queue (tests drain it), scheduler (tests tick it), repositories. */
  services: Services;
  /** Every response checked against the published OpenAPI document (asserted on close). */
  contract: ResponseContract;
  /** A new account and its key. */
  account(email?: string): Promise<{ id: number; email: string; key: string }>;
  /** inject() with the bearer key and form encoding filled in. */
  call(key: string, options: InjectOptions & { form?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** Frees it now (idempotent); otherwise it closes itself once the test file's tests have ended. */
  close(): Promise<void>;
}

let accounts = 0;

// Every app still open when the file's tests end is closed here, so a test cannot leak a server,
// a database or a scheduler (registered at import, on the file's root: an `after` called inside a
// suite's `before` hook would run as soon as that hook ends). The close also checks the responses against the OpenAPI document.
const open = new Set<() => Promise<void>>();
after(async () => {
  for (const close of [...open]) await close();
});

export async function testApp(
  env: Record<string, string> = {},
  options: Pick<AppOptions, 'analysisHooks' | 'clock' | 'mail' | 'events'> = {},
): Promise<TestApp> {
  const db = await testDatabase();
  // The limits are off unless a test sets them (their own tests do).
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '0', PUBLIC_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', ...env });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = await buildApp({ config, database: db.handle, logStream, ...options });
  const contract = watchResponses(app);
  await app.ready();
  const users = new UsersRepository(db.handle.db);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      open.delete(close);
      await app.close();
      await db.cleanup();
      contract.assertClean();
    })());
  open.add(close);
  return {
    app,
    db,
    config,
    logs,
    users,
    services: app.services,
    contract,
    async account(email) {
      const { user, key } = await createAccount(users, email ?? `user${++accounts}-${process.pid}@example.com`);
      return { id: user.id, email: user.email, key };
    },
    call(key, { form, headers, ...options }) {
      return app.inject({
        ...options,
        headers: {
          authorization: `Bearer ${key}`,
          accept: 'application/json',
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...headers,
        },
        ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
      });
    },
    close,
  };
}
