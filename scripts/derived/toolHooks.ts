// src/react/toolHooks.ts, made from the catalogue: one hook per row, its comment said from the
// row's facts (how it is sent, the scope, the fields, an example), so a hover in the editor
// describes each tool without a hand-written comment.
import { exampleInput } from '../../src/mock/index.js'
import { toolHookName } from '../../src/react/toolHookName.js'
import { inputFields, type Tool } from '../../src/tools/index.js'

const code = (text: string) => `\`${text}\``

export function checkedFields(tool: Tool): string[] {
  const fields = inputFields(tool).filter((field) => field.name !== 'objectId' && field.name !== 'collectionId')
  return [
    ...('listing' in tool && tool.listing ? ['`objectId` or `collectionId` (a listing of the caller’s)'] : []),
    ...fields.map((field) => `${code(field.name)}${field.type === 'file' ? ' (a `Blob`)' : ''}${field.required ? '' : ' (optional)'}`),
  ]
}

/** The hook's comment, line by line. */
function describeTool(tool: Tool): string[] {
  const body = 'fileField' in tool ? `multipart: the file in the part ${code(tool.fileField)}, options as JSON in \`data\`` : 'JSON'
  const flow =
    tool.mode === 'sync'
      ? 'Answers at once: `result` is the `Result`.'
      : 'Creates a job and follows it to its end: `job` while it runs, `result` the finished `Job`; journaled and resumed after a reload.'
  const named = checkedFields(tool)
  const input = exampleInput(tool.id) as Record<string, unknown>
  const example = Object.entries(input).map(([name, value]) => (value instanceof Blob ? name : `${name}: ${JSON.stringify(value).replace(/"/g, "'")}`))
  const [group, name] = tool.id.split('/') as [string, string]
  const variable = group === 'valuation' ? name : group
  return [
    `The ${code(tool.id)} tool (${code(`POST ${tool.path}`)}), sent as ${body}; ${tool.scope ? `needs the key's scope ${code(tool.scope)}` : 'any key may call it'}.`,
    flow,
    named.length ? `Checked fields: ${named.join(', ')}; any other field passes through, unless \`Register\` declares this tool’s inputs.` : 'The spec names no fields: any JSON object passes through, unless `Register` declares this tool’s inputs.',
    '',
    '@example',
    `const ${variable} = ${toolHookName(tool.id)}()`,
    `${variable}.run({ ${example.join(', ')} })`,
  ]
}

/** The whole module: one hook per row, declared one by one so a bundle keeps only those an app imports. */
export function toolHooksModule(tools: readonly Tool[]): string {
  const hooks = tools.map((tool) => {
    const doc = describeTool(tool).map((line) => (line ? ` * ${line}` : ' *')).join('\n')
    return `/**\n${doc}\n */\nexport function ${toolHookName(tool.id)}(options?: UseToolOptions) {\n  return useTool('${tool.id}', options)\n}\n`
  })
  return [
    '// Made from the catalogue (src/tools/catalogue.ts) by scripts/derive.mjs, which build, test and',
    '// start run: edit the catalogue, not this file. One hook per row, named after its id (`toolHookName`).',
    "import { useTool, type UseToolOptions } from './useTool.js'",
    '',
    hooks.join('\n'),
  ].join('\n')
}
