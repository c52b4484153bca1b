import '@testing-library/jest-dom/vitest'
import { act, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FileDrop } from '../src/components/FileDrop.js'
import { lazyPart } from '../src/components/lazyPart.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider } from '../src/react/index.js'

/** A chunk whose arrival the test decides. */
function chunk() {
  let settle!: { resolve: () => void; reject: (error: Error) => void }
  const fetches: Promise<() => string>[] = []
  const fetchChunk = () => {
    const fetched = new Promise<() => string>((resolve, reject) => {
      settle = { resolve: () => resolve(() => 'the part itself'), reject }
    })
    fetches.push(fetched)
    return fetched
  }
  return { fetchChunk, fetches, settle: () => settle }
}

const Stand = ({ failed }: { failed: boolean }) => (failed ? 'waiting for the connection' : 'coming')

describe('a part in a chunk of its own', () => {
  it('shows its stand-in until the chunk comes, then itself, and at once on a later mount', async () => {
    const { fetchChunk, fetches, settle } = chunk()
    const { Part } = lazyPart(fetchChunk, Stand)
    const first = render(<Part />)
    expect(first.container).toHaveTextContent('coming')
    await act(async () => settle().resolve())
    expect(first.container).toHaveTextContent('the part itself')
    first.unmount()
    expect(render(<Part />).container).toHaveTextContent('the part itself')
    expect(fetches).toHaveLength(1)
  })

  it('says it waits for the connection when the fetch fails offline, and fetches again once it is back', async () => {
    const { fetchChunk, fetches, settle } = chunk()
    const { Part } = lazyPart(fetchChunk, Stand)
    const { container } = render(<Part />)
    await act(async () => settle().reject(new TypeError('Failed to fetch dynamically imported module')))
    expect(container).toHaveTextContent('waiting for the connection')
    expect(fetches).toHaveLength(1)
    act(() => void window.dispatchEvent(new Event('online')))
    expect(container).toHaveTextContent('coming')
    expect(fetches).toHaveLength(2)
    await act(async () => settle().resolve())
    expect(container).toHaveTextContent('the part itself')
  })
})

describe('<FileDrop> before its code has come', () => {
  it('shows its prompt, locked, then the drop itself', async () => {
    const { container } = render(
      <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo}>
        <FileDrop tool="photo/enhance" file={null} onFileChange={() => {}} />
      </ToolsProvider>,
    )
    const drop = container.querySelector('.ct-file-drop')!
    expect(drop).toHaveAttribute('data-state', 'loading')
    expect(screen.getByRole('button')).toBeDisabled()
    await waitFor(() => expect(container.querySelector('.ct-file-drop')).toHaveAttribute('data-state', 'idle'))
    expect(screen.getByRole('button', { name: /Drag a file here/ })).toBeEnabled()
  })
})
