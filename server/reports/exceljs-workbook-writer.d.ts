// exceljs's streaming workbook writer on its own (writers.ts): the package's entry loads its reader, its in-memory
// workbook and its CSV support as well, 14 MB more heap in the thread that writes a workbook.
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type ExcelJS from 'exceljs';

  const WorkbookWriter: typeof ExcelJS.stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}
