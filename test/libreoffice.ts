// A real spreadsheet engine reading a CSV: LibreOffice headless (Debian `libreoffice-calc-nogui`) converts it
// to flat OpenDocument (.fods), and the cells are read back with their types — what a user opening the
// export would get. Import options are the hostile ones: formulas evaluated, quoted fields type-detected.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

export interface SheetCell {
  /** office:value-type: 'string', 'float', 'date', …; undefined for an empty cell. */
  type?: string;
  formula?: string;
}

export interface Sheet {
  rows: SheetCell[][];
  /** Every cell LibreOffice made a formula of (should be none). */
  formulaCells: SheetCell[];
}

// CSV filter tokens: comma, double quote, UTF-8, from line 1, standard cells, default language, quoted fields
// not forced to text, special numbers detected, (export-only tokens), formulas evaluated.
const CSV_IMPORT = 'CSV:44,34,76,1,,0,false,true,,,false,,true';

const attribute = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];

function cellsOf(rowXml: string): SheetCell[] {
  const cells: SheetCell[] = [];
  for (const [tag] of rowXml.matchAll(/<table:table-cell\b[^>]*>/g)) {
    const cell: SheetCell = { type: attribute(tag, 'office:value-type'), formula: attribute(tag, 'table:formula') };
    const repeated = Number(attribute(tag, 'table:number-columns-repeated') ?? 1);
    for (let i = 0; i < Math.min(repeated, 64); i++) cells.push(cell);
  }
  while (cells.length > 0 && cells.at(-1)?.type === undefined) cells.pop();
  return cells;
}

/** The first sheet of `csv` as LibreOffice reads it (trailing empty rows and cells dropped). */
export async function openInLibreOffice(csv: string): Promise<Sheet> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sitefile-lo-'));
  try {
    await writeFile(path.join(dir, 'export.csv'), csv);
    await promisify(execFile)(
      'soffice',
      [
        `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
        '--headless',
        `--infilter=${CSV_IMPORT}`,
        '--convert-to',
        'fods',
        '--outdir',
        dir,
        path.join(dir, 'export.csv'),
      ],
      { timeout: 110_000 },
    );
    const xml = await readFile(path.join(dir, 'export.fods'), 'utf8');
    const table = xml.slice(xml.indexOf('<table:table '), xml.indexOf('</table:table>'));
    const rows = [...table.matchAll(/<table:table-row\b[^>]*>([\s\S]*?)<\/table:table-row>/g)].map((m) =>
      cellsOf(m[1] ?? ''),
    );
    while (rows.length > 0 && rows.at(-1)?.length === 0) rows.pop();
    return { rows, formulaCells: rows.flat().filter((cell) => cell.formula !== undefined) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
