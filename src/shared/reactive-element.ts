import { render } from 'lit/html.js';

/**
 * Paykit's own base for custom elements over lit-html: what Lit's ReactiveElement and LitElement give the three
 * elements, in a fraction of the bytes (docs/performance.md says why and what is left out). It keeps `static
 * properties` with attributes and Lit's Boolean/Number/String conversion, accessors on the prototype (so React's
 * and Vue's adapters see properties), values set before the element was defined, updates batched in a microtask
 * with `willUpdate` / `render` / `updated`, `updateComplete`, and one constructed stylesheet per class in an open
 * shadow root. Not here: reflection to attributes, `state: true`, `hasChanged`, custom converters, controllers,
 * `firstUpdated`, and SSR hydration.
 */

/** How an attribute's text becomes the property's value: `Boolean` present or not, `Number` as a number, else the text. */
type AttributeType = typeof Boolean | typeof Number | typeof String;

export interface PropertyDeclaration {
  /** The attribute that sets the property: its name in lower case unless given; `false` for none. */
  attribute?: string | false;
  type?: AttributeType;
}

export type PropertyDeclarations = Record<string, PropertyDeclaration>;

/** The properties changed since the last update, with their values before it. */
export type PropertyValues = Map<PropertyKey, unknown>;

/** The text of a stylesheet; a tag only so that editors highlight it as CSS. */
export const css: (strings: TemplateStringsArray) => string = String.raw;

/** What a class knows once finalized: its attributes (→ property and type), its properties, and (once constructed) its stylesheet. */
type ClassInfo = [Map<string, [string, AttributeType?]>, string[], CSSStyleSheet?];
const defined = new WeakMap<Function, ClassInfo>();

// A server has no HTMLElement: there the classes can still be imported (and never constructed), as Lit's can.
const Base = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

export abstract class ReactiveElement extends Base {
  /** The reactive properties this class adds to those of its superclasses. */
  static properties: PropertyDeclarations = {};

  /** The CSS of the shadow root, all of it: a subclass adds its own to its superclass's. */
  static styles = '';

  /**
   * Makes each declared property an accessor on the prototype of the class that declares it, once per class:
   * when the element is defined, and on a server too (src/shared/define.ts), where React's adapter looks for them.
   */
  static finalize(): void {
    if (defined.has(this)) return;
    const attributes: ClassInfo[0] = new Map();
    const names: string[] = [];
    for (let cls = this; cls !== ReactiveElement; cls = Object.getPrototypeOf(cls)) {
      if (!Object.hasOwn(cls, 'properties')) continue;
      for (const [name, { attribute, type }] of Object.entries(cls.properties)) {
        names.push(name);
        if (attribute !== false) attributes.set(attribute ?? name.toLowerCase(), [name, type]);
        Object.defineProperty(cls.prototype, name, {
          get(this: ReactiveElement) {
            return #values in this ? this.#values[name] : undefined;
          },
          set(this: ReactiveElement, value: unknown) {
            const old = this.#values[name];
            // Lit's rule: a change unless equal, and NaN to NaN is no change.
            if (old !== value && (old === old || value === value)) {
              this.#values[name] = value;
              if (!this.#changed.has(name)) this.#changed.set(name, old);
              this.requestUpdate();
            }
          },
          configurable: true,
          enumerable: true,
        });
      }
    }
    defined.set(this, [attributes, names]);
  }

  static get observedAttributes(): string[] {
    this.finalize();
    return [...defined.get(this)![0].keys()];
  }

  readonly renderRoot: ShadowRoot;

  /** True once the element has rendered. */
  hasUpdated = false;

  #values: Record<string, unknown> = {};
  #changed: PropertyValues = new Map();
  /** Properties the page set on the element before it was defined, which the class's accessors must see. */
  #early: [string, unknown][] = [];
  #pending = false;
  #connected!: (value: boolean) => void;
  /** Resolves when the current update is done: first when the element is connected for the first time. */
  #done = new Promise<boolean>((resolve) => (this.#connected = resolve));

  constructor() {
    super();
    const cls = this.constructor as typeof ReactiveElement;
    const info = defined.get(cls)!;
    if (!info[2]) (info[2] = new CSSStyleSheet()).replaceSync(cls.styles);
    for (const name of info[1]) {
      if (Object.hasOwn(this, name)) {
        this.#early.push([name, this[name as keyof this]]);
        delete this[name as keyof this];
      }
    }
    (this.renderRoot = this.attachShadow({ mode: 'open' })).adoptedStyleSheets = [info[2]];
    this.requestUpdate();
  }

  /** Resolves, true unless another update followed, once the element has rendered what has changed so far. */
  get updateComplete(): Promise<boolean> {
    return this.#done;
  }

  /** Renders again in a microtask; changes until then are rendered together. */
  requestUpdate(): void {
    if (!this.#pending) {
      this.#pending = true;
      this.#done = this.#update();
    }
  }

  async #update(): Promise<boolean> {
    try {
      await this.#done;
    } catch (error) {
      // The previous update failed: report it again, as Lit does, and render this one anyway.
      void Promise.reject(error);
    }
    const changed = this.#changed;
    let template: unknown;
    try {
      // Set now, after the constructors of every subclass, so their field defaults do not replace them.
      for (const [name, value] of this.#early.splice(0)) this[name as keyof this] = value as this[keyof this];
      this.willUpdate(changed);
      template = this.render();
    } finally {
      this.#changed = new Map();
      this.#pending = false;
    }
    render(template, this.renderRoot, { host: this });
    this.hasUpdated = true;
    this.updated(changed);
    return !this.#pending;
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null): void {
    const [name, type] = defined.get(this.constructor)![0].get(attribute)!;
    (this as unknown as Record<string, unknown>)[name] = type === Boolean ? value !== null : type === Number && value !== null ? Number(value) : value;
  }

  connectedCallback(): void {
    this.#connected(true);
  }

  disconnectedCallback(): void {}

  /** Before rendering: derive state from `changed` here; property changes made here join this update. */
  protected willUpdate(_changed: PropertyValues): void {}

  /** What the shadow root shows: a lit-html template (or anything lit-html renders). */
  protected abstract render(): unknown;

  /** After rendering: changes made here cause another update. */
  protected updated(_changed: PropertyValues): void {}
}
