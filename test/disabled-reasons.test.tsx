import '@testing-library/jest-dom/vitest'
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ErrorNotice, ToolRunner, UploadForm } from '../src/components/index.js'
import { loadUploadForm } from '../src/components/UploadForm.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsError, ToolsProvider, type UseToolResult } from '../src/react/index.js'
import { fakeClock } from './support/clock.js'
import { pngFile, setupMockService } from './support/service.js'

// Every disabled control says why, beside it, and that line is its accessible description.

beforeAll(() => loadUploadForm())

const { service, server } = setupMockService()
const { until, drive } = fakeClock(server)

function Provider({ children }: { children?: ReactNode }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} pollInterval={10} journal={false}>
      {children}
    </ToolsProvider>
  )
}

/** A file tool's hook result in `phase`, for the form to show. */
function photoState(overrides: Partial<UseToolResult<'photo/enhance'>>): UseToolResult<'photo/enhance'> {
  return {
    run: vi.fn(),
    runAsync: vi.fn(),
    retry: vi.fn(),
    reset: vi.fn(),
    phase: 'idle',
    result: undefined,
    job: undefined,
    error: null,
    uploadProgress: null,
    waiting: null,
    needsFile: false,
    current: undefined,
    ...overrides,
  } as UseToolResult<'photo/enhance'>
}

/** The reason's line is visible beside the control, not only read out. */
function expectReasonShown(control: HTMLElement, reason: string) {
  expect(control).toHaveAccessibleDescription(reason)
  const line = document.getElementById(control.getAttribute('aria-describedby')!.split(' ').at(-1)!)!
  expect(line).toBeVisible()
  expect(line).toHaveTextContent(reason)
}

afterEach(() => {
  vi.useRealTimers()
  service.freezeJobs(false)
})

describe('a disabled control says why', () => {
  it("<ToolRunner>: Run and the fields while a run is under way", async () => {
    service.freezeJobs()
    const user = userEvent.setup()
    render(<ToolRunner tool="pdf/create" input={{ objectId: 'obj_demo' }} />, { wrapper: Provider })
    const run = screen.getByRole('button', { name: 'Run' })
    expect(run).toBeEnabled()
    expect(run).not.toHaveAccessibleDescription()
    await drive(user.click(run))
    await until(() => expect(run).toBeDisabled())
    expectReasonShown(run, 'Running: wait for it to end.')
    const field = screen.getByLabelText(/Listing ID/)
    expect(field).toBeDisabled()
    expect(field).toHaveAccessibleDescription(/Running: wait for it to end\./)
  })

  it('<UploadForm>: Run with no file yet', () => {
    render(<UploadForm tool="photo/enhance" />, { wrapper: Provider })
    const run = screen.getByRole('button', { name: 'Run' })
    expect(run).toBeDisabled()
    expectReasonShown(run, 'Choose a file first.')
  })

  it('<UploadForm>: "Run" after a reload mid-upload, until the file is chosen again', async () => {
    const user = userEvent.setup()
    const state = photoState({ needsFile: true, current: { input: { mode: 'auto' }, file: { name: 'room.png', type: 'image/png', size: 10 } } } as never)
    const { container } = render(<UploadForm tool="photo/enhance" state={state} />, { wrapper: Provider })
    const run = screen.getByRole('button', { name: 'Run' })
    expect(run).toBeDisabled()
    expectReasonShown(run, 'The upload of “room.png” was interrupted. Choose the file again to finish it; it will not be paid twice.')
    await drive(user.upload(container.querySelector<HTMLInputElement>('input[type="file"]')!, pngFile('room.png')))
    expect(run).toBeEnabled()
    expect(run).not.toHaveAccessibleDescription()
  })

  it('<UploadForm>: Run, the drop and the fields while a run is in flight', () => {
    render(
      <UploadForm tool="photo/enhance" state={photoState({ phase: 'running' } as never)}>
        <input aria-label="Mode" />
      </UploadForm>,
      { wrapper: Provider },
    )
    const run = screen.getByRole('button', { name: 'Run' })
    expect(run).toHaveAttribute('aria-disabled', 'true')
    expectReasonShown(run, 'Running: wait for it to end.')
    const drop = screen.getByRole('button', { name: /Drag a file here/ })
    expect(drop).toBeDisabled()
    expect(drop).toHaveAccessibleDescription(/Running: wait for it to end\./)
  })

  it('<ErrorNotice>: Try again while a rate limit counts down', () => {
    vi.useFakeTimers()
    const error = new ToolsError('rate-limit', 'test', { status: 429, retryAfter: 3000 })
    render(<ErrorNotice error={error} onRetry={() => undefined} />, { wrapper: Provider })
    const retry = within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' })
    expect(retry).toBeDisabled()
    expectReasonShown(retry, 'You can try again in 3 sec.')
    act(() => vi.advanceTimersByTime(3000))
    expect(retry).toBeEnabled()
    expect(retry).not.toHaveAccessibleDescription()
  })
})
