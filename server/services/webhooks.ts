import type { Store } from '../store/store.ts';
import type { WebhookEndpoint } from '../store/webhook-endpoints.ts';
import { invalid, notFound } from '../domain/refusals.ts';
import { checkWebhookUrl, type Resolve } from '../webhooks/url-guard.ts';
import { newSigningSecret } from '../webhooks/signing.ts';
import { isoInstant } from '../domain/instants.ts';

const NO_ENDPOINT = 'No webhook URL is registered: register one with POST /client/update-webhooks-url.';

/** A URL webhooks may be sent to, trimmed; refused when it names a private address (it may look up DNS). */
export async function checkedWebhookUrl(url: string, allowPrivate: boolean, resolve?: Resolve): Promise<string> {
  const problem = await checkWebhookUrl(url.trim(), allowPrivate, resolve);
  if (problem) throw invalid(problem);
  return url.trim();
}

/** Checks the URL, then registers it (for callers outside a request: the tests, the bench). */
export async function registerWebhookUrl(
  store: Store,
  clientId: string,
  url: string,
  now: Date,
  allowPrivate: boolean,
  resolve?: Resolve,
): Promise<WebhookEndpoint> {
  return saveWebhookUrl(store, clientId, await checkedWebhookUrl(url, allowPrivate, resolve), now);
}

/**
 * POST /client/update-webhooks-url: replaces the client's URL (checked by `checkedWebhookUrl`). The signing secret
 * stays the same until it is rotated; registering again also re-enables an endpoint that answered 410.
 */
export async function saveWebhookUrl(store: Store, clientId: string, url: string, now: Date): Promise<WebhookEndpoint> {
  const at = isoInstant(now);
  return store.webhookEndpoints.register({
    client_id: clientId,
    url,
    secret: newSigningSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    disabled_at: null,
    disabled_reason: null,
    created_at: at,
    updated_at: at,
  });
}

export async function webhookEndpoint(store: Store, clientId: string): Promise<WebhookEndpoint> {
  const endpoint = await store.webhookEndpoints.find(clientId);
  if (!endpoint) throw notFound(NO_ENDPOINT);
  return endpoint;
}

/** A new signing secret; the previous one keeps signing beside it for `overlapHours`, so receivers can switch. */
export async function rotateSigningSecret(
  store: Store,
  clientId: string,
  overlapHours: number,
  now: Date,
): Promise<WebhookEndpoint> {
  return store.transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoints.find(clientId);
    if (!endpoint) throw notFound(NO_ENDPOINT);
    const changes = {
      secret: newSigningSecret(),
      previous_secret: overlapHours > 0 ? endpoint.secret : null,
      previous_secret_expires_at: overlapHours > 0 ? isoInstant(now, overlapHours * 3_600_000) : null,
      updated_at: isoInstant(now),
    };
    await tx.webhookEndpoints.update(clientId, changes);
    return { ...endpoint, ...changes };
  });
}
