import { hash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * GET answers in this scope carry an ETag of their body, and a matching `If-None-Match` gets 304 with no body
 * (the interface lists ETag among GET /merchant's headers).
 */
export function addEtags(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
    const etag = `W/"${hash('sha1', payload, 'base64url')}"`;
    reply.header('etag', etag);
    const wanted = request.headers['if-none-match'];
    if (wanted && wanted.split(',').some((tag) => tag.trim() === etag)) {
      reply.code(304);
      return done(null, '');
    }
    done(null, payload);
  });
}
