// `rankscope serve`: migrate, make sure an account exists, listen, and shut down gracefully.
import type { CliIo } from './io.js';
import type { AppConfig } from '../config.js';
import { migrateToLatest, openDatabase, refreshStatistics } from '../db/connection.js';
import { UsersRepository } from '../db/users-repository.js';
import { ensureFirstAccount } from '../accounts/accounts.js';
import { generatePassword } from '../accounts/sessions.js';
import { buildApp } from '../app.js';

export async function serve(config: AppConfig, io: CliIo): Promise<number> {
  const database = await openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize });
  await migrateToLatest(database);
  const first = await ensureFirstAccount(new UsersRepository(database.db), config.adminEmail, generatePassword);
  if (first) {
    io.stdout.write(
      `Created the first account, ${first.email}. Its API key, shown only this once:\n${first.key}\n` +
        `Its dashboard password (sign in at /login; change it under Account), shown only this once:\n${first.password}\n` +
        `(more accounts: npx rankscope users create <email>; a password: npx rankscope users password <email>)\n`,
    );
  }

  const app = await buildApp({ config, database });
  let maintenance: NodeJS.Timeout | undefined;
  // The signal handlers come first: a SIGTERM that arrives while the instance is still starting
  // (pg-boss takes a moment) must shut it down gracefully too, not kill it.
  let starting: Promise<unknown> = Promise.resolve();
  const stopped = new Promise<number>((resolve) => {
    let closing = false;
    const shutdown = async (signal: string) => {
      // A repeated signal while closing changes nothing (orchestrators often send several).
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down: refusing new connections, finishing in-flight requests, analyses and jobs');
      // In-flight work is bounded (analyses time out), but never wait forever for a stuck peer.
      const deadline = setTimeout(() => {
        app.log.error('shutdown took over 60 s: exiting anyway');
        process.exit(1);
      }, 60_000);
      deadline.unref();
      clearInterval(maintenance);
      try {
        await starting.catch(() => {});
        await app.close(); // stops accepting, waits for in-flight requests, then running jobs
        await database.close();
        resolve(0);
      } catch (error) {
        app.log.error({ err: error }, 'shutdown failed');
        resolve(1);
      }
    };
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));
  });

  starting = (async () => {
    await app.listen({ host: config.host, port: config.port });
    // Jobs and schedules start once the instance serves, and stop after its last request.
    await app.services.startWorkers();
    await refreshStatistics(database);
    maintenance = setInterval(() => {
      refreshStatistics(database).catch((error: unknown) => app.log.warn({ err: error }, 'refreshing query statistics failed'));
    }, 3_600_000);
    maintenance.unref();
  })();
  await starting;
  return stopped;
}
