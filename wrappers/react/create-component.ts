/**
 * A React component over a custom element, as the generated `paykit/react` components use it. React renders the
 * element's tag with React's own props (`className`, `style`, `id`, …); once it is in the page, each element
 * member is set as a property (so objects and functions arrive whole, also on React 18, which would write them as
 * attributes) and each `on…` event prop becomes a listener of the element's event. `ref` gives the element.
 *
 * What `@lit/react` does, without its peer dependency on `@types/react` (which npm would install into every
 * project, React or not) and with props typed from the manifest rather than from every member of the class.
 */
import {
  createElement,
  forwardRef,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  type ForwardRefExoticComponent,
  type PropsWithoutRef,
  type RefAttributes,
} from 'react';

/** No layout effects on a server (React 18 warns of them there): nothing is set there anyway. */
const useBrowserLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/** One listener per element and event, whose handler follows the latest prop: re-renders add nothing. */
const listeners = new WeakMap<Element, Map<string, { handleEvent: (event: Event) => void }>>();

function listen(element: Element, event: string, handler: unknown): void {
  let byEvent = listeners.get(element);
  if (!byEvent) listeners.set(element, (byEvent = new Map()));
  const listener = byEvent.get(event);
  if (typeof handler === 'function') {
    if (listener) listener.handleEvent = handler as (event: Event) => void;
    else {
      const added = { handleEvent: handler as (event: Event) => void };
      byEvent.set(event, added);
      element.addEventListener(event, added);
    }
  } else if (listener) {
    byEvent.delete(event);
    element.removeEventListener(event, listener);
  }
}

/**
 * The component for `tagName`: `members` are the element's properties, `events` maps each event prop to the event
 * it listens to (`{ onPaySuccess: 'pay-success' }`).
 */
export function createComponent<El extends HTMLElement, Props extends object>(
  tagName: string,
  members: readonly string[],
  events: Readonly<Record<string, string>>,
  displayName: string,
): ForwardRefExoticComponent<PropsWithoutRef<Props> & RefAttributes<El>> {
  const own = new Set([...members, ...Object.keys(events)]);
  const component = forwardRef<El, Props>((props, ref) => {
    const element = useRef<El | null>(null);
    const applied = useRef(new Map<string, unknown>());
    const reactProps: Record<string, unknown> = { suppressHydrationWarning: true };
    const elementProps = new Map<string, unknown>();
    for (const [name, value] of Object.entries(props)) {
      if (own.has(name)) elementProps.set(name, value);
      else reactProps[name === 'className' ? 'class' : name] = value;
    }

    useBrowserLayoutEffect(() => {
      const node = element.current;
      if (!node) return;
      // A prop no longer passed is set to undefined, which gives the element its default back.
      for (const name of new Set([...applied.current.keys(), ...elementProps.keys()])) {
        const value = elementProps.get(name);
        // Unchanged, or undefined and never set: the element keeps what it has (its default, before any value).
        if (Object.is(applied.current.get(name), value)) continue;
        if (Object.hasOwn(events, name)) listen(node, events[name]!, value);
        else (node as unknown as Record<string, unknown>)[name] = value;
      }
      applied.current = elementProps;
    });

    reactProps.ref = useCallback(
      (node: El | null) => {
        element.current = node;
        if (typeof ref === 'function') ref(node);
        else if (ref) ref.current = node;
      },
      [ref],
    );
    return createElement(tagName, reactProps);
  });
  component.displayName = displayName;
  return component;
}
