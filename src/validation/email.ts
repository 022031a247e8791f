// The one e-mail check of the service (order recipients, master-data notification addresses), so
// that an address accepted in one place is accepted everywhere. Deliberately practical rather than
// RFC 5322 complete: quoted local parts, comments and IP-literal domains are refused because no ERP
// sends them and mail relays handle them badly; internationalised domains are accepted (checked in
// their punycode form).
import { domainToASCII } from 'node:url';

const MAX_ADDRESS_LENGTH = 254; // RFC 5321 path limit minus the angle brackets
const MAX_LOCAL_LENGTH = 64;
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
// A top-level domain is letters, or an IDN TLD in punycode; never all digits (that would be an IP).
const TOP_LEVEL_LABEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

export const EMAIL_MESSAGE = 'Enter a valid e-mail address, such as name@example.com.';

export function isValidEmail(value: string): boolean {
  if (value.length > MAX_ADDRESS_LENGTH) return false;
  const at = value.lastIndexOf('@');
  if (at < 1 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local)) return false;
  const rawDomain = value.slice(at + 1);
  // domainToASCII lower-cases and punycodes; it returns '' for anything that is not a host name.
  if (/[\s/\\?#@:[\]%]/.test(rawDomain)) return false;
  const domain = domainToASCII(rawDomain);
  if (domain === '' || domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  return TOP_LEVEL_LABEL.test(labels[labels.length - 1]!);
}
