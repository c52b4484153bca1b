import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// The layers are a lint rule, not a convention: an import past the layer below is an error.
const eslint = new ESLint()

async function problems(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath })
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)
}

describe('layering', () => {
  // The first lint loads the config and the TypeScript parser: seconds on a busy machine.
  beforeAll(() => eslint.lintText('export {}\n', { filePath: 'src/client/x.ts' }), 60_000)

  it.each([
    ['src/mock/x.ts', "import type { ToolDefinition } from '../client/index.js'"],
    ['src/components/x.tsx', "import { createToolsClient } from '../tools/index.js'"],
    ['src/components/x.tsx', "import { queryKey } from '../react/keys.js'"],
    ['src/react/x.ts', "import { send } from '../client/client.js'"],
    ['src/tools/x.ts', "import { useState } from 'react'"],
    ['src/client/x.ts', "import { TOOLS } from '../tools/index.js'"],
    ['src/server/x.ts', "import { useTool } from '../react/index.js'"],
    // Sub-folders climb one `../` more to leave their layer, and are checked as strictly.
    ['src/mock/artifacts/x.ts', "import { createClient } from '../../client/index.js'"],
    ['src/react/locales/x.ts', "import { send } from '../../client/client.js'"],
    ['src/components/styles/deep/x.tsx', "import { queryKey } from '../../../react/keys.js'"],
    // A route imports no other route, and its folder keeps the server's layer.
    ['src/server/routes/x.ts', "import { readFailure } from './jobRoute.js'"],
    ['src/server/routes/x.ts', "import { useTool } from '../../react/index.js'"],
  ])('refuses in %s: %s', { timeout: 20_000 }, async (file, source) => {
    expect(await problems(file, `${source}\nexport {}\n`)).not.toEqual([])
  })

  it.each([
    ['src/mock/x.ts', "import type { ToolDefinition } from '../tools/index.js'"],
    ['src/components/x.tsx', "import { useTool } from '../react/index.js'"],
    ['src/react/x.ts', "import { TOOLS } from '../tools/index.js'"],
    ['src/tools/x.ts', "import { ToolsError } from '../client/index.js'"],
    ['src/server/x.ts', "import { TOOLS } from '../tools/index.js'"],
    ['src/mock/artifacts/x.ts', "import { TOOLS } from '../../tools/index.js'"],
    ['src/mock/artifacts/x.ts', "import type { MockServiceOptions } from '../types.js'"],
    ['src/react/locales/x.ts', "import type { Messages } from '../messages.js'"],
    ['src/server/routes/x.ts', "import { readFailure } from '../jobAnswers.js'"],
    ['src/server/routes/x.ts', "import { TOOLS } from '../../tools/index.js'"],
  ])('allows in %s: %s', { timeout: 20_000 }, async (file, source) => {
    expect(await problems(file, `${source}\nexport {}\n`)).toEqual([])
  })
})
