// The OpenAPI document at /api/v1/openapi.json (see openapi.ts) and its interactive
// documentation at /docs, served from the locally installed swagger-ui package.
import type { FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';

export async function registerDocs(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/v1/openapi.json',
    {
      schema: {
        tags: ['docs'],
        summary: 'This OpenAPI 3.1 document (no authentication)',
        security: [],
        response: { 200: { description: 'The document', type: 'object', additionalProperties: true } },
      },
    },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: {
      url: '/api/v1/openapi.json',
      validatorUrl: null,
      deepLinking: true,
      docExpansion: 'list',
      tryItOutEnabled: true,
    } as never,
    staticCSP: false, // the app's own security headers apply (http/security-headers.ts)
  });
}
