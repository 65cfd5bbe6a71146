/**
 * What the elements the script tag fetches later take from `/paykit.js`: the build resolves their imports of any
 * module bundled into the loader to the loader itself (server/script-tag/bundle.ts), so a page runs one Lit, one
 * base and one configuration. These are the names they import; the build fails if one is missing here.
 */
export { css, html, LitElement } from 'lit-element';
export { _$LH, noChange, render } from 'lit-html';
export { initialState, Task, TaskStatus } from '@lit/task';
export { resolveBaseUrl } from '../config.ts';
export { defineElement } from '../shared/define.ts';
export { errorDetail, WidgetError } from '../shared/errors.ts';
export { formatMoney, interpolate, isAmount, resolveLocale } from '../shared/format.ts';
export { styles } from '../shared/styles.ts';
export { emit } from '../elements/events.ts';
export { commonStrings, PaykitButtonElement, PaykitElement } from '../elements/paykit-element.ts';
export { publicKeyCall, widgetCall, WidgetApiError, WidgetAuthError, WidgetNetworkError } from '../widget-api.ts';
