import { type SQL, sql } from 'drizzle-orm';
import pino from 'pino';
import { movedCursor } from '../server/cursor.js';
import { csvValuesQuery } from '../server/db/csv-cells.js';
import { documentCsvColumns, documentCsvFrom } from '../server/documents/csv-queries.js';
import {
  type AfterKey,
  countDocuments,
  type DocumentFilter,
  type DocumentSort,
  documentQuery,
  fetchPage,
  filterValues,
  submittalQuery,
  whereOf,
} from '../server/documents/queries.js';
import { startServer } from '../server/server.js';
import { createUser } from '../server/users/service.js';
import { DocumentItem, Submittal } from '../shared/documents.js';
import { apiAgainstDriver, benchConfig, csvAgainstCopy, getJson, openApiBench, printPlans } from './measure.js';

const { database, db, rows, runs, csvRuns, csvOnly, explain, copyTo } = await openApiBench();

// --- Who asks: a staff user for /v1/admin, a member of the largest project's organization for the project list.
const [largest] = await rows<{ projectId: string; organizationId: string; n: number }>(
  sql`select project_id as "projectId", organization_id as "organizationId", count(*)::int as n from documents
      where format = 'submittal' group by 1, 2 order by 3 desc limit 1`,
);
if (!largest) throw new Error('No submittals: seed the database first (npm run cli -- seed --scale large)');
const [member] = await rows<{ userId: string }>(
  sql`select user_id as "userId" from organization_members where organization_id = ${largest.organizationId} limit 1`,
);
const [existingStaff] = await rows<{ id: string }>(
  sql`select id from users where email = 'bench-documents@sitefile.test'`,
);
const staffId =
  existingStaff?.id ??
  (await createUser(db, { email: 'bench-documents@sitefile.test', name: 'Bench Staff', staff: true })).id;

const config = benchConfig();
const server = await startServer({ config, db, log: pino({ level: 'silent' }), port: 0 });
// The driver-only cases can leave the client's keep-alive socket idle past Node's 5 s default; the server's close
// then races the next request (ECONNRESET).
server.http.keepAliveTimeout = 120_000;
const staffToken = server.app.context.tokens.sign(staffId, 'user').token;
const memberToken = member ? server.app.context.tokens.sign(member.userId, 'user').token : staffToken;

const api = (pathAndQuery: string, token: string) =>
  getJson<{ nextCursor: string | null; total: number; data: { uid: string }[] }>(server.url + pathAndQuery, token);

const PAGE = 25;
const DEEP_PAGE = 2000;

/** The cursor of page `page` (1-based): a real cursor from page 1, re-pointed at the row before that page. */
async function cursorForPage(
  pathAndQuery: string,
  token: string,
  queryOf: (after?: AfterKey) => SQL,
  sortField: string,
  page: number,
) {
  const first = await api(`${pathAndQuery}&limit=${PAGE}`, token);
  if (!first.nextCursor) return undefined;
  const pages = Math.ceil(first.total / PAGE);
  const target = Math.min(page, pages);
  const [row] = await rows<Record<string, string>>(sql`${queryOf()} offset ${(target - 1) * PAGE - 1} limit 1`);
  if (!row?.uid) return undefined;
  const after = { value: row[sortField] ?? null, uid: row.uid };
  const cursor = movedCursor(server.app.context.cursorKey, first.nextCursor, { k: [after.value], id: after.uid });
  return { cursor, after, page: target };
}

interface Case {
  name: string;
  api: () => Promise<unknown>;
  direct: () => Promise<unknown>;
}

const createdDesc: DocumentSort = { field: 'createdAt', order: 'desc' };
const direct = (query: SQL, filter: DocumentFilter, item: typeof Submittal | typeof DocumentItem) => () =>
  Promise.all([fetchPage(db, query, PAGE + 1, item), countDocuments(db, filter)]);

const adminSubmittals: DocumentFilter = { formats: ['submittal'] };
const adminSubmittalsQuery = (after?: AfterKey) =>
  submittalQuery({ filter: adminSubmittals, sort: createdDesc, withReviewHints: false }, after);
const adminDocuments: DocumentFilter = {};
const adminDocumentsQuery = (after?: AfterKey) =>
  documentQuery({ filter: adminDocuments, sort: createdDesc, include: [] }, after);

const deepSubmittals = await cursorForPage(
  '/v1/admin/documents/submittals?sortBy=createdAt',
  staffToken,
  adminSubmittalsQuery,
  'createdAt',
  DEEP_PAGE,
);
const deepDocuments = await cursorForPage(
  '/v1/admin/documents?sortBy=createdAt',
  staffToken,
  adminDocumentsQuery,
  'createdAt',
  DEEP_PAGE,
);

const deepSubmittalsName = `admin submittals, page ${deepSubmittals?.page.toLocaleString('en-US')}`;
const deepDocumentsName = `admin documents, page ${deepDocuments?.page.toLocaleString('en-US')}`;

const projectPath = `/v1/organization/${largest.organizationId}/project/${largest.projectId}/document/submittals`;
const projectScope: DocumentFilter = { projectId: largest.projectId, formats: ['submittal'] };
const searchedProject: DocumentFilter = { ...projectScope, open: true, search: 'concrete' };
const searchedDocuments: DocumentFilter = {
  formats: ['submittal', 'rfi'],
  statuses: ['pending', 'submitted'],
  search: 'fire',
};

const cases: Case[] = [
  {
    name: 'admin submittals, page 1',
    api: () => api(`/v1/admin/documents/submittals?limit=${PAGE}`, staffToken),
    direct: direct(adminSubmittalsQuery(), adminSubmittals, Submittal),
  },
  ...(deepSubmittals
    ? [
        {
          name: deepSubmittalsName,
          api: () => api(`/v1/admin/documents/submittals?limit=${PAGE}&cursor=${deepSubmittals.cursor}`, staffToken),
          direct: direct(adminSubmittalsQuery(deepSubmittals.after), adminSubmittals, Submittal),
        },
      ]
    : []),
  {
    name: 'admin documents, page 1',
    api: () => api(`/v1/admin/documents?limit=${PAGE}`, staffToken),
    direct: direct(adminDocumentsQuery(), adminDocuments, DocumentItem),
  },
  ...(deepDocuments
    ? [
        {
          name: deepDocumentsName,
          api: () => api(`/v1/admin/documents?limit=${PAGE}&cursor=${deepDocuments.cursor}`, staffToken),
          direct: direct(adminDocumentsQuery(deepDocuments.after), adminDocuments, DocumentItem),
        },
      ]
    : []),
  {
    name: `project submittals (${largest.n.toLocaleString('en-US')}), page 1`,
    api: () => api(`${projectPath}?limit=${PAGE}`, memberToken),
    direct: direct(
      submittalQuery({ filter: projectScope, sort: createdDesc, withReviewHints: false }),
      projectScope,
      Submittal,
    ),
  },
  {
    name: 'project submittals, open + search "concrete"',
    api: () => api(`${projectPath}?limit=${PAGE}&filter.open=true&search=concrete`, memberToken),
    direct: direct(
      submittalQuery({ filter: searchedProject, sort: createdDesc, withReviewHints: false }),
      searchedProject,
      Submittal,
    ),
  },
  {
    name: 'project submittals, includeMeta + reviewHints',
    api: () => api(`${projectPath}?limit=${PAGE}&includeMeta=true&include=reviewHints`, memberToken),
    direct: () =>
      Promise.all([
        fetchPage(
          db,
          submittalQuery({ filter: projectScope, sort: createdDesc, withReviewHints: true }),
          PAGE + 1,
          Submittal,
        ),
        countDocuments(db, projectScope),
        filterValues(db, ['status', 'reviewStatus', 'priority', 'type'], projectScope),
      ]),
  },
  {
    name: 'admin documents, format + status + search "fire"',
    api: () =>
      api(`/v1/admin/documents?limit=${PAGE}&format=submittal,rfi&status=pending,submitted&search=fire`, staffToken),
    direct: direct(
      documentQuery({ filter: searchedDocuments, sort: createdDesc, include: [] }),
      searchedDocuments,
      DocumentItem,
    ),
  },
];

if (explain) {
  const plans: [string, SQL][] = [
    ['admin submittals, page 1', sql`${adminSubmittalsQuery()} limit ${PAGE + 1}`],
    ...(deepSubmittals
      ? ([[deepSubmittalsName, sql`${adminSubmittalsQuery(deepSubmittals.after)} limit ${PAGE + 1}`]] as [
          string,
          SQL,
        ][])
      : []),
    ['admin submittals, total', sql`select count(*) from documents d where ${whereOf(adminSubmittals)}`],
    ...(deepDocuments
      ? ([[deepDocumentsName, sql`${adminDocumentsQuery(deepDocuments.after)} limit ${PAGE + 1}`]] as [string, SQL][])
      : []),
    ['admin documents, total', sql`select count(*) from documents d where ${whereOf(adminDocuments)}`],
    [
      'project submittals, page 1',
      sql`${submittalQuery({ filter: projectScope, sort: createdDesc, withReviewHints: false })} limit ${PAGE + 1}`,
    ],
    ['project submittals, total', sql`select count(*) from documents d where ${whereOf(projectScope)}`],
    [
      'project submittals, open + search "concrete"',
      sql`${submittalQuery({ filter: searchedProject, sort: createdDesc, withReviewHints: false })} limit ${PAGE + 1}`,
    ],
    [
      'admin documents, format + status + search "fire"',
      sql`${documentQuery({ filter: searchedDocuments, sort: createdDesc, include: [] })} limit ${PAGE + 1}`,
    ],
  ];
  await printPlans(db, plans, 'analyze, costs off, timing off, summary on');
  await server.close();
  await database.close();
  process.exit(0);
}

const { lines, apiTimes: results } = await apiAgainstDriver('PostgreSQL', runs, csvOnly ? [] : cases);
const deepRatio = (deep: string, first: string) => {
  const [d, f] = [results[deep], results[first]];
  return d && f ? (d.p50 / f.p50).toFixed(2) : 'n/a';
};
lines.push(
  '',
  `deep page / page 1 (API p50): admin submittals ${deepRatio(deepSubmittalsName, 'admin submittals, page 1')}, ` +
    `admin documents ${deepRatio(deepDocumentsName, 'admin documents, page 1')}`,
);

// --- CSV: 100,000 rows of admin documents against COPY of the same query.
const CSV_ROWS = 100_000;
lines.push(
  ...(await csvAgainstCopy({
    url: `${server.url}/v1/admin/documents?include=assignees&limit=${CSV_ROWS}`,
    token: staffToken,
    query: csvValuesQuery(
      documentCsvColumns(['assignees']),
      documentCsvFrom({ filter: adminDocuments, sort: createdDesc }),
      CSV_ROWS,
    ),
    copyTo,
    runs: csvRuns,
    title: `${CSV_ROWS.toLocaleString('en-US')} rows of admin documents (include=assignees)`,
  })),
);

console.log(lines.join('\n'));
await server.close();
await database.close();
