/** The receipt's words (its message and its hosted page) in the four languages of the hosted pages. */
export interface ReceiptTexts {
  /** The message: {merchant}, {what}, {amount}, {link}. */
  message: string;
  title: { sale: string; refund: string; void: string };
  /** What the message calls the transaction. */
  what: { sale: string; refund: string; void: string };
  merchant: string;
  amount: string;
  paidWith: string;
  date: string;
  orderId: string;
  transactionId: string;
  keep: string;
  bank: string;
}

export const RECEIPT_TEXTS: Record<'en' | 'es' | 'fr' | 'de', ReceiptTexts> = {
  en: {
    message: 'Receipt from {merchant}: {what} of {amount}. {link}',
    title: { sale: 'Payment receipt', refund: 'Refund receipt', void: 'Cancellation receipt' },
    what: { sale: 'payment', refund: 'refund', void: 'cancelled payment' },
    merchant: 'Merchant', amount: 'Amount', paidWith: 'Paid with', date: 'Date', orderId: 'Order', transactionId: 'Transaction',
    keep: 'Keep this receipt for your records. To print it, use your browser’s print command.', bank: 'Bank account',
  },
  es: {
    message: 'Recibo de {merchant}: {what} de {amount}. {link}',
    title: { sale: 'Recibo de pago', refund: 'Recibo de reembolso', void: 'Recibo de cancelación' },
    what: { sale: 'pago', refund: 'reembolso', void: 'pago cancelado' },
    merchant: 'Comercio', amount: 'Importe', paidWith: 'Pagado con', date: 'Fecha', orderId: 'Pedido', transactionId: 'Transacción',
    keep: 'Guarde este recibo. Para imprimirlo, use la orden de imprimir de su navegador.', bank: 'Cuenta bancaria',
  },
  fr: {
    message: 'Reçu de {merchant} : {what} de {amount}. {link}',
    title: { sale: 'Reçu de paiement', refund: 'Reçu de remboursement', void: 'Reçu d’annulation' },
    what: { sale: 'paiement', refund: 'remboursement', void: 'paiement annulé' },
    merchant: 'Commerçant', amount: 'Montant', paidWith: 'Payé avec', date: 'Date', orderId: 'Commande', transactionId: 'Transaction',
    keep: 'Conservez ce reçu. Pour l’imprimer, utilisez la commande d’impression de votre navigateur.', bank: 'Compte bancaire',
  },
  de: {
    message: 'Beleg von {merchant}: {what} über {amount}. {link}',
    title: { sale: 'Zahlungsbeleg', refund: 'Erstattungsbeleg', void: 'Stornobeleg' },
    what: { sale: 'Zahlung', refund: 'Erstattung', void: 'stornierte Zahlung' },
    merchant: 'Händler', amount: 'Betrag', paidWith: 'Bezahlt mit', date: 'Datum', orderId: 'Bestellung', transactionId: 'Transaktion',
    keep: 'Bewahren Sie diesen Beleg auf. Zum Drucken verwenden Sie den Druckbefehl Ihres Browsers.', bank: 'Bankkonto',
  },
};

export type ReceiptLanguage = keyof typeof RECEIPT_TEXTS;
export const isReceiptLanguage = (language: string): language is ReceiptLanguage => language in RECEIPT_TEXTS;

/** The receipt's message in a language: {merchant}, {what}, {amount} and {link} filled in. */
export function receiptMessage(language: ReceiptLanguage, kind: keyof ReceiptTexts['what'], values: { merchant: string; amount: string; link: string }): string {
  const texts = RECEIPT_TEXTS[language];
  const filled: Record<string, string> = { ...values, what: texts.what[kind] };
  return texts.message.replace(/\{(\w+)\}/g, (whole, name: string) => filled[name] ?? whole);
}
