// Test doubles for the two outlets a feature hands its results to: a Mailer and an EventSink
// that record what they are given (tests only; the product wires the mail service and webhooks).
import { eventData, type EventData, type EventName, type EventSink } from '../../src/model/events.js';
import type { Mailer, MailMessage } from '../../src/mail/mail-message.js';

/** Keeps every mail queued; like the real one, a key already used queues nothing. */
export class RecordingMailer implements Mailer {
  readonly sent: { message: MailMessage; key: string | undefined }[] = [];
  /** Queue attempts, duplicates included. */
  attempts = 0;
  /** When set, queue() rejects with it (a mail store that is down). */
  failWith: Error | null = null;

  async queue(message: MailMessage, options: { key?: string } = {}): Promise<void> {
    this.attempts++;
    if (this.failWith) throw this.failWith;
    if (options.key !== undefined && this.sent.some((m) => m.key === options.key)) return;
    this.sent.push({ message, key: options.key });
  }

  to(address: string): MailMessage[] {
    return this.sent.filter((m) => m.message.to === address).map((m) => m.message);
  }
}

export class RecordingEvents implements EventSink {
  readonly published: { userId: number; event: EventName; data: any }[] = [];

  async publish(userId: number, event: EventName, data: EventData): Promise<void> {
    this.published.push({ userId, event, data: eventData(data) });
  }

  of(userId: number, event: EventName): any[] {
    return this.published.filter((e) => e.userId === userId && e.event === event).map((e) => e.data);
  }
}
