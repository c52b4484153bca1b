// @vitest-environment node
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
/** Everything the README writes as code: spans and fenced blocks (odd pieces between backticks). */
const code = readme
  .split('`')
  .filter((_, index) => index % 2 === 1)
  .join('\n')
const documented = (name: string) => new RegExp(`\\b${name}\\b`).test(code)

describe('the README', () => {
  it.each([
    ['@cabinet/tools-react', () => import('../src/entries/index.js')],
    ['@cabinet/tools-react/client', () => import('../src/entries/client.js')],
    ['@cabinet/tools-react/mock', () => import('../src/entries/mock.js')],
    ['@cabinet/tools-react/server', () => import('../src/entries/server.js')],
  ])('documents every value %s exports', async (_entry, load) => {
    const undocumented = Object.keys(await load()).filter((name) => !documented(name))
    expect(undocumented).toEqual([])
  })

  it('gives the quick start as two commands', () => {
    expect(readme).toContain('npm ci && npm start')
    expect(readme).toContain('npm ci && npm test')
  })
})
