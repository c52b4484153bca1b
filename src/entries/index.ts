// `@cabinet/tools-react`: everything — client, catalogue, provider, hooks, components.
export * from '../client/index.js'
export * from '../tools/index.js'
