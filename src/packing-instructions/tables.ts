// Tables that run across pages: rows are never split, and each page a table continues on repeats
// its title and column headers, so a sheet pulled from the stack still says what its columns are.
import { drawText, MUTED, textHeight, type PageFlow, type TextStyle } from './page-flow.js';

export interface Column {
  header: string;
  /** Relative width; the columns share the content width in proportion. */
  weight: number;
  align?: 'left' | 'right' | 'center';
}

export interface RowStyle {
  bold?: boolean;
  color?: string;
  fill?: string;
}

export interface Table {
  /** Printed above the table, and again with "(continued)" on every following page. */
  title?: string;
  columns: Column[];
  rows: string[][];
  rowStyle?: (row: string[], index: number) => RowStyle | undefined;
  /** Shown as the only row when there are no rows. */
  empty?: string;
  fontSize?: number;
}

const PAD_X = 3;
const PAD_Y = 2.5;
const HEADER_FILL = '#dfe4ea';
const ZEBRA_FILL = '#f4f6f8';
const RULE = '#c3c9d0';

interface TableLayout {
  widths: number[];
  lefts: number[];
  rows: string[][];
  headers: string[];
  headerHeight: number;
  rowHeights: number[];
  titleHeight: (continued: boolean) => number;
}

function titleOf(table: Table, continued: boolean): string {
  return continued ? `${table.title ?? ''} (continued)` : (table.title ?? '');
}

const TITLE_STYLE: TextStyle = { size: 10, bold: true };
const GAP_AFTER = 8;

function layOut(flow: PageFlow, table: Table): TableLayout {
  const doc = flow.doc;
  const size = table.fontSize ?? 8;
  const total = table.columns.reduce((sum, c) => sum + c.weight, 0);
  const widths = table.columns.map((c) => (c.weight / total) * flow.width);
  const lefts = widths.map((_, i) => flow.left + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const rows = table.rows.length > 0 ? table.rows : [[table.empty ?? 'None.']];
  const heightOf = (cells: string[], style: TextStyle): number =>
    Math.max(
      ...cells.map((text, i) => {
        const width = cells.length === 1 ? flow.width : (widths[i] ?? 0);
        return textHeight(doc, text, width - 2 * PAD_X, style);
      }),
    ) +
    2 * PAD_Y;
  const headers = table.columns.map((c) => c.header);
  const headerHeight = heightOf(headers, { size, bold: true });
  const titleHeight = (continued: boolean): number =>
    table.title ? textHeight(doc, titleOf(table, continued), flow.width, TITLE_STYLE) + 3 : 0;
  // The tallest a row may be and still fit under the title and headers on an empty page.
  const maxRowHeight = flow.pageRoom - titleHeight(true) - headerHeight;
  const rowHeights = rows.map((cells, index) => {
    const style = rowStyleOf(table, cells, index);
    return Math.min(heightOf(cells, { size, bold: style?.bold }), maxRowHeight);
  });
  return { widths, lefts, rows, headers, headerHeight, rowHeights, titleHeight };
}

function rowStyleOf(table: Table, cells: string[], index: number): RowStyle | undefined {
  return table.rows.length > 0 ? table.rowStyle?.(cells, index) : { color: MUTED };
}

/** The height the table takes when it fits on one page. */
export function tableHeight(flow: PageFlow, table: Table): number {
  const layout = layOut(flow, table);
  return layout.titleHeight(false) + layout.headerHeight + layout.rowHeights.reduce((a, b) => a + b, 0) + GAP_AFTER;
}

export function drawTable(flow: PageFlow, table: Table): void {
  const doc = flow.doc;
  const size = table.fontSize ?? 8;
  const { widths, lefts, rows, headers, headerHeight, rowHeights, titleHeight } = layOut(flow, table);

  const drawCells = (cells: string[], height: number, style: TextStyle): void => {
    cells.forEach((text, i) => {
      const single = cells.length === 1;
      const left = single ? flow.left : (lefts[i] ?? 0);
      const width = (single ? flow.width : (widths[i] ?? 0)) - 2 * PAD_X;
      const align = single ? 'left' : (table.columns[i]?.align ?? 'left');
      doc.save();
      // Clip so that even a cell taller than a page cannot print over the footer.
      doc.rect(left, flow.y, width + 2 * PAD_X, height).clip();
      drawText(doc, text, left + PAD_X, flow.y + PAD_Y, width, { ...style, align, maxHeight: height - PAD_Y });
      doc.restore();
    });
  };

  const drawTop = (continued: boolean): void => {
    if (table.title) {
      drawText(doc, titleOf(table, continued), flow.left, flow.y, flow.width, TITLE_STYLE);
      flow.y += titleHeight(continued);
    }
    doc.rect(flow.left, flow.y, flow.width, headerHeight).fill(HEADER_FILL);
    drawCells(headers, headerHeight, { size, bold: true });
    flow.y += headerHeight;
    rule(flow, '#8a939c');
  };

  flow.ensureRoom(titleHeight(false) + headerHeight + (rowHeights[0] ?? 0));
  drawTop(false);
  rows.forEach((cells, index) => {
    const style = rowStyleOf(table, cells, index);
    const height = rowHeights[index] ?? 0;
    if (flow.y + height > flow.bottom) {
      flow.newPage();
      drawTop(true);
    }
    const fill = style?.fill ?? (index % 2 === 1 ? ZEBRA_FILL : undefined);
    if (fill) doc.rect(flow.left, flow.y, flow.width, height).fill(fill);
    drawCells(cells, height, { size, bold: style?.bold, color: style?.color });
    flow.y += height;
    rule(flow, RULE);
  });
  flow.gap(GAP_AFTER);
}

function rule(flow: PageFlow, color: string): void {
  flow.doc.moveTo(flow.left, flow.y).lineTo(flow.right, flow.y).lineWidth(0.5).strokeColor(color).stroke();
}
