import { OfficeMockObject } from 'office-addin-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { officeEnums } from '../testing/office-enums.js';
import { OfficeCallError } from './async.js';
import { DialogClosedError, openDialogForMessage } from './dialog.js';
import {
  canReadRawMessage,
  readAttachmentBase64,
  readBodyText,
  readOpenMessage,
  readRawMessageBase64,
} from './mailbox.js';
import { markProperty, markToFileWhenSent, parseMark, readFileWhenSentMark } from './mark.js';
import { isDarkColor, whenOfficeReady } from './ready.js';

type Callback<T> = (result: Office.AsyncResult<T>) => void;
const succeeded = <T>(value: T) => ({ status: 'succeeded', value }) as unknown as Office.AsyncResult<T>;
const failed = (code: number, message: string) =>
  ({
    status: 'failed',
    value: undefined,
    error: { code, message, name: 'Error' },
  }) as unknown as Office.AsyncResult<never>;

/** The minor number of a requirement-set version such as "1.14". */
const minor = (version: string) => Number(version.split('.')[1]);

function installOffice(item: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const mock = new OfficeMockObject({
    host: 'outlook',
    ...officeEnums,
    context: {
      mailbox: { item, addHandlerAsync: (_t: string, _h: () => void, cb: Callback<void>) => cb(succeeded(undefined)) },
      requirements: { isSetSupported: (name: string, version: string) => name === 'Mailbox' && minor(version) <= 14 },
      ...extra,
    },
  });
  (globalThis as { Office?: unknown }).Office = mock;
  return mock;
}

afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
});

const readItem = {
  internetMessageId: '<abc@mail.example>',
  conversationId: 'conv-1',
  subject: 'RFI-012 curtain wall anchors',
  from: { emailAddress: 'lee@steel.example', displayName: 'Lee Steel' },
  to: [{ emailAddress: 'pm@harbor.test', displayName: 'pm@harbor.test' }],
  cc: [],
  dateTimeCreated: new Date('2026-03-01T09:30:00Z'),
  attachments: [{ id: 'att-1', name: 'detail.pdf', contentType: 'application/pdf', size: 2048, isInline: false }],
  body: {
    getAsync: (_type: string, cb: Callback<string>) => cb(succeeded('Please see the attached detail. '.repeat(50))),
  },
  getAttachmentContentAsync: (id: string, cb: Callback<Office.AttachmentContent>) =>
    id === 'att-1'
      ? cb(succeeded({ content: 'JVBERi0=', format: 'base64' } as unknown as Office.AttachmentContent))
      : id === 'eml-1'
        ? cb(succeeded({ content: 'Subject: é', format: 'eml' } as unknown as Office.AttachmentContent))
        : id === 'cloud-1'
          ? cb(succeeded({ content: 'https://x', format: 'url' } as unknown as Office.AttachmentContent))
          : cb(failed(9002, 'The attachment was not found')),
  getAsFileAsync: (cb: Callback<string>) => cb(succeeded('UmVjZWl2ZWQ6IC4uLg==')),
  loadCustomPropertiesAsync: (cb: Callback<unknown>) =>
    cb(
      succeeded({
        get: (name: string) =>
          name === 'sitefileFileWhenSent'
            ? '{"organizationId":"org_1","projectId":"prj_2","documentId":"doc_3"}'
            : undefined,
      }),
    ),
};

describe('reading the open e-mail (read mode)', () => {
  it('gives subject, addresses, sent time and attachments in one shape', async () => {
    installOffice(readItem);
    expect(await readOpenMessage()).toEqual({
      mode: 'read',
      internetMessageId: '<abc@mail.example>',
      conversationId: 'conv-1',
      subject: 'RFI-012 curtain wall anchors',
      from: { address: 'lee@steel.example', name: 'Lee Steel' },
      to: [{ address: 'pm@harbor.test' }],
      cc: [],
      sentAt: '2026-03-01T09:30:00.000Z',
      attachments: [{ id: 'att-1', name: 'detail.pdf', contentType: 'application/pdf', size: 2048, isInline: false }],
    });
  });

  it('cuts the body preview to the limit', async () => {
    installOffice(readItem);
    expect(await readBodyText(100)).toHaveLength(100);
  });

  it('returns attachment content as base64, encodes attached e-mails, refuses cloud links', async () => {
    installOffice(readItem);
    expect(await readAttachmentBase64('att-1')).toBe('JVBERi0=');
    expect(atob(await readAttachmentBase64('eml-1'))).toBe('Subject: \xc3\xa9');
    await expect(readAttachmentBase64('cloud-1')).rejects.toThrow(/cloud link/);
  });

  it('rejects with Office’s code and message when the host reports a failure', async () => {
    installOffice(readItem);
    const error = await readAttachmentBase64('missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OfficeCallError);
    expect(error).toMatchObject({
      code: 9002,
      message: 'getAttachmentContentAsync failed: The attachment was not found',
    });
  });

  it('takes the documented enum values in any case, as hosts differ (Outlook on Mac capitalizes them)', async () => {
    const { getAttachmentContentAsync: _lowerCase, ...item } = readItem;
    installOffice({
      ...item,
      getAttachmentContentAsync: (id: string, cb: Callback<Office.AttachmentContent>) =>
        id === 'att-1'
          ? cb({ status: 'Succeeded', value: { content: 'JVBERi0=', format: 'Base64' } } as never)
          : id === 'eml-1'
            ? cb({ status: 'Succeeded', value: { content: 'Subject: é', format: 'EML' } } as never)
            : cb({ status: 'Failed', error: { code: 9002, message: 'The attachment was not found' } } as never),
    });
    expect(await readAttachmentBase64('att-1')).toBe('JVBERi0=');
    expect(atob(await readAttachmentBase64('eml-1'))).toBe('Subject: \xc3\xa9');
    await expect(readAttachmentBase64('missing')).rejects.toMatchObject({ code: 9002 });
  });

  it('rejects instead of throwing when the host call itself throws', async () => {
    installOffice({
      ...readItem,
      getAsFileAsync: () => {
        throw new Error('not supported');
      },
    });
    await expect(readRawMessageBase64()).rejects.toThrow('getAsFileAsync failed: not supported');
  });

  it('reads the raw message where Mailbox 1.14 is supported', async () => {
    installOffice(readItem);
    expect(canReadRawMessage()).toBe(true);
    expect(await readRawMessageBase64()).toBe('UmVjZWl2ZWQ6IC4uLg==');
  });

  it('says so where Mailbox 1.14 is missing', () => {
    installOffice(readItem, { requirements: { isSetSupported: (_n: string, v: string) => minor(v) <= 8 } });
    expect(canReadRawMessage()).toBe(false);
  });

  it('finds the file-when-sent mark in the add-in’s custom properties of the sent copy', async () => {
    installOffice(readItem);
    expect(await readFileWhenSentMark()).toEqual({ organizationId: 'org_1', projectId: 'prj_2', documentId: 'doc_3' });
  });
});

describe('compose mode', () => {
  const saved: Record<string, unknown>[] = [];
  const properties = new Map<string, unknown>();
  const composeItem = {
    conversationId: '',
    subject: { getAsync: (cb: Callback<string>) => cb(succeeded('Submittal SUB-045 resubmission')) },
    to: { getAsync: (cb: Callback<unknown>) => cb(succeeded([{ emailAddress: 'a@b.example', displayName: 'A B' }])) },
    cc: { getAsync: (cb: Callback<unknown>) => cb(succeeded([])) },
    from: { getAsync: (cb: Callback<unknown>) => cb(succeeded({ emailAddress: 'me@harbor.test', displayName: 'Me' })) },
    getAttachmentsAsync: (cb: Callback<unknown>) => cb(succeeded([])),
    loadCustomPropertiesAsync: (cb: Callback<unknown>) =>
      cb(
        succeeded({
          get: (name: string) => properties.get(name),
          set: (name: string, value: unknown) => properties.set(name, value),
          saveAsync: (done: Callback<void>) => {
            saved.push(Object.fromEntries(properties));
            done(succeeded(undefined));
          },
        }),
      ),
  };

  it('reads the draft’s fields through the async getters', async () => {
    installOffice(composeItem);
    expect(await readOpenMessage()).toEqual({
      mode: 'compose',
      conversationId: undefined,
      subject: 'Submittal SUB-045 resubmission',
      from: { address: 'me@harbor.test', name: 'Me' },
      to: [{ address: 'a@b.example', name: 'A B' }],
      cc: [],
      attachments: [],
    });
  });

  it('keeps the file-when-sent mark in a custom property (never sent to recipients) that reads back the same', async () => {
    installOffice(composeItem);
    await markToFileWhenSent({ organizationId: 'org_1', projectId: 'prj_2' });
    expect(saved).toEqual([{ [markProperty]: '{"organizationId":"org_1","projectId":"prj_2"}' }]);
    expect(await readFileWhenSentMark()).toEqual({ organizationId: 'org_1', projectId: 'prj_2' });
    expect(parseMark('{"projectId":"p"}')).toBeUndefined();
    expect(parseMark('not json')).toBeUndefined();
  });
});

describe('the sign-in dialog', () => {
  function installDialog(
    events: { kind: 'message' | 'event'; payload: unknown }[],
    failOpen?: { code: number; message: string },
  ) {
    const closed: boolean[] = [];
    installOffice(readItem, {
      ui: {
        displayDialogAsync: (_url: string, _options: unknown, cb: Callback<unknown>) => {
          if (failOpen) return cb(failed(failOpen.code, failOpen.message));
          const handlers = new Map<string, (arg: unknown) => void>();
          cb(
            succeeded({
              addEventHandler: (type: string, handler: (arg: unknown) => void) => handlers.set(type, handler),
              close: () => closed.push(true),
            }),
          );
          setTimeout(() => {
            for (const e of events) {
              handlers.get(e.kind === 'message' ? 'dialogMessageReceived' : 'dialogEventReceived')?.(e.payload);
            }
          }, 0);
        },
      },
    });
    return closed;
  }

  it('resolves with the message of the dialog page and closes the dialog', async () => {
    const closed = installDialog([{ kind: 'message', payload: { message: '{"code":"c"}' } }]);
    expect(await openDialogForMessage('https://x/authorize')).toBe('{"code":"c"}');
    expect(closed).toEqual([true]);
  });

  it('rejects with a plain reason when the user closes the dialog', async () => {
    installDialog([{ kind: 'event', payload: { error: 12006 } }]);
    await expect(openDialogForMessage('https://x/authorize')).rejects.toBeInstanceOf(DialogClosedError);
  });

  it('says what to do when the dialog cannot open: allow pop-ups, or finish the open one', async () => {
    installDialog([], { code: 12007, message: 'A dialog is already open' });
    await expect(openDialogForMessage('https://x/authorize')).rejects.toThrow(
      'A sign-in window is already open. Finish or close it, then press Sign in again.',
    );
    installDialog([], { code: 12009, message: 'The dialog was blocked' });
    const blocked = openDialogForMessage('https://x/authorize');
    await expect(blocked).rejects.toThrow(/Allow pop-ups for Outlook/);
    await expect(blocked).rejects.not.toThrow(/displayDialogAsync failed/);
  });
});

describe('Office.onReady', () => {
  it('reports Outlook and a dark theme', async () => {
    installOffice(readItem, { officeTheme: { bodyBackgroundColor: '#1f1f1f' } });
    const office = (globalThis as unknown as { Office: Record<string, unknown> }).Office;
    office.onReady = async () => ({ host: 'Outlook', platform: 'OfficeOnline' });
    expect(await whenOfficeReady()).toEqual({ inOutlook: true, dark: true });
    expect(isDarkColor('#ffffff')).toBe(false);
    expect(isDarkColor('nonsense')).toBe(false);
  });
});
