/**
 * Registers an element unless its name is taken, so a page may load both the script tag and the npm package
 * (whichever comes first defines the tag, the other is ignored). On a server, Lit's own registry stands in for
 * `customElements`, which is what server rendering looks elements up in.
 */
export function defineElement(name: string, element: CustomElementConstructor): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, element);
}
