/**
 * `paykit/vue`: one Vue component per element (wrappers/vue/index.ts), `paykit/vue/global-components`, the typings
 * of the bare tags in templates (wrappers/vue/global-components.ts), and `paykit/vue/compiler`, the template
 * compiler's options for the bare tags (wrappers/vue/compiler.ts).
 */
import { camel, type Element } from './model.ts';
import { doc, elementType, header, propertyType, typeImports } from './typescript.ts';

function props(element: Element): string {
  return element.properties
    .map((property) => {
      // Boolean props get Vue's boolean casting (`<PayButton show-qr>` is true); the rest take any value as it is.
      const runtime = property.type === 'boolean' ? 'Boolean' : 'null as unknown';
      return `${doc(property.description, '    ')}    ${property.name}: { type: ${runtime} as PropType<${propertyType(element, property)}>, default: undefined },`;
    })
    .join('\n');
}

function component(element: Element): string {
  const emits = element.events
    .map((event) => `${doc(event.description, '    ')}    ${camel(event.name)}: (_event: ${event.type}) => true,`)
    .join('\n');
  const listeners = element.events
    .map((event) => `on${camel(`-${event.name}`)}: (event: ${event.type}) => emit('${camel(event.name)}', event)`)
    .join(',\n        ');
  const methods = element.methods
    .map(
      (
        method,
      ) => `${doc(method.description, '    ')}    ${method.name}(...args: Parameters<${elementType(element)}['${method.name}']>): ReturnType<${elementType(element)}['${method.name}']> {
      return (this.$el as ${elementType(element)}).${method.name}(...args);
    },`,
    )
    .join('\n');
  return `/** \`<${element.tag}>\`: ${element.description} */
export const ${element.className} = withHtmlAttributes(defineComponent({
  name: '${element.className}',
  props: {
${props(element)}
  },
  emits: {
${emits}
  },${methods ? `\n  // The element's methods, on the component's ref: \`${element.className.charAt(0).toLowerCase()}${element.className.slice(1)}.value.${element.methods[0]!.name}()\`.\n  expose: [${element.methods.map((method) => `'${method.name}'`).join(', ')}],\n  methods: {\n${methods}\n  },` : ''}
  setup(props, { emit }) {
    return () =>
      h('${element.tag}', {
        ...asProperties(props),
        ${listeners},
      });
  },
}));`;
}

export function vueComponents(elements: Element[]): string {
  return `${header('vue.ts')}
/**
 * \`paykit/vue\`: Vue 3 components over the Paykit elements. Props are set on the element as DOM properties (never
 * stringified into attributes, also before the element is defined); each event is re-emitted under its camelCase
 * name (\`@pay-success\` in a template, \`onPaySuccess\` in a render function) with the element's typed \`CustomEvent\`;
 * the element's methods are on the component's ref; global HTML attributes (\`id\`, \`title\`, \`hidden\`, \`aria-*\`,
 * \`data-*\`) fall through to the element and type-check under \`strictTemplates\`. Importing this module also defines
 * the elements (when there is a DOM). For the bare tags (\`<pay-button>\` in a template) see \`paykit/vue/compiler\`
 * and \`paykit/vue/global-components\`.
 */
import { defineComponent, h, type PropType } from 'vue';
import { asProperties } from './as-properties.ts';
import { withHtmlAttributes } from './with-html-attributes.ts';
${typeImports(elements, '../../src/index.ts')}

// The main entry defines the elements (where there is a DOM), as \`import 'paykit'\` does.
export { configure } from '../../src/index.ts';
export type {
  PaykitConfig, WidgetErrorCode, PaySuccessDetail, PaykitErrorDetail, RequestSentDetail, TransactionsLoadDetail, PaykitEventMap, PayMode, Theme,
} from '../../src/index.ts';
export type { ${elements.map(elementType).join(', ')} };

${elements.map(component).join('\n\n')}
`;
}

export function vueGlobalComponents(elements: Element[]): string {
  const entries = elements.map((element) => {
    const events = element.events.map((event) => `      '${event.name}': ${event.type};`).join('\n');
    return `    /** \`<${element.tag}>\`: ${element.description} */
    '${element.tag}': DefineCustomElement<
      ${elementType(element)},
      {
${events}
      },
      ${element.properties.map((property) => `'${property.name}'`).join(' | ')}
    >;`;
  });
  return `${header('vue.ts')}
/**
 * Template typings for the bare tags \`<pay-button>\`, \`<request-payment-button>\` and \`<transactions-table>\` in Vue
 * templates: props and \`@pay-success\`-style events type-check under vue-tsc / Volar. Kept apart from
 * \`paykit/vue\`, as Vue's guide asks of custom element libraries, so that only a project that wants the module
 * augmentation gets it:
 *
 *     import type {} from 'paykit/vue/global-components';
 *
 * (in any .ts or .vue file of the project, e.g. env.d.ts). The elements must also be defined at run time
 * (\`import 'paykit'\`, or the script tag) and the template compiler given \`paykit/vue/compiler\`'s options.
 */
import type { EmitFn, PublicProps } from 'vue';
import type { GlobalHtmlAttributes } from './with-html-attributes.ts';
${typeImports(elements, '../../src/index.ts')}

/**
 * The shape Vue's language tools read from a global component: \`$props\` for the template's attributes and
 * \`$emit\` for its events. Both exist only for type checking; an element reference has neither.
 */
export type DefineCustomElement<El extends HTMLElement, Events extends Record<string, Event>, Props extends keyof El> = new () => El & {
  /** @deprecated Template type checking only: not a property of the element. */
  $props: GlobalHtmlAttributes & Partial<Pick<El, Props>> & PublicProps;
  /** @deprecated Template type checking only: not a method of the element. */
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
${entries.join('\n')}
  }
}
`;
}

export function vueCompiler(elements: Element[]): string {
  const propertyOnly = elements.map(
    (element) =>
      `  '${element.tag}': [${element.properties
        .filter((property) => !property.attribute)
        .map((property) => `'${property.name}'`)
        .join(', ')}],`,
  );
  return `${header('vue.ts')}
/**
 * \`paykit/vue/compiler\`: the template compiler's options for the bare tags, for \`@vitejs/plugin-vue\`'s
 * \`template.compilerOptions\` (or \`app.config.compilerOptions\` with the in-browser compiler):
 *
 *     import { compilerOptions } from 'paykit/vue/compiler';
 *     vue({ template: { compilerOptions } })
 *
 * \`isCustomElement\` tells Vue these tags are elements, not components; the node transform binds the members that
 * have no attribute (\`:fetch-session-token="fn"\`, \`:strings="{…}"\`) as DOM properties, which Vue would otherwise
 * write as attributes. Plain data and a small function: nothing of the elements is imported.
 */
import { bindAsProperties } from './bind-as-properties.ts';

/** The Paykit tags. */
export const PAYKIT_TAGS: readonly string[] = [${elements.map((element) => `'${element.tag}'`).join(', ')}];

/** Each tag's members that exist only as properties. */
export const PROPERTY_ONLY: Readonly<Record<string, readonly string[]>> = {
${propertyOnly.join('\n')}
};

/** True for a Paykit tag: for your own \`isCustomElement\` when the page has other custom elements too. */
export const isPaykitElement = (tag: string): boolean => PAYKIT_TAGS.includes(tag);

/** The node transform that binds the property-only members as properties. */
export const bindPaykitProperties = bindAsProperties(PROPERTY_ONLY);

export const compilerOptions = { isCustomElement: isPaykitElement, nodeTransforms: [bindPaykitProperties] };
`;
}
