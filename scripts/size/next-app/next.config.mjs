import { fileURLToPath } from 'node:url'

/** @type {import('next').NextConfig} */
export default {
  // This folder is the app's root, not the kit's repository around it.
  turbopack: { root: fileURLToPath(new URL('.', import.meta.url)) },
  // Source maps tell each chunk's bytes by the package they come from (peers are not counted).
  productionBrowserSourceMaps: true,
}
