// Drawing bundles: merging a 200-sheet and a 500-sheet project, beside Debian's qpdf on the same files
// (`qpdf --empty --pages <sheets in order> -- out.pdf`), and on the S3 blob store beside the file store (the same
// sheets in an s3rver bucket on this machine, `<dir>/s3`). The ratios are what matter: machines are noisy.
//
//   npx tsx bench/bundle.ts [--sheets 200,500] [--lines 4000] [--runs 3] [--dir <data dir of an earlier run>]
//
// Setup: an embedded PostgreSQL and blob store in a temp directory with one project per size, each sheet a one-page
// A1 PDF with `lines` random vector strokes (a few hundred KB, like a real CAD plot). Each size is then bundled
// in a fresh child process (so its peak RSS is its own): cold (build and store) and warm (the cached answer),
// timed around the service call `bundleDrawings`. qpdf runs under /usr/bin/time for its elapsed time and peak RSS.
// CPU time (user + system) is reported beside elapsed time: on a shared, loaded machine it is the steadier ratio.
// The three alternate `runs` times and medians are reported, so a busy machine slows them alike.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import pino from 'pino';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/connection.js';
import { drawingBundles, drawingRevisions, drawings, projects } from '../server/db/schema.js';
import { bundleDrawings } from '../server/drawings/service.js';
import { newId } from '../server/ids.js';
import { createOrganization, createProject } from '../server/organizations/service.js';
import { startTestS3Server } from '../test/s3-server.js';

const { values } = parseArgs({
  options: {
    sheets: { type: 'string', default: '200,500' },
    lines: { type: 'string', default: '4000' },
    runs: { type: 'string', default: '3' },
    child: { type: 'string' },
    dir: { type: 'string' },
  },
});

/** The app on `dir`'s database, its blobs in `dir/blobs` or, with `s3` (the `S3_*` variables), in the bucket. */
const openContext = async (dir: string, s3: NodeJS.ProcessEnv = {}) => {
  const database = await openDatabase({ dataDir: dir });
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    JWT_SIGNING_KEY: 'bench-signing-key-0123456789abcdefghijklmnop',
    ...s3,
  });
  return { database, app: createApp({ config, db: database.db, log: pino({ level: 'silent' }) }) };
};

/** A one-page A1 sheet: title block text and `lines` pseudo-random strokes (deterministic per sheet). */
async function sheetPdf(number: string, lines: number, seed: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([2384, 1684]);
  let x = seed * 7919;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  for (let i = 0; i < lines; i++) {
    page.drawLine({
      start: { x: next() * 2300, y: next() * 1600 },
      end: { x: next() * 2300, y: next() * 1600 },
      thickness: 0.5 + next(),
      color: rgb(0, 0, 0),
    });
  }
  page.drawText(`Sheet ${number}`, { x: 2000, y: 60, size: 36, font });
  return Buffer.from(await doc.save());
}

async function setUp(sizes: number[], lines: number): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitefile-bench-bundle-'));
  const { database, app } = await openContext(dir);
  await database.migrate();
  const org = await createOrganization(database.db, { name: 'Bench Builders' });
  for (const size of sizes) {
    const project = await createProject(database.db, { organizationId: org.id, name: `Bench ${size} sheets` });
    const drawingRows = [];
    const revisionRows = [];
    for (let i = 1; i <= size; i++) {
      const number = `A-${100 + i}`;
      const stored = await app.context.blobs.put(await sheetPdf(number, lines, size * 10_000 + i));
      const drawingId = newId('drw');
      drawingRows.push({ id: drawingId, organizationId: org.id, projectId: project.id, number, title: `Plan ${i}` });
      revisionRows.push({
        id: newId('rev'),
        organizationId: org.id,
        drawingId,
        revision: 'A',
        sequence: 1,
        blobKey: stored.key,
        fileName: `${number}.pdf`,
        fileSize: stored.size,
        uploadedAt: new Date(),
      });
    }
    await database.db.insert(drawings).values(drawingRows);
    await database.db.insert(drawingRevisions).values(revisionRows);
    process.stderr.write(`generated ${size} sheets\n`);
  }
  await database.close();
  return dir;
}

/** Copies the sheets from `dir/blobs` into the bucket when they are not there yet (the first run on `dir`). */
async function fillBucket(dir: string, s3: Record<string, string>) {
  const fromFiles = await openContext(dir);
  const intoBucket = createApp({ config: loadConfig({ DATA_DIR: dir, ...s3 }), db: fromFiles.database.db });
  const sheets = await fromFiles.database.db.select({ key: drawingRevisions.blobKey }).from(drawingRevisions);
  for (const { key } of sheets) {
    if (key && (await intoBucket.context.blobs.stat(key)) === undefined) {
      await intoBucket.context.blobs.put((await fromFiles.app.context.blobs.readWhole(key))!);
    }
  }
  await fromFiles.database.close();
}

/** Child process: one bundle, cold then warm; prints one JSON line. */
async function runChild(dir: string, size: number) {
  const { database, app } = await openContext(dir, process.env.S3_BUCKET ? process.env : {});
  const [project] = await database.db
    .select()
    .from(projects)
    .where(eq(projects.name, `Bench ${size} sheets`));
  const scope = { organizationId: project!.organizationId, projectId: project!.id };
  // Every run is a cold build.
  await database.db.delete(drawingBundles).where(eq(drawingBundles.projectId, project!.id));
  // The writer's module is loaded on a server's first bundle and stays: as in a server that has made one before,
  // loading code is not counted as the bundle's memory or time.
  await import('../server/drawings/pdf-bundle.js');
  await app.context.blobs.stat('0'.repeat(64)); // likewise the blob store's client (the AWS SDK, on S3)
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const cold = await bundleDrawings(app.context, scope);
  const coldMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const t1 = performance.now();
  await bundleDrawings(app.context, scope);
  const warmMs = performance.now() - t1;
  const blobKey = new URL(cold.downloadUrl!).pathname.split('/')[3]!;
  const sources = await database.db
    .select({ key: drawingRevisions.blobKey, number: drawings.number })
    .from(drawingRevisions)
    .innerJoin(drawings, eq(drawings.id, drawingRevisions.drawingId))
    .where(eq(drawings.projectId, project!.id));
  console.log(
    JSON.stringify({
      coldMs,
      coldCpuMs: (cpu.user + cpu.system) / 1000,
      warmMs,
      peakRss,
      rssBefore,
      outputBytes: await app.context.blobs.stat(blobKey),
      sourceBytes: cold.totalSourceBytes,
      drawingCount: cold.drawingCount,
      // Natural order equals numeric order for A-101…: the same order the bundle uses.
      sourceFiles: sources
        .sort((a, b) => a.number.localeCompare(b.number, 'en', { numeric: true }))
        .map((s) => path.join(dir, 'blobs', s.key!.slice(0, 2), s.key!.slice(2, 4), s.key!)),
    }),
  );
  await database.close();
}

function runQpdf(files: string[], out: string) {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', 'qpdf', '--empty', '--pages', ...files, '--', out], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`qpdf failed: ${result.stderr}`);
  const [seconds, user, system, maxKb] = result.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return {
    ms: seconds! * 1000,
    cpuMs: (user! + system!) * 1000,
    peakRss: maxKb! * 1024,
    outputBytes: statSync(out).size,
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface ChildResult {
  coldMs: number;
  coldCpuMs: number;
  warmMs: number;
  peakRss: number;
  rssBefore: number;
  outputBytes: number;
  sourceBytes: number;
  drawingCount: number;
  sourceFiles: string[];
}

/** One child run (asynchronous: the S3 server answering it lives in this process). */
function runChildProcess(self: string, size: number, dir: string, env: Record<string, string>) {
  return new Promise<ChildResult>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', self, '--child', String(size), '--dir', dir], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(stdout.trim().split('\n').pop()!)) : reject(new Error(stderr)),
    );
  });
}

if (values.child) {
  await runChild(values.dir!, Number(values.child));
} else {
  const sizes = values.sheets.split(',').map(Number);
  console.log(`qpdf: ${execFileSync('qpdf', ['--version'], { encoding: 'utf8' }).split('\n')[0]}`);
  // --dir reuses the projects of an earlier run (generating 700 sheets takes minutes).
  const dir = values.dir ?? (await setUp(sizes, Number(values.lines)));
  mkdirSync(path.join(dir, 's3'), { recursive: true });
  const s3 = await startTestS3Server({ directory: path.join(dir, 's3') });
  await fillBucket(dir, s3.env);
  const self = fileURLToPath(import.meta.url);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const size of sizes) {
    const oursRuns = [];
    const s3Runs = [];
    const qpdfRuns = [];
    const qpdfOut = path.join(dir, `qpdf-${size}.pdf`);
    for (let run = 0; run < Number(values.runs); run++) {
      oursRuns.push(await runChildProcess(self, size, dir, {}));
      s3Runs.push(await runChildProcess(self, size, dir, s3.env));
      qpdfRuns.push(runQpdf(oursRuns[0]!.sourceFiles, qpdfOut));
    }
    const ours = {
      ...oursRuns[0]!,
      coldMs: median(oursRuns.map((r) => r.coldMs)),
      coldCpuMs: median(oursRuns.map((r) => r.coldCpuMs)),
      warmMs: median(oursRuns.map((r) => r.warmMs)),
      growth: median(oursRuns.map((r) => r.peakRss - r.rssBefore)),
      peakRss: median(oursRuns.map((r) => r.peakRss)),
    };
    const onS3 = {
      coldMs: median(s3Runs.map((r) => r.coldMs)),
      coldCpuMs: median(s3Runs.map((r) => r.coldCpuMs)),
      warmMs: median(s3Runs.map((r) => r.warmMs)),
      growth: median(s3Runs.map((r) => r.peakRss - r.rssBefore)),
    };
    const qpdf = {
      ms: median(qpdfRuns.map((r) => r.ms)),
      cpuMs: median(qpdfRuns.map((r) => r.cpuMs)),
      peakRss: median(qpdfRuns.map((r) => r.peakRss)),
      outputBytes: qpdfRuns[0]!.outputBytes,
    };
    const pages = execFileSync('qpdf', ['--show-npages', qpdfOut], { encoding: 'utf8' });
    console.log(
      [
        `${size} sheets (${ours.drawingCount} merged, sources ${mb(ours.sourceBytes)}; qpdf pages ${pages.trim()}), median of ${values.runs}:`,
        `  sitefile cold ${ours.coldMs.toFixed(0)} ms (CPU ${ours.coldCpuMs.toFixed(0)} ms), peak RSS ${mb(ours.peakRss)} (+${mb(ours.growth)} over the server process before the call), output ${mb(ours.outputBytes)}`,
        `  sitefile warm (cached) ${ours.warmMs.toFixed(1)} ms`,
        `  sitefile on S3 cold ${onS3.coldMs.toFixed(0)} ms (CPU ${onS3.coldCpuMs.toFixed(0)} ms), +${mb(onS3.growth)} RSS; warm ${onS3.warmMs.toFixed(1)} ms`,
        `  qpdf            ${qpdf.ms.toFixed(0)} ms (CPU ${qpdf.cpuMs.toFixed(0)} ms), peak RSS ${mb(qpdf.peakRss)}, output ${mb(qpdf.outputBytes)}`,
        `  ratio S3/file store: cold ${(onS3.coldMs / ours.coldMs).toFixed(2)}x (CPU ${(onS3.coldCpuMs / ours.coldCpuMs).toFixed(2)}x), memory ${(onS3.growth / ours.growth).toFixed(2)}x, warm ${(onS3.warmMs / ours.warmMs).toFixed(2)}x`,
        `  ratio sitefile/qpdf: time ${(ours.coldMs / qpdf.ms).toFixed(2)}x (CPU ${(ours.coldCpuMs / qpdf.cpuMs).toFixed(2)}x), memory (RSS growth vs qpdf's whole RSS) ${(ours.growth / qpdf.peakRss).toFixed(2)}x, size ${(ours.outputBytes / qpdf.outputBytes).toFixed(2)}x`,
      ].join('\n'),
    );
  }
  await s3.close();
}
