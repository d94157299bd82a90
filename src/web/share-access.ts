// Who may see a password-protected share page: a signed, HttpOnly, SameSite=Lax cookie scoped
// to that one page. Its value is `<issued at>.<nonce>.<fingerprint>`: the fingerprint of the
// resource's current privacy and password hash (changing either locks every earlier cookie
// out), the issue time (a cookie older than COOKIE_MAX_AGE_SECONDS opens nothing, whatever the
// browser keeps) and a nonce (two unlocks never give the same cookie).
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../time.js';
import type { PrivacyState } from '../model/privacy.js';
import { type ShareKind, sharePath } from '../render/share-path.js';

export interface Protected extends PrivacyState {
  id: number;
}

/** 12 hours: long enough to read and share a page in a meeting, far below the 30-day ceiling. */
export const COOKIE_MAX_AGE_SECONDS = 12 * 3600;
/** Clocks of several instances may disagree a little. */
const CLOCK_SKEW_SECONDS = 60;

const cookieName = (kind: ShareKind, id: number) => `rankscope_${kind}_${id}`;

function fingerprint(kind: ShareKind, resource: Protected): string {
  return createHash('sha256')
    .update(`${kind}:${resource.id}:${resource.privacy}:${resource.password_hash ?? ''}`)
    .digest('base64url')
    .slice(0, 32);
}

const seconds = (clock: Clock) => Math.floor(clock.now() / 1000);

export function hasAccess(request: FastifyRequest, kind: ShareKind, resource: Protected, clock: Clock): boolean {
  const raw = request.cookies[cookieName(kind, resource.id)];
  if (!raw) return false;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return false;
  const [issued, nonce, print, ...rest] = unsigned.value.split('.');
  if (rest.length > 0 || !/^[0-9]{1,12}$/.test(issued ?? '') || !nonce || print !== fingerprint(kind, resource)) return false;
  const age = seconds(clock) - Number(issued);
  return age >= -CLOCK_SKEW_SECONDS && age < COOKIE_MAX_AGE_SECONDS;
}

export function grantAccess(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: ShareKind,
  resource: Protected,
  clock: Clock,
): void {
  const value = `${seconds(clock)}.${randomBytes(12).toString('base64url')}.${fingerprint(kind, resource)}`;
  reply.setCookie(cookieName(kind, resource.id), value, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: sharePath(kind, resource.id),
    maxAge: COOKIE_MAX_AGE_SECONDS,
  });
}
