import { inflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEMO_KEY_NAME } from './demo.js';
import { blobs, count, demo, now, rows } from './seed.fixtures.js';

describe('demo data', () => {
  it('has the demo volumes', async () => {
    const [counts] = await rows<Record<string, number>>(sql`
      SELECT (SELECT count(*) FROM organizations)::int AS organizations, (SELECT count(*) FROM projects)::int AS projects,
             (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM drawings)::int AS drawings,
             (SELECT count(*) FROM activity)::int AS activity, (SELECT count(*) FROM email_messages)::int AS emails`);
    expect(counts).toMatchObject({ organizations: 2, projects: 4, documents: 1000, drawings: 60, emails: 2400 });
    expect(counts!.activity).toBeGreaterThanOrEqual(5000);
    expect(demo.organizations).toHaveLength(2);
    expect(demo.organizations.every((o) => o.projects.length === 2)).toBe(true);
  });

  it('keeps every tenant row in the organization of its project and document', async () => {
    /** Rows of `table` whose organization is not the one of the `parent` row they belong to. */
    const mismatched = (table: string, parent: string, key: string) =>
      count(
        sql.raw(
          `SELECT count(*) AS n FROM ${table} t JOIN ${parent} p ON p.id = t.${key} WHERE p.organization_id <> t.organization_id`,
        ),
      );
    for (const table of [
      'documents',
      'project_members',
      'comments',
      'activity',
      'dispatches',
      'email_messages',
      'reports',
      'drawing_packages',
      'drawings',
      'filed_emails',
    ]) {
      expect(await mismatched(table, 'projects', 'project_id'), table).toBe(0);
    }
    for (const table of [
      'document_assignees',
      'document_approvers',
      'document_distribution',
      'document_consultants',
      'review_runs',
      'review_findings',
    ]) {
      expect(await mismatched(table, 'documents', 'document_id'), table).toBe(0);
    }
    expect(await mismatched('drawing_revisions', 'drawings', 'drawing_id')).toBe(0);
  });

  it('covers every format, type and status, with every status group represented', async () => {
    const formats = (await rows<{ format: string }>(sql`SELECT DISTINCT format FROM documents ORDER BY 1`)).map(
      (r) => r.format,
    );
    expect(formats).toEqual(['bulletin', 'certificate', 'change', 'instruction', 'quote', 'rfi', 'submittal']);
    const types = (await rows<{ type: string }>(sql`SELECT DISTINCT type FROM documents`)).map((r) => r.type);
    expect(types).toEqual(
      expect.arrayContaining(['Bulletin', 'CA', 'CD', 'Certificate', 'CO', 'PC', 'Quote', 'RFI', 'SI', 'Submittal']),
    );
    const statuses = (await rows<{ status: string }>(sql`SELECT DISTINCT status FROM documents`)).map((r) => r.status);
    expect(statuses.sort()).toEqual(
      [
        'accepted',
        'approved',
        'cancelled',
        'closed',
        'draft',
        'issued',
        'locked',
        'needs-work',
        'pending',
        'resubmitted',
        'returned',
        'revision',
        'submitted',
        'with-consultants',
      ].sort(),
    );
    const reviewStatuses = (
      await rows<{ s: string }>(sql`SELECT DISTINCT review_status AS s FROM documents WHERE format = 'submittal'`)
    ).map((r) => r.s);
    expect(reviewStatuses).toEqual(expect.arrayContaining(['pending', 'reviewed', 'revise-and-resubmit', 'rejected']));
  });

  it('has overdue open items and closed submittals with a close date', async () => {
    const today = now.toISOString().slice(0, 10);
    const overdue = await count(sql`
      SELECT count(*) AS n FROM documents
      WHERE due_date < ${today} AND status NOT IN ('closed', 'cancelled', 'locked', 'accepted', 'approved')`);
    const open = await count(sql`
      SELECT count(*) AS n FROM documents
      WHERE due_date >= ${today} AND status NOT IN ('closed', 'cancelled', 'locked', 'accepted', 'approved')`);
    expect(overdue).toBeGreaterThan(10);
    expect(open).toBeGreaterThan(10);
    expect(
      await count(sql`
        SELECT count(*) AS n FROM documents WHERE format = 'submittal' AND status IN ('closed', 'approved', 'accepted')
        AND (closed_at IS NULL OR received_at IS NULL OR division_title IS NULL OR reference_number IS NULL)`),
    ).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM documents WHERE created_at > ${now} OR updated_at > ${now}`)).toBe(
      0,
    );
    expect(
      await count(sql`SELECT count(*) AS n FROM documents WHERE format = 'submittal' AND ball_in_court IS NOT NULL`),
    ).toBeGreaterThan(10);
  });

  it('fills searchText with the question, reasons, responses and responder addresses', async () => {
    const [rfi] = await rows<{ details: { question: string }; search_text: string }>(
      sql`SELECT details, search_text FROM documents WHERE format = 'rfi' LIMIT 1`,
    );
    expect(rfi!.search_text).toContain(rfi!.details.question);
    const [responded] = await rows<{ search_text: string; responder_email: string; response: string }>(sql`
      SELECT d.search_text, c.responder_email, c.response FROM documents d
      JOIN document_consultants c ON c.document_id = d.id WHERE c.response IS NOT NULL LIMIT 1`);
    expect(responded!.search_text).toContain(responded!.responder_email);
    expect(responded!.search_text).toContain(responded!.response);
  });

  it('has review findings of each kind: active high ones, dismissed and soft-deleted by a later run', async () => {
    const kinds = await rows<{ source: string; severity: string }>(
      sql`SELECT DISTINCT source, severity FROM review_findings WHERE deleted_at IS NULL AND NOT dismissed`,
    );
    expect(kinds).toEqual(
      expect.arrayContaining([
        { source: 'spec', severity: 'mismatch' },
        { source: 'quality', severity: 'required' },
        { source: 'quality', severity: 'recommended' },
      ]),
    );
    expect(await count(sql`SELECT count(*) AS n FROM review_findings WHERE dismissed`)).toBeGreaterThan(0);
    const superseded = await count(sql`
      SELECT count(*) AS n FROM review_findings f JOIN review_runs r ON r.id = f.review_run_id
      WHERE f.deleted_at IS NOT NULL
        AND EXISTS (SELECT 1 FROM review_runs later WHERE later.document_id = f.document_id AND later.started_at = f.deleted_at)`);
    expect(superseded).toBeGreaterThan(0);
  });

  it('has comments with mentions, a few soft-deleted', async () => {
    expect(await count(sql`SELECT count(*) AS n FROM comment_mentions`)).toBeGreaterThan(50);
    expect(await count(sql`SELECT count(*) AS n FROM comments WHERE deleted_at IS NOT NULL`)).toBeGreaterThan(0);
    expect(
      await count(sql`
        SELECT count(*) AS n FROM comment_mentions m JOIN comments c ON c.id = m.comment_id
        WHERE (c.deleted_at IS NULL) <> (m.deleted_at IS NULL)`),
    ).toBe(0);
  });

  it('has activity of the known actions and e-mails in every delivery state', async () => {
    const actions = (await rows<{ action: string }>(sql`SELECT DISTINCT action FROM activity`)).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['status_changed', 'comment_added', 'file_uploaded', 'email_sent']));
    const types = (await rows<{ t: string }>(sql`SELECT DISTINCT action_type AS t FROM dispatches`)).map((r) => r.t);
    expect(types.sort()).toEqual(
      [
        'ForwardDocument',
        'IssueDocument',
        'ProjectInvite',
        'ReportShare',
        'ResponderResponse',
        'ReviewerResponse',
      ].sort(),
    );
    const [states] = await rows<Record<string, number>>(sql`
      SELECT count(*) FILTER (WHERE first_opened IS NOT NULL)::int AS opened,
             count(*) FILTER (WHERE delivery IS NOT NULL AND first_opened IS NULL)::int AS delivered,
             count(*) FILTER (WHERE bounce IS NOT NULL AND bounce_type = 'Permanent')::int AS hard_bounced,
             count(*) FILTER (WHERE bounce IS NOT NULL AND bounce_type = 'Transient')::int AS soft_bounced,
             count(*) FILTER (WHERE sent_to_mailer IS NOT NULL AND delivery IS NULL AND bounce IS NULL)::int AS pending,
             count(*) FILTER (WHERE not_sent_reason IS NOT NULL)::int AS not_sent
      FROM email_messages`);
    for (const [state, n] of Object.entries(states!)) expect(n, state).toBeGreaterThan(0);
    const shared = await count(sql`
      SELECT count(*) AS n FROM (SELECT mailer_message_id FROM email_messages GROUP BY 1 HAVING count(*) > 1) m`);
    expect(shared).toBeGreaterThan(0);
    expect(
      await count(sql`
        SELECT count(*) AS n FROM dispatches d
        WHERE d.recipient_count <> (SELECT count(*) FROM email_messages e WHERE e.dispatch_id = d.id)
           OR NOT EXISTS (SELECT 1 FROM activity a WHERE a.id = d.activity_id AND a.dispatch_id = d.id)`),
    ).toBe(0);
  });

  it('keeps exactly one latest version per report series, with a real PDF for issued ones', async () => {
    expect(
      await count(sql`
        SELECT count(*) AS n FROM (
          SELECT series_id FROM reports GROUP BY series_id
          HAVING count(*) FILTER (WHERE is_latest_version) <> 1
             OR max(version::int) <> max(version::int) FILTER (WHERE is_latest_version)) bad`),
    ).toBe(0);
    expect(
      await count(sql`SELECT count(*) AS n FROM (SELECT series_id FROM reports GROUP BY 1 HAVING count(*) > 1) s`),
    ).toBeGreaterThan(0);
    const [report] = await rows<{ pdf_blob_key: string }>(
      sql`SELECT pdf_blob_key FROM reports WHERE status = 'issued' LIMIT 1`,
    );
    expect((await readBlob(report!.pdf_blob_key)).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await count(sql`SELECT count(*) AS n FROM report_attendees`)).toBeGreaterThan(0);
    expect(await count(sql`SELECT count(*) AS n FROM report_sections`)).toBeGreaterThan(0);
  });

  it('stores drawings as PDFs showing sheet number and revision, plus a few broken files', async () => {
    const revisions = await rows<{ number: string; revision: string; blob_key: string; file_size: number }>(sql`
      SELECT d.number, r.revision, r.blob_key, r.file_size::int AS file_size
      FROM drawing_revisions r JOIN drawings d ON d.id = r.drawing_id ORDER BY d.id, r.sequence`);
    expect(revisions.map((r) => r.number)).toEqual(expect.arrayContaining(['A-101', 'A-1010', 'S-201']));
    const perDrawing = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM drawing_revisions GROUP BY drawing_id`,
    );
    expect(perDrawing.every((r) => r.n >= 1 && r.n <= 3)).toBe(true);
    const broken = { missing: 0, empty: 0, notPdf: 0 };
    let checkedText = false;
    for (const r of revisions) {
      const size = await blobs.stat(r.blob_key);
      if (size === undefined) broken.missing++;
      else if (size === 0) broken.empty++;
      else {
        const bytes = await readBlob(r.blob_key);
        if (bytes.subarray(0, 5).toString() !== '%PDF-') broken.notPdf++;
        else if (!checkedText) {
          expect(pdfText(bytes)).toContain(`${r.number}  Rev ${r.revision}`);
          expect(bytes.length).toBe(r.file_size);
          checkedText = true;
        }
      }
    }
    expect(broken.missing).toBeGreaterThan(0);
    expect(broken.empty).toBeGreaterThan(0);
    expect(broken.notPdf).toBeGreaterThan(0);
    expect(checkedText).toBe(true);
  });

  it('has a filing history per project naming the project or its documents, and per-org AI settings', async () => {
    const perProject = await rows<{ code: string; name: string; subjects: string[] }>(sql`
      SELECT p.code, p.name, array_agg(f.subject) AS subjects FROM filed_emails f JOIN projects p ON p.id = f.project_id
      GROUP BY p.id, p.code, p.name`);
    expect(perProject).toHaveLength(4);
    for (const project of perProject) {
      expect(project.subjects.length).toBeGreaterThanOrEqual(20);
      expect(project.subjects.some((s) => s.includes(project.code) || s.includes(project.name))).toBe(true);
      expect(project.subjects.some((s) => /\b(RFI|SUB|CO|SI)-\d{3}\b/.test(s))).toBe(true);
    }
    const settings = await rows<{ ai_suggest: boolean }>(
      sql`SELECT ai_suggest FROM email_filing_settings ORDER BY ai_suggest`,
    );
    expect(settings.map((s) => s.ai_suggest)).toEqual([false, true]);
    expect(await count(sql`SELECT count(*) AS n FROM support_issues`)).toBeGreaterThan(0);
    expect(
      await count(
        sql`SELECT count(*) AS n FROM users WHERE NOT staff AND (company IS NULL OR title IS NULL OR phone IS NULL)`,
      ),
    ).toBe(0);
  });
});

describe('integration keys', () => {
  it('has API keys with scopes, usage counters and completed reference commands', async () => {
    expect(await count(sql`SELECT count(*) AS n FROM api_keys WHERE name <> ${DEMO_KEY_NAME}`)).toBe(4);
    expect(await count(sql`SELECT count(*) AS n FROM api_key_project_scopes`)).toBe(4);
    expect(await count(sql`SELECT count(*) AS n FROM request_usage WHERE count > 0`)).toBe(12);
    const replies = await rows<{ event: string; body: string }>(sql`
      SELECT e.id AS event, convert_from(i.response_body, 'UTF8') AS body
      FROM idempotency_records i JOIN command_events e ON e.caller_key = i.caller_key
      WHERE i.state = 'done' AND convert_from(i.response_body, 'UTF8') LIKE '%' || e.id || '%'`);
    expect(replies).toHaveLength(8);
    for (const reply of replies)
      expect(JSON.parse(reply.body)).toMatchObject({ eventId: reply.event, status: 'applied' });
  });
});

async function readBlob(key: string): Promise<Buffer> {
  const stream = await blobs.read(key);
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The text drawn on the page: pdf-lib writes standard-font text as hex strings in deflated streams. */
function pdfText(pdf: Buffer): string {
  const text: string[] = [];
  const source = pdf.toString('latin1');
  for (const match of source.matchAll(/stream\r?\n/g)) {
    const start = match.index! + match[0].length;
    const end = source.indexOf('endstream', start);
    try {
      const content = inflateSync(pdf.subarray(start, end)).toString('latin1');
      for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g))
        text.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
    } catch {
      // not a deflated content stream
    }
  }
  return text.join('\n');
}
