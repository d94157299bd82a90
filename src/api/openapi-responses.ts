import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorResponse } from './schemas/common.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (e.g. invalid JSON)',
  401: 'Missing or invalid API key: {"message": "Unauthenticated.", "status": 401}',
  404: 'Unknown id, or another account\'s',
  405: 'Known path, wrong method (see the Allow header)',
  413: 'Request body too large',
  415: 'Unsupported request body type',
  422: 'Validation failed: {"message", "errors": {field: [messages]}, "status": 422}',
  429: 'Too Many Attempts. (see Retry-After)',
  503: 'The analyser is busy (see Retry-After); nothing was stored',
};

/** The error responses a route can give, for the OpenAPI document; all share the Error shape. */
export function errorResponses(...codes: number[]): Record<number, TSchema> {
  return Object.fromEntries(codes.map((code) => [code, Type.Ref(ErrorResponse, { description: DESCRIPTIONS[code] })]));
}
