// `rankscope mail outbox | test <to> | digest [--website ID]`: the mail commands
// (docs/monitors-and-mail.md). They open the database (migrating it) and build the same services the
// server runs, so a digest sent from here is the one a job would send.
import { parseArgs } from 'node:util';
import { loadConfig, type AppConfig, type Env } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/connection.js';
import { periodLabel } from '../digests/digest-mail.js';
import type { SentDigest } from '../digests/digest-service.js';
import type { JobLog } from '../jobs/log.js';
import type { MailMessage } from '../mail/mail-message.js';
import { buildServices, type Services } from '../services.js';
import { systemClock, type Clock } from '../time.js';
import type { CliIo } from './io.js';

const HELP = `Usage: rankscope mail <command>

Commands:
  outbox                    print the mails kept without SMTP_URL, one per line:
                            date, recipient, subject
  test <to>                 send a test mail to <to> now and print the SMTP
                            server's answer
  digest [--website ID]     send the digest of the last complete period now: of
                            website ID, or of every website with email = 1

Settings: SMTP_URL (smtp://user:pass@host:port, smtps:// for TLS), MAIL_FROM,
EMAIL_DIGEST (weekly, monthly or daily), APP_URL, DATABASE_URL.

Exit status: 0 when done (a website with email = 0 is not an error); 1 when a
mail could not be sent or no SMTP_URL is set for a test; 2 for a usage or
settings error.
`;

export interface MailCommandOptions {
  /** The environment settings are read from (tests pass theirs). */
  env?: Env;
  clock?: Clock;
}

/** One line, as a terminal shows it safely: no control characters from stored values. */
const line = (text: string) => text.replace(/\p{Cc}/gu, ' ');

function usage(io: CliIo, problem: string): number {
  io.stderr.write(`rankscope mail: ${problem}\n\n${HELP}`);
  return 2;
}

export async function runMail(args: string[], io: CliIo, options: MailCommandOptions = {}): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    return usage(io, (error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (command === undefined) return usage(io, 'give a command');
  if (!['outbox', 'test', 'digest'].includes(command)) return usage(io, `unknown command "${command}"`);
  if (values.website !== undefined && command !== 'digest') return usage(io, '--website goes with digest only');
  if (command === 'test' && (rest.length !== 1 || !/^[^\s@]+@[^\s@]+$/.test(rest[0]))) {
    return usage(io, 'mail test needs one e-mail address');
  }
  if (command !== 'test' && rest.length > 0) return usage(io, `unexpected argument "${rest[0]}"`);
  let websiteId: number | null = null;
  if (values.website !== undefined) {
    if (!/^[1-9]\d{0,15}$/.test(values.website)) return usage(io, '--website needs a website id (a positive integer)');
    websiteId = Number(values.website);
  }

  let config: AppConfig;
  try {
    config = loadConfig(options.env ?? process.env);
  } catch (error) {
    io.stderr.write(`rankscope mail: ${(error as Error).message}\n`);
    return 2;
  }
  if (command === 'test' && config.mail.smtpUrl === null) {
    io.stderr.write(
      'rankscope mail test: SMTP_URL is not set, so nothing can be sent (mails are kept in the outbox: rankscope mail outbox)\n',
    );
    return 1;
  }

  const database = await openDatabase(config.databaseUrl, { poolSize: Math.min(config.databasePoolSize, 4) });
  let services: Services | undefined;
  try {
    await migrateToLatest(database);
    services = buildServices({ config, database, log: stderrLog(io), clock: options.clock ?? systemClock, engineWorkers: false });
    if (command === 'outbox') return await outbox(services, io);
    if (command === 'test') return await test(services, rest[0], io);
    return await digest(services, websiteId, io);
  } finally {
    await services?.close();
    await database.close();
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { website: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
}

async function outbox(services: Services, io: CliIo): Promise<number> {
  const mails = await services.mail.outbox();
  for (const mail of mails) io.stdout.write(`${mail.created_at}  ${line(mail.recipient)}  ${line(mail.subject)}\n`);
  if (mails.length === 0) io.stderr.write('The outbox is empty.\n');
  else if (services.mail.canSend) {
    io.stderr.write('(these were kept while SMTP_URL was not set; they are not sent now that it is)\n');
  }
  return 0;
}

async function test(services: Services, to: string, io: CliIo): Promise<number> {
  const message: MailMessage = {
    to,
    subject: 'Rankscope test mail',
    text: `This is a test mail from Rankscope (${services.config.appUrl}).\n\nIf you can read it, mail works: digests and alerts will arrive.\n`,
    html: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Rankscope test mail</title></head><body style="font-family:Arial,sans-serif;color:#1f2328;"><p>This is a test mail from Rankscope.</p><p>If you can read it, mail works: digests and alerts will arrive.</p></body></html>`,
  };
  try {
    const response = await services.mail.sendTest(message);
    io.stdout.write(`Sent a test mail to ${to} through ${services.mail.target}. The server answered:\n${line(response)}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`rankscope mail test: ${services.mail.target} did not take the mail: ${line((error as Error).message)}\n`);
    return 1;
  }
}

async function digest(services: Services, websiteId: number | null, io: CliIo): Promise<number> {
  const result = await services.digests.sendLastPeriod(websiteId);
  if ('unknown' in result) {
    io.stderr.write(`rankscope mail digest: there is no website ${websiteId}\n`);
    return 1;
  }
  if ('off' in result) {
    const { website } = result.off;
    io.stdout.write(
      `Website ${website.id} (${website.domain}) has e-mail reports off (email = ${website.email ?? 'not set'}): nothing sent.\n`,
    );
    return 0;
  }
  if (result.sent.length === 0) {
    io.stdout.write('No website has e-mail reports on (email = 1): nothing sent.\n');
    return 0;
  }
  let failures = 0;
  for (const sent of result.sent) {
    const outcome = describe(sent, services);
    if (sent.delivery.status === 'error') {
      failures++;
      io.stderr.write(`${outcome}\n`);
    } else io.stdout.write(`${outcome}\n`);
  }
  return failures === 0 ? 0 : 1;
}

function describe({ target, period, delivery }: SentDigest, services: Services): string {
  const what = `${target.website.domain} (website ${target.website.id}), ${period.kind} digest for ${periodLabel(period)}`;
  switch (delivery.status) {
    case 'sent':
      return `${what}: sent to ${line(target.recipient)}; ${services.mail.target} answered: ${line(delivery.response)}`;
    case 'outbox':
      return `${what}: kept in the outbox for ${line(target.recipient)} (SMTP_URL is not set)`;
    case 'skipped':
      return `${what}: not sent (${delivery.current})`;
    case 'waiting':
      return `${what}: queued until ${new Date(delivery.until).toISOString()} (MAIL_PER_HOUR reached)`;
    case 'error':
      return `${what}: could not be sent to ${line(target.recipient)}: ${line(delivery.message)}${delivery.retried ? ' (kept; the job workers of `rankscope serve` try again)' : ''}`;
  }
}

/** Job-layer warnings go to stderr (never a credential: mail errors are masked before they get here). */
function stderrLog(io: CliIo): JobLog {
  const write = (object: object, message: string) => {
    const err = (object as { err?: unknown }).err;
    io.stderr.write(`rankscope mail: ${message}${err instanceof Error ? `: ${line(err.message)}` : ''}\n`);
  };
  return { info() {}, warn: write, error: write };
}
