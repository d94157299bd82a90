// Response declarations for the OpenAPI document: the error shape, HTML pages, redirects.
import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorResponse, ValidationErrorResponse } from './schemas/common.js';
import { STATUS_DESCRIPTIONS } from './openapi.js';

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
