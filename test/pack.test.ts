// @vitest-environment node
// What `npm pack` ships from a fresh clone (no dist/): the build runs first, so the tarball holds it.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(__dirname, '..')
const clone = mkdtempSync(join(tmpdir(), 'tools-react-pack-'))
afterAll(() => rmSync(clone, { recursive: true, force: true }))

describe('npm pack on a fresh clone', () => {
  it('builds first and ships every entry, its types and the stylesheet', () => {
    const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\n')
    for (const file of tracked.filter((name) => name && !name.startsWith('examples/'))) {
      try {
        cpSync(join(root, file), join(clone, file), { recursive: true })
      } catch {
        // a file deleted in the work tree but still tracked
      }
    }
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'))
    const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: clone, encoding: 'utf8' })
    const files = (JSON.parse(output.slice(output.indexOf('[\n'))) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path)
    const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types: string; default: string }> }
    const shipped = Object.values(exports).flatMap((target) => (typeof target === 'string' ? [target] : [target.types, target.default]))
    expect(shipped.map((file) => file.replace(/^\.\//, '')).filter((file) => !files.includes(file))).toEqual([])
    expect(dirname(files.find((file) => file.endsWith('entries/server.js'))!)).toBe('dist/entries')
  }, 120_000)
})
