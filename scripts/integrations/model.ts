/**
 * The elements as the generators see them: what the manifest says about each element, in the shape every face of
 * it needs (wrappers, typings, editor data, docs).
 */

/** The parts of the Custom Elements Manifest schema that Paykit's generators read. */
export interface Manifest {
  schemaVersion: string;
  readme?: string;
  modules: ManifestModule[];
}

export interface ManifestModule {
  kind: string;
  path: string;
  declarations?: Declaration[];
  exports?: { kind: string; name: string; declaration: { name: string; module?: string; package?: string } }[];
}

export interface Named {
  name: string;
  description?: string;
  type?: { text: string };
  default?: string;
  fieldName?: string;
}

interface ManifestMember extends Named {
  kind: 'field' | 'method';
  privacy?: string;
  static?: boolean;
  attribute?: string;
  parameters?: Named[];
  return?: { type?: { text: string } };
  inheritedFrom?: { name: string; module?: string; package?: string };
}

export interface Declaration {
  kind: string;
  name: string;
  tagName?: string;
  customElement?: boolean;
  description?: string;
  superclass?: { name: string; module?: string; package?: string };
  attributes?: Named[];
  members?: ManifestMember[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
  cssStates?: Named[];
}

export interface Property {
  /** The JavaScript name, e.g. `orderId`. */
  name: string;
  /** The attribute, e.g. `order-id`; none for a property-only member (`strings`, `fetchSessionToken`). */
  attribute?: string;
  /** The type as the manifest writes it, e.g. `'dialog' | 'popup' | 'redirect'`. */
  type: string;
  description: string;
  default?: string;
}

interface ElementEvent {
  /** As dispatched, e.g. `pay-success`. */
  name: string;
  /** The event's type, e.g. `CustomEvent<PaySuccessDetail>`. */
  type: string;
  description: string;
}

interface Method {
  name: string;
  description: string;
}

export interface Element {
  tag: string;
  className: string;
  description: string;
  properties: Property[];
  events: ElementEvent[];
  methods: Method[];
  declaration: Declaration;
}

const isPublic = (member: ManifestMember) =>
  (!member.privacy || member.privacy === 'public') && !member.static && !member.name.startsWith('#');

/** One line of a description: the manifest keeps the source's line breaks. */
export const oneLine = (text = '') => text.replace(/\s*\n\s*/g, ' ').trim();

/** The elements of a manifest, in the manifest's order. */
export function elementsOf(manifest: Manifest): Element[] {
  return manifest.modules.flatMap((module) =>
    (module.declarations ?? [])
      .filter((declaration) => declaration.tagName)
      .map((declaration) => {
        const tag = declaration.tagName!;
        const members = (declaration.members ?? []).filter(isPublic);
        // An `@attr` line of the class's JSDoc says more than the field's own comment, when the element has one.
        const attributeDescription = (name: string) =>
          declaration.attributes?.find((attribute) => attribute.fieldName === name)?.description;
        return {
          tag,
          className: declaration.name,
          description: oneLine(declaration.description),
          properties: members
            .filter((member) => member.kind === 'field')
            .map((member) => ({
              name: member.name,
              ...(member.attribute ? { attribute: member.attribute } : {}),
              type: member.type?.text ?? 'unknown',
              description: oneLine(attributeDescription(member.name) ?? member.description),
              ...(member.default ? { default: member.default } : {}),
            })),
          events: (declaration.events ?? []).map((event) => ({
            name: event.name,
            type: event.type?.text ?? 'Event',
            description: oneLine(event.description),
          })),
          methods: members
            .filter((member) => member.kind === 'method')
            .map((member) => ({ name: member.name, description: oneLine(member.description) })),
          declaration,
        };
      }),
  );
}

/** `pay-success` → `PaySuccess`. */
export const pascal = (name: string) =>
  name.replace(/(^|-)(\w)/g, (_, _dash: string, letter: string) => letter.toUpperCase());

/** `pay-success` → `paySuccess`. */
export const camel = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

/** The types an event's type names besides the global ones, e.g. `PaySuccessDetail`: the generated files import them. */
export function namedTypes(types: string[]): string[] {
  const globals = new Set(['CustomEvent', 'Event', 'Partial', 'Record', 'Promise', 'Readonly']);
  return [...new Set(types.flatMap((type) => type.match(/\b[A-Z]\w*/g) ?? []))]
    .filter((name) => !globals.has(name))
    .sort();
}
