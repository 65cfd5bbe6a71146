type Props = Record<string, string | boolean | ((event: Event) => void)>;

/** A tiny element builder for the demo pages: `h('button', { onclick }, 'Refund')`. Text is always text. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false) element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}

export const money = (amount: string | number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(amount));
export const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Re-renders `target` without losing what a person typed: inputs with the same `name` get their values back,
 * so a live update (a webhook arriving) does not reset an amount being edited.
 */
export function replaceKeepingInputs(target: HTMLElement, ...content: Node[]): void {
  const typed = new Map([...target.querySelectorAll('input')].map((input) => [input.name, input.value]));
  target.replaceChildren(...content);
  for (const input of target.querySelectorAll('input')) {
    const value = typed.get(input.name);
    if (value !== undefined) input.value = value;
  }
}
