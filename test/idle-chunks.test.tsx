import { render } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider } from '../src/react/index.js'
import { setupMockService } from './support/service.js'

const { service } = setupMockService()

// What a first Run needs beyond the first load (the input checks, the code that sends) comes in
// chunks of their own: here each records when it is fetched.
const fetched: string[] = []
vi.mock('../src/tools/schemas.js', async (importActual) => (fetched.push('checks'), importActual()))
vi.mock('../src/client/send.js', async (importActual) => (fetched.push('sender'), importActual()))

afterEach(() => void vi.useRealTimers())

describe('the provider fetches what a first Run needs once the page is idle', () => {
  it('fetches the input checks and the sender after mounting, not before, and sends nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    render(
      <ToolsProvider apiKey={MOCK_KEYS.demo} baseUrl={MOCK_BASE_URL}>
        <p>A partner's page</p>
      </ToolsProvider>,
    )
    // Mounted, the page not yet idle: nothing fetched.
    expect(fetched).toEqual([])
    // jsdom has no requestIdleCallback: the page counts as idle a moment after mounting.
    await vi.advanceTimersByTimeAsync(250)
    await vi.waitFor(() => expect([...fetched].sort()).toEqual(['checks', 'sender']))
    expect(service.log).toHaveLength(0)
  })
})
