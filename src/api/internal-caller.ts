// The dashboard is a client of this API, in process: its pages call the same routes (the same
// validation and messages, authorisation, events and webhooks) through Fastify's inject, as the
// account of the session. The credential is a random secret of this process and an account id;
// it never leaves the process, so no request from outside can carry it.
import { randomBytes, timingSafeEqual } from 'node:crypto';

const SCHEME = 'Internal ';

export class InternalCredential {
  private readonly secret = randomBytes(32).toString('base64url');

  /** The Authorization header of a call made for account `userId`. */
  header(userId: number): string {
    return `${SCHEME}${this.secret}.${userId}`;
  }

  /** Whether the header uses this scheme at all (then it must verify, or the call is refused). */
  static claims(header: string | undefined): boolean {
    return header?.startsWith(SCHEME) === true;
  }

  /** The account id a header of this process names, or null. */
  userId(header: string): number | null {
    const [secret, id, ...rest] = header.slice(SCHEME.length).split('.');
    if (rest.length > 0 || !secret || !id || !/^[1-9][0-9]{0,9}$/.test(id)) return null;
    const given = Buffer.from(secret);
    const own = Buffer.from(this.secret);
    return given.length === own.length && timingSafeEqual(given, own) ? Number(id) : null;
  }
}
