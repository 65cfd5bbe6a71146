/** Shared pieces of the adapter suites: the element suites' helpers, and lookups of the elements a framework rendered. */
import { expect, waitUntil } from '@open-wc/testing';

export { part, realService, recordFetches, uniqueOrderId, uniquePhone } from '../elements/helpers.ts';

/** The one element named `tag` in `container`, once it is upgraded and has rendered. */
export async function onlyElement<T extends HTMLElement & { updateComplete: Promise<boolean> }>(
  container: Element,
  tag: string,
): Promise<T> {
  await waitUntil(() => container.querySelectorAll(tag).length > 0, `<${tag}> rendered`);
  const found = container.querySelectorAll<T>(tag);
  expect(found, `<${tag}> elements`).to.have.length(1);
  await customElements.whenDefined(tag);
  await found[0]!.updateComplete;
  return found[0]!;
}

/** A message from the hosted pay page, as the pay button receives it from the service's origin. */
export function payPageMessage(origin: string, data: Record<string, unknown>): MessageEvent {
  return new MessageEvent('message', { origin, data: { type: 'paykit:payment', ...data } });
}

/** A fresh container in the page, removed by `remove()`. */
export function container(): HTMLDivElement {
  const div = document.createElement('div');
  document.body.append(div);
  return div;
}
