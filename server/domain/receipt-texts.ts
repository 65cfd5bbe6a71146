/** The receipt's words (its message and its hosted page) in the four languages of the hosted pages. */
export interface ReceiptTexts {
  /** The message: {merchant}, {what}, {amount}, {card}, {date}, {link}. */
  message: string;
  title: { sale: string; refund: string; void: string; ach_return: string };
  /** What the message calls the transaction (an ACH return: the bank sent the payment back). */
  what: { sale: string; refund: string; void: string; ach_return: string };
  merchant: string;
  amount: string;
  paidWith: string;
  date: string;
  orderId: string;
  transactionId: string;
  keep: string;
  bank: string;
  receiptNumber: string;
  description: string;
  tax: string;
  authCode: string;
  contact: string;
  state: string;
  /** The payment as it stands now; a partly refunded one says how much: {amount}. */
  states: {
    paid: string;
    partlyRefunded: string;
    refunded: string;
    voided: string;
    pending: string;
    declined: string;
    disputed: string;
  };
  refunds: string;
  /** On a refund's or void's receipt: the payment it concerns, {amount} on {date}. */
  refundOf: string;
}

export const RECEIPT_TEXTS: Record<'en' | 'es' | 'fr' | 'de', ReceiptTexts> = {
  en: {
    message: 'Receipt from {merchant}: {what} of {amount}, {card}, {date}. {link}',
    title: {
      sale: 'Payment receipt',
      refund: 'Refund receipt',
      void: 'Cancellation receipt',
      ach_return: 'Returned bank payment',
    },
    what: { sale: 'payment', refund: 'refund', void: 'cancelled payment', ach_return: 'returned bank payment' },
    merchant: 'Merchant',
    amount: 'Amount',
    paidWith: 'Paid with',
    date: 'Date',
    orderId: 'Order',
    transactionId: 'Transaction',
    keep: 'Keep this receipt for your records. To print it, use your browser’s print command.',
    bank: 'Bank account',
    receiptNumber: 'Receipt number',
    description: 'Description',
    tax: 'Tax',
    authCode: 'Authorization code',
    contact: 'Contact',
    state: 'Status',
    states: {
      paid: 'Paid',
      partlyRefunded: 'Paid; {amount} refunded',
      refunded: 'Refunded',
      voided: 'Cancelled',
      pending: 'Waiting for the bank',
      declined: 'Declined by the bank',
      disputed: 'Disputed by the card holder',
    },
    refunds: 'Refunds',
    refundOf: 'For the payment of {amount} on {date}',
  },
  es: {
    message: 'Recibo de {merchant}: {what} de {amount}, {card}, {date}. {link}',
    title: {
      sale: 'Recibo de pago',
      refund: 'Recibo de reembolso',
      void: 'Recibo de cancelación',
      ach_return: 'Pago bancario devuelto',
    },
    what: { sale: 'pago', refund: 'reembolso', void: 'pago cancelado', ach_return: 'pago bancario devuelto' },
    merchant: 'Comercio',
    amount: 'Importe',
    paidWith: 'Pagado con',
    date: 'Fecha',
    orderId: 'Pedido',
    transactionId: 'Transacción',
    keep: 'Guarde este recibo. Para imprimirlo, use la orden de imprimir de su navegador.',
    bank: 'Cuenta bancaria',
    receiptNumber: 'Número de recibo',
    description: 'Descripción',
    tax: 'Impuestos',
    authCode: 'Código de autorización',
    contact: 'Contacto',
    state: 'Estado',
    states: {
      paid: 'Pagado',
      partlyRefunded: 'Pagado; {amount} reembolsado',
      refunded: 'Reembolsado',
      voided: 'Cancelado',
      pending: 'Esperando al banco',
      declined: 'Rechazado por el banco',
      disputed: 'Disputado por el titular de la tarjeta',
    },
    refunds: 'Reembolsos',
    refundOf: 'Del pago de {amount} del {date}',
  },
  fr: {
    message: 'Reçu de {merchant} : {what} de {amount}, {card}, {date}. {link}',
    title: {
      sale: 'Reçu de paiement',
      refund: 'Reçu de remboursement',
      void: 'Reçu d’annulation',
      ach_return: 'Paiement bancaire rejeté',
    },
    what: {
      sale: 'paiement',
      refund: 'remboursement',
      void: 'paiement annulé',
      ach_return: 'paiement bancaire rejeté',
    },
    merchant: 'Commerçant',
    amount: 'Montant',
    paidWith: 'Payé avec',
    date: 'Date',
    orderId: 'Commande',
    transactionId: 'Transaction',
    keep: 'Conservez ce reçu. Pour l’imprimer, utilisez la commande d’impression de votre navigateur.',
    bank: 'Compte bancaire',
    receiptNumber: 'Numéro de reçu',
    description: 'Description',
    tax: 'Taxes',
    authCode: 'Code d’autorisation',
    contact: 'Contact',
    state: 'Statut',
    states: {
      paid: 'Payé',
      partlyRefunded: 'Payé ; {amount} remboursé',
      refunded: 'Remboursé',
      voided: 'Annulé',
      pending: 'En attente de la banque',
      declined: 'Refusé par la banque',
      disputed: 'Contesté par le titulaire de la carte',
    },
    refunds: 'Remboursements',
    refundOf: 'Du paiement de {amount} du {date}',
  },
  de: {
    message: 'Beleg von {merchant}: {what} über {amount}, {card}, {date}. {link}',
    title: {
      sale: 'Zahlungsbeleg',
      refund: 'Erstattungsbeleg',
      void: 'Stornobeleg',
      ach_return: 'Zurückgegebene Bankzahlung',
    },
    what: {
      sale: 'Zahlung',
      refund: 'Erstattung',
      void: 'stornierte Zahlung',
      ach_return: 'zurückgegebene Bankzahlung',
    },
    merchant: 'Händler',
    amount: 'Betrag',
    paidWith: 'Bezahlt mit',
    date: 'Datum',
    orderId: 'Bestellung',
    transactionId: 'Transaktion',
    keep: 'Bewahren Sie diesen Beleg auf. Zum Drucken verwenden Sie den Druckbefehl Ihres Browsers.',
    bank: 'Bankkonto',
    receiptNumber: 'Belegnummer',
    description: 'Beschreibung',
    tax: 'Steuer',
    authCode: 'Autorisierungscode',
    contact: 'Kontakt',
    state: 'Status',
    states: {
      paid: 'Bezahlt',
      partlyRefunded: 'Bezahlt; {amount} erstattet',
      refunded: 'Erstattet',
      voided: 'Storniert',
      pending: 'Wartet auf die Bank',
      declined: 'Von der Bank abgelehnt',
      disputed: 'Vom Karteninhaber angefochten',
    },
    refunds: 'Erstattungen',
    refundOf: 'Zur Zahlung über {amount} vom {date}',
  },
};

export type ReceiptLanguage = keyof typeof RECEIPT_TEXTS;
export const isReceiptLanguage = (language: string): language is ReceiptLanguage => language in RECEIPT_TEXTS;

/** Each language's locale for numbers and dates: a message and its page write an amount alike. */
const LOCALES: Record<ReceiptLanguage, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR', de: 'de-DE' };

// Made once per language: making a formatter costs about a hundred times what formatting with it does.
const FORMATS = Object.fromEntries(
  Object.entries(LOCALES).map(([language, locale]) => [
    language,
    {
      money: new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }),
      date: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }),
    },
  ]),
) as Record<ReceiptLanguage, { money: Intl.NumberFormat; date: Intl.DateTimeFormat }>;

/** Minor units as the language writes dollars ("$1,234.50", "1234,50 US$"): the same in messages and on pages. */
export const receiptMoney = (minor: number, language: ReceiptLanguage): string =>
  FORMATS[language].money.format(minor / 100);

/** An instant as date and time in UTC, the zone named: where the shopper's own zone is unknown (a message). */
export const receiptDate = (iso: string, language: ReceiptLanguage): string =>
  FORMATS[language].date.format(new Date(iso));

/** "Visa •••• 4242", or the bank account's last four of an ACH payment. */
export const receiptInstrument = (
  t: { method: string; card_brand: string; last_four: string },
  language: ReceiptLanguage,
): string => `${t.method === 'ach' ? RECEIPT_TEXTS[language].bank : t.card_brand} •••• ${t.last_four}`;

/** A receipt's number, from its transaction's id (its last twelve characters, grouped): short enough to read out. */
export const receiptNumber = (transactionId: string): string =>
  (
    transactionId
      .replace(/[^\w]/g, '')
      .slice(-12)
      .toUpperCase()
      .match(/.{1,4}/g) ?? []
  ).join('-');

/** The receipt's message in a language: {merchant}, {what}, {amount}, {card}, {date} and {link} filled in. */
export function receiptMessage(
  language: ReceiptLanguage,
  kind: keyof ReceiptTexts['what'],
  values: { merchant: string; amount: string; card: string; date: string; link: string },
): string {
  const texts = RECEIPT_TEXTS[language];
  const filled: Record<string, string> = { ...values, what: texts.what[kind] };
  return texts.message.replace(/\{(\w+)\}/g, (whole, name: string) => filled[name] ?? whole);
}
