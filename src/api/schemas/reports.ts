import '../formats.js'; // the formats these schemas name
import { Type } from '@sinclair/typebox';
import { DEFAULT_PRIVACY } from '../../model/privacy.js';
import { Page, Password, PerPage, PrivacyParam, Search, Sort, StringEnum, Timestamp } from '../../http/schemas.js';

export const ReportListQuery = Type.Object({
  search: Type.Optional({ ...Search, description: 'Case-insensitive substring of the url or the project' }),
  project: Type.Optional(Type.String({ maxLength: 255, description: 'Exact project name' })),
  result: Type.Optional(
    StringEnum(['good', 'decent', 'bad'], { description: 'Score band: good (90 and above), decent (50 to 89), bad (below 50)' }),
  ),
  sort_by: Type.Optional(StringEnum(['id', 'generated_at', 'url', 'result'], { default: 'id' })),
  sort: Type.Optional(Sort),
  per_page: Type.Optional(PerPage),
  page: Type.Optional(Page),
});

export const ReportCreateBody = Type.Object({
  url: Type.String({ maxLength: 2048, format: 'http-url', description: 'Page to analyse; a bare host gets https://' }),
  privacy: Type.Optional({ ...PrivacyParam, default: DEFAULT_PRIVACY }),
  password: Type.Optional(Password),
  render: Type.Optional(
    Type.Boolean({
      default: false,
      description: '1 renders the page in Chromium and runs the checks on its DOM (needs Chromium: GET /health shows render)',
    }),
  ),
});

export const ReportUpdateBody = Type.Object({
  privacy: Type.Optional(PrivacyParam),
  password: Type.Optional(Password),
  results: Type.Optional(
    Type.Boolean({ description: '1 re-runs the analysis and refreshes result, results, rendered and generated_at' }),
  ),
  render: Type.Optional(
    Type.Boolean({ default: false, description: 'With results=1: 1 renders the page in Chromium for the re-run' }),
  ),
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
