import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PaykitClient } from './client.ts';
import { PaykitError } from './errors.ts';
import { signTestWebhook } from './webhooks.ts';
import type { ListenedEvents } from './types.ts';

export type ListenedEvent = ListenedEvents['events'][number];

/** One event as `listen()` forwarded it: the status your URL answered, or why no answer came. */
export interface Forwarded {
  event: ListenedEvent;
  status?: number;
  error?: string;
}

export interface ListenForwardOptions {
  /** Your local webhook handler, e.g. `http://localhost:3000/webhooks`: each event is posted there. */
  forwardTo: string;
  /**
   * The `whsec_…` secret to sign with. Default: your endpoint's (`GET /client/webhooks`), so a handler that verifies
   * real deliveries verifies these; when you registered none, a new one for this listener (read it from `secret`).
   */
  secret?: string;
  /** The `cursor` of an earlier listener: forward what was written since, instead of starting from now. */
  after?: string;
  /** How long your URL may take to answer one event, in milliseconds. Default 10000, as real deliveries. */
  timeoutMs?: number;
  /** Each event once forwarded (or failed: it is not forwarded again). */
  onForward?: (forwarded: Forwarded) => void;
  /** The service could not be read; the listener tries again after `retryInMs`, from where it was. */
  onReconnect?: (error: unknown, retryInMs: number) => void;
  /** The fetch used to post to `forwardTo`. */
  fetch?: typeof fetch;
}

export interface Listener {
  /** The secret each forwarded event is signed with. */
  readonly secret: string;
  /** `endpoint` (your registered endpoint's), `given`, or `new` (made for this listener: you registered none). */
  readonly secretSource: 'endpoint' | 'given' | 'new';
  /** Where the listener is: pass it as `after` to a later listener to miss nothing in between. */
  readonly cursor: string;
  /** Settles when the listener stops: fulfilled after `stop()`, rejected when the service refuses it (a 4xx). */
  readonly done: Promise<void>;
  /** Stops reading, after forwarding the events already read. */
  stop(): Promise<void>;
}

const WAIT_SECONDS = 25;
const MAX_RETRY_MS = 10_000;

/** A refusal that asking again will not change: wrong credentials, production, a bad cursor. */
const refused = (error: unknown) =>
  error instanceof PaykitError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 408 &&
  error.status !== 429;

async function signingSecret(
  paykit: PaykitClient,
  given: string | undefined,
): Promise<Pick<Listener, 'secret' | 'secretSource'>> {
  if (given) return { secret: given, secretSource: 'given' };
  try {
    return { secret: (await paykit.webhooks.get()).signing_secret, secretSource: 'endpoint' };
  } catch (error) {
    if (!(error instanceof PaykitError) || error.status !== 404) throw error;
    return { secret: `whsec_${randomBytes(24).toString('base64')}`, secretSource: 'new' };
  }
}

/**
 * Forwards your events, as they are written, to a local URL, signed as real deliveries are (Standard Webhooks
 * headers, `webhook-id` the event's id): what `npx paykit listen --forward-to <url>` runs. It reads
 * `GET /sandbox/events` from a cursor, so your registered endpoint keeps receiving every event as before, and a
 * lost connection misses nothing: the listener reads again from where it was. Sandbox only.
 */
export async function listen(paykit: PaykitClient, options: ListenForwardOptions): Promise<Listener> {
  const forwardTo = new URL(options.forwardTo).href;
  const post = options.fetch ?? globalThis.fetch;
  const { secret, secretSource } = await signingSecret(paykit, options.secret);
  let cursor = options.after ?? (await paykit.sandbox.events()).cursor;
  const stopping = new AbortController();

  async function forward(event: ListenedEvent): Promise<Forwarded> {
    const { body, headers } = signTestWebhook(
      { event_type: event.event_type, data: event.data } as Parameters<typeof signTestWebhook>[0],
      secret,
      { id: event.event_id },
    );
    try {
      const answer = await post(forwardTo, {
        method: 'POST',
        headers: { ...headers, 'user-agent': 'Paykit-Listen/1' },
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await answer.body?.cancel();
      return { event, status: answer.status };
    } catch (error) {
      return { event, error: (error as Error).message };
    }
  }

  async function run(): Promise<void> {
    let retryMs = 500;
    while (!stopping.signal.aborted) {
      let read: ListenedEvents;
      try {
        read = await paykit.sandbox.events(
          { after: cursor, wait: WAIT_SECONDS },
          { signal: stopping.signal, maxRetries: 0 },
        );
        retryMs = 500;
      } catch (error) {
        if (stopping.signal.aborted) return;
        if (refused(error)) throw error;
        options.onReconnect?.(error, retryMs);
        await sleep(retryMs, undefined, { signal: stopping.signal }).catch(() => {});
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
        continue;
      }
      // In the order they were written, one at a time, as a local handler expects them.
      for (const event of read.events) {
        const forwarded = await forward(event);
        options.onForward?.(forwarded);
      }
      cursor = read.cursor;
    }
  }

  const done = run();
  return {
    secret,
    secretSource,
    done,
    get cursor() {
      return cursor;
    },
    async stop() {
      stopping.abort();
      await done.catch(() => {});
    },
  };
}
