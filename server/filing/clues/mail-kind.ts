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

export function isAutomatedMail(mail: { subject: string; from: string; body: string }): boolean {
  return (
    bulkBody.test(mail.body) ||
    bulkSender.test(mail.from) ||
    autoReplySubject.test(mail.subject) ||
    calendarSubject.test(mail.subject)
  );
}
