import { type SQL, sql } from 'drizzle-orm';
import pino from 'pino';
import {
  countOrgActivity,
  type OrgActivityFilters,
  orgActivityCsvColumns,
  orgActivityCsvFrom,
  orgActivityPage,
} from '../server/activity/queries.js';
import { movedCursor } from '../server/cursor.js';
import { csvCellsQuery, csvValuesQuery } from '../server/db/csv-cells.js';
import {
  type CommsFilters,
  dispatchPage,
  recipientsOfDispatches,
  recipientsQuery,
} from '../server/dispatches/queries.js';
import { startServer } from '../server/server.js';
import { apiAgainstDriver, benchConfig, csvAgainstCopy, getJson, openApiBench, printPlans } from './measure.js';

const { database, db, rows, runs, csvRuns, csvOnly, explain, copyTo } = await openApiBench();

// --- Who asks: a member of the organization with the most activity.
const [org] = await rows<{ organizationId: string; n: number }>(
  sql`select organization_id as "organizationId", count(*)::int as n from activity group by 1 order by 2 desc limit 1`,
);
if (!org) throw new Error('No activity: seed the database first (npm run cli -- seed --scale large)');
const [busiest] = await rows<{ projectId: string; n: number }>(
  sql`select project_id as "projectId", count(*)::int as n from dispatches where organization_id = ${org.organizationId}
      group by 1 order by 2 desc limit 1`,
);
const [member] = await rows<{ userId: string }>(
  sql`select user_id as "userId" from organization_members where organization_id = ${org.organizationId} limit 1`,
);
if (!busiest || !member) throw new Error('The seeded organization has no dispatches or no members');

const config = benchConfig();
const server = await startServer({ config, db, log: pino({ level: 'silent' }), port: 0 });
const token = server.app.context.tokens.sign(member.userId, 'user').token;

const api = (pathAndQuery: string) =>
  getJson<{ nextCursor: string | null; total?: number; data: unknown[] }>(server.url + pathAndQuery, token);

const PAGE = 25;
const DEEP_PAGE = 2000;
const feedPath = `/v1/organization/${org.organizationId}/activity`;
const feed: OrgActivityFilters = { organizationId: org.organizationId, visibleProjects: 'all' };

// A deep page's cursor: a real cursor from page 1, re-pointed at the last row before that page.
const deepPage = Math.min(DEEP_PAGE, Math.ceil(org.n / PAGE));
const [deepRow] = await rows<{ id: string; createdAt: string }>(
  sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
      from activity where organization_id = ${org.organizationId}
      order by created_at desc, id desc offset ${(deepPage - 1) * PAGE - 1} limit 1`,
);
const firstCursor = (await api(`${feedPath}?limit=${PAGE}`)).nextCursor as string;
const deepCursor = movedCursor(server.app.context.cursorKey, firstCursor, { k: [deepRow!.createdAt], id: deepRow!.id });
const deepPosition = { key: deepRow!.createdAt, id: deepRow!.id };

const COMMS_PAGE = 20;
const commsPath = `/v1/organization/${org.organizationId}/project/${busiest.projectId}/comms?sort=largest&limit=${COMMS_PAGE}`;
const comms: CommsFilters = { projectId: busiest.projectId };
const [midDispatch] = await rows<{ id: string; n: number }>(
  sql`select id, recipient_count as n from dispatches where project_id = ${busiest.projectId}
      order by recipient_count desc, id desc offset ${Math.floor(busiest.n / 2)} limit 1`,
);
const midPosition = { key: midDispatch!.n, id: midDispatch!.id };
// Halfway down: a real cursor from page 1, re-pointed at the dispatch before that page.
const commsFirstCursor = (await api(commsPath)).nextCursor as string;
const midCursor = movedCursor(server.app.context.cursorKey, commsFirstCursor, {
  k: [midPosition.key],
  id: midPosition.id,
});
const commsDirect = (position?: typeof midPosition) => async () => {
  const page = await dispatchPage(db, comms, 'largest', position, COMMS_PAGE);
  return recipientsOfDispatches(
    db,
    page.slice(0, COMMS_PAGE).map((d) => d.id),
  );
};

const cases = [
  {
    name: `org activity (${org.n.toLocaleString('en-US')} entries), page 1`,
    api: () => api(`${feedPath}?limit=${PAGE}`),
    direct: () => Promise.all([orgActivityPage(db, feed, undefined, PAGE), countOrgActivity(db, feed)]),
  },
  {
    name: `org activity, page ${deepPage.toLocaleString('en-US')}`,
    api: () => api(`${feedPath}?limit=${PAGE}&cursor=${deepCursor}`),
    direct: () => Promise.all([orgActivityPage(db, feed, deepPosition, PAGE), countOrgActivity(db, feed)]),
  },
  {
    name: `comms sort=largest (${busiest.n.toLocaleString('en-US')} dispatches), page 1`,
    api: () => api(commsPath),
    direct: commsDirect(),
  },
  {
    name: 'comms sort=largest, halfway down',
    api: () => api(`${commsPath}&cursor=${midCursor}`),
    direct: commsDirect(midPosition),
  },
];

/** The SQL of a drizzle query builder, or a raw SQL chunk. */
const sqlOf = (query: { getSQL(): SQL } | SQL): SQL => ('getSQL' in query ? query.getSQL() : query);

if (explain) {
  const plans: [string, SQL][] = [
    ['org activity page 1', sqlOf(orgActivityPage(db, feed, undefined, PAGE))],
    [`org activity page ${deepPage}`, sqlOf(orgActivityPage(db, feed, deepPosition, PAGE))],
    ['org activity total', sql`select count(*) from activity where organization_id = ${org.organizationId}`],
    [
      'org activity CSV (100,001 rows)',
      csvCellsQuery(orgActivityCsvColumns, orgActivityCsvFrom(feed, undefined), 100_000),
    ],
    ['comms largest page 1', sqlOf(dispatchPage(db, comms, 'largest', undefined, COMMS_PAGE))],
    ['comms largest halfway', sqlOf(dispatchPage(db, comms, 'largest', midPosition, COMMS_PAGE))],
  ];
  const firstPage = await dispatchPage(db, comms, 'largest', undefined, COMMS_PAGE);
  plans.push(['comms recipients of a page', recipientsQuery(firstPage.map((d) => d.id))]);
  await printPlans(db, plans, 'analyze, buffers, costs off');
  await server.close();
  await database.close();
  process.exit(0);
}

const { lines } = await apiAgainstDriver('PostgreSQL', runs, csvOnly ? [] : cases);

// --- CSV: 100,000 rows of the feed against COPY of the same query.
const CSV_ROWS = 100_000;
lines.push(
  ...(await csvAgainstCopy({
    url: `${server.url}${feedPath}?limit=${CSV_ROWS}`,
    token,
    query: csvValuesQuery(orgActivityCsvColumns, orgActivityCsvFrom(feed, undefined), CSV_ROWS),
    copyTo,
    runs: csvRuns,
    title: `${CSV_ROWS.toLocaleString('en-US')} rows of the organization feed`,
  })),
);

console.log(lines.join('\n'));
await server.close();
await database.close();
