// A mail as every feature hands it to the mail service: both parts, always (docs/monitors-and-mail.md#mail:
// every mail has a plain-text part and an HTML part).
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Readable in common clients: inline styles, no remote images, no scripts. */
  html: string;
}

export interface Mailer {
  /**
   * Stores the mail and queues its sending as a job (or keeps it in the outbox without
   * SMTP_URL); resolves once stored, never waits for SMTP. A `key` makes it unique: the same
   * key queues nothing a second time (a digest's period, an alert's run). `account`: whose mail
   * it is, counted against that account's MAIL_PER_HOUR.
   */
  queue(message: MailMessage, options?: { key?: string; account?: number | null }): Promise<void>;
}
