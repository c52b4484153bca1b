// @vitest-environment node
// src/react/toolHooks.ts is made from the catalogue (scripts/derive.mjs, run by build, test and
// start): one hook per row, its JSDoc said from the row's facts (what it is sent as, the scope,
// the fields, an example), so a hover in the editor describes each tool.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { toolHooksModule } from '../scripts/derived/toolHooks.js'
import { toolHookName } from '../src/react/toolHookName.js'
import { TOOLS } from '../src/tools/index.js'
import { ENTRIES, partnerProgram, root } from './support/program.js'

const file = join(root, 'src/react/toolHooks.ts')

describe('the tool hooks', () => {
  it('are what the catalogue makes (`node scripts/derive.mjs` rewrites them)', () => {
    expect(readFileSync(file, 'utf8')).toBe(toolHooksModule(TOOLS))
  })

  it('each shows its tool in the editor, with an example', () => {
    const program = partnerProgram([])
    const checker = program.getTypeChecker()
    const entry = checker.getSymbolAtLocation(program.getSourceFile(join(root, ENTRIES['@cabinet/tools-react']))!)!
    const exports = new Map(checker.getExportsOfModule(entry).map((symbol) => [symbol.name, symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol]))
    for (const tool of TOOLS) {
      const symbol = exports.get(toolHookName(tool.id))!
      expect(ts.displayPartsToString(symbol.getDocumentationComment(checker))).toContain(`\`${tool.id}\` tool`)
      expect(symbol.getJsDocTags(checker).map((tag) => tag.name)).toContain('example')
    }
  }, 60_000)
})
