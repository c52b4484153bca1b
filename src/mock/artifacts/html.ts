import type { DocumentText } from './pdf.js'

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/** The bytes of a small, self-contained web page showing `title` and `lines`. */
export function encodeHtmlPage({ title, lines }: DocumentText): Uint8Array<ArrayBuffer> {
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem;color:#222}h1{font-size:1.6rem}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
</body>
</html>
`
  return new TextEncoder().encode(page)
}
