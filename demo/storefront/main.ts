import { $, demoConfig } from '../shared/api.ts';
import { renderHeader } from '../shared/chrome.ts';
import { productCardsHtml, SAMPLE_PHONE } from '../shared/products.ts';
import { renderTestCards } from '../shared/test-cards.ts';
import { reportWidgetEvents } from '../shared/outcomes.ts';

/** The storefront: the widgets come from the service's script tag, exactly as on a merchant's page. */
const config = await demoConfig();
renderHeader(config);
renderTestCards($('#test-cards'));

const tag = document.createElement('script');
tag.type = 'module';
tag.src = `${config.serviceUrl}/paykit.js`;
tag.dataset.publicKey = config.publicKey;
document.head.append(tag);

const products = $('#products');
if (!products.childElementCount) products.innerHTML = productCardsHtml();

const request = $('#request');
const phone = $<HTMLInputElement>('#phone');
phone.value = SAMPLE_PHONE;
const syncPhone = () => request.setAttribute('recipient-phone', phone.value);
phone.addEventListener('input', syncPhone);
syncPhone();

reportWidgetEvents(document, $('#outcomes'));
