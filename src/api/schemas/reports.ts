import { Type } from '@sinclair/typebox';
import { DEFAULT_PRIVACY } from '../../sharing/privacy.js';
import { CHECK_NAMES } from '../../analysis/types.js';
import {
  Envelope,
  Page,
  Paginated,
  Password,
  PerPage,
  PrivacyLevel,
  PrivacyParam,
  Search,
  Sort,
  StringEnum,
  Timestamp,
} from './common.js';

export const CheckObject = Type.Object(
  {
    passed: Type.Boolean(),
    importance: StringEnum(['high', 'medium', 'low']),
    value: Type.Unknown({ description: 'null, string, number, array or object depending on the check' }),
    errors: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Only on failure: one key naming the failure; a head check (title, meta_description, meta_viewport, charset, favicon) may add head_closed_by after it, naming the element ("<iframe>") or "#text" that closed the head early',
      }),
    ),
    omitted: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 1 }), {
        description:
          'Only when the report left items out: maps the JSON Pointer (RFC 6901) of each cut list or object within this check object ' +
          '(e.g. "/value/Internals", "/errors/missing") to the number of items or entries left out, so listed + omitted is the exact count',
      }),
    ),
  },
  { $id: 'CheckObject' },
);

export const Report = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'The analysed page (the final URL after redirects)' }),
    project: Type.String({ description: 'The host of the url without a leading www.' }),
    result: Type.Integer({ minimum: 0, maximum: 100, description: 'Overall score' }),
    results: Type.Object(Object.fromEntries(CHECK_NAMES.map((name) => [name, Type.Ref(CheckObject)]))),
    privacy: PrivacyLevel(),
    password: Type.Boolean({ description: 'Whether a share-page password is set' }),
    generated_at: Timestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Report' },
);

export const ReportShown = Envelope(Type.Ref(Report));
export const ReportCreated = Envelope(Type.Ref(Report), 201);
export const ReportPage = Paginated(Type.Ref(Report));

export const ReportListQuery = Type.Object({
  search: Type.Optional({ ...Search, description: 'Case-insensitive substring of the url or the project' }),
  project: Type.Optional(Type.String({ maxLength: 255, description: 'Exact project name' })),
  result: Type.Optional(StringEnum(['good', 'decent', 'bad'], { description: 'Score band (see the README)' })),
  sort_by: Type.Optional(StringEnum(['id', 'generated_at', 'url', 'result'], { default: 'id' })),
  sort: Type.Optional(Sort),
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
});

export const ReportCreateBody = Type.Object({
  url: Type.String({ maxLength: 2048, format: 'http-url', description: 'Page to analyse; a bare host gets https://' }),
  privacy: Type.Optional({ ...PrivacyParam, default: DEFAULT_PRIVACY }),
  password: Type.Optional(Password),
});

export const ReportUpdateBody = Type.Object({
  privacy: Type.Optional(PrivacyParam),
  password: Type.Optional(Password),
  results: Type.Optional(Type.Boolean({ description: '1 re-runs the analysis and refreshes result, results and generated_at' })),
});

export const ProjectListQuery = Type.Object({
  search: Type.Optional({ ...Search, description: 'Case-insensitive substring of the project' }),
  sort_by: Type.Optional(StringEnum(['created_at', 'project'], { default: 'created_at' })),
  sort: Type.Optional(Sort),
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
});

export const Project = Type.Object(
  {
    project: Type.String(),
    reports_count: Type.Integer(),
    created_at: { ...Timestamp, description: 'When its first report was created' },
    updated_at: { ...Timestamp, description: 'When one of its reports last changed' },
  },
  { $id: 'Project' },
);

export const Account = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    reports_count: Type.Integer(),
    projects_count: Type.Integer(),
    websites_count: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Account' },
);
