// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { TOOLS } from '../src/tools/index.js'

describe('tool catalogue', () => {
  it('has the thirteen tools of the spec', () => {
    expect(TOOLS).toHaveLength(13)
  })

  it('names each tool by its path without the leading slash, once', () => {
    const ids = TOOLS.map((tool) => tool.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const tool of TOOLS) expect(tool.id).toBe(tool.path.replace(/^\//, ''))
  })
})
