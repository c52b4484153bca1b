// Made from the catalogue (src/tools/catalogue.ts) by scripts/derive.mjs, which build, test and
// start run: edit the catalogue, not this file.
import type { Meta } from '@storybook/react-vite'
import { ToolRunner, type ToolRunnerProps } from '../src/components/index.js'
import type { ToolId } from '../src/react/index.js'
import { toolStory } from './support/toolStory.js'

/**
 * Every tool of the catalogue in a `<ToolRunner>`, from its fields (or file) to its result, on
 * the simulated service. Each story's play function fills nothing in by hand: the input is the
 * service's example, the file is dropped in, the run goes to its end.
 */
const meta = {
  title: 'Tools',
  component: ToolRunner,
  argTypes: { tool: { control: false } },
} satisfies Meta<ToolRunnerProps<ToolId>>

export default meta

// One export per catalogue row (test/stories.test.ts checks that none is missing or doubled).
export const ValuationExpress = toolStory('valuation/express')
export const ValuationReport = toolStory('valuation/report')
export const ValuationRent = toolStory('valuation/rent')
export const ValuationReview = toolStory('valuation/review')
export const ContentGenerate = toolStory('content/generate')
export const TextGenerate = toolStory('text/generate')
export const AvatarVideo = toolStory('avatar/video')
export const VideoCreate = toolStory('video/create')
export const PhotoEnhance = toolStory('photo/enhance')
export const FloorplanCreate = toolStory('floorplan/create')
export const DraftExtract = toolStory('draft/extract')
export const SiteCreate = toolStory('site/create')
export const PdfCreate = toolStory('pdf/create')
