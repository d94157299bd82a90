// GET /health: for load balancers; no key needed, no secrets; 503 when the database is unreachable.
// `render` says whether `render=1` can be asked for here (Chromium at CHROMIUM_PATH).
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ping, type DatabaseHandle } from '../../db/connection.js';
import type { RenderAvailability } from '../render-rule.js';

const Render = Type.Boolean({ description: 'Whether this instance can render pages (render=1): Chromium is installed' });

export function healthRoutes(
  app: FastifyInstance,
  database: DatabaseHandle,
  version: string,
  renderer: RenderAvailability,
): void {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Health check (no authentication)',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ok'), database: Type.Literal('ok'), version: Type.String(), render: Render }),
          503: Type.Object({
            status: Type.Literal('unavailable'),
            database: Type.Literal('unreachable'),
            version: Type.String(),
            render: Render,
          }),
        },
      },
    },
    async (request, reply) => {
      const render = renderer.available();
      try {
        await ping(database.db);
        return { status: 'ok', database: 'ok', version, render };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        reply.code(503);
        return { status: 'unavailable', database: 'unreachable', version, render };
      }
    },
  );
}
