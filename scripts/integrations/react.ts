/**
 * `paykit/react`: one component per element (wrappers/react/pay-button.ts and its siblings, each its own entry,
 * gathered by wrappers/react/index.ts), with its props typed from the element class and its events as `on…` props
 * typed with their detail; and `paykit/react/jsx`, the bare tags for React 19's
 * JSX (wrappers/react/jsx.ts).
 */
import { pascal, type Element } from './model.ts';
import { doc, elementType, header, propertyType, typeImports } from './typescript.ts';
import { tagPropsImport, tags } from './jsx.ts';

const reactEvent = (name: string) => `on${pascal(name)}`;

function componentProps(element: Element): string {
  const own = [
    ...element.properties.map(
      (property) =>
        `${doc(property.description, '  ')}  ${property.name}?: ${propertyType(element, property)} | undefined;`,
    ),
    ...element.events.map(
      (event) =>
        `${doc(event.description, '  ')}  ${reactEvent(event.name)}?: ((event: ${event.type}) => void) | undefined;`,
    ),
  ];
  const names = [
    ...element.properties.map((property) => property.name),
    ...element.events.map((event) => reactEvent(event.name)),
  ];
  return `/** The props of \`<${element.className}>\`: the element's properties and its events, beside React's own. */
export interface ${element.className}Props extends Omit<HTMLAttributes<${elementType(element)}>, ${names.map((name) => `'${name}'`).join(' | ')}> {
${own.join('\n')}
}`;
}

function component(element: Element): string {
  const members = element.properties.map((property) => `'${property.name}'`).join(', ');
  const events = element.events.map((event) => `${reactEvent(event.name)}: '${event.name}'`).join(', ');
  return `/** \`<${element.tag}>\`: ${element.description} */
export const ${element.className} = createComponent<${elementType(element)}, ${element.className}Props>('${element.tag}', [${members}], { ${events} }, '${element.className}');`;
}

/** The types each entry re-exports from the main one, beside its element classes. */
const SHARED_TYPES = `export type {
  PaykitConfig, WidgetErrorCode, PaySuccessDetail, PaykitErrorDetail, RequestSentDetail, TransactionsLoadDetail, PaykitEventMap, PayMode, Theme,
} from '../../src/index.ts';`;

/** The file of one element's component: `wrappers/react/pay-button.ts`, the entry `paykit/react/pay-button`. */
export const reactElementFile = (element: Element) => `wrappers/react/${element.tag}.ts`;

/**
 * `paykit/react/pay-button` and its siblings: one element's component, which defines that element alone, so that a
 * bundle with `PayButton` carries neither of the other elements (as `paykit/pay-button` does without React).
 */
export function reactElementComponent(element: Element): string {
  return `${header('react.ts')}
/**
 * \`paykit/react/${element.tag}\`: the React component over \`<${element.tag}>\` alone.
 * Importing it defines that element only (when there is a DOM), so a bundle carries none of the other Paykit
 * elements; \`paykit/react\` has them all. The build puts \`'use client'\` at the top of the built file
 * (vite.config.ts), for Next.js's App Router.
 */
import type { HTMLAttributes } from 'react';
import { createComponent } from './create-component.ts';
${typeImports([element], '../../src/index.ts')}
// Defines <${element.tag}> (where there is a DOM), as \`import 'paykit/${element.tag}'\` does.
import '../../src/${element.tag}.ts';

export { configure } from '../../src/config.ts';
${SHARED_TYPES}
export type { ${elementType(element)} };

${componentProps(element)}

${component(element)}
`;
}

export function reactComponents(elements: Element[]): string {
  return `${header('react.ts')}
/**
 * \`paykit/react\`: React components over the Paykit elements. Each element property is a prop, set on the element
 * as a property; each event is an \`on…\` prop whose handler receives the element's typed \`CustomEvent\`; \`ref\` gives
 * the element (e.g. to call \`reload()\`). Importing this module also defines the elements (when there is a DOM).
 * React 18 and 19; on a server the components render their bare tags. The build puts \`'use client'\` at the top of
 * dist/react.js (vite.config.ts), so Next.js's App Router takes it as client code. One component without the other
 * elements in the bundle: \`paykit/react/pay-button\` and its siblings.
 */
// The main entry defines the elements (where there is a DOM), as \`import 'paykit'\` does.
export { configure } from '../../src/index.ts';
${SHARED_TYPES}
${elements.map((element) => `export { ${element.className}, type ${element.className}Props, type ${elementType(element)} } from './${element.tag}.ts';`).join('\n')}
`;
}

export function reactJsx(elements: Element[]): string {
  return `${header('react.ts')}
/**
 * The bare tags in React 19's JSX: \`<pay-button amount="5.00" onpay-success={…}>\`. React 19 sets what the element
 * has as a property (\`orderId\`), the rest as attributes (\`order-id\`), and listens to \`on\` + the event's name.
 * React 18 writes every prop as an attribute and listens to nothing: there, use the components of \`paykit/react\`.
 * Opt in once, in any file of the project:
 *
 *     import type {} from 'paykit/react/jsx';
 */
import type * as React from 'react';
${tagPropsImport(elements, ['on'])}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
${tags(elements, (element) => `React.DetailedHTMLProps<React.HTMLAttributes<${elementType(element)}>, ${elementType(element)}>`, ['on'], '      ')}
    }
  }
}
`;
}

const ADAPTERS_TABLE_START = "<!-- generated by npm run integrations: the React components' props -->\n";
const ADAPTERS_TABLE_END = '<!-- end of generated -->';

/** docs/adapters.md with its table of the React components' props and event props made again from the elements. */
export function adaptersDocs(page: string, elements: Element[]): string {
  const [before, rest] = page.split(ADAPTERS_TABLE_START);
  if (rest === undefined || !rest.includes(ADAPTERS_TABLE_END))
    throw new Error(`docs/adapters.md lacks its markers: ${ADAPTERS_TABLE_START.trim()} … ${ADAPTERS_TABLE_END}`);
  const code = (names: string[]) => names.map((name) => `\`${name}\``).join(', ');
  const rows = elements.map(
    (element) =>
      `| \`${element.className}\` | ${code(element.properties.map((property) => property.name))} | ${code(element.events.map((event) => reactEvent(event.name)))} |`,
  );
  const table = `| component | props (element properties) | event props |\n|---|---|---|\n${rows.join('\n')}\n`;
  return `${before}${ADAPTERS_TABLE_START}${table}${rest.slice(rest.indexOf(ADAPTERS_TABLE_END))}`;
}
