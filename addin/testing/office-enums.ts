/**
 * The enums office-js defines, as strings like the real ones: both stand-ins for Outlook hand out these, the
 * browser tests' office.js (./office-host.js, which chromium.ts serves with them declared ahead of it) and the
 * unit tests' office-addin-mock.
 */
export const officeEnums = {
  AsyncResultStatus: { Succeeded: 'succeeded', Failed: 'failed' },
  CoercionType: { Text: 'text', Html: 'html' },
  EventType: {
    ItemChanged: 'olkItemSelectedChanged',
    DialogMessageReceived: 'dialogMessageReceived',
    DialogEventReceived: 'dialogEventReceived',
  },
  HostType: { Outlook: 'Outlook' },
  MailboxEnums: {
    AttachmentContentFormat: { Base64: 'base64', Url: 'url', Eml: 'eml', ICalendar: 'iCalendar' },
    ItemType: { Message: 'message', Appointment: 'appointment' },
  },
};
