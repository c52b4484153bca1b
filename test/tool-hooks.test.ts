// @vitest-environment node
// src/react/toolHooks.ts is made from the catalogue: one hook per row, its JSDoc said from the
// row's facts (what it is sent as, the scope, the fields, an example), so a hover in the editor
// describes each tool without thirteen hand-written comments. `WRITE_TOOL_HOOKS=1` rewrites it.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { exampleInput } from '../src/mock/index.js'
import { toolHookName } from '../src/react/toolHooks.js'
import { inputFields, TOOLS, type Tool } from '../src/tools/index.js'
import { ENTRIES, partnerProgram, root } from './support/program.js'

const file = join(root, 'src/react/toolHooks.ts')

const code = (text: string) => `\`${text}\``

function describeTool(tool: Tool): string[] {
  const fields = inputFields(tool).filter((field) => field.name !== 'objectId' && field.name !== 'collectionId')
  const body = 'fileField' in tool ? `multipart: the file in the part ${code(tool.fileField)}, options as JSON in \`data\`` : 'JSON'
  const flow =
    tool.mode === 'sync'
      ? 'Answers at once: `result` is the `Result`.'
      : 'Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.'
  const named = [
    ...('listing' in tool && tool.listing ? ['`objectId` or `collectionId` (a listing of the caller’s)'] : []),
    ...fields.map((field) => `${code(field.name)}${field.type === 'file' ? ' (a `Blob`)' : ''}${field.required ? '' : ' (optional)'}`),
  ]
  const input = exampleInput(tool.id) as Record<string, unknown>
  const example = Object.entries(input).map(([name, value]) => (value instanceof Blob ? name : `${name}: ${JSON.stringify(value).replace(/"/g, "'")}`))
  const hook = toolHookName(tool.id)
  const [group, name] = tool.id.split('/') as [string, string]
  const variable = group === 'valuation' ? name : group
  return [
    `The ${code(tool.id)} tool (${code(`POST ${tool.path}`)}), sent as ${body}; ${tool.scope ? `needs the key's scope ${code(tool.scope)}` : 'any key may call it'}.`,
    flow,
    named.length ? `Checked fields: ${named.join(', ')}; any other field passes through, unless \`Register\` declares this tool’s inputs.` : 'The spec names no fields: any JSON object passes through, unless `Register` declares this tool’s inputs.',
    '',
    '@example',
    `const ${variable} = ${hook}()`,
    `${variable}.run({ ${example.join(', ')} })`,
  ]
}

function generated(): string {
  const hooks = TOOLS.map((tool) => {
    const doc = describeTool(tool).map((line) => (line ? ` * ${line}` : ' *')).join('\n')
    return `/**\n${doc}\n */\nexport function ${toolHookName(tool.id)}(options?: UseToolOptions) {\n  return useTool('${tool.id}', options)\n}\n`
  })
  const current = readFileSync(file, 'utf8')
  const start = current.indexOf('// One hook per catalogue row')
  const end = current.indexOf('/** The thirteen hooks by name')
  const intro = '// One hook per catalogue row, named after its id, its comment made from the row by\n// test/tool-hooks.test.ts. Declared one by one, so a bundle keeps only the hooks an app imports.\n'
  return `${current.slice(0, start)}${intro}${hooks.join('\n')}\n${current.slice(end)}`
}

describe('the tool hooks', () => {
  it('are what the catalogue makes (WRITE_TOOL_HOOKS=1 rewrites them)', () => {
    const made = generated()
    if (process.env.WRITE_TOOL_HOOKS) writeFileSync(file, made)
    expect(readFileSync(file, 'utf8')).toBe(made)
  })

  it('each shows its tool in the editor, with an example', () => {
    const program = partnerProgram([])
    const checker = program.getTypeChecker()
    const entry = checker.getSymbolAtLocation(program.getSourceFile(join(root, ENTRIES['@cabinet/tools-react']))!)!
    const exports = new Map(checker.getExportsOfModule(entry).map((symbol) => [symbol.name, checker.getAliasedSymbol(symbol)]))
    for (const tool of TOOLS) {
      const symbol = exports.get(toolHookName(tool.id))!
      expect(ts.displayPartsToString(symbol.getDocumentationComment(checker))).toContain(`\`${tool.id}\` tool`)
      expect(symbol.getJsDocTags(checker).map((tag) => tag.name)).toContain('example')
    }
  }, 60_000)
})
