import type { Db } from '../db/connection.js';
import { dispatches, documents, emailMessages } from '../db/schema.js';

/**
 * A small, known data set for the MCP and explorer tests: documents and e-mail records in project A1
 * (organization A) and project B1 (organization B), with every delivery status represented in A1.
 */
export async function insertMcpTestData(
  db: Db,
  ids: { orgA: string; projectA1: string; orgB: string; projectB1: string },
) {
  const docs = [
    { id: 'doc_a1_rfi1', number: 'RFI-001', format: 'rfi', type: 'RFI', title: 'Beam pocket depth', status: 'pending' },
    { id: 'doc_a1_rfi2', number: 'RFI-002', format: 'rfi', type: 'RFI', title: 'Door hardware', status: 'closed' },
    {
      id: 'doc_a1_sub1',
      number: 'SUB-001',
      format: 'submittal',
      type: 'Submittal',
      title: 'Glazing shop drawings',
      status: 'submitted',
    },
  ].map((d, i) => ({
    ...d,
    organizationId: ids.orgA,
    projectId: ids.projectA1,
    createdAt: new Date(Date.UTC(2025, 4, 1 + i)),
    updatedAt: new Date(Date.UTC(2025, 4, 1 + i)),
    dueDate: `2025-06-0${i + 1}`,
  }));
  docs.push({
    id: 'doc_b1_rfi1',
    number: 'RFI-900',
    format: 'rfi',
    type: 'RFI',
    title: 'Secret hospital RFI',
    status: 'pending',
    organizationId: ids.orgB,
    projectId: ids.projectB1,
    createdAt: new Date(Date.UTC(2025, 4, 9)),
    updatedAt: new Date(Date.UTC(2025, 4, 9)),
    dueDate: '2025-06-09',
  });
  await db.insert(documents).values(docs);

  await db.insert(dispatches).values([
    {
      id: 'dsp_a1',
      organizationId: ids.orgA,
      projectId: ids.projectA1,
      documentId: 'doc_a1_rfi1',
      actionType: 'IssueDocument',
      senderName: 'Ada Admin',
      senderEmail: 'admin@harbor.test',
      title: 'RFI-001 Beam pocket depth',
      dispatchedAt: new Date('2025-05-10T09:00:00Z'),
      recipientCount: 4,
    },
    {
      id: 'dsp_b1',
      organizationId: ids.orgB,
      projectId: ids.projectB1,
      documentId: 'doc_b1_rfi1',
      actionType: 'IssueDocument',
      senderName: 'Bo',
      senderEmail: 'bo@ridgeline.test',
      title: 'RFI-900 Secret hospital RFI',
      dispatchedAt: new Date('2025-05-11T09:00:00Z'),
      recipientCount: 1,
    },
  ]);
  const sent = new Date('2025-05-10T09:00:00Z');
  const at = (minutes: number) => new Date(sent.getTime() + minutes * 60_000);
  const a1 = {
    organizationId: ids.orgA,
    projectId: ids.projectA1,
    dispatchId: 'dsp_a1',
    mailerMessageId: 'msg-a1-001',
    senderEmail: 'admin@harbor.test',
    senderName: 'Ada Admin',
    actionType: 'IssueDocument',
    documentId: 'doc_a1_rfi1',
    activityTitle: 'RFI-001 Beam pocket depth',
    sentAt: sent,
    createdAt: sent,
  };
  await db.insert(emailMessages).values([
    {
      ...a1,
      id: 'em_1',
      recipientEmail: 'opened@consult.test',
      recipientName: 'Olive Opened',
      delivery: at(1),
      firstOpened: at(30),
      lastOpened: at(40),
    },
    { ...a1, id: 'em_2', recipientEmail: 'delivered@consult.test', recipientName: 'Dan Delivered', delivery: at(2) },
    {
      ...a1,
      id: 'em_3',
      recipientEmail: 'bounced@consult.test',
      recipientName: 'Ben Bounced',
      bounce: at(3),
      bounceType: 'Permanent',
      bounceSubtype: 'General',
    },
    { ...a1, id: 'em_4', recipientEmail: 'pending@consult.test', recipientName: 'Pia Pending' },
    {
      ...a1,
      id: 'em_5',
      mailerMessageId: 'msg-a1-002',
      documentId: 'doc_a1_rfi2',
      activityTitle: 'RFI-002 Door hardware',
      recipientEmail: 'nobody@consult.test',
      recipientName: 'Nat Notsent',
      sentAt: null,
      notSentReason: 'Recipient unsubscribed',
    },
    {
      ...a1,
      id: 'em_b1',
      organizationId: ids.orgB,
      projectId: ids.projectB1,
      dispatchId: 'dsp_b1',
      mailerMessageId: 'msg-b1-001',
      documentId: 'doc_b1_rfi1',
      senderEmail: 'bo@ridgeline.test',
      senderName: 'Bo',
      activityTitle: 'RFI-900 Secret hospital RFI',
      recipientEmail: 'nurse@hospital.test',
      recipientName: 'Nina Nurse',
      delivery: at(5),
    },
  ]);
}
