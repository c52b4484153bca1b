// docs/tools.md, made from the catalogue and the simulated service: a row per tool in the table,
// and what the service answers each, as the kit hands it over (`data`).
import { createMockService, exampleInput, MOCK_KEYS } from '../../src/mock/index.js'
import { toolHookName } from '../../src/react/toolHookName.js'
import { createToolsClient, type Tool, type ToolId } from '../../src/tools/index.js'
import { TOOL_TEXTS } from '../../src/tools/internal.js'
import { checkedFields } from './toolHooks.js'

/** Ids vary from run to run: each is written with its prefix and an ellipsis. */
const steady = (json: string) => json.replace(/\b(req|job|art)_[0-9a-f]{16}\b/g, '$1_…')

/**
 * What the simulated service answers each tool for its example input: a synchronous tool's
 * `Result.data` (the response body), a deferred tool's finished `Job.data` (the job's whole
 * body, the output under `result`). Jobs end at once (`jobDurationMs: 0`), so nothing waits.
 */
export async function simulatedAnswers(tools: readonly Tool[]): Promise<Map<ToolId, unknown>> {
  const service = createMockService({ jobDurationMs: 0 })
  const client = createToolsClient({ baseUrl: service.baseUrl, apiKey: MOCK_KEYS.demo, fetch: service.fetch, retry: false })
  const answers = new Map<ToolId, unknown>()
  for (const tool of tools) {
    const input = exampleInput(tool.id) as never
    if (tool.mode === 'sync') {
      answers.set(tool.id, (await client.run(tool.id, input)).data)
    } else {
      const handle = await client.start(tool.id as never, input)
      answers.set(tool.id, (await client.job(tool.id, handle.jobId)).data)
    }
  }
  return answers
}

const cell = (tool: Tool) => {
  const fields = checkedFields(tool)
  return [
    `[\`${tool.id}\`](#${tool.id.replace(/\W/g, '')})`,
    `\`${toolHookName(tool.id)}\``,
    TOOL_TEXTS[tool.id].title,
    tool.mode === 'sync' ? 'at once: `Result`' : 'a job: `Job`',
    tool.body === 'multipart' ? `a file (\`${'fileField' in tool ? tool.fileField : 'file'}\`)` : 'JSON',
    tool.scope ? `\`${tool.scope}\`` : 'any key',
    fields.length ? fields.join(', ') : 'none (any field passes)',
  ]
}

export function toolsPage(tools: readonly Tool[], answers: Map<ToolId, unknown>): string {
  const table = tools.map((tool) => `| ${cell(tool).join(' | ')} |`)
  const sections = tools.map((tool) => {
    const answer = steady(JSON.stringify(answers.get(tool.id), null, 2))
    return `### ${tool.id}\n\n${TOOL_TEXTS[tool.id].title}: ${TOOL_TEXTS[tool.id].description} \`POST ${tool.path}\`, ${tool.mode === 'sync' ? 'answering at once' : 'creating a job'}.\n\n\`\`\`json\n${answer}\n\`\`\`\n`
  })
  return `# The tools

[README](../README.md) · [client](client.md) · [hooks](hooks.md) · [components](components.md) · [server](server.md) · [nextjs](nextjs.md) · [errors](errors.md) · [mock](mock.md) · [tools](tools.md)

<!-- Made from the catalogue (src/tools/catalogue.ts) and the simulated service by scripts/derive.mjs, which build, test and start run: edit the catalogue, not this page. -->

Every tool of the catalogue (\`TOOLS\`), its hook and how it is called. A tool's title and
description are what \`<ToolRunner>\` shows (\`Messages['tools']\`, English by default).

| tool | hook | title | answers | takes | scope | checked fields |
|---|---|---|---|---|---|---|
${table.join('\n')}

## What each tool answers

The spec shows no result bodies; these are the simulated service's (\`@cabinet/tools-react/mock\`),
for each tool's \`exampleInput\`, as the kit hands them over in \`data\`:

- a tool that answers at once: the response body, as \`Result.data\` (\`result.data\` of its hook);
- a tool that creates a job: the finished job's **whole body**, as \`Job.data\`, its output under
  \`result\` (\`result.data.result\` of its hook). A type declared in \`Register['results']\` describes
  this whole \`data\`, not only its \`result\` (see [typing results](hooks.md#typing-results-and-inputs)).

Links point at the service's \`/artifacts/\`; ids (\`req_…\`, \`job_…\`, \`art_…\`) differ on every call.

${sections.join('\n')}`
}
