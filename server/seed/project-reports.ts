import * as s from '../db/schema.js';
import { DAY, dateOnly, HOUR, type Person } from './model.js';
import { type ProjectContext, RESERVE_AFTER_REPORTS } from './project-context.js';
import * as v from './vocabulary.js';

/** Site reports and meeting minutes, one to three versions each; only the newest is the latest. */
export async function addReports(ctx: ProjectContext): Promise<void> {
  const kinds = ['site_report', 'meeting_minutes'] as const;
  for (let r = 0; r < ctx.shape.reportSeriesPerProject; r++) {
    const kind = kinds[r % 2]!;
    const dateMs = ctx.nowMs - (r + 1) * 7 * DAY;
    const series = {
      id: ctx.rng.id('rps'),
      kind,
      date: new Date(dateMs),
      author: ctx.rng.pick(ctx.team),
      title:
        kind === 'site_report'
          ? `Site report ${dateOnly(new Date(dateMs))}`
          : `OAC meeting #${ctx.shape.reportSeriesPerProject - r}`,
    };
    const versions = ctx.rng.int(1, 3);
    for (let version = 1; version <= versions; version++) await addReportVersion(ctx, series, version, versions);
  }
}

interface ReportSeries {
  id: string;
  kind: 'site_report' | 'meeting_minutes';
  date: Date;
  author: Person;
  title: string;
}

async function addReportVersion(
  ctx: ProjectContext,
  series: ReportSeries,
  version: number,
  versions: number,
): Promise<void> {
  const { rng, organizationId, project } = ctx;
  const latest = version === versions;
  const reportId = rng.id('rpt');
  const createdAt = new Date(series.date.getTime() + (version - 1) * DAY);
  const issued = !latest || rng.chance(0.8);
  const observations = rng.pick(v.reportObservations);
  const pdf = issued
    ? await ctx.pdfs.report(`${project.code} ${series.title}`, String(version), [project.name, observations])
    : null;
  ctx.rows.add(s.reports, {
    id: reportId,
    organizationId,
    projectId: project.id,
    seriesId: series.id,
    type: 'report',
    format: 'report',
    reportKind: series.kind,
    status: issued ? 'issued' : 'draft',
    title: series.title,
    date: series.date,
    location: `${project.name} site office`,
    version: String(version),
    isLatestVersion: latest,
    createdAt,
    createdByName: series.author.name,
    observations,
    weather: rng.pick(v.weatherConditions),
    issuedAt: issued ? new Date(createdAt.getTime() + 2 * HOUR) : null,
    issuedByName: issued ? series.author.name : null,
    pdfBlobKey: pdf?.key ?? null,
  });
  addSectionsAndAttendees(ctx, series.kind, reportId);
  const readers = rng.sample(ctx.team, rng.int(2, 5));
  for (const { id: userId, name, email } of readers) {
    ctx.rows.add(s.reportDistribution, { ...partOfReport(ctx, 'rds', reportId), userId, name, email });
  }
  if (issued) {
    ctx.addDispatch({
      actionType: 'ReportShare',
      sender: series.author,
      recipients: readers,
      title: `${series.title} v${version} shared`,
      at: new Date(createdAt.getTime() + 3 * HOUR),
      reportId,
      reserve: RESERVE_AFTER_REPORTS,
    });
  }
}

/** The first columns of a row that belongs to one report version: its own id, the organization, the report. */
const partOfReport = (ctx: ProjectContext, idPrefix: string, reportId: string) => ({
  id: ctx.rng.id(idPrefix),
  organizationId: ctx.organizationId,
  reportId,
});

/** The report's sections with their items and, for minutes, the meeting's attendees. */
function addSectionsAndAttendees(ctx: ProjectContext, kind: ReportSeries['kind'], reportId: string) {
  const { rng } = ctx;
  const sectionTitles =
    kind === 'meeting_minutes'
      ? rng.sample(v.meetingSections, 4)
      : ['Work in progress', 'Safety', 'Quality', 'Deliveries'];
  sectionTitles.forEach((title, position) => {
    ctx.rows.add(s.reportSections, {
      ...partOfReport(ctx, 'rsc', reportId),
      position,
      title,
      items: Array.from({ length: rng.int(1, 4) }, () => ({
        text: rng.pick([...v.reportObservations, ...v.commentBodies]),
        status: rng.pick(['open', 'closed', 'info']),
      })),
    });
  });
  if (kind === 'meeting_minutes') {
    const attendees = [
      ...rng.sample(ctx.team, 3).map((person) => ({ ...person, role: 'Contractor' })),
      ...rng.sample(ctx.consultants, 3).map((person) => ({ ...person, role: person.type })),
    ];
    for (const { name, company, role } of attendees) {
      const ids = partOfReport(ctx, 'rat', reportId);
      ctx.rows.add(s.reportAttendees, { ...ids, name, company, role, present: rng.chance(0.85) });
    }
  }
}
