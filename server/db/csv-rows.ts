// The CSV export where COPY cannot reach the client (PGlite): the finished cells through a server-side cursor
// (`DECLARE … NO SCROLL CURSOR` + `FETCH n` in a read-only transaction), quoted here by PostgreSQL's rule.
import { sql } from 'drizzle-orm';
import { csvCellsQuery } from './csv-cells.js';
import { CRLF, type CsvExport, csvField, headerRow, truncationRow } from './csv-format.js';

/** Rows fetched from the cursor per round trip. */
const BATCH_SIZE = 1000;

type Cells = Record<string, unknown>;

/**
 * What `produce` emits, as an async generator: how chunks leave a callback that must not return before the
 * last one is read (a transaction's). Each `emit` resolves when the reader asks for the next chunk — true — or
 * has stopped — false, and `produce` winds up; a failure of `produce` rejects the reader's next `next()`.
 */
async function* pulled<T>(produce: (emit: (chunk: T) => Promise<boolean>) => Promise<void>): AsyncGenerator<T> {
  let offered: { chunk: T; answer: (more: boolean) => void } | undefined;
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: { error: unknown } | undefined;
  const emit = (chunk: T) =>
    new Promise<boolean>((answer) => {
      offered = { chunk, answer };
      wake?.();
    });
  const finished = produce(emit)
    .then(
      () => {
        ended = true;
      },
      (error: unknown) => {
        failure = { error };
      },
    )
    .finally(() => wake?.());
  let reading: typeof offered;
  try {
    for (;;) {
      while (!offered && !ended && !failure) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure.error;
      if (!offered) return;
      reading = offered;
      offered = undefined;
      yield reading.chunk;
      reading.answer(true);
      reading = undefined;
    }
  } finally {
    reading?.answer(false);
    await finished;
  }
}

export function cursorCsvChunks(options: CsvExport, batchSize = BATCH_SIZE): AsyncGenerator<string> {
  const { db, columns, limit } = options;
  const names = columns.map((_, i) => `c${i}`);
  const line = (row: Cells) => names.map((name) => csvField(row[name])).join(',') + CRLF;
  return pulled<string>((emit) =>
    db.transaction(
      async (tx) => {
        await tx.execute(sql`declare csv_export no scroll cursor for ${csvCellsQuery(columns, options.from, limit)}`);
        const fetchBatch = async () =>
          ((await tx.execute(sql.raw(`fetch ${batchSize} from csv_export`))) as unknown as { rows: Cells[] }).rows;
        let batch = await fetchBatch();
        let wanted = await emit(headerRow(columns));
        let written = 0;
        let truncated = false;
        while (wanted && batch.length > 0) {
          const room = limit - written;
          if (batch.length > room) truncated = true;
          const rows = truncated ? batch.slice(0, room) : batch;
          written += rows.length;
          if (rows.length > 0) wanted = await emit(rows.map(line).join(''));
          if (truncated || batch.length < batchSize || !wanted) break;
          batch = await fetchBatch();
        }
        await tx.execute(sql.raw('close csv_export'));
        if (wanted && truncated) await emit(truncationRow(limit));
      },
      { accessMode: 'read only' },
    ),
  );
}
