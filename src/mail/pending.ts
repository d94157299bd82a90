// TEMPORARY, until the mail service (SMTP and outbox) is merged: the composition root's
// placeholder for the instance's Mailer, so features that send mail can be wired and built
// before it. Queuing through it fails loudly (the job that tried is retried, then failed and
// listed by `rankscope jobs`): nothing is silently dropped. services.ts replaces it at merge.
import type { Mailer } from './mail-message.js';

export const pendingMailer: Mailer = {
  async queue() {
    throw new Error('mail service not wired');
  },
};
