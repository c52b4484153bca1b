import type { Meta, StoryObj } from '@storybook/react-vite'
import { http, HttpResponse } from 'msw'
import { expect, within } from 'storybook/test'
import { ArtifactViewer, type ArtifactViewerProps } from '../src/components/index.js'
import type { Messages, ToolId } from '../src/react/index.js'
import { makeArtifact } from './support/prepare.js'
import { storyMessages } from './support/tools.js'

/**
 * `<ArtifactViewer url />`: one result file, downloaded with the key and shown for what it is,
 * with a download link. Each story makes its file by running a tool on its simulated service.
 */
const meta = {
  title: 'Components/ArtifactViewer',
  component: ArtifactViewer,
  tags: ['autodocs'],
  args: { url: 'set by the story' },
  argTypes: { url: { control: false } },
  // Results arrive at once: the job is not what these stories show.
  parameters: { tools: { simulatedOnly: true, service: { jobDurationMs: 20, latencyMs: 0 } } },
  render: (args, { loaded }) => <ArtifactViewer {...args} url={(loaded.url as string | undefined) ?? args.url} />,
} satisfies Meta<ArtifactViewerProps>

export default meta
type Story = StoryObj<typeof meta>

/** Waits for the file to be shown: its kind and its download link. */
async function expectShown(canvasElement: HTMLElement, m: Messages, kind: keyof Messages['artifact']['kinds']) {
  const canvas = within(canvasElement)
  await expect(await canvas.findByRole('link', { name: m.artifact.download }, { timeout: 10_000 })).toBeVisible()
  await expect(canvas.getByText(new RegExp(m.artifact.kinds[kind]))).toBeVisible()
}

function fileOf(tool: ToolId, kind: keyof Messages['artifact']['kinds']): Story {
  return {
    beforeEach: async (context) => void (await makeArtifact(context, tool)),
    play: async ({ canvasElement, globals }) => expectShown(canvasElement, storyMessages({ globals }), kind),
  }
}

/** An image (photo/enhance's result): shown in place. */
export const Image: Story = {
  ...fileOf('photo/enhance', 'image'),
  play: async ({ canvas, canvasElement, globals }) => {
    const m = storyMessages({ globals })
    await expectShown(canvasElement, m, 'image')
    await expect(canvas.getByRole('img', { name: m.artifact.kinds.image })).toBeVisible()
  },
}

/** A video (avatar/video's result): a player with controls. */
export const Video = fileOf('avatar/video', 'video')

/** A PDF (pdf/create's result): in a frame where the browser can show PDFs, always with its links. */
export const Pdf: Story = { ...fileOf('pdf/create', 'pdf'), name: 'PDF', tags: ['react-18'] }

/** A web page (site/create's result): in a sandboxed frame, no scripts. */
export const HtmlPage: Story = {
  ...fileOf('site/create', 'html'),
  name: 'HTML page',
  play: async ({ canvas, canvasElement, globals }) => {
    const m = storyMessages({ globals })
    await expectShown(canvasElement, m, 'html')
    await expect(canvas.getByTitle(m.artifact.iframeTitle)).toHaveAttribute('sandbox', '')
  },
}

/** A file the browser cannot show (a CSV): a card with its name, size and download. */
export const OtherFile: Story = {
  parameters: {
    tools: {
      simulatedOnly: true,
      handlers: (baseUrl) => [
        http.get(`${baseUrl}/artifacts/art_listings`, () =>
          HttpResponse.text('objectId,city,totalArea\nobj_demo,Berlin,72\n', {
            headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="listings.csv"' },
          }),
        ),
      ],
    },
  },
  beforeEach: (context) => {
    context.loaded.url = `${context.loaded.tools.baseUrl}/artifacts/art_listings`
  },
  play: async ({ canvasElement, globals }) => expectShown(canvasElement, storyMessages({ globals }), 'file'),
}

/** A link that cannot be downloaded (gone, or another key's file): explained in place. */
export const LoadError: Story = {
  beforeEach: (context) => {
    context.loaded.url = `${context.loaded.tools.baseUrl}/artifacts/art_gone`
  },
  play: async ({ canvas, globals }) => {
    const m = storyMessages({ globals })
    const alert = await canvas.findByRole('alert', {}, { timeout: 10_000 })
    await expect(within(alert).getByText(m.errors['not-found'].title)).toBeVisible()
  },
}
