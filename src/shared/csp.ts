/**
 * The page's Content-Security-Policy, as the browser reports what it blocks (`securitypolicyviolation` events on
 * the document): a fetch it refused looks like any network failure to the code that made it, and a frame it
 * refused shows nothing at all, so the elements ask here what happened and tell the developer what to add.
 */
import { WidgetError } from './errors.ts';

/** The latest refusals, newest last; a page rarely has more than a few. */
const refusals: SecurityPolicyViolationEvent[] = [];
const listeners = new Set<(refusal: SecurityPolicyViolationEvent) => void>();
let watching = false;

/** Starts recording refusals; called before the first fetch or frame, never at import (nothing runs on a server). */
export function watchPolicy(): void {
  if (watching) return;
  watching = true;
  document.addEventListener('securitypolicyviolation', (refusal) => {
    refusals.push(refusal);
    if (refusals.length > 20) refusals.shift();
    for (const listener of listeners) listener(refusal);
  });
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/** A WidgetError (code `csp`) naming the directive that blocked `url`, when `refusal` is about it. */
function explain(refusal: SecurityPolicyViolationEvent, url: string, directives: string[]): WidgetError | undefined {
  const origin = originOf(url);
  const directive = refusal.effectiveDirective;
  if (!directives.includes(directive) || originOf(refusal.blockedURI) !== origin) return undefined;
  return new WidgetError(
    `The page's Content-Security-Policy blocks ${origin} (${directive}): add ${origin} to its ${directive} directive.`,
    'csp',
  );
}

/**
 * Why the page's policy blocked a fetch of `url`, if it did. The report is queued as a task of its own, which may
 * run after the fetch has failed: wait for it a moment.
 */
export async function refusalOf(url: string, directives: string[]): Promise<WidgetError | undefined> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (const refusal of refusals) {
    const error = explain(refusal, url, directives);
    if (error) return error;
  }
  return undefined;
}

/** Calls `then` when the page's policy blocks `url` from now on (a frame, which fails silently); returns the stop. */
export function onRefusal(url: string, directives: string[], then: (error: WidgetError) => void): () => void {
  watchPolicy();
  const listener = (refusal: SecurityPolicyViolationEvent) => {
    const error = explain(refusal, url, directives);
    if (error) then(error);
  };
  listeners.add(listener);
  return () => listeners.delete(listener);
}
