// @vitest-environment node
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/** Every package a module reaches through its relative imports. */
function packagesReachedFrom(entry: string): Set<string> {
  const packages = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    // Static imports and the chunks loaded later (`import('./x.js')`): both reach a package.
    const specifiers = [...source.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)]
    for (const specifier of specifiers.map((match) => match[1] ?? match[2])) {
      if (specifier!.startsWith('.')) {
        const target = resolve(dirname(file), specifier!).replace(/\.js$/, '')
        const path = [`${target}.ts`, `${target}.tsx`].find((candidate) => {
          try {
            return readFileSync(candidate) !== undefined
          } catch {
            return false
          }
        })
        expect(path, `${specifier} from ${file}`).toBeDefined()
        visit(path!)
      } else if (!specifier!.startsWith('node:')) packages.add(specifier!) // Node's own modules are no package
    }
  }
  visit(resolve(__dirname, '..', entry))
  return packages
}

describe('entry points', () => {
  it('./client reaches no React, only zod and the event stream parser', () => {
    expect([...packagesReachedFrom('src/entries/client.ts')].sort()).toEqual(['eventsource-parser', 'zod/mini'])
  })

  it('./server reaches no React, only zod and the event stream parser', () => {
    expect([...packagesReachedFrom('src/entries/server.ts')].sort()).toEqual(['eventsource-parser', 'zod/mini'])
  })

  it('./server/cloudflare reaches no package: no React, no cloudflare: module (it imports in Node too)', () => {
    expect([...packagesReachedFrom('src/entries/server/cloudflare.ts')]).toEqual([])
  })

  it('every entry imports in Node with no DOM', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    const entries = await Promise.all([
      import('../src/entries/index.js'),
      import('../src/entries/client.js'),
      import('../src/entries/mock.js'),
      import('../src/entries/server.js'),
      import('../src/entries/locales/ru.js'),
      import('../src/entries/server/cloudflare.js'),
    ])
    expect(entries.map((entry) => typeof Object.values(entry)[0])).not.toContain('undefined')
    // A forwardRef component (so it takes a ref on React 18.3 too): an object with its render function.
    expect(typeof (entries[0].ToolRunner as unknown as { render: unknown }).render).toBe('function')
    expect(typeof entries[1].createToolsClient).toBe('function')
    expect(typeof entries[2].createMockService).toBe('function')
    expect(typeof entries[3].createToolsProxy).toBe('function')
    expect(entries[4].ru.runner.submit).toBeTruthy()
    expect(typeof entries[5].durableObjectStore).toBe('function')
    expect(typeof entries[5].ToolsProxyState).toBe('function')
  })

  it('the main entry carries no locale but English: each other locale is an entry of its own', async () => {
    const main = await import('../src/entries/index.js')
    expect(main).not.toHaveProperty('ru')
    expect(main.en.runner.submit).toBeTruthy()
  })
})
