// Accounts and their API keys, for the CLI and the first start.
import type { UsersRepository, User } from '../db/users-repository.js';
import { isUniqueViolation } from '../db/errors.js';
import type { SessionsRepository } from '../db/sessions-repository.js';
import { generateApiKey, hashApiKey } from './api-keys.js';
import { hashPassword } from './passwords.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class AccountError extends Error {}

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized) || normalized.length > 255) throw new AccountError(`"${email}" is not a valid e-mail address`);
  return normalized;
}

/** Creates an account; returns it with its key (the only time the key exists in clear). */
export async function createAccount(users: UsersRepository, email: string): Promise<{ user: User; key: string }> {
  const normalized = normalizeEmail(email);
  const key = generateApiKey();
  try {
    return { user: await users.create(normalized, hashApiKey(key)), key };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AccountError(`an account for ${normalized} already exists`);
    throw error;
  }
}

/** Issues a new key; the old one stops working at once. */
export async function rotateKey(users: UsersRepository, email: string): Promise<string> {
  const normalized = normalizeEmail(email);
  const key = generateApiKey();
  if (!(await users.rotateKey(normalized, hashApiKey(key)))) throw new AccountError(`no account for ${normalized}`);
  return key;
}

/** Issues a new key for an account by id (the dashboard); the old one stops working at once. */
export async function issueKey(users: UsersRepository, userId: number): Promise<string> {
  const key = generateApiKey();
  if (!(await users.rotateKeyById(userId, hashApiKey(key)))) throw new AccountError(`no account ${userId}`);
  return key;
}

/** Sets an account's dashboard password (rules checked by the caller) and ends its sessions. */
export async function setPassword(
  users: UsersRepository,
  sessions: SessionsRepository,
  email: string,
  password: string,
): Promise<void> {
  const normalized = normalizeEmail(email);
  const user = await users.findByEmail(normalized);
  if (!user) throw new AccountError(`no account for ${normalized}`);
  await users.setPasswordHash(user.id, await hashPassword(password));
  await sessions.deleteForUser(user.id);
}

/**
 * On an empty database, creates the first account and returns its key, and its dashboard
 * password when `generatePassword` is given (`serve`; a crawl from the terminal skips the
 * argon2id hash). Null when there is an account already. Several instances starting together
 * on one PostgreSQL: the unique e-mail lets only one of them win.
 */
export async function ensureFirstAccount(
  users: UsersRepository,
  email: string,
  generatePassword?: () => string,
): Promise<{ email: string; key: string; password: string | null } | null> {
  if ((await users.count()) > 0) return null;
  try {
    const { user, key } = await createAccount(users, email);
    const password = generatePassword?.() ?? null;
    if (password !== null) await users.setPasswordHash(user.id, await hashPassword(password));
    return { email: user.email, key, password };
  } catch (error) {
    if (error instanceof AccountError) return null;
    throw error;
  }
}
