/**
 * Mail that is about no project whatever it mentions: bulk mail (newsletters, marketing, notifications),
 * automatic replies (out of office) and calendar notices. Their words still count, at a fraction
 * (W.automatedMail in score.ts): a newsletter's "parking garage" is not the garage project's mail.
 */
const bulkBody =
  /\b(unsubscribe|manage (your )?preferences|view (it )?in (your )?browser|email preferences|you are receiving this( e-?mail| message)? because)\b/i;
const bulkSender =
  /^(news(letter)?s?|marketing|notifications?|no-?reply|do-?not-?reply|webinars?|events|info|mailer)@/i;
const autoReplySubject =
  /^\s*(automatic reply|auto[- ]?reply|out of (the )?office|respuesta autom[aá]tica|fuera de la oficina)\b/i;
const calendarSubject =
  /^\s*(invitation|updated invitation|canceled event|cancelled event|accepted|declined|tentative|invitaci[oó]n)\s*:/i;

/**
 * What kind of automated mail this is, if any. A `notice` is sent from a machine's address ("no-reply@") with no
 * mailing-list footer: a portal's notice about one application is such mail, and so is a newsletter; which of them
 * it is, the sender's history tells (ranker.ts).
 */
export function automatedKind(mail: {
  subject: string;
  from: string;
  body: string;
}): 'bulk' | 'notice' | 'auto-reply' | 'calendar' | null {
  if (bulkBody.test(mail.body)) return 'bulk';
  if (autoReplySubject.test(mail.subject)) return 'auto-reply';
  if (calendarSubject.test(mail.subject)) return 'calendar';
  return bulkSender.test(mail.from) ? 'notice' : null;
}
