import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor, within } from 'storybook/test'
import { useEffect, useState } from 'react'
import { UploadForm, useTool, type UploadFormProps } from '../src/components/index.js'
import { exampleInput } from '../src/mock/index.js'
import { CHUNK_TIMEOUT, RUN_TIMEOUT } from './support/environment.js'
import { chooseFile } from './support/play.js'
import { storyMessages } from './support/tools.js'

/**
 * `<UploadForm>`: a file tool's form. Drop or choose a file (type and size checked before any
 * request), add options, send; while the file goes up, a byte progress bar and Cancel.
 */
const meta = {
  title: 'Components/UploadForm',
  component: UploadForm,
  tags: ['autodocs'],
  args: { tool: 'photo/enhance', options: { mode: 'hdr' } },
  argTypes: { state: { control: false }, onSubmitted: { control: false } },
  // These show states the simulated service produces on demand (a slow upload).
  parameters: { tools: { simulatedOnly: true } },
} satisfies Meta<UploadFormProps>

export default meta
type Story = StoryObj<typeof meta>

const photo = () => (exampleInput('photo/enhance') as { file: File }).file

/** Drags `file` over (or drops it on) `target`, as the browser does: a real DragEvent carrying a real DataTransfer. */
function drag(target: Element, type: 'dragenter' | 'drop', file: File) {
  const dataTransfer = new DataTransfer()
  dataTransfer.items.add(file)
  target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer }))
}

const LARGE_PHOTO_SIZE = 3_000_000

/** A file big enough for the progress bar to have something to count. */
const largePhoto = () => new File([new Uint8Array(LARGE_PHOTO_SIZE)], 'living-room.png', { type: 'image/png' })

/** Nothing chosen yet: the drop area says what it takes, and Run waits for a file. */
export const Idle: Story = {
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    await expect(canvas.getByRole('button', { name: new RegExp(m.upload.drop) })).toBeEnabled()
    await expect(canvas.getByText(/PNG/)).toBeVisible()
    await expect(canvas.getByRole('button', { name: m.runner.submit })).toBeDisabled()
  },
}

/** A file dragged over the drop area: it invites the drop. */
export const Dragging: Story = {
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    const zone = canvas.getByRole('button', { name: new RegExp(m.upload.drop) })
    drag(zone, 'dragenter', photo())
    await expect(await canvas.findByText(m.upload.dropActive)).toBeVisible()
  },
}

/** A file of a type the tool does not take is refused before any request, with the reason. */
export const RejectedFile: Story = {
  tags: ['react-18'],
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    const zone = canvas.getByRole('button', { name: new RegExp(m.upload.drop) })
    drag(zone, 'drop', new File(['just text'], 'notes.txt', { type: 'text/plain' }))
    const alert = await canvas.findByText(m.upload.rejected.type('notes.txt'))
    await expect(alert).toBeVisible()
    await expect(canvas.getByRole('button', { name: m.runner.submit })).toBeDisabled()
  },
}

/**
 * The form on a slow network: the run is real, but the simulated service answers inside the
 * browser, where no upload progress is reported until the answer; this feeds the form the
 * steady byte count a real connection gives (`state` is the hook the form drives).
 */
function OnSlowNetwork(props: UploadFormProps<'photo/enhance'>) {
  const upload = useTool('photo/enhance')
  const [sent, setSent] = useState(0)
  const sending = upload.phase === 'submitting'
  useEffect(() => {
    if (!sending) return
    const timer = setInterval(() => setSent((bytes) => Math.min(bytes + LARGE_PHOTO_SIZE / 25, LARGE_PHOTO_SIZE * 0.9)), 120)
    return () => {
      clearInterval(timer)
      setSent(0)
    }
  }, [sending])
  const progress = sending && sent > 0 ? { loaded: sent, total: LARGE_PHOTO_SIZE } : upload.uploadProgress
  return <UploadForm {...props} tool="photo/enhance" state={{ ...upload, uploadProgress: progress }} />
}

/** Sending on a slow network: a byte count and bar, and Cancel. */
export const Uploading: Story = {
  parameters: { tools: { simulatedOnly: true, service: { latencyMs: 600_000 } } },
  render: (args) => <OnSlowNetwork {...(args as UploadFormProps<'photo/enhance'>)} />,
  play: async (context) => {
    const { canvas, userEvent, globals } = context
    const m = storyMessages({ globals })
    await chooseFile(context, largePhoto())
    await userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    await expect(await canvas.findByRole('progressbar', { name: m.upload.progressLabel }, { timeout: CHUNK_TIMEOUT })).toBeVisible()
    // "Uploading 3 MB of 3 MB": the bytes sent, as the browser reports them.
    const sent = m.upload.uploading('\u0000', '\u0001').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    await expect(await canvas.findByText(new RegExp(sent.replace('\u0000', '.+').replace('\u0001', '.+')))).toBeVisible()
    await expect(canvas.getByRole('progressbar', { name: m.upload.progressLabel })).toHaveAttribute('value')
    await expect(canvas.getByRole('button', { name: m.upload.cancel })).toBeVisible()
  },
}

/** Cancelled mid-upload: the run ends, the file stays chosen, and it can be sent again. */
export const Cancelled: Story = {
  tags: ['react-18'],
  parameters: { tools: { simulatedOnly: true, service: { latencyMs: 600_000 } } },
  play: async (context) => {
    const { canvas, canvasElement, userEvent, globals } = context
    const m = storyMessages({ globals })
    await chooseFile(context, photo())
    await userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    await userEvent.click(await canvas.findByRole('button', { name: m.upload.cancel }))
    await waitFor(() => expect(canvas.queryByRole('progressbar', { name: m.upload.progressLabel })).toBeNull())
    await expect(within(canvasElement).getByText('room.png')).toBeVisible()
    await expect(canvas.getByRole('button', { name: m.runner.submit })).toBeEnabled()
  },
}

/** On its own, the form follows its job to the end: the job's progress, then the enhanced photo, then Run again. */
export const ToTheResult: Story = {
  tags: ['react-18'],
  play: async (context) => {
    const { canvas, userEvent, globals } = context
    const m = storyMessages({ globals })
    await chooseFile(context, photo())
    await userEvent.click(canvas.getByRole('button', { name: m.runner.submit }))
    await waitFor(() => expect(canvas.getByRole('progressbar', { name: m.job.progressLabel })).toBeVisible(), { timeout: 3000 })
    await expect(await canvas.findByRole('img', { name: m.artifact.kinds.image }, { timeout: RUN_TIMEOUT })).toBeVisible()
    await expect(canvas.getByRole('button', { name: m.runner.runAgain })).toBeEnabled()
  },
}
