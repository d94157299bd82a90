// GET /health: for load balancers; no key needed, no secrets; 503 when the database is unreachable.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ping, type DatabaseHandle } from '../../db/connection.js';

export function healthRoutes(app: FastifyInstance, database: DatabaseHandle, version: string): void {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Health check (no authentication)',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ok'), database: Type.Literal('ok'), version: Type.String() }),
          503: Type.Object({
            status: Type.Literal('unavailable'),
            database: Type.Literal('unreachable'),
            version: Type.String(),
          }),
        },
      },
    },
    async (request, reply) => {
      try {
        await ping(database.db);
        return { status: 'ok', database: 'ok', version };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        reply.code(503);
        return { status: 'unavailable', database: 'unreachable', version };
      }
    },
  );
}
