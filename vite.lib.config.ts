// Builds the published package (scripts/build.mjs runs it twice; declarations come from tsc):
//   default mode: the JavaScript of the entries;
//   --mode styles: the default theme, src/components/styles/index.css, as dist/styles.css.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin, type UserConfig } from 'vite'

const src = fileURLToPath(new URL('src', import.meta.url))

// Dependencies and peers are the consumer's to install and dedupe: never bundle them.
const external = [
  'react',
  'react-dom',
  'react/jsx-runtime',
  '@tanstack/react-query',
  'msw',
  'react-dropzone',
  'srvx',
  'zod',
  /^(react|react-dom|msw|zod)\//,
  /^node:/, // the command (src/bin) runs on Node
]

/**
 * Fails the build when the output breaks one of the package's promises:
 * - React Server Components need 'use client' on exactly the files that declare it. Rolldown
 *   keeps the directive only because each module gets its own file (preserveModules; it still
 *   warns that it may not), and drops it when a module has no file of its own (a pure re-export
 *   file, for instance), so check rather than trust.
 * - `@cabinet/tools-react/client` never imports React.
 */
function checkOutput(): Plugin {
  const directive = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*['"]use client['"]/
  const declared = new Set<string>()
  return {
    name: 'check-output',
    enforce: 'pre', // see the source before any transform
    transform(code, id) {
      if (directive.test(code)) declared.add(id)
    },
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []))
      const lost = [...declared].filter(
        (id) => !chunks.some((chunk) => chunk.facadeModuleId === id && directive.test(chunk.code)),
      )
      if (lost.length) this.error(`'use client' lost in the build output of ${lost.join(', ')}`)

      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
      const seen = new Set<string>()
      const reachesReact = (fileName: string): boolean => {
        if (seen.has(fileName)) return false
        seen.add(fileName)
        if (/^react(-dom)?(\/|$)/.test(fileName)) return true
        return byName.get(fileName)?.imports.some(reachesReact) ?? false
      }
      if (reachesReact('entries/client.js')) this.error('@cabinet/tools-react/client imports React')
      if (reachesReact('entries/server.js')) this.error('@cabinet/tools-react/server imports React')
      if (reachesReact('entries/server/cloudflare.js')) this.error('@cabinet/tools-react/server/cloudflare imports React')
    },
  }
}

const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string }

const shared: UserConfig = {
  // The version the proxy's telemetry names its instrumentation scope with (src/server/telemetry/otel.ts).
  define: { __TOOLS_REACT_VERSION__: JSON.stringify(version) },
  publicDir: false, // public/ holds the mock service worker for Storybook, not package files
  build: {
    outDir: 'dist',
    emptyOutDir: false, // scripts/build.mjs cleans dist once; both modes and tsc write there
    target: 'es2022',
  },
}

const scripts: UserConfig = {
  plugins: [checkOutput()],
  build: {
    ...shared.build,
    sourcemap: true,
    minify: false, // consumers minify; readable output is easier to debug
    lib: {
      entry: {
        'entries/index': `${src}/entries/index.ts`,
        'entries/client': `${src}/entries/client.ts`,
        'entries/mock': `${src}/entries/mock.ts`,
        'entries/server': `${src}/entries/server.ts`,
        'entries/server/cloudflare': `${src}/entries/server/cloudflare.ts`,
        'entries/locales/ru': `${src}/entries/locales/ru.ts`,
        'bin/tools-react': `${src}/bin/tools-react.ts`, // `npx @cabinet/tools-react mock`
      },
      formats: ['es'],
    },
    rolldownOptions: {
      external,
      // Rolldown keeps each file's 'use client' here despite this warning: checkOutput() makes sure.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log)
      },
      output: {
        // One output file per source file: 'use client' stays on exactly the component files
        // that carry it, and ./client's module graph reaches no React module.
        preserveModules: true,
        preserveModulesRoot: src,
        entryFileNames: '[name].js',
      },
    },
  },
}

const styles: UserConfig = {
  build: {
    ...shared.build,
    cssMinify: false, // a theme people read and override; their bundler minifies
    rolldownOptions: {
      // Vite inlines the @imports, so the theme ships as one file.
      input: `${src}/components/styles/index.css`,
      output: { assetFileNames: 'styles.css' },
    },
  },
}

export default defineConfig(({ mode }) => ({ ...shared, ...(mode === 'styles' ? styles : scripts) }))
