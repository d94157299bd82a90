// A fixture's stored password hash: a real argon2id hash, made once per password in a test
// process and reused. Each hash costs ~20 MB and 100–200 ms of CPU by design; seeding dozens of
// rows with the same password paid it dozens of times. Verification (sign-in, share pages) still
// runs argon2 on every request.
import { hashPassword } from '../../src/accounts/passwords.js';

const hashes = new Map<string, Promise<string>>();

export function fixtureHash(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (hashed === undefined) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}
