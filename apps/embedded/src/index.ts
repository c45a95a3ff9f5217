export { startEmbedded, type EmbeddedOptions, type RunningEmbedded } from './start-embedded';
