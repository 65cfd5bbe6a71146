/**
 * Registers an element unless its name is taken, so a page may load both the script tag and the npm
 * package; without `customElements` (a server rendering the page) it does nothing.
 */
export function defineElement(name: string, element: CustomElementConstructor): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, element);
}
