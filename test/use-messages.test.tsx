import { renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { en, useMessages, type PartialMessages } from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider } from '../src/react/index.js'

function withProvider(messages?: PartialMessages) {
  return ({ children }: { children?: ReactNode }) => (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} journal={false} messages={messages}>
      {children}
    </ToolsProvider>
  )
}

describe('useMessages()', () => {
  it('gives every string, the recent runs’ and the usage meter’s too, with the provider’s overrides over them', () => {
    const overrides = { runs: { title: 'Latest runs' }, usage: { label: 'Runs' }, errors: { retry: 'Again' } }
    const { result } = renderHook(() => useMessages(), { wrapper: withProvider(overrides) })
    expect(result.current.runs.title).toBe('Latest runs')
    expect(result.current.runs.empty).toBe(en.runs.empty)
    expect(result.current.usage.label).toBe('Runs')
    expect(result.current.usage.left('3', '10')).toBe('3 of 10 runs left')
    expect(result.current.errors.retry).toBe('Again')
    expect(result.current.errors.dismiss).toBe('Dismiss')
  })

  it('with no overrides, is the English defaults, every group of them', () => {
    const { result } = renderHook(() => useMessages(), { wrapper: withProvider() })
    expect(result.current).toEqual(en)
    expect(Object.keys(result.current).sort()).toEqual(
      ['artifact', 'disabled', 'errors', 'fields', 'job', 'locale', 'phase', 'proxy', 'resultFields', 'runner', 'runs', 'tools', 'upload', 'usage', 'validation', 'waiting'],
    )
  })
})
