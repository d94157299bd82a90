import { Type } from '@sinclair/typebox';
import { Password, PerPage, Privacy, Search, Sort, Timestamp } from './common.js';

const Toggle = (description: string) => Type.Integer({ enum: [0, 1], description });
/** Two lists at this length, fully percent-encoded, still fit in the smallest body limit (config.ts). */
const MAX_LIST_LENGTH = 8192;
const ExcludeIps = Type.String({
  maxLength: MAX_LIST_LENGTH,
  format: 'ip-list',
  description: 'One IPv4/IPv6 address or CIDR range per line; empty clears it',
});
const ExcludeParams = Type.String({
  maxLength: MAX_LIST_LENGTH,
  format: 'param-list',
  description: 'One query parameter name per line; empty clears it',
});

export const WebsiteListQuery = Type.Object({
  search: Type.Optional(Search),
  search_by: Type.Optional(Type.String({ enum: ['domain'], default: 'domain' })),
  sort_by: Type.Optional(Type.String({ enum: ['id', 'domain'], default: 'id' })),
  sort: Type.Optional(Sort),
  per_page: Type.Optional(PerPage),
});

export const WebsiteCreateBody = Type.Object(
  {
    domain: Type.String({ maxLength: 255, format: 'domain', description: 'Host name; a pasted URL is reduced to its host' }),
    privacy: Type.Optional({ ...Privacy, default: 1 }),
    password: Type.Optional(Password),
    email: Type.Optional(Toggle('E-mail reports: 0 disabled, 1 enabled')),
    exclude_bots: Type.Optional({ ...Toggle('Exclude bots: 0 disabled, 1 enabled'), default: 1 }),
    exclude_params: Type.Optional(ExcludeParams),
    exclude_ips: Type.Optional(ExcludeIps),
  },
);

export const WebsiteUpdateBody = Type.Object({
  privacy: Type.Optional(Privacy),
  password: Type.Optional(Password),
  email: Type.Optional(Toggle('E-mail reports: 0 disabled, 1 enabled')),
  exclude_bots: Type.Optional(Toggle('Exclude bots: 0 disabled, 1 enabled')),
  exclude_params: Type.Optional(ExcludeParams),
  exclude_ips: Type.Optional(ExcludeIps),
});

export const Website = Type.Object(
  {
    id: Type.Integer(),
    domain: Type.String(),
    privacy: Type.Integer({ enum: [0, 1, 2] }),
    email: Type.Union([Type.Integer({ enum: [0, 1] }), Type.Null()]),
    password: Type.Boolean({ description: 'Whether a share-page password is set' }),
    exclude_bots: Type.Integer({ enum: [0, 1] }),
    exclude_ips: Type.Union([Type.String(), Type.Null()]),
    exclude_params: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Website' },
);
