import type { Dispatcher } from '../../server/webhooks/dispatcher.ts';

/**
 * Lets `dispatcher` make exactly one more round of claims and deliveries, finished, then runs it on: what a test needs
 * before it says "nothing was sent". Stopping waits for the round under way; a started dispatcher claims at once, and
 * stopping it again waits for that round's deliveries.
 */
export async function dispatchRound(dispatcher: Dispatcher): Promise<void> {
  await dispatcher.stop();
  dispatcher.start();
  await dispatcher.stop();
  dispatcher.start();
}
