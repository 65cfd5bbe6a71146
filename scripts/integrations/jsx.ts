/**
 * The bare tags' typings for the JSX of Preact (wrappers/preact/index.ts) and Solid (wrappers/solid/index.ts), and
 * for Svelte's templates (wrappers/svelte/index.ts): type-only modules a project opts in to with `import type {}`.
 */
import type { Element } from './model.ts';
import { attributeType, doc, elementType, header, key, propertyType, typeImports } from './typescript.ts';

/** The names `wrappers/tag-props.ts` gives an element's props and its listeners under each prefix. */
const tagPropsType = (element: Element) => `${element.className}TagProps`;
const listenersType = (element: Element, prefix: 'on' | 'on:') =>
  `${element.className}${prefix === 'on' ? 'On' : 'Colon'}Listeners`;

function listeners(element: Element, prefix: 'on' | 'on:'): string {
  const lines = element.events.map(
    (event) =>
      `${doc(event.description, '  ')}  '${prefix}${event.name}'?: ((event: ${event.type}) => void) | undefined;`,
  );
  return `/** \`<${element.tag}>\`'s events, listened to as \`${prefix}\` + the event's name. */
export interface ${listenersType(element, prefix)} {
${lines.join('\n')}
}`;
}

/**
 * wrappers/tag-props.ts: what a template may set on each bare tag (attributes by name, properties by name) and its
 * events under the two prefixes frameworks listen with, written once for every framework's typings.
 */
export function tagProps(elements: Element[]): string {
  const blocks = elements.map((element) => {
    const props = [
      ...element.properties
        .filter((property) => property.attribute && property.attribute !== property.name)
        .map(
          (property) =>
            `${doc(property.description, '  ')}  '${property.attribute}'?: ${attributeType(element, property)} | undefined;`,
        ),
      ...element.properties.map(
        (property) =>
          `${doc(property.description, '  ')}  ${key(property.name)}?: ${propertyType(element, property)} | undefined;`,
      ),
    ];
    return `/** \`<${element.tag}>\` in a template: its attributes by name and its properties by name. */
export interface ${tagPropsType(element)} {
${props.join('\n')}
}

${listeners(element, 'on')}

${listeners(element, 'on:')}`;
  });
  return `${header('jsx.ts')}
/** The bare tags' props and listeners, shared by the typings of React 19, Preact, Solid and Svelte. */
${typeImports(elements, '../src/index.ts')}

${blocks.join('\n\n')}
`;
}

/** The module a framework's typings take the shared props from, and the names they use. */
export function tagPropsImport(elements: Element[], prefixes: ('on' | 'on:')[]): string {
  const names = elements.flatMap((element) => [
    tagPropsType(element),
    ...prefixes.map((prefix) => listenersType(element, prefix)),
  ]);
  return `import type {\n  ${names.join(',\n  ')},\n} from '../tag-props.ts';\nimport type { ${elements.map((element) => `${element.className} as ${elementType(element)}`).join(', ')} } from '../../src/index.ts';`;
}

/** Each tag as the framework's own attributes of its element, the shared props, and the listeners it uses. */
export function tags(
  elements: Element[],
  attributes: (element: Element) => string,
  prefixes: ('on' | 'on:')[],
  indent: string,
): string {
  return elements
    .map(
      (element) => `${indent}/** \`<${element.tag}>\`: ${element.description} */
${indent}'${element.tag}': ${[attributes(element), tagPropsType(element), ...prefixes.map((prefix) => listenersType(element, prefix))].join(' & ')};`,
    )
    .join('\n');
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
${tagPropsImport(elements, ['on'])}

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
${tags(elements, (element) => `Preact.HTMLAttributes<${elementType(element)}>`, ['on'], '      ')}
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
${tagPropsImport(elements, ['on:'])}

declare module 'solid-js' {
  namespace JSX {
    interface IntrinsicElements {
${tags(elements, (element) => `Solid.JSX.HTMLAttributes<${elementType(element)}>`, ['on:'], '      ')}
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
${tagPropsImport(elements, ['on', 'on:'])}

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
${tags(elements, (element) => `Svelte.HTMLAttributes<${elementType(element)}>`, ['on', 'on:'], '    ')}
  }
}
`;
}
