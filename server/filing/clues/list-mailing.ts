import { domainOf } from '../message.js';
import { freemailDomains, isOwnDomain } from '../model/features.js';

/**
 * Mail addressed to a list, not to people: its visible recipients (To and Cc) are only its sender's own address (all
 * else in Bcc) or only addresses of the sender's own outside firm (`customers@`, `members@`, `subscribers@`), so the
 * caller got it as one of many. A supplier's price notice to all customers, an institute's CPD invitation to its
 * members: about no project of the caller's, whatever places they name. Structural, not a word list: who the mail
 * shows it was sent to. A firm writing to its own colleagues while quoting someone is a conversation, not a list.
 */
export function isListMailing(mail: {
  from: string;
  /** To and Cc, lower-cased. */
  recipients: readonly string[];
  /** The caller's organization's domain. */
  ownDomain: string;
  quotes: boolean;
}): boolean {
  const from = mail.from.toLowerCase();
  const domain = domainOf(from);
  if (mail.recipients.length === 0) return false;
  if (mail.recipients.every((a) => a === from)) return true;
  return (
    !isOwnDomain(domain, mail.ownDomain) &&
    !freemailDomains.has(domain) &&
    !mail.quotes &&
    mail.recipients.every((a) => domainOf(a) === domain)
  );
}
