/**
 * `paykit/angular` (wrappers/angular/index.ts): the elements and their events in the DOM's typings, which Angular's
 * template type checker reads for elements under `CUSTOM_ELEMENTS_SCHEMA`: with `strictTemplates`, `$event` in
 * `(pay-success)="paid($event)"` is the element's typed `CustomEvent`, also when the script tag defines the elements
 * and no module of the package is imported.
 */
import { namedTypes, type Element } from './model.ts';
import { doc, elementType, header } from './typescript.ts';

export function angularTypes(elements: Element[]): string {
  const classes = elements.map((element) => `${element.className} as ${elementType(element)}`);
  const named = namedTypes(elements.flatMap((element) => element.events.map((event) => event.type)));
  const events = new Map(elements.flatMap((element) => element.events.map((event) => [event.name, event] as const)));
  return `${header('angular.ts')}
/**
 * \`paykit/angular\`: typed events for Angular templates. Angular accepts the elements with
 * \`CUSTOM_ELEMENTS_SCHEMA\` and, under \`strictTemplates\`, types \`$event\` from the DOM's typings: these name each
 * element's class and each event's \`CustomEvent\`, so \`(pay-success)="paid($event)"\` hands \`paid\` a
 * \`CustomEvent<PaySuccessDetail>\` and a wrong handler fails \`ng build\`. Opt in once, in any .ts file of the project
 * (the elements may come from the script tag):
 *
 *     import type {} from 'paykit/angular';
 */
import type {
  ${[...classes, ...named].join(',\n  ')},
} from '../../src/index.ts';

export type {
  ${[...elements.map(elementType), ...named].join(',\n  ')},
};
export type { WidgetErrorCode } from '../../src/index.ts';

declare global {
  interface HTMLElementTagNameMap {
${elements.map((element) => `    '${element.tag}': ${elementType(element)};`).join('\n')}
  }
  interface HTMLElementEventMap {
${[...events.values()].map((event) => `${doc(event.description, '    ')}    '${event.name}': ${event.type};`).join('\n')}
  }
}
`;
}
