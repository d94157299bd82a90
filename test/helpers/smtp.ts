// A real SMTP server on 127.0.0.1 for the mail tests (smtp-server, nodemailer's sibling): it
// keeps every message it accepts, raw, and can be told to refuse (a 4xx or 5xx answer to the
// message) or to hang up on every connection, so the tests see what a client of a real server sees.
import { createServer, type Server, type Socket } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as it came over the wire (headers and MIME body). */
  raw: string;
  /** The login used, when the client authenticated. */
  user: string | null;
}

export type SmtpMode = 'accept' | 'reject-4xx' | 'reject-5xx' | 'hang-up';

export interface TestSmtpServer {
  port: number;
  /** SMTP_URL for this server (`smtps://…?tls.rejectUnauthorized=false` when it speaks TLS). */
  url: string;
  received: ReceivedMail[];
  /** Messages the server refused or hung up on. */
  refused: number;
  mode: SmtpMode;
  close(): Promise<void>;
}

export interface SmtpServerOptions {
  /** TLS from the first byte (smtps://) with smtp-server's built-in self-signed certificate (no hang-up mode). */
  secure?: boolean;
  /** Require this login (sent in the URL as user:pass). */
  login?: { user: string; pass: string };
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const state: TestSmtpServer = {
    port: 0,
    url: '',
    received,
    refused: 0,
    mode: 'accept',
    close: async () => {},
  };
  const serverOptions: SMTPServerOptions = {
    secure: options.secure ?? false,
    logger: false,
    disabledCommands: options.secure ? [] : ['STARTTLS'],
    authOptional: !options.login,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (options.login && auth.username === options.login.user && auth.password === options.login.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.mode === 'reject-4xx' || state.mode === 'reject-5xx') {
          state.refused++;
          const code = state.mode === 'reject-4xx' ? 451 : 554;
          callback(Object.assign(new Error(`Test server refuses the message (${code})`), { responseCode: code }));
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : null,
        });
        callback(null, `OK: queued as TEST${received.length}`);
      });
    },
  };
  const smtp = new SMTPServer(serverOptions);
  smtp.on('error', () => {}); // a client that hangs up mid-handshake is what some tests do
  let listener: Server;
  if (options.secure) {
    // TLS sockets handed over from another listener do not survive the upgrade: listen directly
    // (no hang-up mode then).
    listener = smtp.server;
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  } else {
    // Hang-up mode: a plain TCP listener in front that closes each connection at once.
    listener = createServer((socket) => {
      if (state.mode === 'hang-up') {
        state.refused++;
        socket.destroy();
        return;
      }
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      smtp.server.emit('connection', socket);
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  }
  const address = listener.address();
  state.port = typeof address === 'object' && address ? address.port : 0;
  const credentials = options.login ? `${encodeURIComponent(options.login.user)}:${encodeURIComponent(options.login.pass)}@` : '';
  state.url = options.secure
    ? `smtps://${credentials}127.0.0.1:${state.port}?tls.rejectUnauthorized=false`
    : `smtp://${credentials}127.0.0.1:${state.port}`;
  state.close = async () => {
    for (const socket of sockets) socket.destroy();
    if (listener !== smtp.server) await new Promise<void>((resolve) => listener.close(() => resolve()));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  };
  return state;
}
