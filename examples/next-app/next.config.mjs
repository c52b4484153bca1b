import { fileURLToPath } from 'node:url'

/** @type {import('next').NextConfig} */
const nextConfig = {
  // This folder is the app's root, not the kit's repository around it.
  turbopack: { root: fileURLToPath(new URL('.', import.meta.url)) },
}
export default nextConfig
