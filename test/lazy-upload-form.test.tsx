import '@testing-library/jest-dom/vitest'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { ToolRunner, UploadForm } from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider } from '../src/react/index.js'
import { pngFile, setupMockService } from './support/service.js'

// The upload form's code, a chunk of its own, as the network serves it: offline until told otherwise.
const network = vi.hoisted(() => ({ online: false, fetches: 0 }))
vi.mock('../src/components/UploadFormView.js', async (importOriginal) => {
  const chunk = await importOriginal<typeof import('../src/components/UploadFormView.js')>()
  return {
    ...chunk,
    get UploadFormView() {
      network.fetches++
      if (!network.online) throw new TypeError('Failed to fetch dynamically imported module')
      return chunk.UploadFormView
    },
  }
})

// The upload's own code (progress by XMLHttpRequest), counted as it is fetched.
const uploads = vi.hoisted(() => ({ fetches: 0 }))
vi.mock('../src/client/xhr.js', async (importOriginal) => {
  uploads.fetches++
  return importOriginal()
})

const { service } = setupMockService()
const calls = () => service.log.filter((entry) => entry.kind === 'call')

function Provider({ children }: { children?: ReactNode }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} journal={false}>
      {children}
    </ToolsProvider>
  )
}

describe('the upload form, a chunk of its own', () => {
  it('is never fetched by a page whose runner takes no file', async () => {
    render(
      <Provider>
        <ToolRunner tool="valuation/rent" />
      </Provider>,
    )
    expect(await screen.findByRole('button', { name: 'Run' })).toBeEnabled()
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)))
    expect(network.fetches).toBe(0)
    expect(uploads.fetches).toBe(0)
  })

  it("fetches the upload's code as the form shows, so a click on Run never waits for it", async () => {
    const { unmount } = render(
      <Provider>
        <UploadForm tool="photo/enhance" />
      </Provider>,
    )
    await waitFor(() => expect(uploads.fetches).toBe(1))
    expect(calls()).toHaveLength(0)
    unmount()
  })

  it('renders its locked stand-in on a server, with no crash', () => {
    const html = renderToString(
      <Provider>
        <UploadForm tool="photo/enhance" />
      </Provider>,
    )
    expect(html).toContain('class="ct-upload-form"')
    expect(html).toContain('Drag a file here, or choose one')
    expect(html).toContain('aria-busy="true"')
  })

  it('shows the form locked; offline, says it waits for the connection; once back, takes a file and sends it once', async () => {
    const { container } = render(
      <Provider>
        <UploadForm tool="photo/enhance" />
      </Provider>,
    )
    expect(container.querySelector('form.ct-upload-form')).toHaveAttribute('data-state', 'idle')
    expect(screen.getByRole('button', { name: 'Run' })).toBeDisabled()
    await waitFor(() => expect(container).toHaveTextContent('No connection: the request goes on when you are back online.'))
    expect(container.querySelector('input[type="file"]')).toBeNull()

    network.online = true
    act(() => void window.dispatchEvent(new Event('online')))
    // The stand-in is replaced by the form itself: query again, not a node found before.
    await waitFor(() => expect(screen.getByRole('button', { name: /Drag a file here/ })).toBeEnabled())
    expect(container).not.toHaveTextContent('No connection')
    expect(calls()).toHaveLength(0)

    await userEvent.upload(container.querySelector<HTMLInputElement>('input[type="file"]')!, pngFile('living-room.png'))
    await userEvent.click(await screen.findByRole('button', { name: 'Run' }))
    await waitFor(() => expect(calls()).toHaveLength(1))
    expect(calls()[0]).toMatchObject({ tool: 'photo/enhance' })
  })
})
