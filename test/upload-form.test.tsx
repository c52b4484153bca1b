import '@testing-library/jest-dom/vitest'
import { fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState, type ReactElement, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { issue, validationError } from '../src/client/errors.js'
import { FileDrop, UploadForm } from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider, useTool, type UploadProgress, type UseToolResult } from '../src/react/index.js'
import { fakeClock } from './support/clock.js'
import { pdfFile, pngFile, setupMockService } from './support/service.js'
import { loadUploadForm } from '../src/components/UploadForm.js'

// The upload form's code and the drop's are chunks fetched when a form is first shown: fetch them first, as a page shown before would have.
beforeAll(() => loadUploadForm())

const { service, server } = setupMockService()
const { advance, until, drive } = fakeClock(server)

function Provider({ children, apiKey = MOCK_KEYS.demo }: { children?: ReactNode; apiKey?: string }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={apiKey} pollInterval={10}>
      {children}
    </ToolsProvider>
  )
}

function renderIn(ui: ReactElement, apiKey?: string) {
  return render(<Provider apiKey={apiKey}>{ui}</Provider>)
}

const calls = () => service.log.filter((entry) => entry.kind === 'call')
const zone = () => screen.getByRole('button', { name: 'Drag a file here, or choose one Choose a file' })
const submit = () => screen.getByRole('button', { name: 'Run' })
const fileInput = (container: HTMLElement) => container.querySelector<HTMLInputElement>('input[type="file"]')!
const dropRoot = (container: HTMLElement) => container.querySelector<HTMLElement>('.ct-file-drop')!
const dropZone = (container: HTMLElement) => container.querySelector<HTMLElement>('.ct-file-drop__zone')!
const form = (container: HTMLElement) => container.querySelector<HTMLFormElement>('form.ct-upload-form')!

/** A drop as react-dropzone reads it: the files in `dataTransfer.files` and as `items`. */
function dropData(...files: File[]) {
  return {
    dataTransfer: {
      files,
      items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })),
      types: ['Files'],
    },
  }
}

/** A file that says it is `size` bytes long without holding them. */
function sized(file: File, size: number): File {
  Object.defineProperty(file, 'size', { value: size })
  return file
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('<UploadForm> choosing a file', () => {
  it('a PNG picked on photo/enhance shows its name and size and enables submit', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    expect(submit()).toBeDisabled()
    expect(dropRoot(container)).toHaveAttribute('data-state', 'idle')

    const png = pngFile('living-room.png')
    await drive(userEvent.upload(fileInput(container), png))

    expect(await until(() => screen.getByText('living-room.png'))).toBeInTheDocument()
    expect(screen.getByText(`${png.size} bytes`)).toBeInTheDocument()
    expect(submit()).toBeEnabled()
    expect(dropRoot(container)).toHaveAttribute('data-state', 'selected')
    expect(screen.getByRole('button', { name: 'Remove “living-room.png”' })).toBeInTheDocument()
    expect(calls()).toHaveLength(0)
  })

  it('a PNG dropped on the area is taken the same way', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    fireEvent.dragEnter(zone(), dropData(pngFile('dropped.png')))
    await until(() => expect(dropRoot(container)).toHaveAttribute('data-state', 'dragging'))
    expect(screen.getByText('Drop the file to add it')).toBeInTheDocument()

    fireEvent.drop(dropZone(container), dropData(pngFile('dropped.png')))
    expect(await until(() => screen.getByText('dropped.png'))).toBeInTheDocument()
    expect(submit()).toBeEnabled()
  })

  it('says which types and size the tool takes, from the catalogue row', () => {
    renderIn(<UploadForm tool="photo/enhance" />)
    expect(zone()).toHaveAccessibleDescription('Accepted: PNG, JPG, JPEG, WEBP, or GIF · Up to 20 MB')
    expect(fileInputAccept()).toBe('.png,.jpg,.jpeg,.webp,.gif')
  })

  it('takes the defaults of the other file tools from the catalogue too', () => {
    renderIn(
      <>
        <FileDrop tool="video/create" file={null} onFileChange={() => {}} />
        <FileDrop tool="floorplan/create" file={null} onFileChange={() => {}} />
        <FileDrop tool="draft/extract" file={null} onFileChange={() => {}} />
      </>,
    )
    const [video, floorplan, draft] = screen.getAllByRole('button', { name: 'Drag a file here, or choose one Choose a file' })
    expect(video).toHaveAccessibleDescription('Accepted: MP4, MOV, or WEBM · Up to 200 MB')
    expect(floorplan).toHaveAccessibleDescription('Accepted: PNG, JPG, JPEG, WEBP, GIF, or PDF · Up to 20 MB')
    expect(draft).toHaveAccessibleDescription('Accepted: PDF, DOC, DOCX, or TXT · Up to 20 MB')
  })

  it('refuses a file of the wrong type, says why, and sends nothing', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    fireEvent.drop(zone(), dropData(new File(['hello'], 'notes.txt', { type: 'text/plain' })))

    const alert = await until(() => screen.getByText('“notes.txt” is not a type of file this tool accepts.'))
    expect(alert).toHaveAttribute('role', 'alert')
    expect(dropRoot(container)).toHaveAttribute('data-state', 'rejected')
    expect(zone()).toHaveAttribute('aria-invalid', 'true')
    expect(zone()).toHaveAccessibleDescription(expect.stringContaining('is not a type of file this tool accepts'))
    expect(screen.queryByText('notes.txt')).toBeNull()
    expect(submit()).toBeDisabled()
    await drive(userEvent.click(submit()))
    expect(calls()).toHaveLength(0)
    expect(service.log).toHaveLength(0)
  })

  it('refuses a file over the default 20 MB for images, says why, and sends nothing', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    await drive(userEvent.upload(fileInput(container), sized(pngFile('huge.png'), 25_000_000)))

    await until(() => expect(screen.getByRole('alert')).toHaveTextContent('“huge.png” is larger than 20 MB.'))
    expect(submit()).toBeDisabled()
    expect(service.log).toHaveLength(0)
  })

  it('honours a maxBytes of the caller', async () => {
    const { container } = renderIn(<UploadForm tool="floorplan/create" maxBytes={10} />)
    await drive(userEvent.upload(fileInput(container), pdfFile('plan.pdf')))
    await until(() => expect(screen.getByRole('alert')).toHaveTextContent('“plan.pdf” is larger than 10 bytes.'))
    expect(zone()).toHaveAccessibleDescription(expect.stringContaining('Up to 10 bytes'))
  })

  it('honours a maxSize of the caller (the old name of maxBytes)', async () => {
    const { container } = renderIn(<UploadForm tool="floorplan/create" maxSize={10} />)
    await drive(userEvent.upload(fileInput(container), pdfFile('plan.pdf')))
    await until(() => expect(screen.getByRole('alert')).toHaveTextContent('“plan.pdf” is larger than 10 bytes.'))
    expect(zone()).toHaveAccessibleDescription(expect.stringContaining('Up to 10 bytes'))
  })

  it('refuses two files at once, and a good file after a refusal clears the reason', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    fireEvent.drop(zone(), dropData(pngFile('a.png'), pngFile('b.png')))
    await until(() => expect(screen.getByRole('alert')).toHaveTextContent('Choose one file only.'))
    expect(submit()).toBeDisabled()

    await drive(userEvent.upload(fileInput(container), pngFile('c.png')))
    expect(await until(() => screen.getByText('c.png'))).toBeInTheDocument()
    expect(screen.getByRole('alert')).toBeEmptyDOMElement()
    expect(dropRoot(container)).toHaveAttribute('data-state', 'selected')
  })

  it('a refused file leaves the file already chosen in place', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    await drive(userEvent.upload(fileInput(container), pngFile('keep.png')))
    await until(() => screen.getByText('keep.png'))
    fireEvent.drop(zone(), dropData(new File(['x'], 'notes.txt', { type: 'text/plain' })))
    await until(() => screen.getByText(/notes\.txt/))
    expect(screen.getByText('keep.png')).toBeInTheDocument()
    expect(submit()).toBeEnabled()
  })

  it('Remove clears the file and gives focus back to the drop area', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    await drive(userEvent.upload(fileInput(container), pngFile('gone.png')))
    await drive(userEvent.click(await until(() => screen.getByRole('button', { name: 'Remove “gone.png”' }))))
    expect(screen.queryByText('gone.png')).toBeNull()
    expect(submit()).toBeDisabled()
    expect(zone()).toHaveFocus()
  })

  it('shows an image preview from an object URL made after render and revoked on remove and unmount', async () => {
    const created: string[] = []
    const revoked: string[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
      created.push(`blob:preview/${created.length}`)
      return created.at(-1)!
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url))

    const { container, unmount } = renderIn(<UploadForm tool="photo/enhance" />)
    await drive(userEvent.upload(fileInput(container), pngFile('one.png')))
    await until(() => expect(container.querySelector('img.ct-file-drop__preview')).toHaveAttribute('src', created[0]))
    expect(container.querySelector('img.ct-file-drop__preview')).toHaveAttribute('alt', '')

    await drive(userEvent.upload(fileInput(container), pngFile('two.png')))
    await until(() => expect(container.querySelector('img.ct-file-drop__preview')).toHaveAttribute('src', created[1]))
    expect(revoked).toEqual([created[0]])

    unmount()
    expect(revoked).toEqual([created[0], created[1]])
  })

  it('shows a file icon, not a preview, for a document', async () => {
    const create = vi.spyOn(URL, 'createObjectURL')
    const { container } = renderIn(<UploadForm tool="draft/extract" />)
    await drive(userEvent.upload(fileInput(container), pdfFile('deed.pdf')))
    await until(() => screen.getByText('deed.pdf'))
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('.ct-file-drop__file-icon')).not.toBeNull()
    expect(create).not.toHaveBeenCalled()
  })
})

function fileInputAccept() {
  return document.querySelector('input[type="file"]')!.getAttribute('accept') ?? ''
}

describe('<UploadForm> submitting', () => {
  it('sends exactly one multipart POST with the file in the part `image` and the options in `data`', async () => {
    const bodies: Promise<FormData>[] = []
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST') bodies.push(request.clone().formData())
    })
    const onSubmitted = vi.fn()
    const { container } = renderIn(
      <UploadForm tool="photo/enhance" options={{ mode: 'auto' }} onSubmitted={onSubmitted} />,
    )
    const png = pngFile('kitchen.png')
    await drive(userEvent.upload(fileInput(container), png))
    await drive(userEvent.click(submit()))

    await until(() => expect(onSubmitted).toHaveBeenCalledTimes(1))
    expect(onSubmitted).toHaveBeenCalledWith({ mode: 'auto', file: png })
    await until(() => expect(form(container)).toHaveAttribute('data-state', 'succeeded'))

    expect(calls()).toHaveLength(1)
    expect(calls()[0]).toMatchObject({
      method: 'POST',
      path: '/photo/enhance',
      contentType: 'multipart/form-data',
      status: 202,
    })
    expect(bodies).toHaveLength(1)
    const body = await bodies[0]!
    const part = body.get('image')
    expect(part).not.toBeNull()
    expect(typeof part).not.toBe('string')
    expect((part as File).type).toBe('image/png')
    // Not asserted: the part's filename and bytes. Under jsdom, msw's XMLHttpRequest bridge
    // rebuilds the body with another realm's FormData and loses both ("blob", "undefined").
    expect(body.get('file')).toBeNull()
    expect(JSON.parse(body.get('data') as string)).toEqual({ mode: 'auto' })
    server.events.removeAllListeners()
  })

  it('shows a progress bar and Cancel while uploading; Cancel aborts and keeps the file', async () => {
    service.setLatency(150)
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    await drive(userEvent.upload(fileInput(container), pngFile('slow.png')))
    await drive(userEvent.click(submit()))

    const bar = await until(() => screen.getByRole('progressbar', { name: 'Upload progress' }))
    expect(bar).toHaveClass('ct-progress')
    expect(dropRoot(container)).toHaveAttribute('data-state', 'uploading')
    expect(form(container)).toHaveAttribute('data-state', 'submitting')
    // Locked while the file goes up; the submit button keeps focus (aria-disabled, not disabled).
    expect(zone()).toBeDisabled()
    expect(submit()).toHaveAttribute('aria-disabled', 'true')
    expect(submit()).toHaveFocus()
    expect(screen.queryByRole('button', { name: 'Remove “slow.png”' })).toBeNull()

    await drive(userEvent.click(screen.getByRole('button', { name: 'Cancel upload' })))
    expect(form(container)).toHaveAttribute('data-state', 'idle')
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(screen.getByText('slow.png')).toBeInTheDocument()
    expect(submit()).toBeEnabled()
    expect(submit()).not.toHaveAttribute('aria-disabled')
    expect(zone()).toHaveFocus()
    // No error: a cancel is the person's choice, not a failure.
    expect(container.querySelector('.ct-error-notice')).toBeNull()

    // What is true afterwards: the form stays idle and shows nothing of that run. The simulated
    // service still created (and billed) the job: its latency sits in front of a request it
    // already holds whole, as a server that had received the whole body would.
    await advance(250)
    expect(form(container)).toHaveAttribute('data-state', 'idle')
    expect(container.querySelector('.ct-error-notice')).toBeNull()
    expect(calls()).toHaveLength(1)
    expect(calls()[0]).toMatchObject({ status: 202, billed: 'subscription' })
  })

  it('the form can send the same file again after a cancel', async () => {
    service.setLatency(100)
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    await drive(userEvent.upload(fileInput(container), pngFile('again.png')))
    await drive(userEvent.click(submit()))
    await drive(userEvent.click(await until(() => screen.getByRole('button', { name: 'Cancel upload' }))))
    service.setLatency(0)
    await drive(userEvent.click(submit()))
    await until(() => expect(form(container)).toHaveAttribute('data-state', 'succeeded'))
    // The cancelled request still reaches the simulated service (see above): let it land here.
    await until(() => expect(calls()).toHaveLength(2))
  })

  it('is locked while the job runs: no second request, fields disabled', async () => {
    service.freezeJobs()
    const { container } = renderIn(
      <UploadForm tool="photo/enhance">
        <label>
          Mode <input name="mode" />
        </label>
      </UploadForm>,
    )
    await drive(userEvent.upload(fileInput(container), pngFile('busy.png')))
    await drive(userEvent.click(submit()))
    await until(() => expect(form(container)).toHaveAttribute('data-state', 'pending'))

    expect(dropRoot(container)).toHaveAttribute('data-state', 'disabled')
    expect(zone()).toBeDisabled()
    expect(screen.getByRole('textbox', { name: 'Mode' })).toBeDisabled()
    expect(submit()).toHaveAttribute('aria-disabled', 'true')
    expect(form(container)).toHaveAttribute('aria-busy', 'true')
    expect(within(dropRoot(container)).queryByRole('progressbar')).toBeNull()

    await drive(userEvent.click(submit()))
    fireEvent.submit(form(container))
    await advance(30)
    expect(calls()).toHaveLength(1)
  })

  it('after a failed submit shows the error, moves focus to it, and Try again resends', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />, MOCK_KEYS.broke)
    await drive(userEvent.upload(fileInput(container), pngFile('unpaid.png')))
    await drive(userEvent.click(submit()))

    await until(() => expect(form(container)).toHaveAttribute('data-state', 'failed'))
    const errorNotice = container.querySelector<HTMLElement>('.ct-error-notice')!
    expect(errorNotice).toHaveAttribute('data-kind', 'billing')
    expect(errorNotice).toHaveFocus()
    expect(screen.getByText('unpaid.png')).toBeInTheDocument()
    expect(calls()).toHaveLength(1)
    // One way on: the notice's Try again, not the form's Run beside it.
    expect(screen.queryByRole('button', { name: 'Run' })).toBeNull()

    await drive(userEvent.click(within(errorNotice).getByRole('button', { name: 'Try again' })))
    await until(() => expect(calls()).toHaveLength(2))
    await until(() => expect(container.querySelector('.ct-error-notice')).toHaveFocus())
  })

  it('a new file after a failure clears the old error', async () => {
    const { container } = renderIn(<UploadForm tool="photo/enhance" />, MOCK_KEYS.broke)
    await drive(userEvent.upload(fileInput(container), pngFile('first.png')))
    await drive(userEvent.click(submit()))
    await until(() => expect(form(container)).toHaveAttribute('data-state', 'failed'))
    await drive(userEvent.upload(fileInput(container), pngFile('second.png')))
    expect(form(container)).toHaveAttribute('data-state', 'idle')
    expect(container.querySelector('.ct-error-notice')).toBeNull()
  })

  it('drives a hook passed as `state`, so progress and results can be shown beside it', async () => {
    function Runner() {
      const state = useTool('photo/enhance')
      return (
        <>
          <UploadForm tool="photo/enhance" state={state} submitLabel="Enhance" />
          <p data-testid="outside">{`${state.phase} ${state.job?.artifacts.length ?? 0}`}</p>
        </>
      )
    }
    const { container } = renderIn(<Runner />)
    await drive(userEvent.upload(fileInput(container), pngFile('shared.png')))
    await drive(userEvent.click(screen.getByRole('button', { name: 'Enhance' })))
    await until(() => expect(screen.getByTestId('outside')).toHaveTextContent(/^succeeded [1-9]/))
    expect(form(container)).toHaveAttribute('data-state', 'succeeded')
    expect(calls()).toHaveLength(1)
    // Showing the job is the caller's part here.
    expect(form(container).querySelector('.ct-job-progress, .ct-result')).toBeNull()
  })

  it('on its own, follows its job to the end: the job’s progress, then the file, then Run again', async () => {
    service.freezeJobs()
    const { container } = renderIn(<UploadForm tool="photo/enhance" />)
    await drive(userEvent.upload(fileInput(container), pngFile('alone.png')))
    await drive(userEvent.click(submit()))
    const progress = await until(() => within(form(container)).getByRole('progressbar', { name: 'Job progress' }))
    expect(progress.closest('.ct-job-progress')).toHaveAttribute('data-state', 'pending')
    service.freezeJobs(false)
    const image = await until(() => within(form(container)).getByRole('img', { name: 'Image' }))
    expect(image.getAttribute('src')).toMatch(/^blob:/)
    expect(within(form(container)).getByText('Job finished.')).toBeInTheDocument()
    expect(container.querySelector('.ct-upload-form__result')).toHaveFocus()
    // One button goes on: Run again, with the same file.
    expect(screen.queryByRole('button', { name: 'Run' })).toBeNull()
    await drive(userEvent.click(screen.getByRole('button', { name: 'Run again' })))
    await until(() => expect(calls()).toHaveLength(2))
  })

  it('shows a validation problem with the file next to the drop area', () => {
    const error = validationError([issue('file', 'not-a-file')], 'photo/enhance')
    const state: UseToolResult<'photo/enhance'> = {
      run: vi.fn(),
      runAsync: vi.fn(),
      retry: vi.fn(),
      reset: vi.fn(),
      phase: 'failed',
      result: undefined,
      job: undefined,
      error,
      uploadProgress: null,
      waiting: null,
      needsFile: false,
      current: undefined,
    }
    const { container } = renderIn(<UploadForm tool="photo/enhance" state={state} />)
    const fieldError = container.querySelector('.ct-upload-form__drop .ct-field-error')!
    expect(fieldError).not.toBeNull()
    expect(zone()).toHaveAttribute('aria-invalid', 'true')
    expect(zone().getAttribute('aria-describedby')).toContain(fieldError.id)
    // The notice links the problem to the drop area.
    const link = within(container.querySelector<HTMLElement>('.ct-error-notice')!).getByRole('link')
    expect(link).toHaveAttribute('href', `#${zone().id}`)
  })
})

describe('<FileDrop>', () => {
  interface ControlledProps {
    progress?: UploadProgress | null
    uploading?: boolean
    onCancel?: () => void
  }
  function Controlled(props: ControlledProps) {
    const [file, setFile] = useState<File | null>(pngFile('photo.png'))
    return <FileDrop tool="photo/enhance" file={file} onFileChange={setFile} {...props} />
  }

  it('shows the bytes sent as "Uploading x of y" on a <progress>, and Cancel calls onCancel', async () => {
    const onCancel = vi.fn()
    renderIn(<Controlled uploading progress={{ loaded: 500, total: 2000 }} onCancel={onCancel} />)
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' })
    expect(bar).toHaveAttribute('value', '500')
    expect(bar).toHaveAttribute('max', '2000')
    expect(screen.getByText('Uploading 500 bytes of 2 kB')).toBeInTheDocument()
    await drive(userEvent.click(screen.getByRole('button', { name: 'Cancel upload' })))
    expect(onCancel).toHaveBeenCalledTimes(1)
  })

  it('says why the bar went back: an upload the connection cut starts again from its first byte', () => {
    renderIn(<Controlled uploading progress={{ loaded: 500, total: 2000, restarts: 1 }} />)
    expect(screen.getByText(/^Uploading 500 bytes of 2 kB/)).toHaveTextContent(
      'Uploading 500 bytes of 2 kB The connection dropped, so the file is sent again from the start. It is not charged twice.',
    )
  })

  it('shows an indeterminate bar until the first progress report', () => {
    renderIn(<Controlled uploading progress={null} />)
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).not.toHaveAttribute('value')
    expect(screen.getByText('Sending…')).toBeInTheDocument()
  })

  it('is reached by Tab, has a name, and opens the picker on Enter and Space', async () => {
    const { container } = renderIn(
      <>
        <button type="button">before</button>
        <FileDrop tool="photo/enhance" file={null} onFileChange={() => {}} id="photo" />
      </>,
    )
    const pick = vi.spyOn(fileInput(container), 'click').mockImplementation(() => {})
    const user = userEvent.setup()
    await drive(user.tab())
    await drive(user.tab())
    expect(zone()).toHaveFocus()
    expect(zone()).toHaveAttribute('id', 'photo')
    expect(zone().tagName).toBe('BUTTON')
    await drive(user.keyboard('{Enter}'))
    expect(pick).toHaveBeenCalledTimes(1)
    await drive(user.keyboard(' '))
    expect(pick).toHaveBeenCalledTimes(2)
    // The hidden input is not a second stop on the way.
    expect(fileInput(container)).toHaveAttribute('tabindex', '-1')
  })

  it('does nothing when disabled', async () => {
    const onFileChange = vi.fn()
    const { container } = renderIn(<FileDrop tool="photo/enhance" file={null} onFileChange={onFileChange} disabled />)
    expect(dropRoot(container)).toHaveAttribute('data-state', 'disabled')
    expect(zone()).toBeDisabled()
    fireEvent.drop(zone(), dropData(pngFile()))
    await advance(10)
    expect(onFileChange).not.toHaveBeenCalled()
  })

  it('takes a className and shows its state in data-state', () => {
    const { container } = renderIn(<FileDrop file={null} onFileChange={() => {}} className="mine" />)
    expect(dropRoot(container)).toHaveClass('ct-file-drop', 'mine')
    // No tool and no accept: any type, up to 200 MB.
    expect(zone()).toHaveAccessibleDescription('Up to 200 MB')
  })
})

describe('server rendering', () => {
  it('renders UploadForm and a FileDrop with a file to a string', () => {
    const html = renderToString(
      <Provider>
        <UploadForm tool="photo/enhance" className="extra">
          <input name="mode" aria-label="Mode" />
        </UploadForm>
        <FileDrop
          tool="video/create"
          file={new File(['x'], 'tour.mp4', { type: 'video/mp4' })}
          onFileChange={() => {}}
          uploading
          progress={{ loaded: 1, total: 2 }}
        />
      </Provider>,
    )
    expect(html).toContain('ct-upload-form extra')
    expect(html).toContain('Drag a file here, or choose one')
    // The drop's code is a chunk the browser fetches: a server sends its stand-in, which hydration meets.
    expect(html.match(/class="ct-file-drop" data-state="loading"/g)).toHaveLength(2)
  })
})
