// The catalogue: `npm start` serves it, `npm run build-storybook` builds it, and `npm test` runs
// every story as a test in headless Chromium (vite.config.ts, project `storybook`).
import type { StorybookConfig } from '@storybook/react-vite'

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.tsx'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  // public/ holds the MSW worker (mockServiceWorker.js) the simulated service runs in.
  staticDirs: ['../public'],
  // The catalogue works offline and tells no one what it does.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
}

export default config
