// Two ways to look at a rendered document: its text read back by pdf-parse, and a record of every
// text the layout drew (page, box) taken from pdfkit while it draws, to check nothing runs off.
import { PDFParse, type ParseParameters } from 'pdf-parse';
import {
  createPackingInstructionsDocument,
  writePackingInstructions,
  type PackingInstructionsInput,
} from '../../src/packing-instructions/render-packing-instructions.js';

export interface PdfText {
  text: string;
  total: number;
  pages: string[];
}

export async function readPdfText(pdf: Buffer, params: ParseParameters = {}): Promise<PdfText> {
  // pdf.js takes ownership of the bytes it is given: hand it a copy.
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const result = await parser.getText(params);
    return { text: result.text, total: result.total, pages: result.pages.map((p) => p.text) };
  } finally {
    await parser.destroy();
    // pdf.js can hold the event loop for seconds on a loaded machine; meanwhile a service may close
    // an idle keep-alive socket. A turn of the loop lets fetch see that before it reuses the socket.
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface DrawnText {
  text: string;
  /** 0-based. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Drawn after the content, in the page margins: the running footer. */
  footer: boolean;
}

export interface InspectedRender {
  pdf: Buffer;
  /** Pages the layout started itself. */
  pagesStarted: number;
  /** Pages in the document: more than pagesStarted means pdfkit broke a page on its own. */
  pagesInDocument: number;
  drawn: DrawnText[];
  page: { width: number; height: number; margins: { top: number; bottom: number; left: number; right: number } };
}

export async function renderInspected(input: PackingInstructionsInput & { generatedAt: Date }): Promise<InspectedRender> {
  const doc = createPackingInstructionsDocument(input.submitted, input.generatedAt);
  const chunks: Uint8Array[] = [];
  const ended = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));

  const drawn: DrawnText[] = [];
  let footerPage: number | undefined;
  const switchToPage = doc.switchToPage.bind(doc);
  doc.switchToPage = (n: number) => {
    footerPage = n;
    return switchToPage(n);
  };
  const text = doc.text.bind(doc) as (...args: unknown[]) => PDFKit.PDFDocument;
  doc.text = ((value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}) => {
    const oneLine = options.lineBreak === false;
    const width = oneLine ? doc.widthOfString(value) : (options.width ?? 0);
    const fullHeight = oneLine ? doc.currentLineHeight(true) : doc.heightOfString(value, { width });
    const height = options.height === undefined ? fullHeight : Math.min(fullHeight, options.height);
    const page = footerPage ?? doc.bufferedPageRange().count - 1;
    drawn.push({ text: value, page, x, y, width, height, footer: footerPage !== undefined });
    return text(value, x, y, options);
  }) as typeof doc.text;

  const { pages } = writePackingInstructions(doc, input);
  const pagesInDocument = doc.bufferedPageRange().count;
  const page = { width: doc.page.width, height: doc.page.height, margins: { ...doc.page.margins } };
  doc.end();
  return { pdf: await ended, pagesStarted: pages, pagesInDocument, drawn, page };
}

/** Texts that leave the content area (or, for footers, the page). */
export function outOfBounds(render: InspectedRender): DrawnText[] {
  const { width, height, margins } = render.page;
  const slack = 0.5;
  return render.drawn.filter((t) => {
    const [top, bottom, left, right] = t.footer
      ? [height - margins.bottom, height, margins.left, width - margins.right]
      : [margins.top, height - margins.bottom, margins.left, width - margins.right];
    return t.y < top - slack || t.y + t.height > bottom + slack || t.x < left - slack || t.x + t.width > right + slack;
  });
}
