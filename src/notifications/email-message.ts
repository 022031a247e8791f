// Who gets the packing-instructions e-mail of an order and what it says (master-data.md: the group's
// notification_emails and the order's extra_recipients in To, extra_cc_recipients in Cc).
import type { CompanyGroup } from '../master-data/master-data.js';
import type { OrderPlanned, OrderSubmitted } from '../orders/order-events.js';

export type PackingInstructionsEmail =
  | { send: true; to: string[]; cc: string[]; subject: string; text: string; filename: string }
  | { send: false; reason: string };

export function packingInstructionsEmail(
  planned: OrderPlanned['data'],
  submitted: OrderSubmitted['data'] | undefined,
  group: CompanyGroup | undefined,
  viewerUrl?: string,
): PackingInstructionsEmail {
  if (!submitted) return { send: false, reason: `no OrderSubmitted in the stream of ${planned.service_ref}` };
  // send_email defaults to true (the submit payload is normalized, but older events may lack it).
  if (submitted.order.send_email === false) return { send: false, reason: 'the order has send_email false' };
  const to = unique([...(group?.notification_emails ?? []), ...(submitted.order.extra_recipients ?? [])]);
  const inTo = new Set(to.map((address) => address.toLowerCase()));
  // Someone in To as well as Cc would get it twice; To wins.
  const cc = unique(submitted.order.extra_cc_recipients ?? []).filter((address) => !inTo.has(address.toLowerCase()));
  if (to.length === 0 && cc.length === 0) {
    return {
      send: false,
      reason: `no recipients: company group ${planned.company_group} has no notification_emails and the order names none`,
    };
  }
  const { service_ref: serviceRef, reference } = planned;
  return {
    send: true,
    to,
    cc,
    subject: `Packing instructions ready: ${serviceRef} (reference ${reference})`,
    text:
      `The packing instructions for order ${serviceRef} (your reference ${reference}) are ready.\n` +
      `They are attached as a PDF, and can also be downloaded from the orders API.\n` +
      (viewerUrl ? `\nSee the load plan in 3D in a browser (no login needed; the link expires after a while):\n${viewerUrl}\n` : ''),
    filename: `packing-instructions-${serviceRef}.pdf`,
  };
}

function unique(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const key = address.trim().toLowerCase();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
