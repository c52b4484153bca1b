// @vitest-environment node
// The proxy's options follow the naming rule (docs/client.md#names): a duration ends in `Ms`, a
// byte cap in `Bytes`, and a word keeps one meaning. Read from the option types' own docs, so a
// new option is held to it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { root } from './support/program.js'

/** The public option types, by file. */
const OPTION_TYPES: Record<string, string[]> = {
  'src/server/options.ts': ['ToolsProxyOptions', 'ProxyLimits', 'ProxyRate', 'ProxyUser'],
  'src/server/webhooks/webhooks.ts': ['WebhookOptions', 'WebhookJob'],
}

/** Each option: its path (`webhooks.maxBytes` is `maxBytes` of WebhookOptions), its doc, its type's text. */
function options(): { name: string; doc: string; type: string }[] {
  return Object.entries(OPTION_TYPES).flatMap(([file, names]) => {
    const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true)
    return source.statements
      .filter((node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && names.includes(node.name.text))
      .flatMap((node) =>
        node.members.filter(ts.isPropertySignature).map((member) => ({
          name: `${node.name.text}.${member.name.getText(source)}`,
          doc: ts.getJSDocCommentsAndTags(member).map((doc) => doc.getText(source)).join(' '),
          type: member.type?.getText(source) ?? '',
        })),
      )
  })
}

describe('the proxy’s option names', () => {
  const all = options()

  it('finds the options it checks', () => {
    expect(all.map(({ name }) => name)).toEqual(expect.arrayContaining(['ToolsProxyOptions.timeoutMs', 'WebhookOptions.maxBytes', 'ProxyRate.perMs']))
  })

  it('names every duration in ms with `Ms`, every byte cap with `Bytes`', () => {
    const wrong = all.filter(({ name, doc }) => (/\bin ms\b/i.test(doc) && !name.endsWith('Ms')) || (/\bin bytes\b/i.test(doc) && !name.endsWith('Bytes')))
    expect(wrong.map(({ name }) => name)).toEqual([])
  })

  it('gives `Ms` and `Bytes` only to numbers', () => {
    const wrong = all.filter(({ name, type }) => /(Ms|Bytes)$/.test(name) && type !== 'number')
    expect(wrong.map(({ name }) => name)).toEqual([])
  })

  it('keeps one meaning per word: `event` is what onEvent is told, `key` the service key, and no `scope`', () => {
    const words = all.map(({ name }) => name.split('.')[1]!)
    expect(words.filter((word) => /event/i.test(word))).toEqual(['onEvent'])
    expect(words.filter((word) => /key/i.test(word))).toEqual(['apiKey'])
    expect(words.filter((word) => /scope/i.test(word))).toEqual([])
  })
})
