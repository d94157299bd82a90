// `serve`, `migrate`, `users create`, `keys rotate`, `jobs`: the commands that need the database.
import { readStdin, type CliIo } from './io.js';
import { loadConfig, type AppConfig } from '../config.js';
import { withDatabase } from './database.js';
import { UsersRepository } from '../db/users-repository.js';
import { SessionsRepository } from '../db/sessions-repository.js';
import { AccountError, createAccount, rotateKey, setPassword } from '../accounts/accounts.js';
import { passwordProblem } from '../accounts/sessions.js';

export async function runAdmin(command: string, args: string[], io: CliIo): Promise<number> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    io.stderr.write(`rankscope: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    switch (`${command} ${args[0] ?? ''}`.trim()) {
      case 'migrate': {
        const applied = await withDatabase(config, async (_db, names) => names);
        io.stdout.write(applied.length ? applied.map((n) => `applied ${n}\n`).join('') : 'database is up to date\n');
        return 0;
      }
      case 'users create': {
        if (!args[1]) throw new AccountError('usage: rankscope users create <email>');
        const { user, key } = await withDatabase(config, (db) => createAccount(new UsersRepository(db.db), args[1]));
        io.stdout.write(`Created account ${user.email} (id ${user.id}). Its API key, shown only this once:\n${key}\n`);
        return 0;
      }
      case 'users password': {
        if (!args[1]) throw new AccountError('usage: rankscope users password <email>   (the password on standard input)');
        // One line from standard input (a terminal or a pipe), never an argument: arguments show in `ps`.
        const password = (await readStdin(io)).replace(/\r?\n$/, '');
        const problem = passwordProblem(password);
        if (problem) throw new AccountError(problem);
        await withDatabase(config, (db) =>
          setPassword(new UsersRepository(db.db), new SessionsRepository(db.db), args[1], password),
        );
        io.stdout.write(`Set the dashboard password of ${args[1].trim().toLowerCase()}; its sessions were signed out.\n`);
        return 0;
      }
      case 'keys rotate': {
        if (!args[1]) throw new AccountError('usage: rankscope keys rotate <email>');
        const key = await withDatabase(config, (db) => rotateKey(new UsersRepository(db.db), args[1]));
        io.stdout.write(`Issued a new API key for ${args[1].trim().toLowerCase()}; the old one no longer works:\n${key}\n`);
        return 0;
      }
      case 'jobs': {
        const { runJobs } = await import('./jobs.js');
        return await runJobs(config, args, io);
      }
      case 'serve': {
        const { serve } = await import('./serve.js');
        return await serve(config, io);
      }
      default:
        io.stderr.write(`rankscope: unknown command "${[command, ...args].join(' ')}" (see rankscope help)\n`);
        return 1;
    }
  } catch (error) {
    if (error instanceof AccountError) {
      io.stderr.write(`rankscope: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
