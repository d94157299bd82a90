// API keys: 32 random bytes shown once, stored only as their SHA-256. A key check is one hash
// plus an indexed lookup; the stored and computed hashes are compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'rk_';

export function generateApiKey(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function hashesMatch(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
