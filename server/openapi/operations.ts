import type { FastifySchema } from 'fastify';
import { Failure } from '../schemas/envelope.ts';

type RouteSchema = FastifySchema & Record<string, unknown>;
type JsonSchema = { type?: unknown; anyOf?: JsonSchema[]; properties?: Record<string, JsonSchema> };

const WIDGET_BY_PUBLIC_KEY = /^\/api\/v1\/widgets\/:public_key\//;
const WIDGET_SESSION = ['/api/v1/widgets/transactions', '/api/v1/widgets/payouts', '/api/v1/widgets/disputes'];

const SECONDS = { type: 'integer', description: 'Seconds to wait before trying again.' };

const retryLater = (description: string) => ({ ...Failure, description, headers: { 'retry-after': SECONDS } });

/**
 * The answers every operation may give besides its own: the refusals of docs/decisions.md, each with the envelope,
 * the envelope's 500, and 503 while the database is away. 409, 429 and 503 carry Retry-After.
 */
const SHARED_ANSWERS = {
  400: {
    ...Failure,
    description: 'Invalid request: a field is missing, malformed or not allowed (`invalid_request`).',
  },
  401: { ...Failure, description: 'Missing or wrong credentials (`authentication_failed`).' },
  402: { ...Failure, description: 'The card was declined (`card_declined`).' },
  403: {
    ...Failure,
    description:
      "Not allowed: another client's resource, an origin the merchant did not allow, or a merchant not approved yet (`forbidden`).",
  },
  404: { ...Failure, description: 'No such resource for these credentials (`not_found`).' },
  409: retryLater(
    'Conflict with the current state (`conflict`), or the same Idempotency-Key still running (then Retry-After says when to retry).',
  ),
  408: {
    ...Failure,
    description:
      'The request took longer to arrive than the service waits: its headers over 10 s, or all of it over 30 s by default (`invalid_request`). The connection is closed.',
  },
  413: { ...Failure, description: 'The body is over 64 KB (`body_too_large`).' },
  414: { ...Failure, description: 'An identifier in the path is over 100 characters (`invalid_request`).' },
  415: { ...Failure, description: 'A content type the operation does not accept (`unsupported_content_type`).' },
  417: { ...Failure, description: 'An `Expect` header other than `100-continue` (`invalid_request`).' },
  422: {
    ...Failure,
    description: 'This Idempotency-Key was used with a different request (`idempotency_key_reused`).',
  },
  429: retryLater('Too many requests (`rate_limited`): wait for Retry-After seconds.'),
  431: { ...Failure, description: 'The request headers are over 16 KB (`invalid_request`). The connection is closed.' },
  500: {
    ...Failure,
    description:
      'A fault on our side (`service_error`); nothing was changed. Safe to retry with the same Idempotency-Key.',
  },
  503: retryLater(
    'The database is out of reach or out of room for a moment (`service_error`): retry after Retry-After seconds with the same Idempotency-Key.',
  ),
};

const IDEMPOTENCY_KEY = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Any unique text (a UUID): a retry with the same key and body gets the first answer, with `Idempotent-Replayed: true`, and no second effect.',
    },
  },
};

/** True when every field of the body is text, so a form-urlencoded body (whose values are all text) can carry it. */
function isFlatText(body: JsonSchema): boolean {
  const isText = (field: JsonSchema): boolean => field.type === 'string' || (field.anyOf?.some(isText) ?? false);
  return Object.values(body.properties ?? {}).every(isText);
}

/** What a route's own schema cannot say: who may call it, the bodies it parses, its headers and its other answers. */
export function describeOperation({
  schema,
  url,
  route: { method },
}: {
  schema: FastifySchema;
  url: string;
  route: { method: string | string[] };
}): {
  schema: FastifySchema;
  url: string;
} {
  const route = schema as RouteSchema | undefined;
  if (!route || route['hide']) return { schema, url };
  const byPublicKey = WIDGET_BY_PUBLIC_KEY.test(url);
  // The payments console: the table's listing and everything under it (details, actions, export), and its payouts.
  const withSession = WIDGET_SESSION.some((path) => url === path || url.startsWith(`${path}/`));
  const body = route.body as JsonSchema | undefined;
  const own = route.response as Record<string, unknown>;
  const response = { ...own };
  // A route's own answer for a status stands; the plain envelope of `failures` gives way to the shared, described one.
  for (const [status, answer] of Object.entries(SHARED_ANSWERS))
    if (own[status] === undefined || own[status] === Failure) response[status] = answer;
  const success = own['200'] as { description?: string } | undefined;
  if (success && !success['description'])
    response['200'] = { ...success, description: 'Done: `result` is true and `data` holds the answer.' };
  const described: RouteSchema = { ...route, response };

  if (byPublicKey) {
    described['security'] = [];
    described['description'] =
      "No credentials: the merchant's public key in the path, from a page whose origin the merchant allowed (`PUT /widgets/`; any origin in the sandbox until a list is set). JSON bodies only.";
  } else if (withSession) {
    described['security'] = [{ widgetSession: [] }];
  } else if (method !== 'GET') {
    described.headers = IDEMPOTENCY_KEY;
  }
  if (body) {
    described['consumes'] = byPublicKey
      ? ['application/json']
      : ['application/json', 'text/plain', ...(isFlatText(body) ? ['application/x-www-form-urlencoded'] : [])];
  }
  if (url === '/api/v1/merchant') {
    (described.response as Record<string, unknown>)['304'] = {
      type: 'null',
      description: 'Not modified: the list matches the ETag sent in If-None-Match.',
    };
  }
  return { schema: described, url };
}
