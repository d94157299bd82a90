// Share-page passwords: argon2id with a random salt (the library's defaults follow OWASP).
// The native module loads on first use: most commands (a crawl, a migration) never hash one.
const argon2 = () => import('@node-rs/argon2');

const ARGON2ID = 2; // Algorithm.Argon2id; the const enum is not importable under isolatedModules

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await (await argon2()).verify(hashed, password);
  } catch {
    return false;
  }
}
