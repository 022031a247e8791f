// QR codes drawn as vector squares (the qrcode package encodes, pdfkit draws): sharp at any print
// size, and no image is made or fetched.
import QRCode from 'qrcode';

/** Longest text put in a code; a longer one is printed as text only. */
export const MAX_QR_TEXT = 1_000;

/** Draws `text` as a QR code `size` points square (quiet zone included); false when it is too long. */
export function drawQrCode(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): boolean {
  if (text.length === 0 || text.length > MAX_QR_TEXT) return false;
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const cell = size / (modules.size + 2 * quiet);
  doc.rect(x, y, size, size).fill('#ffffff');
  doc.fillColor('#000000');
  for (let row = 0; row < modules.size; row++) {
    // One rectangle per run of dark modules keeps the page small.
    for (let col = 0; col < modules.size; ) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col += 1;
      doc.rect(x + (quiet + start) * cell, y + (quiet + row) * cell, (col - start) * cell, cell);
    }
  }
  doc.fill('#000000');
  return true;
}
