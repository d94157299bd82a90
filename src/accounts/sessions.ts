// Dashboard sign-in and sessions (docs/security.md#sessions-and-csrf). The cookie holds a random
// id; the database holds its SHA-256, the account and the session's CSRF token, so every
// instance on one database knows every session, and a copy of the table opens none. Only
// failed sign-ins count against the limits (per account and per address, in the shared
// window counter); once over, even the right password is refused until the window ends.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionRow, SessionsRepository } from '../db/sessions-repository.js';
import type { User, UsersRepository } from '../db/users-repository.js';
import { canMatchStoredText } from '../model/text.js';
import type { WindowCounter } from '../limits/window-counter.js';
import { formatTimestamp, type Clock } from '../time.js';
import { normalizeEmail } from './accounts.js';
import { hashPassword, verifyPassword } from './passwords.js';

export const SESSION_COOKIE = 'rankscope_session';
/** A session unused for this long ends (each use slides it, at most once a minute). */
export const SESSION_IDLE_MS = 14 * 24 * 3600 * 1000;
const TOUCH_AFTER_MS = 60_000;

export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 200;

export type SignInResult =
  | { ok: true; sessionId: string; user: User }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'limited'; retryAfterSeconds: number };

export interface ActiveSession {
  user: User;
  session: SessionRow;
}

/** Why a new password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `The password must not be greater than ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

/** A password for the first account: 20 characters of base64url (120 bits). */
export const generatePassword = () => randomBytes(15).toString('base64url');

export class SessionService {
  /** Verified against when the account does not exist, so both cost the same time. */
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly deps: { users: UsersRepository; sessions: SessionsRepository; counter: WindowCounter; clock: Clock },
  ) {}

  private stamp(offsetMs = 0): string {
    return formatTimestamp(new Date(Math.floor(this.deps.clock.now()) + offsetMs));
  }

  async signIn(email: string, password: string, address: string): Promise<SignInResult> {
    let normalized: string | null;
    try {
      normalized = normalizeEmail(email);
    } catch {
      normalized = null;
    }
    const { counter, users } = this.deps;
    // Counted before the (slow) verification, atomically, so parallel guesses cannot all pass a
    // check made before any of them counted; a success takes its hits back.
    const accountKey = `signin:account:${normalized ?? email.trim().toLowerCase().slice(0, 255)}`;
    const addressKey = `signin:address:${address}`;
    const [byAccount, byAddress] = await Promise.all([
      counter.incr(accountKey, FAILURE_WINDOW_MS),
      counter.incr(addressKey, FAILURE_WINDOW_MS),
    ]);
    const over = [
      byAccount.count > MAX_FAILURES_PER_ACCOUNT ? byAccount.ttl : 0,
      byAddress.count > MAX_FAILURES_PER_ADDRESS ? byAddress.ttl : 0,
    ];
    if (Math.max(...over) > 0) {
      await Promise.all([counter.decr(accountKey), counter.decr(addressKey)]); // a refused attempt is not a failure
      return { ok: false, reason: 'limited', retryAfterSeconds: Math.max(1, Math.ceil(Math.max(...over) / 1000)) };
    }
    // An address no account can have (one holding a NUL, which a database cannot even be asked
    // to look up) is an unknown account: the usual refusal, verified against the dummy hash.
    const user = normalized === null || !canMatchStoredText(normalized) ? undefined : await users.findByEmail(normalized);
    const hash = user?.password_hash ?? (await this.dummy());
    const valid = (await verifyPassword(hash, password.slice(0, MAX_PASSWORD_LENGTH * 4))) && user?.password_hash != null;
    if (!valid || !user) return { ok: false, reason: 'invalid' };
    await Promise.all([counter.decr(accountKey), counter.decr(addressKey)]);
    return { ok: true, sessionId: await this.open(user.id), user };
  }

  /** A new session for the account; returns the cookie's id. */
  async open(userId: number): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = this.stamp();
    // Sign-ins are rare: each one clears the sessions that have expired, so the table stays small.
    await this.deps.sessions.deleteExpired(now);
    await this.deps.sessions.create({
      id_hash: hashSessionId(id),
      user_id: userId,
      csrf_token: randomBytes(24).toString('base64url'),
      created_at: now,
      last_seen_at: now,
      expires_at: this.stamp(SESSION_IDLE_MS),
    });
    return id;
  }

  /** The session of a cookie's id, or null (unknown, expired or malformed). */
  async resolve(id: string | undefined): Promise<ActiveSession | null> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const idHash = hashSessionId(id);
    const found = await this.deps.sessions.findActive(idHash, this.stamp());
    if (!found) return null;
    if (Date.parse(found.session.last_seen_at) + TOUCH_AFTER_MS < this.deps.clock.now()) {
      await this.deps.sessions.touch(idHash, this.stamp(), this.stamp(SESSION_IDLE_MS));
    }
    return found;
  }

  async signOut(id: string | undefined): Promise<void> {
    if (id && /^[A-Za-z0-9_-]{43}$/.test(id)) await this.deps.sessions.delete(hashSessionId(id));
  }

  /**
   * Changes the password after checking the current one; every session of the account ends
   * (this one too) and a new one opens for the browser that changed it. Returns its id, or the
   * reason for refusing.
   */
  async changePassword(
    user: User,
    current: string,
    next: string,
  ): Promise<{ ok: true; sessionId: string } | { ok: false; field: 'current_password' | 'password'; message: string }> {
    if (user.password_hash === null || !(await verifyPassword(user.password_hash, current.slice(0, MAX_PASSWORD_LENGTH * 4)))) {
      return { ok: false, field: 'current_password', message: 'The current password is incorrect.' };
    }
    const problem = passwordProblem(next);
    if (problem) return { ok: false, field: 'password', message: problem };
    await this.deps.users.setPasswordHash(user.id, await hashPassword(next));
    await this.deps.sessions.deleteForUser(user.id);
    return { ok: true, sessionId: await this.open(user.id) };
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}

/** Constant-time comparison of a form's CSRF token with the session's. */
export function csrfMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
