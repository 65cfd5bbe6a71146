import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES } from './body-parsers.ts';

/**
 * A request answered before its body was read (refused by authentication, a limit, a route that does not exist):
 * Node would read the rest of the body off the wire and throw it away, however long it is, so a caller could stream
 * any amount into a 401. The rest is read only while it is at most a body's limit and says so (`content-length`),
 * which keeps the connection for the caller's next request; otherwise the answer closes the connection
 * (`connection: close`) and nothing more is read.
 */
export function dropUnreadBodies(app: FastifyInstance): void {
  // A callback hook on every answer: a property read for nearly all of them.
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (!raw.complete && !raw.readableEnded) {
      const length = Number(raw.headers['content-length'] ?? Number.NaN);
      if (!(length <= BODY_LIMIT_BYTES)) reply.header('connection', 'close');
    }
    done(null, payload);
  });
}
