import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export const EXPECTATION_FAILED = 'The Expect header takes only 100-continue: send the request without it.';

/**
 * Node answers a request whose `Expect` is not `100-continue` itself, with a bare 417, before Fastify sees it; this
 * answers the same status in the envelope.
 */
export function answerUnmetExpectations(server: Server): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({ result: false, message: EXPECTATION_FAILED, code: 'invalid_request' });
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
}
