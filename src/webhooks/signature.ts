// Webhook secrets and signatures. A receiver verifies `X-Rankscope-Signature` by computing the
// same HMAC over the raw body it received (README "Webhooks" has the code).
import { createHmac, randomBytes } from 'node:crypto';

/** A new secret: 32 random bytes (256 bits), base64url, behind a prefix that says what it is. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `sha256=<hex HMAC-SHA256 of the body, keyed with the whole secret string>`. */
export function signatureOf(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
