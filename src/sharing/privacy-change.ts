// Changing a resource's privacy: a password is required when privacy becomes Password and none
// is set yet, used only with Password, and cleared when privacy leaves it.
import { hashPassword } from '../accounts/passwords.js';
import { DEFAULT_PRIVACY, Privacy, type PrivacyState } from '../model/privacy.js';

/** A requested change: absent or null privacy keeps the current one; a password counts only with Privacy.Password. */
export interface PrivacyChange {
  privacy?: Privacy | null;
  password?: string | null;
}

/** The state of a resource that does not exist yet. */
export const NEW_RESOURCE: PrivacyState = { privacy: DEFAULT_PRIVACY, password_hash: null };

/** True when the change would protect the page with a password while none is given or set. */
export function lacksPassword(change: PrivacyChange, current: PrivacyState): boolean {
  const privacy = change.privacy ?? current.privacy;
  const hasOne = typeof change.password === 'string' || (current.privacy === Privacy.Password && current.password_hash !== null);
  return privacy === Privacy.Password && !hasOne;
}

/**
 * The state after the change. A given password is hashed here, so call this once the request
 * is otherwise valid and its work done (argon2 is deliberately slow). Callers check
 * lacksPassword first: a change that lacks one is a programming error.
 */
export async function applyPrivacy(change: PrivacyChange, current: PrivacyState): Promise<PrivacyState> {
  if (lacksPassword(change, current)) throw new Error('a password is required for Privacy.Password');
  const privacy = change.privacy ?? current.privacy;
  if (privacy !== Privacy.Password) return { privacy, password_hash: null };
  if (typeof change.password === 'string') return { privacy, password_hash: await hashPassword(change.password) };
  return { privacy, password_hash: current.password_hash };
}
