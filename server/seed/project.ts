// All rows of one project: documents and everything hanging off them, reports, drawings, comms and
// the e-mail filing history.

import * as s from '../db/schema.js';
import type { ProjectPlan } from './model.js';
import type { PdfCache } from './pdf.js';
import { addFiledEmails, fillActivity, fillEmailBudget } from './project-comms.js';
import { ProjectContext } from './project-context.js';
import { addDocuments } from './project-documents.js';
import { addDrawings } from './project-drawings.js';
import { addReports } from './project-reports.js';
import type { Rng } from './random.js';
import type { RowSet } from './rows.js';
import type { ScaleShape } from './shapes.js';

export async function generateProject(
  rng: Rng,
  shape: ScaleShape,
  now: Date,
  project: ProjectPlan,
  pdfs: PdfCache,
): Promise<RowSet> {
  const ctx = new ProjectContext(rng, shape, now, project, pdfs);
  addDocuments(ctx);
  await addReports(ctx);
  await addDrawings(ctx);
  fillEmailBudget(ctx);
  fillActivity(ctx);
  for (const finding of ctx.findings) {
    ctx.rows.add(s.reviewFindings, { ...finding, deletedAt: ctx.superseded.get(finding.id) ?? null });
  }
  await addFiledEmails(ctx);
  return ctx.rows;
}
