// Rows of cells as text: how the database hands an XLSX export's batch over (transaction-csv.ts writes it in SQL)
// and the XLSX writer's thread reads it back (xlsx-thread.ts). A batch crosses as a few pieces of text instead of
// thousands of arrays of strings, which the server's thread would otherwise build, keep until the batch was sent, and
// leave to a full collection.
//
// A row is its cells joined by the unit separator (U+001F) and ended by the record separator (U+001E). A null cell
// is the escape character (U+001B) alone; in a value, the escape character is written twice, the unit separator as
// escape + 'u' and the record separator as escape + 'r'. So any text a person typed comes back as it was.

/** A row's cells, as the report writers take them (writers.ts CellRow). */
type CellRow = (string | null)[];

const cellSeparator = '\u001f';
const rowEnd = '\u001e';
const escapeCharacter = '\u001b';

/** A value that held the escape character or a separator (rare: read character by character). */
function unescaped(cell: string): string {
  let value = '';
  for (let index = 0; index < cell.length; index += 1) {
    const character = cell[index] as string;
    if (character !== escapeCharacter) {
      value += character;
      continue;
    }
    index += 1;
    const next = cell[index];
    value += next === 'u' ? cellSeparator : next === 'r' ? rowEnd : (next ?? '');
  }
  return value;
}

/** The rows of pieces of cell text (each piece holds whole rows), each with `columns` cells; throws on another count. */
export function rowsOfCellText(chunks: readonly string[], columns: number): CellRow[] {
  const rows: CellRow[] = [];
  for (const chunk of chunks) {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(rowEnd, start);
      if (end < 0) throw new Error('Cell text ends inside a row.');
      const cells: CellRow = chunk.slice(start, end).split(cellSeparator);
      if (cells.length !== columns) throw new Error(`A row of cell text has ${cells.length} cells, not ${columns}.`);
      for (let index = 0; index < columns; index += 1) {
        const cell = cells[index] as string;
        if (cell === escapeCharacter) cells[index] = null;
        else if (cell.includes(escapeCharacter)) cells[index] = unescaped(cell);
      }
      rows.push(cells);
      start = end + 1;
    }
  }
  return rows;
}
