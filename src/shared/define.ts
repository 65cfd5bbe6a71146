/**
 * Registers an element unless its name is taken, so a page may load both the script tag and the npm
 * package; without `customElements` (a server rendering the page) it only puts the element's properties on its
 * prototype.
 */
export function defineElement(name: string, element: CustomElementConstructor & { finalize?(): void }): void {
  // First, and on a server too: @lit/react renders a prop it finds on the prototype as a property, not an attribute.
  element.finalize?.();
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, element);
}
