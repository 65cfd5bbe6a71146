import { createApp } from 'vue';
import { configure } from 'paykit/vue';
import { $, demoConfig } from '../shared/api.ts';
import { renderHeader } from '../shared/chrome.ts';
import { renderTestCards } from '../shared/test-cards.ts';
import Storefront from './Storefront.vue';

const config = await demoConfig();
renderHeader(config);
renderTestCards($('#test-cards'));
configure({ publicKey: config.publicKey, baseUrl: config.serviceUrl });
createApp(Storefront).mount('#app');
