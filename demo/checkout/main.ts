import { $, demoConfig } from '../shared/api.ts';
import { renderHeader } from '../shared/chrome.ts';
import { reportWidgetEvents } from '../shared/outcomes.ts';

/** The server-rendered storefront: the products and their pay buttons arrive as HTML (demo/backend/checkout-page.ts). */
renderHeader(await demoConfig());
reportWidgetEvents(document, $('#outcomes'));
