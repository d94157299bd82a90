// Every response the tests receive is checked against the OpenAPI document the server
// publishes: its status must be documented for the operation, its content type too, and a
// JSON body must match the documented schema. Violations are collected and reported when the
// test app closes, so any test anywhere in the suite that meets an undocumented answer fails.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';

const standaloneCode = standalone.default;

type Json = Record<string, any>;

const SKIPPED_PREFIXES = ['/docs'];

interface Compiled {
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
  /** A digest of the document: the compiled validators on disk are named by it and the schema. */
  digest: string;
}

/**
 * Compiled validators are also written as modules (Ajv's standalone code) for the suite's other
 * processes: compiling a file's worth of response schemas cost ~0.5 s of CPU in each of some 70
 * test files. Named by a digest of the document and the schema, so a file is never stale; the
 * directory lives in the suite's build (scripts/test.mjs), which starts empty every run.
 */
const CACHE = resolve('.test-build', '.contract-cache');
const requireCached = createRequire(join(CACHE, 'index.cjs'));

/**
 * Compiled validators by document: the apps of one test file mostly publish the same document,
 * and compiling its schemas again for each app cost more than the checks themselves.
 */
const compiledByDocument = new Map<string, Compiled>();

export class ResponseContract {
  readonly violations: string[] = [];
  private doc: Json | null = null;
  private ajv: Ajv2020 | null = null;
  private validators = new Map<string, ValidateFunction>();
  private digest = '';

  constructor(private readonly app: FastifyInstance) {}

  private document(): Json {
    if (this.doc === null) {
      this.doc = this.app.swagger() as Json;
      const text = JSON.stringify(this.doc);
      let compiled = compiledByDocument.get(text);
      if (!compiled) {
        const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, code: { source: true } });
        ajv.addSchema({ $id: 'openapi', components: this.doc.components });
        compiled = { ajv, validators: new Map(), digest: createHash('sha256').update(text).digest('hex') };
        compiledByDocument.set(text, compiled);
      }
      this.ajv = compiled.ajv;
      this.validators = compiled.validators;
      this.digest = compiled.digest;
    }
    return this.doc;
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
      const file = join(CACHE, `${createHash('sha256').update(this.digest).update(text).digest('hex')}.cjs`);
      if (existsSync(file)) {
        validate = requireCached(file) as ValidateFunction;
      } else {
        validate = this.ajv!.compile(JSON.parse(text));
        // Written whole under another name, then renamed: a concurrent reader sees all or nothing.
        mkdirSync(CACHE, { recursive: true });
        const partial = `${file}.${process.pid}.tmp`;
        writeFileSync(partial, standaloneCode(this.ajv!, validate));
        renameSync(partial, file);
      }
      this.validators.set(key, validate);
    }
    return validate;
  }

  check(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const path = request.url.split('?')[0];
    if (SKIPPED_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) return;
    const status = reply.statusCode;
    // 499: the client went away before the answer; nobody receives it.
    if (status === 499) return;
    const type = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]
      .trim();
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
    const doc = this.document();
    const where = `${request.method} ${request.url.slice(0, 120)} → ${status}`;
    const route = request.is404 ? undefined : request.routeOptions.url;
    if (route === undefined) {
      // Unmatched: 404, or 405 with Allow. API paths answer the Error shape.
      if (path.startsWith('/api/') && body) this.validateJson(where, 'unmatched', { $ref: '#/components/schemas/Error' }, body);
      // OPTIONS: the Allow list (200), or on the API a CORS preflight's 204, which OpenAPI has no
      // operation for (the document's description says how CORS is answered).
      const options = request.method === 'OPTIONS' && (status === 200 || (status === 204 && path.startsWith('/api/v1')));
      if (![404, 405, 414, 400, 413, 415].includes(status) && !options) {
        this.violations.push(`${where}: unmatched request answered ${status}`);
      }
      return;
    }
    const method = request.method === 'HEAD' ? 'get' : request.method.toLowerCase();
    const op = doc.paths[route.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[method];
    if (!op) {
      if (request.method !== 'OPTIONS') this.violations.push(`${where}: no documented operation for ${route}`);
      return;
    }
    const response = op.responses[String(status)] ?? op.responses.default;
    if (!response) {
      this.violations.push(`${where}: status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`);
      return;
    }
    if (request.method === 'HEAD' || body === '' || body === null) return;
    const content = response.content as Json | undefined;
    if (!content) {
      this.violations.push(`${where}: a body where the document promises none`);
      return;
    }
    const media = content[type];
    if (!media) {
      this.violations.push(`${where}: content type ${type} not documented (${Object.keys(content).join(', ')})`);
      return;
    }
    if (type === 'application/json') this.validateJson(where, `${route} ${method} ${status}`, media.schema, body);
  }

  private validateJson(where: string, key: string, schema: Json, body: string): void {
    this.document();
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      this.violations.push(`${where}: the body is not JSON`);
      return;
    }
    const validate = this.validator(key, schema);
    if (!validate(parsed)) {
      this.violations.push(`${where}: ${this.ajv!.errorsText(validate.errors?.slice(0, 3))}`);
    }
  }

  /** Throws when any response so far broke the document. */
  assertClean(): void {
    if (this.violations.length > 0) {
      throw new Error(`responses outside the OpenAPI document:\n  ${[...new Set(this.violations)].slice(0, 20).join('\n  ')}`);
    }
  }
}

/** Checks every response of `app` from now on (call before app.ready()). */
export function watchResponses(app: FastifyInstance): ResponseContract {
  const contract = new ResponseContract(app);
  app.addHook('onSend', (request, reply, payload, done) => {
    try {
      contract.check(request, reply, payload);
    } catch (error) {
      contract.violations.push(`checking ${request.method} ${request.url}: ${(error as Error).message}`);
    }
    done(null, payload);
  });
  return contract;
}
