import type { Preview } from '@storybook/react-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'
// The kit's default theme (the package's `./styles.css`), as text: the unstyled stories switch it off.
import styles from '../src/components/styles/index.css?inline'
import { loadUploadForm } from '../src/components/UploadForm.js'
import { startWorker } from '../stories/support/service.js'
import { installStylesheet, toolsLoader, withStoryService, withToolsProvider } from '../stories/support/tools.js'

installStylesheet(styles)

const preview: Preview = {
  // First the MSW worker (once), then the story's own service and query cache.
  // The upload form's code and the drop's are chunks fetched when a form is first shown: a story's play starts once they are here.
  loaders: [mswLoader(startWorker), toolsLoader, async () => ({ uploadForm: await loadUploadForm() })],
  beforeEach: [withStoryService],
  decorators: [withToolsProvider],
  globalTypes: {
    theme: {
      description: 'Colour theme of the components',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'light', title: 'Light' },
          { value: 'dark', title: 'Dark' },
        ],
        dynamicTitle: true,
      },
    },
    locale: {
      description: 'Language of the components',
      toolbar: {
        title: 'Locale',
        icon: 'globe',
        items: [
          { value: 'en', title: 'English' },
          { value: 'ru', title: 'Русский' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'light', locale: 'en' },
  parameters: {
    layout: 'fullscreen',
    // Every story is checked with axe, and a violation fails it (in the catalogue and in `npm test`).
    a11y: { test: 'error' },
    controls: { matchers: { color: /(background|color)$/i } },
    options: {
      storySort: {
        order: [
          'Docs',
          ['Getting started', 'ToolsProvider', 'Hooks', 'Error kinds', 'Theming', 'Live mode', 'Assumptions'],
          'Tools',
          'Components',
          'Errors',
          'Theming',
          'Hooks',
        ],
      },
    },
  },
}

export default preview
