/**
 * Lit's hydration support, loaded by the script tag before any element is defined when a page has server-rendered
 * elements (declarative shadow DOM from `paykit/ssr`): the elements then keep the markup they came with instead of
 * rendering it again.
 *
 * LitElement takes the support when it is evaluated, if it is there by then. Here LitElement (in `/paykit.js`, which
 * this module imports it from) is evaluated first, so the support is applied to it explicitly, once, before the
 * loader defines an element.
 */
import { LitElement } from 'lit-element';
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';

const hydrateSupport = (globalThis as { litElementHydrateSupport?: (lit: { LitElement: typeof LitElement }) => void })
  .litElementHydrateSupport;
// The support gives LitElement its own observedAttributes (adding `defer-hydration`): present, it is applied already.
if (hydrateSupport && !Object.hasOwn(LitElement, 'observedAttributes')) hydrateSupport({ LitElement });
