// Every file made from the catalogue, and writing them: scripts/derive.mjs runs this before a
// build, a test run and Storybook, so a new row needs no hand step.
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { TOOLS, type Tool } from '../../src/tools/index.js'
import { toolHooksModule } from './toolHooks.js'
import { toolStoriesModule } from './toolStories.js'
import { simulatedAnswers, toolsPage } from './toolsPage.js'

export const root = resolve(import.meta.dirname, '../..')

/** Each derived file (relative to the repository) and its text, for `tools`. */
export async function derivedFiles(tools: readonly Tool[] = TOOLS): Promise<Record<string, string>> {
  return {
    'src/react/toolHooks.ts': toolHooksModule(tools),
    'stories/tools.stories.tsx': toolStoriesModule(tools),
    'docs/tools.md': toolsPage(tools, await simulatedAnswers(tools)),
  }
}

/** Writes the files that changed; returns their paths. */
export async function writeDerived(): Promise<string[]> {
  const written: string[] = []
  for (const [path, text] of Object.entries(await derivedFiles())) {
    const file = join(root, path)
    let current: string | undefined
    try {
      current = readFileSync(file, 'utf8')
    } catch {
      current = undefined
    }
    if (current === text) continue
    writeFileSync(file, text)
    written.push(path)
  }
  return written
}
