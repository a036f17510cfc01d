// `npm start`: builds only what a production install can and must (tools/build.mjs, `buildForStart`), then runs
// the server bundle in this same process (one Node start instead of two, a tenth of a second of every start).
import { buildForStart } from './build.mjs';

try {
  await buildForStart((line) => process.stderr.write(`${line}\n`));
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
// As `node --enable-source-maps`: stack traces name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true);
await import('../dist/server/main.mjs');
