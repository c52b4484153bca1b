import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * A layer's import rule: a relative import that leaves the layer's folder must name one of
 * `allowed` (paths under src, e.g. `tools/index.js`); `packages` lists bare imports it must not
 * make. A file in a sub-folder climbs one `../` more to leave the layer, so each depth (down to
 * four folders) gets its own pattern, and every file below the folder is checked.
 */
function layer(folder, allowed, message, packages = []) {
  const escaped = allowed.map((path) => path.replace(/[.]/g, '\\.'))
  return [0, 1, 2, 3].map((depth) => {
    const up = '\\.\\./'.repeat(depth + 1)
    const regex = allowed.length > 0 ? `^${up}(?!(${escaped.join('|')})$)` : `^${up}`
    const patterns = [{ regex, message }]
    if (packages.length > 0) patterns.push({ group: packages, message })
    return { files: [`src/${folder}/${'*/'.repeat(depth)}*.{ts,tsx}`], rules: { 'no-restricted-imports': ['error', { patterns }] } }
  })
}

/**
 * The proxy's routes stand apart: a module in src/server/routes imports no other route (what two
 * share lives outside the folder), on top of the server layer's own rule for that depth.
 */
function routesApart(serverLayer) {
  const [level, { patterns }] = serverLayer[1].rules['no-restricted-imports']
  const apart = { regex: '^\\./', message: 'A route imports no other route: what routes share lives in a module outside routes/.' }
  return { files: ['src/server/routes/*.{ts,tsx}'], rules: { 'no-restricted-imports': [level, { patterns: [...patterns, apart] }] } }
}

const serverLayer = layer('server', ['tools/index.js', 'tools/internal.js'], 'server imports only tools (../tools/index.js).', ['react', 'react-dom', '@tanstack/*'])

export default defineConfig([
  // Build output and generated files: not ours to lint.
  globalIgnores(['dist/', 'storybook-static/', 'coverage/', 'public/mockServiceWorker.js', 'examples/*/.next/', 'scripts/size/next-app/.next/', 'examples/*/next-env.d.ts']),
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    // The kit runs in browsers; its scripts, configs and tests run in Node.
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  // The layers, enforced: client ← tools ← react ← components, mock and server beside on tools.
  // Each folder names the one surface below it that it may import; anything else up a folder is refused.
  ...layer('client', [], 'client is the bottom layer: it imports no other folder of src, and no React.', ['react', 'react-dom', '@tanstack/*']),
  ...layer('tools', ['client/index.js'], 'tools imports only the client\'s public surface (../client/index.js).', ['react', 'react-dom', '@tanstack/*']),
  ...layer('react', ['tools/index.js', 'tools/internal.js'], 'react imports only tools (../tools/index.js, ../tools/internal.js).'),
  ...layer('components', ['react/index.js', 'react/internal.js'], 'components import only the React layer (../react/index.js, ../react/internal.js).'),
  ...layer('mock', ['tools/index.js', 'tools/internal.js'], 'mock imports only tools (../tools/index.js, ../tools/internal.js).', ['react', 'react-dom', '@tanstack/*']),
  ...serverLayer,
  routesApart(serverLayer),
])
