// @vitest-environment node
// A function reads in one sitting: none in src/ (every layer, the proxy and the simulated service)
// is over 80 lines (a factory counts the functions it holds). A module has one concern; its length
// follows from that, and is not measured.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { root } from './support/program.js'

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : []
  })

/** Each folder of src/, as its own test. */
const folders = readdirSync(join(root, 'src')).filter((name) => statSync(join(root, 'src', name)).isDirectory())

/** Every function over `limit` lines in `file`: `path:line name (lines)`. */
function longFunctions(file: string, limit: number): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const long: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line
      const lines = source.getLineAndCharacterOfPosition(node.end).line - first + 1
      const name = node.name?.getText() ?? '(anonymous)'
      if (lines > limit) long.push(`${relative(root, file)}:${first + 1} ${name} (${lines})`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return long
}

describe('functions by concern', () => {
  it.each(folders)('none in src/%s is over 80 lines', (dir) => {
    expect(files(join(root, 'src', dir)).flatMap((file) => longFunctions(file, 80))).toEqual([])
  })
})
