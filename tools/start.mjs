// `npm start`: builds what changed since the last start (tools/build.mjs), then runs the server bundle in this
// same process (one Node start instead of two, a tenth of a second of every start).
import { buildParts } from './build.mjs';

await buildParts([], { ifChanged: true });
// As `node --enable-source-maps`: stack traces name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true);
await import('../dist/server/main.mjs');
