/** The shop's orders, in memory: a real shop keeps them in its database. */
export interface Order {
  id: string;
  product: string;
  amount: number;
  status: 'awaiting_payment' | 'paid' | 'not_paid';
  paymentId?: string;
  /** The id of the event that settled the order: Sika may deliver an event more than once. */
  settledBy?: string;
}

const orders = new Map<string, Order>();
let sequence = 1000;

export function newOrder(product: string, amount: number): Order {
  sequence += 1;
  const order: Order = { id: String(sequence), product, amount, status: 'awaiting_payment' };
  orders.set(order.id, order);
  return order;
}

export function findOrder(id: string): Order | undefined {
  return orders.get(id);
}

/** Settles an order once; a repeated event (same id) or a later one changes nothing. */
export function settleOrder(id: string, status: 'paid' | 'not_paid', eventId: string): void {
  const order = orders.get(id);
  if (order === undefined || order.status !== 'awaiting_payment') return;
  order.status = status;
  order.settledBy = eventId;
}
