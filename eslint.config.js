import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig([
  // Build output and generated files: not ours to lint.
  globalIgnores(['dist/', 'storybook-static/', 'coverage/', 'public/mockServiceWorker.js', 'examples/*/.next/', 'examples/*/next-env.d.ts']),
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    // The kit runs in browsers; its scripts, configs and tests run in Node.
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
])
