// `@cabinet/tools-react`: everything — client, catalogue, provider, hooks, components.
export * from '../components/index.js'
