import { $, demoConfig } from '../shared/api.ts';
import { renderHeader } from '../shared/chrome.ts';
import { PRODUCTS, QR_SPACE_TEXT, SAMPLE_PHONE } from '../shared/products.ts';
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

$('#products').replaceChildren(...PRODUCTS.map((product) => {
  const card = document.createElement('article');
  card.className = 'product';
  card.innerHTML = '<h3></h3><p></p><p class="price"></p><pay-button></pay-button>';
  card.querySelector('h3')!.textContent = product.name;
  card.querySelector('p')!.textContent = product.blurb;
  card.querySelector('.price')!.textContent = `$${product.price}`;
  const button = card.querySelector('pay-button')!;
  button.setAttribute('amount', product.price);
  button.setAttribute('description', product.name);
  if (product.qr) {
    button.setAttribute('show-qr', '');
    card.classList.add('with-qr');
    const space = document.createElement('div');
    space.className = 'qr-space';
    space.textContent = QR_SPACE_TEXT;
    card.append(space);
  }
  return card;
}));

const request = $('#request');
const phone = $<HTMLInputElement>('#phone');
phone.value = SAMPLE_PHONE;
const syncPhone = () => request.setAttribute('recipient-phone', phone.value);
phone.addEventListener('input', syncPhone);
syncPhone();

reportWidgetEvents(document, $('#outcomes'));
