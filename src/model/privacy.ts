// Who may open a report's or a website's share page: one type for the API, the database and the
// pages, instead of bare 0/1/2 (docs/api.md "Reports": privacy and passwords).

export const Privacy = { Public: 0, Private: 1, Password: 2 } as const;
export type Privacy = (typeof Privacy)[keyof typeof Privacy];

/** Every level, in the API's order (its schemas enumerate these). */
export const PRIVACY_LEVELS: readonly Privacy[] = [Privacy.Public, Privacy.Private, Privacy.Password];

/** What a new report or website gets when privacy is not given. */
export const DEFAULT_PRIVACY: Privacy = Privacy.Private;

/** A resource's stored privacy. */
export interface PrivacyState {
  privacy: Privacy;
  /** argon2id hash of the share-page password, or null. */
  password_hash: string | null;
}
