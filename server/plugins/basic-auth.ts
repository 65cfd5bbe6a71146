import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../store/store.ts';
import type { Client } from '../store/clients.ts';
import { forbidden, rateLimited } from '../domain/refusals.ts';
import { digest, matchesDigest } from '../platform/secrets.ts';
import { ClientCache } from './client-cache.ts';
import { FailedLogins, TOO_MANY_FAILURES } from './failed-logins.ts';
import { fromAnotherSite } from './cross-site.ts';
import { failure } from './envelope-errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The partner that made the request, set by HTTP Basic authentication. */
    client: Client;
  }
}

const CHALLENGE = 'Basic realm="Paykit", charset="UTF-8"';
const REFUSED = {
  missing: 'Missing credentials: send HTTP Basic authentication with your client id and secret key.',
  malformed:
    'Malformed credentials: send HTTP Basic authentication, base64 of your client id, a colon and your secret key (no control characters).',
  wrong: 'Invalid credentials: the client id or secret key is wrong.',
};
const NO_CLIENT = '0'.repeat(64);
export const CROSS_SITE_MESSAGE =
  "The partner API takes calls from your server, not from another site's web page (pages use the widget API with a public key).";

/** C0 control characters and DEL: no client id or secret holds one, and PostgreSQL cannot even compare NUL. */
const CONTROL = /[\x00-\x1f\x7f]/;

/**
 * Parses `Authorization: Basic base64(id:secret)`; undefined when absent or malformed (an id or secret with a control
 * character included: it is answered 401 before anything looks it up).
 */
export function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || CONTROL.test(decoded)) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The digest of credentials as parsed, the same however the header spelled them (case, spaces, padding). */
export const credentialsDigest = ({ id, secret }: { id: string; secret: string }) => digest(`${id}:${secret}`);

/** The header as clients write it: the only spelling the cache of verified clients keeps. */
const canonicalHeader = ({ id, secret }: { id: string; secret: string }) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/**
 * Every route registered in the scope this is added to requires a client's id and secret key. Wrong ones are
 * throttled per client id and caller address (`FailedLogins`): the guesser waits, its neighbours do not. Calls from
 * another site's page are refused first: a browser that once held the credentials would send them along.
 */
export function requireClient(
  app: FastifyInstance,
  store: Store,
  cache = new ClientCache(),
  failures = new FailedLogins(),
): void {
  app.decorateRequest('client', null as unknown as Client);
  const verify = async (
    header: string,
    credentials: { id: string; secret: string },
    presented: string,
  ): Promise<Client | undefined> => {
    const client = await store.clients.findById(credentials.id);
    // The digest is compared even for an unknown id, so timing does not tell which ids exist.
    if (!matchesDigest(credentials.secret, client?.secret_hash ?? NO_CLIENT) || !client) return undefined;
    // Other spellings of the same credentials are verified each time: respelling cannot push other clients out.
    if (header === canonicalHeader(credentials)) cache.set(digest(header), client);
    failures.verified(credentials.id, presented);
    return client;
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply, why: keyof typeof REFUSED): void => {
    reply
      .code(401)
      .header('www-authenticate', CHALLENGE)
      .send(failure(request, 'authentication_failed', REFUSED[why]));
  };
  // A callback hook: credentials verified recently pass without a promise (nearly every request).
  app.addHook('onRequest', (request, reply, done) => {
    if (fromAnotherSite(request)) return done(forbidden(CROSS_SITE_MESSAGE));
    const header = request.headers.authorization;
    const cached = header ? cache.get(digest(header)) : undefined;
    if (cached) {
      request.client = cached;
      return done();
    }
    const credentials = parseBasic(header);
    if (!credentials) return refuse(request, reply, header === undefined ? 'missing' : 'malformed');
    const presented = credentialsDigest(credentials);
    const waitSeconds = failures.wait(credentials.id, request.ip, presented);
    if (waitSeconds > 0) return done(rateLimited(TOO_MANY_FAILURES(waitSeconds), waitSeconds));
    verify(header!, credentials, presented).then((client) => {
      if (!client) {
        failures.failed(credentials.id, request.ip);
        return refuse(request, reply, 'wrong');
      }
      request.client = client;
      done();
    }, done);
  });
}
