// Who gets the packing-instructions e-mail of an order and what it says (master-data.md: the group's
// notification_emails and the order's extra_recipients in To, extra_cc_recipients in Cc), and the
// e-mail that says an order was cancelled and its instructions are void (issue 59), to the same people.
import type { CompanyGroup } from '../master-data/master-data.js';
import type { OrderCancelled, OrderPlanned, OrderSubmitted } from '../orders/order-events.js';

export type PackingInstructionsEmail =
  | { send: true; to: string[]; cc: string[]; subject: string; text: string; filename: string }
  | { send: false; reason: string };

/** `submitted`: the order as it stood at the event (as last amended): its recipients are that version's. */
export function packingInstructionsEmail(
  planned: OrderPlanned['data'],
  submitted: OrderSubmitted['data'] | undefined,
  group: CompanyGroup | undefined,
  viewerUrl?: string,
): PackingInstructionsEmail {
  const recipients = recipientsOf(planned, submitted, group);
  if ('reason' in recipients) return { send: false, reason: recipients.reason };
  const { to, cc } = recipients;
  const { service_ref: serviceRef, reference } = planned;
  // a later version of the order (amended, or its consolidated shipment dissolved): what went out before is void
  const replaces = (planned.version ?? 0) > 0;
  return {
    send: true,
    to,
    cc,
    subject: `Packing instructions ${replaces ? 'replaced' : 'ready'}: ${serviceRef} (reference ${reference})`,
    text:
      (replaces
        ? `The order ${serviceRef} (your reference ${reference}) was changed and planned again. These packing instructions replace ` +
          'every earlier version sent for this order: the earlier instructions are void, do not load by them.\n'
        : `The packing instructions for order ${serviceRef} (your reference ${reference}) are ready.\n`) +
      `They are attached as a PDF, and can also be downloaded from the orders API.\n` +
      (viewerUrl ? `\nSee the load plan in 3D in a browser (no login needed; the link expires after a while):\n${viewerUrl}\n` : ''),
    filename: `packing-instructions-${serviceRef}.pdf`,
  };
}

/** The notice of a cancel, without attachment; `submitted`: the order as it stood when cancelled. */
export function cancellationEmail(
  cancelled: OrderCancelled['data'],
  submitted: OrderSubmitted['data'] | undefined,
  group: CompanyGroup | undefined,
): PackingInstructionsEmail {
  const recipients = recipientsOf(cancelled, submitted, group);
  if ('reason' in recipients) return { send: false, reason: recipients.reason };
  const { service_ref: serviceRef, reference, reason, cancelled_at } = cancelled;
  return {
    send: true,
    ...recipients,
    subject: `Order cancelled: ${serviceRef} (reference ${reference}): packing instructions void`,
    text:
      `The order ${serviceRef} (your reference ${reference}) was cancelled at ${cancelled_at} UTC.\n` +
      (reason ? `Reason: ${reason}\n` : '') +
      '\nAny packing instructions sent or downloaded for this order earlier are void: do not load or ship by them.\n',
    filename: '',
  };
}

function recipientsOf(
  event: { service_ref: string; company_group: string },
  submitted: OrderSubmitted['data'] | undefined,
  group: CompanyGroup | undefined,
): { to: string[]; cc: string[] } | { reason: string } {
  const planned = event;
  if (!submitted) return { reason: `no OrderSubmitted in the stream of ${planned.service_ref}` };
  // send_email defaults to true (the submit payload is normalized, but older events may lack it).
  if (submitted.order.send_email === false) return { reason: 'the order has send_email false' };
  const to = unique([...(group?.notification_emails ?? []), ...(submitted.order.extra_recipients ?? [])]);
  const inTo = new Set(to.map((address) => address.toLowerCase()));
  // Someone in To as well as Cc would get it twice; To wins.
  const cc = unique(submitted.order.extra_cc_recipients ?? []).filter((address) => !inTo.has(address.toLowerCase()));
  if (to.length === 0 && cc.length === 0) {
    return { reason: `no recipients: company group ${planned.company_group} has no notification_emails and the order names none` };
  }
  return { to, cc };
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
