import { formatCell } from "./cells.js";

export function buildRows(count, offset) {
  const rows = [];
  for (let i = 0; i < count; i++) {
    const cells = [];
    for (let c = 0; c < 4; c++) cells.push(formatCell(offset + i, c));
    rows.push("<tr><td>" + cells.join("</td><td>") + "</td></tr>");
  }
  return rows;
}

export function renderReport(count) {
  const head = buildRows(1, 0);
  const body = buildRows(count, 1);
  return "<table>" + head.join("") + body.join("") + "</table>";
}
