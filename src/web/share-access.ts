// Who may see a password-protected share page: a signed, HttpOnly, SameSite=Lax cookie scoped
// to that one page. Its value is a fingerprint of the resource's current privacy and password
// hash, so changing either locks every earlier cookie out.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type ShareKind = 'report' | 'website';

export interface Protected {
  id: number;
  privacy: number;
  password_hash: string | null;
}

const COOKIE_HOURS = 12;

export const sharePath = (kind: ShareKind, id: number) => `/${kind}s/${id}`;
const cookieName = (kind: ShareKind, id: number) => `rankscope_${kind}_${id}`;

function fingerprint(kind: ShareKind, resource: Protected): string {
  return createHash('sha256')
    .update(`${kind}:${resource.id}:${resource.privacy}:${resource.password_hash ?? ''}`)
    .digest('base64url')
    .slice(0, 32);
}

export function hasAccess(request: FastifyRequest, kind: ShareKind, resource: Protected): boolean {
  const raw = request.cookies[cookieName(kind, resource.id)];
  if (!raw) return false;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value === fingerprint(kind, resource);
}

export function grantAccess(request: FastifyRequest, reply: FastifyReply, kind: ShareKind, resource: Protected): void {
  reply.setCookie(cookieName(kind, resource.id), fingerprint(kind, resource), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: sharePath(kind, resource.id),
    maxAge: COOKIE_HOURS * 3600,
  });
}
