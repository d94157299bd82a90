import '../formats.js'; // the formats these schemas name
import { Type } from '@sinclair/typebox';
import { DEFAULT_PRIVACY } from '../../model/privacy.js';
import { IntegerEnum, Page, Password, PerPage, PrivacyParam, Search, Sort, StringEnum } from '../../http/schemas.js';

const Toggle = (description: string) => IntegerEnum([0, 1], { description });
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
  search_by: Type.Optional(StringEnum(['domain'], { default: 'domain' })),
  sort_by: Type.Optional(StringEnum(['id', 'domain'], { default: 'id' })),
  sort: Type.Optional(Sort),
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
});

export const WebsiteCreateBody = Type.Object({
  domain: Type.String({ maxLength: 255, format: 'domain', description: 'Host name; a pasted URL is reduced to its host' }),
  privacy: Type.Optional({ ...PrivacyParam, default: DEFAULT_PRIVACY }),
  password: Type.Optional(Password),
  email: Type.Optional(Toggle('E-mail reports: 0 disabled, 1 enabled')),
  exclude_bots: Type.Optional({ ...Toggle('Exclude bots: 0 disabled, 1 enabled'), default: 1 }),
  exclude_params: Type.Optional(ExcludeParams),
  exclude_ips: Type.Optional(ExcludeIps),
});

export const WebsiteUpdateBody = Type.Object({
  privacy: Type.Optional(PrivacyParam),
  password: Type.Optional(Password),
  email: Type.Optional(Toggle('E-mail reports: 0 disabled, 1 enabled')),
  exclude_bots: Type.Optional(Toggle('Exclude bots: 0 disabled, 1 enabled')),
  exclude_params: Type.Optional(ExcludeParams),
  exclude_ips: Type.Optional(ExcludeIps),
});
