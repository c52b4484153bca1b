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
    ['@cabinet/tools-react/locales/ru', () => import('../src/entries/locales/ru.js')],
  ])('documents every value %s exports', async (_entry, load) => {
    const undocumented = Object.keys(await load()).filter((name) => !documented(name))
    expect(undocumented).toEqual([])
  })

  it('gives the quick start as two commands', () => {
    expect(readme).toContain('npm ci && npm start')
    expect(readme).toContain('npm ci && npm test')
  })

  /** The text of the section under `heading` (a `##` heading), up to the next one. */
  const section = (heading: string) => {
    const start = readme.indexOf(`\n## ${heading}\n`)
    expect(start, `no "## ${heading}" section`).toBeGreaterThanOrEqual(0)
    const end = readme.indexOf('\n## ', start + 1)
    return readme.slice(start, end === -1 ? undefined : end)
  }

  it('tells a partner how to install, with every peer', async () => {
    const install = section('Install')
    const { peerDependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>
    }
    expect(install).toMatch(/npm install @cabinet\/tools-react /)
    for (const peer of Object.keys(peerDependencies)) expect(install).toContain(peer)
  })

  it('has a partner quick start apart from the repository’s own commands', () => {
    const quickStart = section('Partner quick start')
    expect(quickStart).toContain('<ToolsProvider')
    expect(quickStart).toContain("'@cabinet/tools-react'")
    expect(quickStart).not.toContain('npm ci')
    // How a job is kept across reloads, and what is shown while waiting.
    expect(quickStart).toMatch(/runs are journaled and resumed; see Durable runs/)
    expect(quickStart).toMatch(/see Rate limits and waiting/)
  })

  it('lists every theming variable the stylesheet defines', () => {
    const theme = readFileSync(new URL('../src/components/styles/theme.css', import.meta.url), 'utf8')
    const variables = new Set([...theme.matchAll(/(--ct-[\w-]+)\s*:/g)].map((match) => match[1]!))
    expect(variables.size).toBeGreaterThan(20)
    const theming = section('Theming and strings')
    expect([...variables].filter((name) => !theming.includes(`\`${name}\``))).toEqual([])
  })

  it('shows something in the PdfButton example while it is submitting', () => {
    const example = readme.slice(readme.indexOf('function PdfButton'), readme.indexOf('```', readme.indexOf('function PdfButton')))
    expect(example).toMatch(/submitting|isBusy\(/)
    expect(example).toContain('Sending…')
  })
})
