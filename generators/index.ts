// Public API of the generators (see generators/README.md).
export * from './text.ts';
export * from './resource-server.ts';
export * from './experiment.ts';
export * from './violations.ts';
export * from './boundaries.ts';
export * from './responses.ts';
export { samples } from './sample.ts';
