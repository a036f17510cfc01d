// The layer rules of docs/architecture.md: `npm run lint:layers`. Not yet part of `npm test`: the nine
// violations it lists on main are issue 19's remaining work; once they are fixed, add it to the test script.
// routes → service → queries → db; cross-cutting folders (auth, ratelimit, cache, db) never reach up into http/;
// shared/ is the wire contract and imports only zod; the add-in reaches the server only in its tests.
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
      to: { path: ['^server/[^/]+/queries\\.ts$', '^server/db/schema\\.ts$'] },
    },
    {
      name: 'only-queries-touch-tables',
      severity: 'error',
      comment: 'Tables are read and written in queries modules (and the seed, which bulk-loads them).',
      from: {
        path: '^server/',
        pathNot: ['queries\\.ts$', '^server/db/', '^server/seed/', '\\.test\\.ts$', '\\.fixtures\\.ts$'],
      },
      to: { path: '^server/db/schema\\.ts$' },
    },
    {
      name: 'queries-know-no-http',
      severity: 'error',
      from: { path: '(^server/[^/]+/queries\\.ts$|^server/db/)' },
      to: { path: ['^server/http/', '^node_modules/express/', '^node_modules/@types/express/'] },
    },
    {
      name: 'services-know-no-express',
      severity: 'error',
      comment: 'Services are called by routes, MCP tools and the CLI alike.',
      from: { path: '^server/[^/]+/service\\.ts$' },
      to: { path: ['^server/http/route\\.ts$', '^node_modules/express/', '^node_modules/@types/express/'] },
    },
    {
      name: 'ground-floor-stays-down',
      severity: 'error',
      comment: 'auth, rate limits, cache, blobs and db sit below the HTTP layer.',
      from: { path: '^server/(auth|ratelimit|cache|blobs|db)/' },
      to: { path: '^server/http/' },
    },
    {
      name: 'shared-is-the-contract',
      severity: 'error',
      comment: 'shared/ is imported by the server and the add-in: it may import only zod and itself.',
      from: { path: '^shared/' },
      to: { pathNot: ['^shared/', '^node_modules/zod/'] },
    },
    {
      name: 'addin-stays-a-client',
      severity: 'error',
      from: { path: '^addin/', pathNot: ['\\.test\\.tsx?$', '^addin/testing/'] },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
