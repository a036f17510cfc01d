// The CSV export where COPY cannot reach the client (PGlite): the finished cells through a server-side cursor
// (`DECLARE … NO SCROLL CURSOR` + `FETCH n` in a read-only transaction), quoted here by PostgreSQL's rule.
import { sql } from 'drizzle-orm';
import type { Response } from 'express';
import { csvCellsQuery } from '../db/csv-cells.js';
import { CRLF, type CsvExport, csvField, startCsvResponse, truncationRow, writable } from './csv-format.js';

/** Rows fetched from the cursor per round trip. */
const BATCH_SIZE = 1000;

type Cells = Record<string, unknown>;

export async function streamCursorCsv(res: Response, options: CsvExport, batchSize = BATCH_SIZE): Promise<void> {
  const { db, columns, limit } = options;
  const names = columns.map((_, i) => `c${i}`);
  const line = (row: Cells) => names.map((name) => csvField(row[name])).join(',') + CRLF;
  await db.transaction(
    async (tx) => {
      await tx.execute(sql`declare csv_export no scroll cursor for ${csvCellsQuery(columns, options.from, limit)}`);
      const fetchBatch = async () =>
        ((await tx.execute(sql.raw(`fetch ${batchSize} from csv_export`))) as unknown as { rows: Cells[] }).rows;
      let batch = await fetchBatch();
      startCsvResponse(res, options);
      let written = 0;
      let truncated = false;
      while (batch.length > 0) {
        const room = limit - written;
        if (batch.length > room) truncated = true;
        const rows = truncated ? batch.slice(0, room) : batch;
        written += rows.length;
        if (rows.length > 0) res.write(rows.map(line).join(''));
        if (truncated || batch.length < batchSize || !(await writable(res))) break;
        batch = await fetchBatch();
      }
      await tx.execute(sql.raw('close csv_export'));
      if (res.destroyed) return;
      if (truncated) res.write(truncationRow(limit));
      res.end();
    },
    { accessMode: 'read only' },
  );
}
