// The pages a partner reads (the README and docs/) and their TypeScript blocks.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './program.js'

export const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]
export const text: Record<string, string> = Object.fromEntries(pages.map((page) => [page, readFileSync(join(root, page), 'utf8')]))

/** One ```ts or ```tsx block: `id` names it by page and place (`docs-client-md-1`). */
export interface DocBlock {
  id: string
  page: string
  lang: 'ts' | 'tsx'
  code: string
}

export const blocks: DocBlock[] = pages.flatMap((page) =>
  [...text[page]!.matchAll(/```(ts|tsx)\n([\s\S]*?)```/g)].map((match, index) => ({
    id: `${page.replace(/\W/g, '-')}-${index + 1}`,
    page,
    lang: match[1] as 'ts' | 'tsx',
    code: match[2]!,
  })),
)
