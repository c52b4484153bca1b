// A one-page PDF written by hand: Helvetica text on A4, with a correct cross-reference table.

/** What a generated document says: a heading and a few lines of text. */
export interface DocumentText {
  title: string
  lines: readonly string[]
}

/** PDF strings here are ASCII: anything else becomes '?', and ( ) \ are escaped. */
function pdfString(text: string): string {
  return `(${text.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, (char) => `\\${char}`)})`
}

/** The bytes of a valid one-page PDF showing `title` and `lines`. */
export function encodePdf({ title, lines }: DocumentText): Uint8Array<ArrayBuffer> {
  const text = [
    'BT',
    `/F1 22 Tf 72 760 Td ${pdfString(title)} Tj`,
    '/F1 12 Tf 0 -36 Td',
    ...lines.map((line, index) => `${index === 0 ? '' : '0 -18 Td '}${pdfString(line)} Tj`),
    'ET',
  ].join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ]
  // Everything is ASCII, so string offsets are byte offsets.
  let pdf = '%PDF-1.4\n'
  const offsets = objects.map((body, index) => {
    const offset = pdf.length
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`
    return offset
  })
  const xref = pdf.length
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(pdf)
}
