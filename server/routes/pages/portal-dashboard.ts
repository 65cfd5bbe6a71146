import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../plugins/deps.ts';
import type { Client } from '../../store/clients.ts';
import { credentialsDigest, parseBasic } from '../../plugins/basic-auth.ts';
import { FailedLogins } from '../../plugins/failed-logins.ts';
import { fromAnotherSite } from '../../plugins/cross-site.ts';
import { pooledRandomBytes } from '../../platform/secrets.ts';
import { clientWithSecret, resendEvent, sandboxDashboard } from '../../services/sandbox-dashboard.ts';
import { dashboardPage, dashboardRefusedPage } from '../../views/portal-dashboard.ts';
import { sendPage } from './send.ts';

/** The browser asks for the client id and secret key under this name, apart from the API's. */
const CHALLENGE = 'Basic realm="Paykit sandbox dashboard", charset="UTF-8"';
const EVENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The sandbox dashboard (registered by the portal, so sandbox only): behind the same credentials as the API, HTTP
 * Basic with the client id and secret key, wrong ones throttled as the API throttles them. It reads and changes only
 * the signed-in client's own data.
 */
export const dashboardPages: FastifyPluginAsync<Deps> = async (app, { clock, dispatcher }) => {
  const failures = new FailedLogins();
  const signedIn = new WeakMap<FastifyRequest, Client>();

  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const credentials = parseBasic(header);
    if (!credentials) return sendPage(reply.header('www-authenticate', CHALLENGE), dashboardRefusedPage('credentials'));
    const presented = credentialsDigest(credentials);
    const wait = failures.wait(credentials.id, request.ip, presented);
    if (wait > 0) return sendPage(reply.header('retry-after', String(wait)), dashboardRefusedPage('throttled', wait));
    const client = await clientWithSecret(request.unit.store, credentials.id, credentials.secret);
    if (!client) {
      failures.failed(credentials.id, request.ip);
      return sendPage(reply.header('www-authenticate', CHALLENGE), dashboardRefusedPage('credentials'));
    }
    failures.verified(credentials.id, presented);
    signedIn.set(request, client);
  });

  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    client: Client,
    notice?: { text: string; status?: number },
  ) => {
    const nonce = pooledRandomBytes(16).toString('base64');
    return sendPage(reply, dashboardPage(await sandboxDashboard(request.unit.store, client), nonce, notice), {
      scriptNonce: nonce,
    });
  };

  app.get<{ Querystring: { resent?: string } }>(
    '/portal/dashboard',
    { schema: { hide: true } },
    async (request, reply) => {
      const resent = request.query.resent;
      const notice =
        typeof resent === 'string' && EVENT_ID.test(resent)
          ? { text: `Event ${resent} will be sent again.` }
          : undefined;
      return show(request, reply, signedIn.get(request)!, notice);
    },
  );

  app.post<{ Params: { event_id: string } }>(
    '/portal/dashboard/events/:event_id/resend',
    { schema: { hide: true } },
    async (request, reply) => {
      const client = signedIn.get(request)!;
      // The browser sends the signed-in credentials along with any site's form: only this site's may resend.
      if (fromAnotherSite(request))
        return show(request, reply, client, { text: 'Events are resent from this page only.', status: 403 });
      const eventId = request.params.event_id;
      if (!EVENT_ID.test(eventId) || !(await request.unit.transaction((tx) => resendEvent(tx, client, eventId)))) {
        return show(request, reply, client, { text: `No event ${eventId.slice(0, 64)} of yours.`, status: 404 });
      }
      dispatcher?.wake();
      // After a post, a redirect: reloading the dashboard does not resend again.
      return reply.redirect(`/portal/dashboard?resent=${encodeURIComponent(eventId)}`, 303);
    },
  );
};
