// `@cabinet/tools-react/server/cloudflare`: the proxy's shared state on Cloudflare Durable Objects. Imports no React.
export * from '../../server/cloudflare/index.js'
