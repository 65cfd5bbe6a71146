import type { HTMLAttributes } from 'vue';

/** `data-*` attributes, as vue-tsc reads them from a template (`data-test` becomes `dataTest`) or as written. */
type DataAttributes = { [name: `data${Capitalize<string>}` | `data-${string}`]: unknown };

/** What any HTML element takes in a template besides its own props. */
export type GlobalHtmlAttributes = HTMLAttributes & DataAttributes;

/**
 * A component type whose templates may also give it the global HTML attributes (`id`, `title`, `hidden`, `role`,
 * `aria-*`, `data-*`, …). Vue passes them through to the element (attribute inheritance), but vue-tsc's
 * `strictTemplates` accepts only what the component's `$props` names; this construct signature, read first, adds
 * them there.
 */
export type WithHtmlAttributes<Component extends abstract new (...args: never[]) => object> = (new (
  ...args: unknown[]
) => InstanceType<Component> & { $props: GlobalHtmlAttributes }) &
  Component;

/** The component itself, typed with the global HTML attributes (nothing changes at run time). */
export function withHtmlAttributes<Component extends abstract new (...args: never[]) => object>(
  component: Component,
): WithHtmlAttributes<Component> {
  return component as unknown as WithHtmlAttributes<Component>;
}
