import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../store/store.ts';
import type { Client } from '../store/clients.ts';
import { matchesDigest } from '../secrets.ts';
import { ClientCache } from './client-cache.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The partner that made the request, set by HTTP Basic authentication. */
    client: Client;
  }
}

const CHALLENGE = 'Basic realm="Paykit", charset="UTF-8"';

/** Parses `Authorization: Basic base64(id:secret)`; undefined when absent or malformed. */
export function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** Every route registered in the scope this is added to requires a client's id and secret key. */
export function requireClient(app: FastifyInstance, store: Store, cache = new ClientCache()): void {
  app.decorateRequest('client', null as unknown as Client);
  const findClient = async (id: string) => {
    const cached = cache.get(id);
    if (cached) return cached;
    const client = await store.clients.findById(id);
    if (client) cache.set(client);
    return client;
  };
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const credentials = parseBasic(request.headers.authorization);
    const client = credentials && (await findClient(credentials.id));
    // The digest is compared even for an unknown id, so timing does not tell which ids exist.
    const valid = matchesDigest(credentials?.secret ?? '', client?.secret_hash ?? '0'.repeat(64));
    if (!client || !valid) {
      return reply
        .code(401)
        .header('www-authenticate', CHALLENGE)
        .send({
          result: false,
          message: credentials
            ? 'Invalid credentials: the client id or secret key is wrong.'
            : 'Missing credentials: send HTTP Basic authentication with your client id and secret key.',
        });
    }
    request.client = client;
  });
}
