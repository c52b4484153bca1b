// `@cabinet/tools-react/mock`: the simulated service, as MSW handlers with inspectable state.
export * from '../mock/index.js'
