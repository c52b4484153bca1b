// @vitest-environment node
// What is made from the catalogue is current: the tool hooks, the tool stories, and docs/tools.md,
// whose answers are the simulated service's own (made again here, on a service of this run).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { derivedFiles, root } from '../scripts/derived/index.js'
import { simulatedAnswers } from '../scripts/derived/toolsPage.js'
import { blocks } from './support/docs.js'
import { partnerProgram, problemsIn } from './support/program.js'
import { en } from '../src/react/index.js'
import { TOOLS } from '../src/tools/index.js'

const locales = import.meta.glob<Record<string, typeof en>>('../src/react/locales/*.ts', { eager: true })

describe('made from the catalogue', () => {
  it('each derived file is as the catalogue and the simulated service make it (`node scripts/derive.mjs` writes them)', async () => {
    const files = await derivedFiles()
    expect(Object.keys(files).sort()).toEqual(['docs/tools.md', 'src/react/toolHooks.ts', 'stories/tools.stories.tsx'])
    for (const [path, text] of Object.entries(files)) expect(readFileSync(join(root, path), 'utf8'), path).toBe(text)
  })

  it('every locale names every tool, in its own words or the catalogue’s', () => {
    const all = [en, ...Object.values(locales).flatMap((module) => Object.values(module))]
    expect(all.length).toBeGreaterThan(1)
    for (const messages of all) {
      for (const tool of TOOLS) {
        expect(messages.tools[tool.id]?.title, `${messages.locale} ${tool.id}`).toBeTruthy()
        expect(messages.tools[tool.id]?.description, `${messages.locale} ${tool.id}`).toBeTruthy()
      }
    }
  })

  it('the result types docs/hooks.md declares in `Register` describe what the simulated service answers', async () => {
    const [register] = blocks.filter((block) => block.page === 'docs/hooks.md' && /interface Register\b/.test(block.code))
    const declared = [...register!.code.matchAll(/^ {6}'([a-z]+\/[a-z]+)': \{/gm)].map((match) => match[1]!)
    expect(declared).toEqual(['valuation/rent', 'pdf/create'])
    const answers = await simulatedAnswers(TOOLS.filter((tool) => declared.includes(tool.id)))
    const declaration = join(root, '.docs-blocks/register.ts')
    const probe = join(root, '.docs-blocks/register-answers.ts')
    const checks = declared.map((tool, index) => `const answer${index} = ${JSON.stringify(answers.get(tool as never))}\nexport const typed${index}: ToolData<'${tool}'> = answer${index}`)
    const program = partnerProgram([declaration, probe], new Map([
      [declaration, `${register!.code}\nexport {}\n`],
      [probe, `import type { ToolData } from '@cabinet/tools-react'\n${checks.join('\n')}\n`],
    ]))
    expect(problemsIn(program, probe)).toBe('')
  }, 120_000)
})
