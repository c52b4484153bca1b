// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { ALL_SCOPES, MOCK_ACCOUNTS, MOCK_KEYS } from '../src/mock/index.js'
import { inputFields, isBusy, isTerminal, isToolsError, TOOLS, type ToolId } from '../src/tools/index.js'
import { mediaType } from '../src/tools/internal.js'

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

describe('derived from the catalogue', () => {
  it('reads each tool\'s form fields off its input schema', () => {
    expect(inputFields('valuation/rent')).toEqual([
      { name: 'propertyCategory', type: 'text', required: true },
      { name: 'totalArea', type: 'number', required: true },
      { name: 'city', type: 'text', required: true },
    ])
    expect(inputFields('photo/enhance')).toEqual([
      { name: 'file', type: 'file', required: true },
      { name: 'mode', type: 'text', required: false },
    ])
    expect(inputFields('valuation/express')).toEqual([])
  })

  it('the simulated accounts use the twelve scopes of spec part 5', () => {
    expect([...ALL_SCOPES].sort()).toEqual(TOOLS.flatMap((tool) => tool.scope ?? []).sort())
    expect(ALL_SCOPES).toHaveLength(12)
    const demo = MOCK_ACCOUNTS.find((account) => MOCK_KEYS.demo in account.keys)!
    expect(demo.keys[MOCK_KEYS.demo]).toEqual(ALL_SCOPES)
    expect(demo.keys[MOCK_KEYS.limited]).toEqual(['tools:rent'])
  })
})

describe('one rule each', () => {
  it('phases: busy while submitting, pending or running; terminal once succeeded or failed', () => {
    const phases = ['idle', 'submitting', 'pending', 'running', 'succeeded', 'failed', undefined] as const
    expect(phases.filter((phase) => isBusy(phase))).toEqual(['submitting', 'pending', 'running'])
    expect(phases.filter((phase) => isTerminal(phase))).toEqual(['succeeded', 'failed'])
  })

  it('media types: without parameters, lower case', () => {
    expect(mediaType('Text/HTML; charset=utf-8')).toBe('text/html')
    expect(mediaType('multipart/form-data; boundary=x')).toBe('multipart/form-data')
    expect(mediaType('')).toBe('')
    expect(mediaType(null)).toBe('')
  })
})

describe('inputFields', () => {
  it('takes a catalogue row as well as an id', () => {
    for (const tool of TOOLS) expect(inputFields(tool)).toEqual(inputFields(tool.id))
    expect(inputFields(TOOLS[0])).toEqual([])
  })

  it('refuses an unknown tool with a typed validation error', () => {
    for (const unknown of ['valuation/rnet', undefined, { id: 'nope' }] as unknown as ToolId[]) {
      const error = (() => {
        try {
          inputFields(unknown)
        } catch (caught) {
          return caught
        }
      })()
      expect(isToolsError(error) && error.kind === 'validation' && error.issues[0]?.code).toBe('unknown-tool')
    }
  })
})
