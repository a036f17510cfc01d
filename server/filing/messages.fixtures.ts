/** Builds RFC 822 messages for the filing tests. */
export interface TestMessage {
  messageId?: string | null;
  from?: string | null;
  to?: string;
  cc?: string;
  subject?: string;
  date?: string;
  inReplyTo?: string;
  references?: string;
  extraHeaders?: string[];
  text?: string;
  html?: string;
  attachments?: { name: string; type: string; content: Buffer }[];
}

export function mime(m: TestMessage = {}): Buffer {
  const headers = [
    ...(m.from === null ? [] : [`From: ${m.from ?? 'Rita Reyes <rita@acme-eng.test>'}`]),
    `To: ${m.to ?? 'Mia Member <member@harbor.test>'}`,
    ...(m.cc ? [`Cc: ${m.cc}`] : []),
    `Subject: ${m.subject ?? 'Pile cap reinforcement'}`,
    `Date: ${m.date ?? 'Tue, 03 Mar 2026 09:15:00 +0000'}`,
    ...(m.messageId === null ? [] : [`Message-ID: ${m.messageId ?? '<pile-cap-1@acme-eng.test>'}`]),
    ...(m.inReplyTo ? [`In-Reply-To: ${m.inReplyTo}`] : []),
    ...(m.references ? [`References: ${m.references}`] : []),
    ...(m.extraHeaders ?? []),
    'MIME-Version: 1.0',
  ];
  const body: string[] = [];
  const boundary = 'test-boundary-42';
  const parts = [
    ...(m.text !== undefined || m.html === undefined
      ? [`Content-Type: text/plain; charset=utf-8\r\n\r\n${m.text ?? 'Please see the attached sketch.'}`]
      : []),
    ...(m.html !== undefined ? [`Content-Type: text/html; charset=utf-8\r\n\r\n${m.html}`] : []),
    ...(m.attachments ?? []).map(
      (a) =>
        `Content-Type: ${a.type}; name="${a.name}"\r\nContent-Disposition: attachment; filename="${a.name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${a.content.toString('base64')}`,
    ),
  ];
  headers.push(`Content-Type: multipart/mixed; boundary="${boundary}"`);
  for (const part of parts) body.push(`--${boundary}\r\n${part}\r\n`);
  body.push(`--${boundary}--\r\n`);
  return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${body.join('')}`, 'utf8');
}

const siteWords = (
  'concrete pour scheduled level slab rebar inspection passed grid contractor submitted revised drawings ' +
  'architect approved change order formwork curing pile cap anchor bolts embed plates shop drawing review'
).split(' ');

/** A message whose text body is about `bytes` long: lines of site words, a number now and then (issue 36's 24 MB e-mail). */
export function longMessage(messageId: string, bytes: number): Buffer {
  const lines: string[] = [];
  for (let size = 0, line = 0; size < bytes; line++) {
    const words = Array.from({ length: 11 }, (_, i) => siteWords[(line * 7 + i * 3) % siteWords.length]);
    const text = `${words.join(' ')} ${line % 50 === 0 ? `RFI-${line}` : ''}`;
    lines.push(text);
    size += text.length + 2;
  }
  return mime({ messageId, subject: `Daily reports ${messageId}`, text: lines.join('\r\n') });
}
