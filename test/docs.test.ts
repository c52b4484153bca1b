// @vitest-environment node
// The README and docs/ are the reference a partner reads: every export of every entry is in a
// page, every TypeScript block compiles against the sources, every link lands, and the README
// stays a landing page.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { PROXY_ERROR_CODES } from '../src/server/index.js'
import { blocks as docBlocks, pages, text } from './support/docs.js'
import { ENTRIES, partnerProgram, problemsIn, root } from './support/program.js'

const readme = text['README.md']!
/** Everything the pages write as code: spans and fenced blocks (the odd pieces between backticks). */
const code = Object.values(text)
  .flatMap((page) => page.split('`').filter((_, index) => index % 2 === 1))
  .join('\n')

/** What a partner's own app provides, which the examples call: declared, not the kit's. */
const PARTNER = `
declare function getSessionUser(request: Request): Promise<{ id: string } | null>
declare function sessionOf(request: Request, env: Env): Promise<{ user: string; tools: import('@cabinet/tools-react').ToolId[] } | null>
interface Env { TOOLS_BASE_URL: string; TOOLS_API_KEY: string; TOOLS_PROXY_SECRET: string }
declare const logger: { warn(line: string): void }
declare module '*.css'
interface ImportMeta { readonly env: { readonly DEV: boolean; readonly VITE_TOOLS_BASE_URL: string; readonly VITE_TOOLS_API_KEY: string } }
`

/** Every ```ts and ```tsx block of the pages, as a module of its own. */
const blocks = docBlocks.map((block) => ({
  name: join(root, `.docs-blocks/${block.id}.${block.lang}`),
  page: block.page,
  source: `${block.code}\nexport {}\n`,
}))

/** A block that opens with `// app/…` or `// lib/…` is that file of examples/next-app, whose `next build` (.ci/run) compiles it. */
const exampleFile = (block: { source: string }) => {
  const path = /^\/\/ ((?:app|lib)\/\S+):/.exec(block.source)?.[1]
  return path && join(root, 'examples/next-app', path)
}
/** Blocks that declare `Register` change the kit's types for the whole program: each is checked on its own. */
const declaresRegister = (block: { source: string }) => /interface Register\b/.test(block.source)
const partner = join(root, '.docs-blocks/partner.d.ts')
const program = (own: typeof blocks) =>
  partnerProgram([partner, ...own.map((block) => block.name)], new Map([[partner, PARTNER], ...own.map((block) => [block.name, block.source] as const)]))
const compiled = program(blocks.filter((block) => !declaresRegister(block) && !exampleFile(block)))
const checker = compiled.getTypeChecker()

describe('the reference', () => {
  it.each(Object.entries(ENTRIES))('documents every export of %s, types included', (_entry, file) => {
    const module = checker.getSymbolAtLocation(compiled.getSourceFile(join(root, file))!)!
    const names = checker.getExportsOfModule(module).map((symbol) => symbol.name)
    expect(names.length).toBeGreaterThan(0)
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(code))).toEqual([])
  })

  it.each(blocks.filter((block) => !exampleFile(block)).map((block) => [`${block.page} block ${block.name.split('-').pop()}`, block] as const))('compiles %s', (_name, block) => {
    expect(problemsIn(declaresRegister(block) ? program([block]) : compiled, block.name)).toBe('')
  }, 60_000)

  it.each(blocks.filter(exampleFile).map((block) => [exampleFile(block)!.slice(root.length + 1), block] as const))('shows %s as it is', (file, block) => {
    expect(block.source).toBe(`${readFileSync(join(root, file), 'utf8')}\nexport {}\n`)
  })

  it('lists every proxy code and every error kind in the errors page', () => {
    const errors = text['docs/errors.md']!
    expect(Object.values(PROXY_ERROR_CODES).filter((value) => !errors.includes(`\`${value}\``))).toEqual([])
    const kind = checker.getExportsOfModule(checker.getSymbolAtLocation(compiled.getSourceFile(join(root, ENTRIES['@cabinet/tools-react/client']))!)!).find((symbol) => symbol.name === 'ToolsErrorKind')!
    const kinds = (checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(kind)) as ts.UnionType).types.map((type) => (type as ts.StringLiteralType).value)
    expect(kinds.length).toBeGreaterThan(10)
    expect(kinds.filter((value) => !errors.includes(`| \`${value}\` |`))).toEqual([])
  })

  it('links only to pages and headings that exist', () => {
    const slug = (heading: string) => heading.toLowerCase().replace(/[`’']/g, '').replace(/[^\w\s-]/g, '').trim().replace(/\s+/g, '-')
    const anchors = (page: string) => [...text[page]!.matchAll(/^#+ (.+)$/gm)].map((match) => slug(match[1]!))
    const broken: string[] = []
    for (const page of pages) {
      for (const [, target] of text[page]!.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https?:/.test(target!)) continue
        const [path, anchor] = target!.split('#') as [string, string | undefined]
        const file = path ? join(dirname(join(root, page)), path) : join(root, page)
        const relative = file.slice(root.length + 1)
        if (!existsSync(file)) broken.push(`${page}: ${target}`)
        else if (anchor && !(text[relative] ? anchors(relative).includes(anchor) : false)) broken.push(`${page}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('keeps the README a landing page: the two commands, the install line with every peer, three quick starts', () => {
    expect(readme).toContain('npm ci && npm start')
    expect(readme).toContain('npm ci && npm test')
    const { peerDependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }
    expect(readme).toMatch(/npm install @cabinet\/tools-react /)
    for (const peer of Object.keys(peerDependencies)) expect(readme).toContain(peer)
    expect(readme.match(/^## Quick start: /gm)).toHaveLength(3)
    expect(readme.split('\n').length).toBeLessThan(200)
  })

  it('lists every theming variable the stylesheet defines', () => {
    const theme = readFileSync(join(root, 'src/components/styles/theme.css'), 'utf8')
    const variables = new Set([...theme.matchAll(/(--ct-[\w-]+)\s*:/g)].map((match) => match[1]!))
    expect(variables.size).toBeGreaterThan(20)
    expect([...variables].filter((name) => !text['docs/components.md']!.includes(`\`${name}\``))).toEqual([])
  })

  it('shows something in the PdfButton example while it is submitting', () => {
    const example = readme.slice(readme.indexOf('function PdfButton'), readme.indexOf('```', readme.indexOf('function PdfButton')))
    expect(example).toMatch(/submitting|isBusy\(/)
    expect(example).toContain('Sending…')
  })
})
