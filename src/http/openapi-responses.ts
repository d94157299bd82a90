// Response declarations for the OpenAPI document: the error shape, HTML pages, redirects.
import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorResponse, ValidationErrorResponse } from './schemas.js';

/** The error responses a route can give: the Error shape, and on 422 the same with its errors. */
export function errorResponses(...codes: number[]): Record<number, TSchema> {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      Type.Ref(code === 422 ? ValidationErrorResponse : ErrorResponse, { description: STATUS_DESCRIPTIONS[code] }),
    ]),
  );
}

/** A response whose body is a document of another type (HTML, CSS, text). */
export function documentResponse(description: string, contentType = 'text/html') {
  return { description, content: { [contentType]: { schema: Type.String() } } };
}

/** A response without a body (a redirect, 304). */
export function emptyResponse(description: string) {
  return { description, type: 'null' };
}

export const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request body (e.g. invalid JSON)',
  401: 'Missing or invalid API key: {"message": "Unauthenticated.", "status": 401}',
  403: 'Refused',
  404: "Unknown id, or another account's",
  413: 'Request body too large',
  415: 'Unsupported request body type (send form-encoded or JSON)',
  422: 'Validation failed: {"message", "errors": {field: [messages]}, "status": 422}',
  429: 'Too Many Attempts. (see Retry-After)',
  503: 'Busy or unavailable (see Retry-After); nothing was stored',
};
