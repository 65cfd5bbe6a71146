import { hash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** A weak ETag of an answer's body. */
export const etagOf = (body: string): string => `W/"${hash('sha1', body, 'base64url')}"`;

/**
 * GET answers in this scope carry an ETag of their body (one the route set already is kept), and a matching
 * `If-None-Match` gets 304 with no body (the interface lists ETag among GET /merchant's headers).
 */
export function addEtags(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
    let etag = reply.getHeader('etag') as string | undefined;
    if (etag === undefined) reply.header('etag', (etag = etagOf(payload)));
    const wanted = request.headers['if-none-match'];
    if (wanted && wanted.split(',').some((tag) => tag.trim() === etag)) {
      reply.code(304);
      return done(null, '');
    }
    done(null, payload);
  });
}
