/** The export's words in the console's four languages: its header row, and types and statuses as the console says them. */
export type CsvLanguage = 'en' | 'es' | 'fr' | 'de';

type Column =
  | 'transaction_id'
  | 'created_date'
  | 'type'
  | 'status'
  | 'amount'
  | 'refunded_amount'
  | 'net_amount'
  | 'card_brand'
  | 'last_four'
  | 'order_id'
  | 'fee'
  | 'currency'
  | 'customer'
  | 'description'
  | 'refund_reason';
type Status =
  'completed' | 'partly_refunded' | 'refunded' | 'voided' | 'pending' | 'declined' | 'authorized' | 'captured';

export interface CsvTexts {
  /** `created_date` names the time zone of the dates: `{zone}`. */
  headers: Record<Column, string>;
  types: Record<string, string>;
  statuses: Record<Status, string>;
  /** A refund's reason (issue 44); `other` is followed by the merchant's note. */
  reasons: Record<'requested_by_customer' | 'duplicate' | 'fraudulent' | 'other', string>;
}

/** A sale refunded in part or whole keeps the status `completed`; the console (and so the export) says which. */
export function csvStatus(t: { kind: string; status: string; amount: number; refunded_amount: number }): Status {
  if (t.kind === 'sale' && t.status === 'completed' && t.refunded_amount > 0)
    return t.refunded_amount < t.amount ? 'partly_refunded' : 'refunded';
  return t.status as Status;
}

export const CSV_TEXTS: Record<CsvLanguage, CsvTexts> = {
  en: {
    headers: {
      transaction_id: 'Transaction ID',
      created_date: 'Date ({zone})',
      type: 'Type',
      status: 'Status',
      amount: 'Amount',
      refunded_amount: 'Refunded',
      net_amount: 'Net',
      card_brand: 'Card brand',
      last_four: 'Last four',
      order_id: 'Order ID',
      fee: 'Fee',
      currency: 'Currency',
      customer: 'Customer',
      description: 'Description',
      refund_reason: 'Refund reason',
    },
    types: { sale: 'Sale', refund: 'Refund', void: 'Void', ach_return: 'ACH return', preauth: 'Hold' },
    statuses: {
      completed: 'Completed',
      partly_refunded: 'Partly refunded',
      refunded: 'Refunded',
      voided: 'Voided',
      pending: 'Pending',
      declined: 'Declined',
      authorized: 'Authorized',
      captured: 'Captured',
    },
    reasons: {
      requested_by_customer: 'Requested by customer',
      duplicate: 'Duplicate',
      fraudulent: 'Fraudulent',
      other: 'Other',
    },
  },
  es: {
    headers: {
      transaction_id: 'ID de transacción',
      created_date: 'Fecha ({zone})',
      type: 'Tipo',
      status: 'Estado',
      amount: 'Importe',
      refunded_amount: 'Reembolsado',
      net_amount: 'Neto',
      card_brand: 'Marca de tarjeta',
      last_four: 'Últimos cuatro',
      order_id: 'ID de pedido',
      fee: 'Comisión',
      currency: 'Moneda',
      customer: 'Cliente',
      description: 'Descripción',
      refund_reason: 'Motivo del reembolso',
    },
    types: {
      sale: 'Venta',
      refund: 'Reembolso',
      void: 'Anulación',
      ach_return: 'Devolución ACH',
      preauth: 'Retención',
    },
    statuses: {
      completed: 'Completada',
      partly_refunded: 'Reembolsada en parte',
      refunded: 'Reembolsada',
      voided: 'Anulada',
      pending: 'Pendiente',
      declined: 'Rechazada',
      authorized: 'Autorizada',
      captured: 'Capturada',
    },
    reasons: {
      requested_by_customer: 'Solicitado por el cliente',
      duplicate: 'Duplicado',
      fraudulent: 'Fraudulento',
      other: 'Otro',
    },
  },
  fr: {
    headers: {
      transaction_id: 'ID de transaction',
      created_date: 'Date ({zone})',
      type: 'Type',
      status: 'Statut',
      amount: 'Montant',
      refunded_amount: 'Remboursé',
      net_amount: 'Net',
      card_brand: 'Marque de carte',
      last_four: 'Quatre derniers chiffres',
      order_id: 'ID de commande',
      fee: 'Frais',
      currency: 'Devise',
      customer: 'Client',
      description: 'Description',
      refund_reason: 'Motif du remboursement',
    },
    types: {
      sale: 'Vente',
      refund: 'Remboursement',
      void: 'Annulation',
      ach_return: 'Retour ACH',
      preauth: 'Pré-autorisation',
    },
    statuses: {
      completed: 'Effectuée',
      partly_refunded: 'Remboursée en partie',
      refunded: 'Remboursée',
      voided: 'Annulée',
      pending: 'En attente',
      declined: 'Refusée',
      authorized: 'Autorisée',
      captured: 'Encaissée',
    },
    reasons: {
      requested_by_customer: 'Demandé par le client',
      duplicate: 'Doublon',
      fraudulent: 'Frauduleux',
      other: 'Autre',
    },
  },
  de: {
    headers: {
      transaction_id: 'Transaktions-ID',
      created_date: 'Datum ({zone})',
      type: 'Art',
      status: 'Status',
      amount: 'Betrag',
      refunded_amount: 'Erstattet',
      net_amount: 'Netto',
      card_brand: 'Kartenmarke',
      last_four: 'Letzte vier Ziffern',
      order_id: 'Bestell-ID',
      fee: 'Gebühr',
      currency: 'Währung',
      customer: 'Kunde',
      description: 'Beschreibung',
      refund_reason: 'Erstattungsgrund',
    },
    types: {
      sale: 'Verkauf',
      refund: 'Erstattung',
      void: 'Stornierung',
      ach_return: 'ACH-Rückbuchung',
      preauth: 'Reservierung',
    },
    statuses: {
      completed: 'Abgeschlossen',
      partly_refunded: 'Teilweise erstattet',
      refunded: 'Erstattet',
      voided: 'Storniert',
      pending: 'Ausstehend',
      declined: 'Abgelehnt',
      authorized: 'Autorisiert',
      captured: 'Eingezogen',
    },
    reasons: {
      requested_by_customer: 'Vom Kunden gewünscht',
      duplicate: 'Duplikat',
      fraudulent: 'Betrügerisch',
      other: 'Sonstiges',
    },
  },
};
