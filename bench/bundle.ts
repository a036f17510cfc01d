// Drawing bundles: merging a 200-sheet and a 500-sheet project, beside Debian's qpdf on the same files
// (`qpdf --empty --pages <sheets in order> -- out.pdf`). The ratio is what matters: machines are noisy.
//
//   npx tsx bench/bundle.ts [--sheets 200,500] [--lines 4000] [--runs 3] [--dir <data dir of an earlier run>]
//
// Setup: a PGlite database and blob store in a temp directory with one project per size, each sheet a one-page
// A1 PDF with `lines` random vector strokes (a few hundred KB, like a real CAD plot). Each size is then bundled
// in a fresh child process (so its peak RSS is its own): cold (build and store) and warm (the cached answer),
// timed around the service call `bundleDrawings`. qpdf runs under /usr/bin/time for its elapsed time and peak RSS.
// CPU time (user + system) is reported beside elapsed time: on a shared, loaded machine it is the steadier ratio.
// The two alternate `runs` times and medians are reported, so a busy machine slows both alike.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
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

const { values } = parseArgs({
  options: {
    sheets: { type: 'string', default: '200,500' },
    lines: { type: 'string', default: '4000' },
    runs: { type: 'string', default: '3' },
    child: { type: 'string' },
    dir: { type: 'string' },
  },
});

const openContext = async (dir: string) => {
  const database = await openDatabase({ dataDir: dir });
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    JWT_SIGNING_KEY: 'bench-signing-key-0123456789abcdefghijklmnop',
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

/** Child process: one bundle, cold then warm; prints one JSON line. */
async function runChild(dir: string, size: number) {
  const { database, app } = await openContext(dir);
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
  const outputFile = path.join(dir, 'blobs', blobKey.slice(0, 2), blobKey.slice(2, 4), blobKey);
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
      outputBytes: statSync(outputFile).size,
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

if (values.child) {
  await runChild(values.dir!, Number(values.child));
} else {
  const sizes = values.sheets.split(',').map(Number);
  console.log(`qpdf: ${execFileSync('qpdf', ['--version'], { encoding: 'utf8' }).split('\n')[0]}`);
  // --dir reuses the projects of an earlier run (generating 700 sheets takes minutes).
  const dir = values.dir ?? (await setUp(sizes, Number(values.lines)));
  const self = fileURLToPath(import.meta.url);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const size of sizes) {
    const oursRuns = [];
    const qpdfRuns = [];
    const qpdfOut = path.join(dir, `qpdf-${size}.pdf`);
    for (let run = 0; run < Number(values.runs); run++) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', String(size), '--dir', dir], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      if (child.status !== 0) throw new Error(child.stderr);
      oursRuns.push(JSON.parse(child.stdout.trim().split('\n').pop()!));
      qpdfRuns.push(runQpdf(oursRuns[0].sourceFiles, qpdfOut));
    }
    const ours = {
      ...oursRuns[0],
      coldMs: median(oursRuns.map((r) => r.coldMs)),
      coldCpuMs: median(oursRuns.map((r) => r.coldCpuMs)),
      warmMs: median(oursRuns.map((r) => r.warmMs)),
      growth: median(oursRuns.map((r) => r.peakRss - r.rssBefore)),
      peakRss: median(oursRuns.map((r) => r.peakRss)),
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
        `  qpdf            ${qpdf.ms.toFixed(0)} ms (CPU ${qpdf.cpuMs.toFixed(0)} ms), peak RSS ${mb(qpdf.peakRss)}, output ${mb(qpdf.outputBytes)}`,
        `  ratio sitefile/qpdf: time ${(ours.coldMs / qpdf.ms).toFixed(2)}x (CPU ${(ours.coldCpuMs / qpdf.cpuMs).toFixed(2)}x), memory (RSS growth vs qpdf's whole RSS) ${(ours.growth / qpdf.peakRss).toFixed(2)}x, size ${(ours.outputBytes / qpdf.outputBytes).toFixed(2)}x`,
      ].join('\n'),
    );
  }
}
