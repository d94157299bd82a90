// `rankscope <command>`: the one command-line entry (npm start runs `serve`).

import type { CliIo } from './io.js';

export type { CliIo } from './io.js';

const USAGE = `Usage: rankscope <command>

Commands:
  serve                      start the API server (runs migrations first)
  migrate                    apply pending database migrations
  users create <email>       create an account; prints its API key on the last line
  users password <email>     set an account's dashboard password, read from standard input
  keys rotate <email>        issue a new API key for an account; the old one stops working
  jobs                       list the jobs queued, waiting to retry, running or failed
  analyze <url…> [--json] [--concurrency N]
                             analyse pages without a server or database
  crawl <url> [--max-pages N] [--json|--csv]
                             audit a whole site without a server
  mail outbox                print the mails kept without SMTP_URL (date, recipient, subject)
  mail test <to>             send a test mail now and print the SMTP server's answer
  mail digest [--website ID] send the digest of the last complete period now
`;

const stdio: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };

export async function main(argv: string[], io: CliIo = stdio): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'analyze': {
      const { runAnalyze } = await import('./analyze.js');
      return runAnalyze(rest, io);
    }
    case 'crawl': {
      const { runCrawl } = await import('./crawl.js');
      return runCrawl(rest, io);
    }
    case 'mail': {
      const { runMail } = await import('./mail.js');
      return runMail(rest, io);
    }
    case 'serve':
    case 'migrate':
    case 'users':
    case 'keys':
    case 'jobs': {
      const { runAdmin } = await import('./admin.js');
      return runAdmin(command, rest, io);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout.write(USAGE);
      return command === undefined ? 1 : 0;
    default:
      io.stderr.write(`rankscope: unknown command "${command}"\n\n${USAGE}`);
      return 1;
  }
}
