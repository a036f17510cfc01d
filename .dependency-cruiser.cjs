// The layer rules of docs/architecture.md: `npm run lint:layers`, part of `npm test`.
// routes → service → queries → db; only queries modules and db/ run SQL; services and queries reach neither
// Express nor http/ (not even through another module); cross-cutting folders (auth, ratelimit, cache, db) never
// reach up into http/; shared/ is the wire contract and imports only zod; the add-in reaches the server only
// in its tests; no import cycles.
const testsAndFixtures = ['\\.test\\.ts$', '\\.fixtures\\.ts$'];
/** The schema: its index (`server/db/schema.ts`) and the per-domain files behind it. */
const tables = '^server/db/schema(\\.ts$|/)';
const httpOrExpress = ['^server/http/', '(^|/)node_modules/(@types/)?express/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle means two modules are one; split what both need into a lower module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'routes-skip-service',
      severity: 'error',
      comment: 'A route handler calls its service; the service calls the queries.',
      from: { path: '^server/[^/]+/routes\\.ts$' },
      to: { path: ['^server/[^/]+/queries\\.ts$', tables] },
    },
    {
      name: 'only-queries-touch-tables',
      severity: 'error',
      comment: 'Tables are read and written in queries modules (and the seed, which bulk-loads them).',
      from: {
        path: '^server/',
        pathNot: ['queries\\.ts$', '^server/db/', '^server/seed/', ...testsAndFixtures],
      },
      to: { path: tables },
    },
    {
      name: 'only-queries-run-sql',
      severity: 'error',
      comment:
        'SQL is built and run in queries modules and db/ (explorer/compile.ts and entities.ts compile the ' +
        'explorer language to SQL; the seed bulk-loads). Elsewhere drizzle-orm may be imported only for types.',
      from: {
        path: '^server/',
        pathNot: [
          'queries\\.ts$',
          '^server/db/',
          '^server/seed/',
          '^server/explorer/(compile|entities)\\.ts$',
          ...testsAndFixtures,
        ],
      },
      to: {
        path: '(^|/)node_modules/(drizzle-orm|pg|pg-copy-streams|@electric-sql/pglite)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'queries-know-no-http',
      severity: 'error',
      comment: 'Queries and db/ are used by services, MCP tools and the CLI: nothing of HTTP, not even indirectly.',
      from: { path: '(^server/[^/]+/queries\\.ts$|^server/db/)', pathNot: testsAndFixtures },
      to: { path: httpOrExpress, reachable: true },
    },
    {
      name: 'services-know-no-express',
      severity: 'error',
      comment:
        'Services are called by routes, MCP tools and the CLI alike: they return data (a CSV export as a ' +
        'Listing), never write a response.',
      from: { path: '^server/[^/]+/service\\.ts$' },
      to: { path: httpOrExpress, reachable: true },
    },
    {
      name: 'ground-floor-stays-down',
      severity: 'error',
      comment: 'auth, rate limits, cache, blobs, db and metrics sit below the HTTP layer.',
      from: { path: '^server/(auth|ratelimit|cache|blobs|db|metrics)/' },
      to: { path: '^server/http/' },
    },
    {
      name: 'floors-below-resources',
      severity: 'error',
      comment:
        'The cross-cutting floors (auth, db, http, cache, blobs, ratelimit, usage and the ground-floor files) ' +
        'serve every resource folder, so none imports one: what two resources and a floor share moves down.',
      from: {
        path: [
          '^server/(auth|db|http|cache|blobs|ratelimit|usage|metrics)/',
          '^server/(context|errors|cursor|listing|date-window|paths|config|clock|ids|iso-dates)\\.ts$',
        ],
        pathNot: testsAndFixtures,
      },
      to: {
        path: '^server/[^/]+/',
        pathNot: '^server/(auth|db|http|cache|blobs|ratelimit|usage|metrics)/',
      },
    },
    {
      name: 'shared-is-the-contract',
      severity: 'error',
      comment: 'shared/ is imported by the server and the add-in: it may import only zod and itself.',
      from: { path: '^shared/' },
      to: { pathNot: ['^shared/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'addin-stays-a-client',
      severity: 'error',
      comment: 'The add-in talks to the server over HTTP with the shared schemas; only its tests start one.',
      from: { path: '^addin/', pathNot: ['\\.test\\.tsx?$', '^addin/testing/'] },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
