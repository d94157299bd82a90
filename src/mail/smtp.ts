// The SMTP side of mail: one nodemailer transport from SMTP_URL (`smtp://` plain or STARTTLS,
// `smtps://` TLS from the first byte), bounded in time so a stuck server never holds a worker,
// and the one place that knows the credentials: whatever leaves it (errors, the target shown
// by the CLI) has them masked.
import type nodemailer from 'nodemailer';
import type { MailMessage } from './mail-message.js';

/** Connecting (DNS included), then the greeting, each at most this long. */
const CONNECT_TIMEOUT_MS = 10_000;
/** A server silent this long mid-conversation is given up on. */
const SOCKET_TIMEOUT_MS = 30_000;
/** One whole send, however slowly a server trickles its answers. */
export const SEND_DEADLINE_MS = 60_000;

export interface SmtpResult {
  /** The server's final answer, e.g. `250 2.0.0 Ok: queued as 4F1B2`. */
  response: string;
}

export class SmtpSender {
  private transport: ReturnType<typeof nodemailer.createTransport> | null = null;
  private readonly mask: (text: string) => string;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {
    this.mask = credentialMask(url);
  }

  /** Where mail goes, without credentials: `smtps://mail.example.com:465`. */
  get target(): string {
    return smtpTarget(this.url);
  }

  /** Sends one mail; throws an Error whose message names the failure, credentials masked. */
  async send(message: MailMessage): Promise<SmtpResult> {
    // nodemailer is loaded on the first send: without SMTP_URL it is never needed.
    const { createTransport } = (await import('nodemailer')).default;
    this.transport ??= createTransport({
      url: this.url,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      dnsTimeout: CONNECT_TIMEOUT_MS,
      greetingTimeout: CONNECT_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
      logger: false,
      debug: false,
      // Our mails carry no attachments: nothing in one may make nodemailer read a file or a URL.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { 'Auto-Submitted': 'auto-generated' },
        signal: AbortSignal.timeout(SEND_DEADLINE_MS),
      });
      return { response: this.mask(String(info.response ?? '')) };
    } catch (error) {
      throw new Error(this.mask(describeFailure(error)));
    }
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}

/** An SMTP URL without its user and password. */
export function smtpTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'the SMTP server';
  }
}

/** nodemailer's error as one line: its message (which quotes the server's reply when there is one). */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const text = error.message.replace(/\s+/g, ' ').trim();
  if (error.name === 'AbortError') return `no answer within ${SEND_DEADLINE_MS / 1000} s (the send was cut off)`;
  return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
}

/**
 * Replaces the URL's password and user (as written and decoded, and the AUTH PLAIN/LOGIN forms
 * of them) wherever they appear in a text.
 */
export function credentialMask(url: string): (text: string) => string {
  let secrets: string[] = [];
  try {
    const parsed = new URL(url);
    const user = safeDecode(parsed.username);
    const pass = safeDecode(parsed.password);
    secrets = [parsed.password, pass];
    if (user && pass) secrets.push(Buffer.from(`\u0000${user}\u0000${pass}`).toString('base64'));
    if (pass) secrets.push(Buffer.from(pass).toString('base64'));
  } catch {
    // Not a URL: nothing to know of it.
  }
  // Very short passwords would mask ordinary words; they are masked in the URL form alone.
  const masked = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text.replace(/(smtps?:\/\/)[^/@\s]*@/gi, '$1***@');
    for (const secret of masked) out = out.split(secret).join('***');
    return out;
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
