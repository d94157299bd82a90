import type { Static } from '@sinclair/typebox';
import type { WebsiteRow } from '../db/websites-repository.js';
import type { Website } from './schemas.js';

/** The API's Website: the row minus owner and hash; `password` says only whether one is set. */
export function websiteResource(row: WebsiteRow): Static<typeof Website> {
  return {
    id: row.id,
    domain: row.domain,
    privacy: row.privacy,
    email: row.email,
    password: row.password_hash !== null,
    exclude_bots: row.exclude_bots,
    exclude_ips: row.exclude_ips,
    exclude_params: row.exclude_params,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
