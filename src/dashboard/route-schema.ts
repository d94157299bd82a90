// Every dashboard route is in the OpenAPI document (tag "dashboard"), like the share pages:
// the document lists every route the service answers, and tests hold responses to it.
import { documentResponse, emptyResponse } from '../http/openapi-responses.js';

type Answer = 200 | 303 | 401 | 403 | 404 | 422 | 429;

const DESCRIPTIONS: Record<
  Answer,
  (kind: 'page' | 'form') => ReturnType<typeof documentResponse> | ReturnType<typeof emptyResponse>
> = {
  200: () => documentResponse('The page'),
  303: (kind) =>
    emptyResponse(
      kind === 'form' ? 'Done: on to the next page (or to /login without a session)' : 'Without a session: to /login',
    ),
  401: () => documentResponse('Wrong e-mail or password: the form again'),
  403: () => documentResponse('Form refused: sent from another site, or without the session’s CSRF token'),
  404: () => documentResponse('Unknown, or another account’s'),
  422: () => documentResponse('Refused input: the form again, with a message at each field'),
  429: (kind) =>
    documentResponse(
      kind === 'form'
        ? 'Refused for now, with Retry-After: too many failed sign-ins or requests from one address (/login); past the account’s API budget a minute, or a monitor run again within a minute (/app forms)'
        : 'Too many requests from this address (PUBLIC_RATE_LIMIT_PER_MINUTE): try again after Retry-After seconds',
    ),
};

/**
 * The schema of a dashboard route: a page (GET: 200, 303 without a session, 404) or a form
 * (POST: 303 when done, 403 refused, 404, 422, 429 refused for now), plus any `extra` answers it gives.
 */
export function dashboardSchema(summary: string, kind: 'page' | 'form', extra: Answer[] = []) {
  // Every form may meet the API's 429 (the account's budget a minute counts the dashboard's writes).
  const answers: Answer[] = kind === 'page' ? [200, 303, 404, ...extra] : [303, 403, 404, 422, 429, ...extra];
  return {
    tags: ['dashboard'],
    summary,
    security: [],
    response: Object.fromEntries([...new Set(answers)].map((status) => [status, DESCRIPTIONS[status](kind)])),
  };
}
