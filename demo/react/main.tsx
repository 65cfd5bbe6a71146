import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configure } from 'paykit/react';
import { $, demoConfig } from '../shared/api.ts';
import { renderHeader } from '../shared/chrome.ts';
import { renderTestCards } from '../shared/test-cards.ts';
import { Storefront } from './storefront.tsx';

const config = await demoConfig();
renderHeader(config);
renderTestCards($('#test-cards'));
configure({ publicKey: config.publicKey, baseUrl: config.serviceUrl });

// StrictMode mounts twice in development: the adapters create nothing twice.
createRoot($('#app')).render(
  <StrictMode>
    <Storefront />
  </StrictMode>,
);
