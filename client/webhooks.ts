/// <reference types="node" />
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { PaykitEvent } from './events.ts';

/** A delivery that must not be trusted: missing headers, a stale timestamp, no matching signature, a bad body. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far the `webhook-timestamp` may be from now, either way, in seconds. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** "Now", for tests: a Date or milliseconds since the epoch. Default the system clock. */
  now?: Date | number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

/** A header's value, case-insensitively, from a fetch `Headers` or a Node-style record. */
function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  // Node keeps repeated headers as an array; several signature headers are several signatures.
  return Array.isArray(value) ? (value.length ? value.join(' ') : undefined) : value;
}

function signingKey(secret: string): Buffer {
  if (typeof secret !== 'string' || secret.trim() === '') {
    throw new WebhookVerificationError(
      'No signing secret given: pass the whsec_… secret from POST /client/update-webhooks-url.',
    );
  }
  const encoded = secret.trim().replace(/^whsec_/, '');
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new WebhookVerificationError('The signing secret is not a whsec_… secret (base64 after "whsec_").');
  }
  return key;
}

/**
 * Verifies a webhook delivery as the Standard Webhooks specification says, and returns its event.
 *
 * Pass the raw body exactly as received (re-serialized JSON does not match the signature), the request's
 * headers, and the endpoint's signing secret (`whsec_…`). Throws `WebhookVerificationError` when a header is
 * missing, the timestamp is more than `toleranceSeconds` away from now, no `v1` signature matches (a changed
 * body, or another secret), or the body is not a `{event_type, data}` object. During a secret rotation the
 * header carries two signatures; either one matching is enough.
 */
export function verifyWebhook(
  body: string | Buffer,
  headers: WebhookHeaders,
  secret: string,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now }: VerifyWebhookOptions = {},
): PaykitEvent {
  const key = signingKey(secret);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const missing = [
    ['webhook-id', id],
    ['webhook-timestamp', timestamp],
    ['webhook-signature', signatures],
  ]
    .filter(([, value]) => value === undefined || value.trim() === '')
    .map(([name]) => name);
  if (missing.length) {
    throw new WebhookVerificationError(
      `Missing ${missing.join(', ')} header${missing.length > 1 ? 's' : ''}: this request was not sent (unchanged) by Paykit.`,
    );
  }

  if (!/^\d{1,15}$/.test(timestamp!.trim())) {
    throw new WebhookVerificationError(
      `The webhook-timestamp header must be Unix seconds, not ${JSON.stringify(timestamp)}.`,
    );
  }
  const sentAt = Number(timestamp!.trim());
  const nowSeconds = Math.floor(
    (now === undefined ? Date.now() : typeof now === 'number' ? now : now.getTime()) / 1000,
  );
  const skew = nowSeconds - sentAt;
  if (skew > toleranceSeconds) {
    throw new WebhookVerificationError(
      `The webhook-timestamp is ${skew} seconds old, more than the ${toleranceSeconds} allowed: a replayed or much delayed delivery.`,
    );
  }
  if (-skew > toleranceSeconds) {
    throw new WebhookVerificationError(
      `The webhook-timestamp is ${-skew} seconds in the future, more than the ${toleranceSeconds} allowed: check this machine's clock.`,
    );
  }

  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const expected = createHmac('sha256', key).update(`${id!.trim()}.${timestamp!.trim()}.`).update(raw).digest();
  const matches = signatures!
    .split(/\s+/)
    .filter((part) => part.startsWith('v1,'))
    .some((part) => {
      const candidate = Buffer.from(part.slice(3), 'base64');
      return candidate.length === expected.length && timingSafeEqual(candidate, expected);
    });
  if (!matches) {
    throw new WebhookVerificationError(
      'No webhook-signature matches: the body was changed after signing, or this is not the secret of this endpoint.',
    );
  }

  let event: unknown;
  try {
    event = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('The signed body is not JSON.');
  }
  const shape = event as { event_type?: unknown; data?: unknown } | null;
  if (
    shape === null ||
    typeof shape !== 'object' ||
    Array.isArray(shape) ||
    typeof shape.event_type !== 'string' ||
    shape.data === null ||
    typeof shape.data !== 'object' ||
    Array.isArray(shape.data)
  ) {
    throw new WebhookVerificationError('The signed body is not a Paykit event: expected {event_type, data}.');
  }
  return event as PaykitEvent;
}

export interface TestWebhookOptions {
  /** The delivery's `webhook-id`. Default a fresh `evt_test_…`. */
  id?: string;
  /** When it was signed: a Date or milliseconds since the epoch. Default now. */
  timestamp?: Date | number;
}

/**
 * A delivery of `event` as the service would send it, signed with `secret`: the body and the three Standard Webhooks
 * headers. For a webhook handler's unit tests: post them to it and it verifies as a real delivery does. Each event
 * type's `data` as the service sends it, with what each id names, is in docs/webhooks.md (made by the service's own
 * code); `paykit.sandbox.triggerWebhook(type)` answers one with fresh ids.
 *
 *     const { body, headers } = signTestWebhook({ event_type: 'payment.success', data: { … } }, 'whsec_…');
 *     await request(app).post('/webhooks').set(headers).send(body);
 */
export function signTestWebhook(
  event: PaykitEvent,
  secret: string,
  { id, timestamp }: TestWebhookOptions = {},
): { body: string; headers: Record<string, string> } {
  const key = signingKey(secret);
  const webhookId = id ?? `evt_test_${randomUUID()}`;
  const seconds = String(
    Math.floor(
      (timestamp === undefined ? Date.now() : typeof timestamp === 'number' ? timestamp : timestamp.getTime()) / 1000,
    ),
  );
  // The same bytes the service sends: exactly {event_type, data}.
  const body = JSON.stringify({ event_type: event.event_type, data: event.data });
  const signature = createHmac('sha256', key).update(`${webhookId}.${seconds}.${body}`).digest('base64');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': seconds,
      'webhook-signature': `v1,${signature}`,
    },
  };
}
