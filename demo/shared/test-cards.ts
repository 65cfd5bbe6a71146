/** The sandbox's test cards, shown where a shopper needs them. */
const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'approved' },
  { number: '4000 0000 0000 3220', outcome: 'asks for 3-D Secure, then approved' },
  { number: '4000 0000 0000 0002', outcome: 'declined' },
  { number: '4000 0000 0000 9995', outcome: 'declined: insufficient funds' },
] as const;

const TEST_CARD_HINT = 'Any future expiry date and any 3-digit CVC.';

/** The test cards' section content; the demo's server writes it into the pages (demo/backend/plugin.ts). */
export function testCardsHtml(): string {
  return `<h2 id="test-cards-title">Test cards</h2>
    <ul class="cards">${TEST_CARDS.map((card) => `<li><code>${card.number}</code> <span>${card.outcome}</span></li>`).join('')}</ul>
    <p class="hint">${TEST_CARD_HINT}</p>`;
}

/** The test cards, where the page came without them. */
export function renderTestCards(target: HTMLElement): void {
  if (!target.childElementCount) target.innerHTML = testCardsHtml();
}
