// read.js: reads every row of the first sheet of an XLSX workbook with
// exceljs's streaming reader (the fastest way exceljs reads) and prints how
// many rows follow the header: the peer of scripts/readrows in
// scripts/bench-read.sh. Every cell's value is touched, as lading reads
// every cell.
//
//	node scripts/exceljs/read.js FILE.xlsx
'use strict';
const ExcelJS = require('exceljs');

async function main(path) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit', entries: 'ignore',
  });
  let rows = 0, cells = 0;
  for await (const sheet of reader) {
    for await (const row of sheet) {
      row.eachCell({ includeEmpty: false }, (cell) => { if (cell.value !== undefined) cells++; });
      rows++;
    }
    break; // the first sheet, as lading reads it
  }
  console.log(rows - 1);
  if (cells === 0) throw new Error('no cell read');
}

main(process.argv[2]).catch((err) => { console.error(`read.js: ${err.message}`); process.exit(1); });
