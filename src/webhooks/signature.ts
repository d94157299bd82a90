// Webhook secrets and signatures. Every delivery carries two signatures, both keyed with the
// secret's UTF-8 bytes (the whole `whsec_…` string):
// - `X-Rankscope-Signature: sha256=<hex HMAC of the raw body>`, the original one;
// - the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature:
//   v1,<base64 HMAC of "id.timestamp.body">`), whose timestamp lets a receiver refuse a captured
//   delivery replayed later. Any Standard Webhooks library verifies them given the base64 of
//   the secret string. docs/webhooks.md has the code.
import { createHmac, randomBytes } from 'node:crypto';

/** A new secret: 32 random bytes (256 bits), base64url, behind a prefix that says what it is. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `sha256=<hex HMAC-SHA256 of the body, keyed with the whole secret string>`. */
export function signatureOf(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`: the Standard Webhooks signature. */
export function standardSignatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The signing headers of one attempt: the delivery's own id (the same on every retry, so a
 * receiver can drop duplicates) and this attempt's time in Unix seconds (so a receiver can
 * refuse an old one: Standard Webhooks libraries allow 5 minutes).
 */
export function signatureHeaders(secret: string, deliveryId: string, body: string, nowMs: number): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'x-rankscope-signature': signatureOf(secret, body),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatureOf(secret, deliveryId, timestamp, body),
  };
}
