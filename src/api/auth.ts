// Bearer API keys: every /api/v1 route runs this before anything else (a 401 carries no
// rate-limit headers and does not count against the limit, as in Laravel).
import type { FastifyRequest } from 'fastify';
import { bearerToken, hashApiKey, hashesMatch } from '../accounts/api-keys.js';
import type { UsersRepository, User } from '../db/users-repository.js';
import { unauthenticated } from '../http/errors.js';
import { InternalCredential } from './internal-caller.js';

export function authenticate(users: UsersRepository, internal: InternalCredential) {
  return async function requireApiKey(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    if (InternalCredential.claims(header)) {
      // A dashboard page calling in process (internal-caller.ts); from outside, a plain 401.
      const id = internal.userId(header!);
      const user = id === null ? undefined : await users.findById(id);
      if (!user) throw unauthenticated();
      request.user = user;
      request.fromDashboard = true;
      return;
    }
    const token = bearerToken(header);
    if (token === null || token.length > 200) throw unauthenticated();
    const hash = hashApiKey(token);
    const user = await users.findByKeyHash(hash);
    if (!user || !hashesMatch(user.api_key_hash, hash)) throw unauthenticated();
    request.user = user;
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    /** Called in process by a dashboard page (internal-caller.ts), not by an API client. */
    fromDashboard: boolean;
  }
}
