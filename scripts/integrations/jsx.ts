/**
 * The bare tags' typings for the JSX of Preact (wrappers/preact/index.ts) and Solid (wrappers/solid/index.ts), and
 * for Svelte's templates (wrappers/svelte/index.ts): type-only modules a project opts in to with `import type {}`.
 */
import type { Element } from './model.ts';
import { attributeType, doc, elementType, header, key, propertyType, typeImports } from './typescript.ts';

/** Attributes by name, properties by name, and events under the names the framework listens to. */
function members(element: Element, eventKeys: (name: string) => string[], indent: string): string {
  return [
    ...element.properties.filter((property) => property.attribute && property.attribute !== property.name)
      .map((property) => `${doc(property.description, indent)}${indent}'${property.attribute}'?: ${attributeType(element, property)} | undefined;`),
    ...element.properties.map((property) => `${doc(property.description, indent)}${indent}${key(property.name)}?: ${propertyType(element, property)} | undefined;`),
    ...element.events.flatMap((event) => eventKeys(event.name).map((name) => `${doc(event.description, indent)}${indent}'${name}'?: ((event: ${event.type}) => void) | undefined;`)),
  ].join('\n');
}

function tags(elements: Element[], attributes: (element: Element) => string, eventKeys: (name: string) => string[], indent: string): string {
  return elements.map((element) => `${indent}/** \`<${element.tag}>\`: ${element.description} */
${indent}'${element.tag}': ${attributes(element)} & {
${members(element, eventKeys, `${indent}  `)}
${indent}};`).join('\n');
}

export function preactTypes(elements: Element[]): string {
  return `${header('jsx.ts')}
/**
 * \`paykit/preact\`: the bare tags in Preact's JSX, \`<pay-button amount="5.00" onpay-success={…}>\`. Preact sets what
 * the element has as a property and the rest as attributes, and listens to \`on\` + the event's name. Opt in once:
 *
 *     import type {} from 'paykit/preact';
 *
 * and define the elements before rendering (\`import 'paykit'\`), so that properties are found.
 */
import type * as Preact from 'preact';
${typeImports(elements, '../../src/index.ts')}

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
${tags(elements, (element) => `Preact.HTMLAttributes<${elementType(element)}>`, (name) => [`on${name}`], '      ')}
    }
  }
}
`;
}

export function solidTypes(elements: Element[]): string {
  return `${header('jsx.ts')}
/**
 * \`paykit/solid\`: the bare tags in Solid's JSX, \`<pay-button amount="5.00" on:pay-success={…}>\`. Solid sets a custom
 * element's props as properties (\`order-id\` and \`orderId\` both reach \`orderId\`) and listens to \`on:\` + the event's
 * exact name. Opt in once:
 *
 *     import type {} from 'paykit/solid';
 */
import type * as Solid from 'solid-js';
${typeImports(elements, '../../src/index.ts')}

declare module 'solid-js' {
  namespace JSX {
    interface IntrinsicElements {
${tags(elements, (element) => `Solid.JSX.HTMLAttributes<${elementType(element)}>`, (name) => [`on:${name}`], '      ')}
    }
  }
}
`;
}

export function svelteTypes(elements: Element[]): string {
  return `${header('jsx.ts')}
/**
 * \`paykit/svelte\`: the bare tags in Svelte templates, checked by svelte-check: \`<pay-button amount="5.00"
 * onpay-success={…}>\` (Svelte 5; \`on:pay-success\` in Svelte 4). Svelte sets what the element has as a property and
 * the rest as attributes. Opt in once, e.g. in src/app.d.ts:
 *
 *     import type {} from 'paykit/svelte';
 */
import type * as Svelte from 'svelte/elements';
${typeImports(elements, '../../src/index.ts')}

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
${tags(elements, (element) => `Svelte.HTMLAttributes<${elementType(element)}>`, (name) => [`on${name}`, `on:${name}`], '    ')}
  }
}
`;
}
